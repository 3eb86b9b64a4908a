"""Two rule sets side by side: `fairyforge diff`'s rule report and, where the games
can be compared move by move, the shortest witness line after which their legal
moves differ, drawn on two boards (the moves only one game allows as arrows, drops
as marked squares)."""

from .. import svg
from ..compiler import diff
from ..errors import FairyforgeError

MAX_POSITIONS = 20_000          # keeps a studio request to a few seconds


def compare(workspace, source_a, source_b, depth):
    variant_a, variant_b = workspace.variant(source_a), workspace.variant(source_b)
    label_a, label_b = _label(source_a), _label(source_b)
    rules = diff.diff_variants(variant_a, variant_b, source_a=label_a, source_b=label_b)
    result = {"rules": rules.as_dict(), "text": diff.render(rules, "text"), "play": None,
              "play_error": None}
    try:
        diff.check_playable(variant_a, variant_b)
    except FairyforgeError as err:
        result["play_error"] = str(err)
        return result
    game_a, game_b = workspace.load(source_a), workspace.load(source_b)
    labels = (label_a, label_b) if label_a != label_b else (f"A ({label_a})", f"B ({label_b})")
    play = diff.play_diff(game_a, game_b, depth, max_positions=MAX_POSITIONS, labels=labels)
    result["play"] = play.as_dict()
    result["play_text"] = diff.render(play, "text")
    if play.found:
        result["boards"] = [_witness_board(game_a, play.sequence, play.only_a),
                            _witness_board(game_b, play.sequence, play.only_b)]
    return result


def _label(source):
    return source.get("game") or source.get("path") or "untitled"


def _witness_board(game, sequence, only):
    """The position after the witness line in one game, with its own moves marked."""
    pos = game.start()
    line = []
    for uci in sequence:
        line.append(pos.san(uci))
        pos.push_uci(uci)
    arrows = [m for m in only if "@" not in m]
    drops = [m.split("@")[1] for m in only if "@" in m]
    return {"game": game.name, "line": line, "only": only, "fen": pos.fen(),
            "svg": svg.board(pos, arrows=arrows, regions=[drops] if drops else (),
                             lastmove=pos.move_stack[-1] if pos.move_stack else None)}
