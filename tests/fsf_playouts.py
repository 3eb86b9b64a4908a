"""Random playouts compared with pyffish, for the rule kinds' tests (test_flag.py,
test_bare_king.py): every legal move list and every game end along the way."""

import random

import fairyforge as ff


def load_text(tmp_path_factory, name, text):
    """A game from a definition written into a temporary file."""
    path = tmp_path_factory.mktemp(name) / f"{name}.variant"
    path.write_text(text)
    return ff.load(str(path))


def no_preference(pos, moves):
    return []


def compare_playouts(sf, game, variant, fen, count, seed, reason,
                     prefer=no_preference, plies=150, fen_too=False, also=None):
    """Play random games from `fen` until `count` positions are compared; returns how
    many ended by the rule whose Outcome reason is `reason` (pyffish's immediate game
    end).  `prefer(pos, moves)` names moves tried first, one time in two, so that the
    playouts reach the rule.  With `fen_too`, every FEN is compared as well;
    `also(pos, moves)`, if given, makes a test of its own at every position."""
    rng = random.Random(seed)
    positions = endings = 0
    while positions < count:
        pos, moves = game.position(fen), []
        for _ in range(plies):
            ours = sorted(str(m) for m in pos.legal_moves())
            assert not fen_too or pos.fen() == sf.get_fen(variant, fen, moves), moves
            if also is not None:
                also(pos, moves)
            assert ours == sorted(sf.legal_moves(variant, fen, moves)), moves
            ended, value = sf.is_immediate_game_end(variant, fen, moves)
            positions += 1
            if ended:
                endings += 1
                assert pos.outcome() == ff.Outcome(_winner(pos.turn, value), reason), moves
            elif ours:                  # (repetition and the move rule may still end it)
                assert getattr(pos.outcome(), "reason", None) != reason, moves
            if not ours:
                break
            better = prefer(pos, ours)
            move = rng.choice(better if better and rng.random() < 0.5 else ours)
            moves.append(move)
            pos.push_uci(move)
    return endings


def _winner(turn, value):
    if value == 0:
        return None
    return turn if value > 0 else ("black" if turn == "white" else "white")


def captures_first(sf, variant, fen):
    """A preference for capturing moves (the playouts then bare kings, ...)."""
    def preferred(pos, moves):
        history = [str(m) for m in pos.move_stack]
        return [m for m in moves if sf.is_capture(variant, fen, history, m)]
    return preferred
