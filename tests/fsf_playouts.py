"""Random playouts compared with pyffish, for the rule kinds' tests (test_flag.py,
test_bare_king.py): every legal move list and every game end along the way."""

import random

import fairyforge as ff


def load_text(tmp_path_factory, name, text):
    """A game from a definition written into a temporary file."""
    path = tmp_path_factory.mktemp(name) / f"{name}.variant"
    path.write_text(text)
    return ff.load(str(path))


def definition_error(directory, name, text):
    """The DefinitionError text of a definition written into `directory`."""
    from fairyforge.errors import DefinitionError
    path = directory / f"{name}.variant"
    path.write_text(text)
    try:
        ff.load(str(path))
    except DefinitionError as err:
        return str(err)
    raise AssertionError(f"{name} loaded without an error")


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


# ---------------------------------------------------------------------------
# The per-variant differential (tests/test_fsf_catalog.py, bench/fsf_catalog.py):
# everything pyffish can tell about a position, compared along random playouts.

IMMEDIATE_REASONS = ("checkmate", "stalemate", "extinction", "bare king", "goal reached", "checks",
                     "explosion", "double pass", "facing kings")


def fsf_mating_drop_loses(sf, variant, fen, moves, move):
    """Fairy-Stockfish generates a pawn drop that mates (uchifuzume) and scores it as
    lost for the dropper, where Fairyforge refuses it (docs/language.md, 3.14)."""
    after = moves + [move]
    return ("@" in move and sf.gives_check(variant, fen, after)
            and not sf.legal_moves(variant, fen, after)
            and sf.game_result(variant, fen, after) > 0)


def compare_position(sf, variant, fen, moves, pos):
    """Legal move sets, check, FEN and game end of one position; returns our moves."""
    ours = {str(m) for m in pos.legal_moves()}
    theirs = set(sf.legal_moves(variant, fen, moves))
    only_fsf = {m for m in theirs - ours
                if not fsf_mating_drop_loses(sf, variant, fen, moves, m)}
    assert not only_fsf and ours <= theirs, (
        f"{variant} after {moves}: only ours {sorted(ours - theirs)}, "
        f"only FSF {sorted(only_fsf)}")
    assert pos.is_check() == sf.gives_check(variant, fen, moves), (variant, moves)
    assert pos.fen() == sf.get_fen(variant, fen, moves), (variant, moves)
    _compare_end(sf, variant, fen, moves, pos, ours)
    return sorted(ours)


def play_and_compare(sf, game, variant, fen, moves=()):
    """The position after `moves` from `fen`, compared with pyffish there (legal moves,
    check, FEN, game end: compare_position); for position tests."""
    pos = game.position(fen)
    for move in moves:
        pos.push_uci(move)
    compare_position(sf, variant, fen, list(moves), pos)
    return pos


def _compare_end(sf, variant, fen, moves, pos, ours):
    outcome = pos.outcome()
    ended, value = sf.is_immediate_game_end(variant, fen, moves)
    if ended:
        assert outcome == ff.Outcome(_winner(pos.turn, value), outcome and outcome.reason), (
            variant, moves, outcome, value)
        assert outcome.reason in IMMEDIATE_REASONS, (variant, moves, outcome)
    elif not ours:
        value = sf.game_result(variant, fen, moves)
        assert outcome is not None and outcome.winner == _winner(pos.turn, value), (
            variant, moves, outcome, value)
    elif outcome is not None:        # only the claimable ends may remain
        assert outcome.reason not in IMMEDIATE_REASONS, (variant, moves, outcome)


def differential_playouts(sf, game, variant, count, seed, plies=120):
    """Random games from the start until `count` positions are compared; returns the
    number of positions and of game ends met."""
    fen = sf.start_fen(variant)
    start = sf.get_fen(variant, fen, [])   # as FSF writes it (a castling=false variant
    assert game.start().fen() == start, variant     # may keep KQkq in its startFen)
    rng = random.Random(f"{variant}-{seed}")
    positions = ends = 0
    while positions < count:
        pos, moves = game.position(start), []
        for _ in range(plies):
            ours = compare_position(sf, variant, fen, moves, pos)
            positions += 1
            if not ours or pos.outcome() is not None:
                ends += 1
                break
            move = rng.choice(ours)
            moves.append(move)
            pos.push_uci(move)
    return positions, ends
