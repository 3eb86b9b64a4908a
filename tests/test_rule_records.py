"""Rule kinds that keep bytes per ply for unmake (Pos.rule_hist) each keep their own:
explosions record what a blast removed, the duck the walls it lifted.  They once shared
the same bytes, so a game with both corrupted its board after a blast."""

import random

import fairyforge as ff
from fairyforge.compiler import lower, rules

ATOMIC_DUCK = """variant atomicduck "Atomic chess with a duck" extends atomic
place a duck after every move
stalemate win
"""


def test_each_rule_kind_has_its_own_record(tmp_path):
    path = tmp_path / "atomicduck.variant"
    path.write_text(ATOMIC_DUCK)
    tables = lower.Lowerer(ff.load(str(path)).variant).lower()
    records = rules.rule_records(tables)
    assert records == {"explosions": 0, "walling": 9}
    assert rules.rule_bytes(tables) == 9 + records_size(tables, "walling")


def records_size(tables, name):
    return next(kind.RULE_BYTES for kind, _ in rules.active_kinds(tables)
                if rules.name_of(kind) == name)


def test_blasts_beside_a_duck_keep_the_board_whole(tmp_path):
    path = tmp_path / "atomicduck.variant"
    path.write_text(ATOMIC_DUCK)
    game = ff.load(str(path))
    rng = random.Random(1)
    blasts = 0
    for _ in range(12):
        pos = game.start()
        fens = [pos.fen()]
        while len(pos.move_stack) < 80 and pos.outcome() is None:
            pos.push(rng.choice(pos.legal_moves()))
            fens.append(pos.fen())           # a corrupted board fails to be written
            blasts += _pieces(fens[-1]) <= _pieces(fens[-2]) - 2   # taker and taken gone
            assert game.position(fens[-1]).fen() == fens[-1]
        while pos.move_stack:
            assert pos.fen() == fens.pop()
            pos.pop()
        assert pos.fen() == fens[0]
    assert blasts > 20


def _pieces(fen):
    return sum(ch.isalpha() for ch in fen.split(" ")[0])
