"""The engine's verdicts in words: why a move is illegal (Refusal numbers, and the
most specific reason for a move text that matches no legal move), and which rule
ended a game (GameEnd numbers).

The numbers and the words of each come from the rule kind that owns them
(fairyforge.compiler.rules); this module fills in the names of the game.
"""

import re

from .encoding import code_colour, code_type, selected_type
from .errors import IllegalMoveError, InvalidMoveError
from . import walls
from .fen import parse_square

# `-` ends a move that turns a piece back (flip), `+P@` drops a piece turned over
MOVE_SYNTAX = re.compile(r"(?:\+?[A-Z]@|[a-z][0-9]{1,2})[a-z][0-9]{1,2}[a-z+-]?")

PAST = {"capture": "captured", "check": "checked", "promote": "promoted"}


def _said(events):
    """["capture", "check"] -> "captured or checked"."""
    words = [PAST[e] for e in events]
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def explain_refusal(game, reason, colour, code):
    """The sentence for refusal number `reason` of move `code` by `colour`."""
    from .compiler import rules
    meta = game.meta
    names = meta["side_names"]
    restriction = next((r for r in meta["restrictions"] if r["restricted"] == colour), None)
    trigger, events = names[1 - colour], ""
    if restriction:
        trigger, events = names[restriction["trigger"]], _said(restriction["events"])
    typ = selected_type(code)
    try:
        message = rules.REFUSAL_MESSAGES[rules.Refusal(reason).name]
    except (ValueError, KeyError):
        message = "it breaks a rule of the game"
    return message.format(
        mover=names[colour], other=names[1 - colour], trigger=trigger, events=events,
        royal=meta["pieces"][meta["royal_type"]]["name"],
        piece=meta["pieces"][typ]["name"] if typ is not None else "")


def game_end_reason(number):
    """Outcome.reason for the GameEnd number the engine reported."""
    from .compiler import rules
    return rules.GAME_END_REASONS[rules.GameEnd(number).name]


def why_not(position, text):
    """The most specific error for a move text that matched no legal move."""
    if "," in text or position.game.variant.walling is not None:
        return walls.why_not(position, text, _why_not_move)      # a duck's square
    return _why_not_move(position, text)


def _why_not_move(position, text):
    meta = position.game.meta
    if not MOVE_SYNTAX.fullmatch(text):
        return InvalidMoveError(text, f"'{text}' is not a move: write moves like e2e4, "
                                "e7e8q, b2h8+ or P@e4")
    squares = re.findall(r"[a-z][0-9]{1,2}", text.split("@")[-1])
    for sq in squares[:2]:
        if parse_square(sq, meta["files"], meta["ranks"]) is None:
            return InvalidMoveError(text, f"move {text}: {sq} is not on the board")
    reason = (_rule_broken(position, text) or _gate_mismatch(position, text)
              or _promotion_mismatch(position, text)
              or _why_impossible(position, text, squares))
    return IllegalMoveError(text, f"illegal move {text}: {reason}")


def _gate_mismatch(position, text):
    """In a game with gating: why a board move with a gate letter cannot gate that
    piece there (else None)."""
    meta = position.game.meta
    gating, pieces = meta["gating"], meta["pieces"]
    m = re.fullmatch(r"([a-z][0-9]{1,2})([a-z][0-9]{1,2})([a-z])", text)
    if not gating["on"] or not m:
        return None
    frm, to, letter = m.groups()
    notation, colour = position.notation, position.engine.state()[0]
    texts = {notation.text(code, colour) for code in position.engine.pseudo_moves()}
    if frm + to not in texts:
        return None                     # no such move, or a promotion: said elsewhere
    typ = next((t for t in gating["types"]
                if (pieces[t]["tokens"][1] or pieces[t]["tokens"][0]).lower() == letter), None)
    mover, square = meta["side_names"][colour], notation.index_of_square[frm]
    bit = next((b["mask"] for b in gating["bits"]
                if b["square"] == square and b["colour"] == colour), 0)
    if typ is None:
        return f"'{letter}' names no piece that may be gated"
    name = pieces[typ]["name"]
    if not bit:
        return f"{frm} is not on {mover}'s back rank: a {name} is gated only there"
    if not position.engine.state()[1] & bit:
        return f"{frm} has no gating right left (a piece has left it)"
    if not position.engine.hands()[colour * len(pieces) + typ]:
        return f"{mover} has no {name} in hand to gate"
    return f"a {name} may not be gated on {frm}"


def _promotion_mismatch(position, text):
    """The piece could go there, but the promotion suffix is missing, extra or not
    one of the choices (else None)."""
    m = re.fullmatch(r"([a-z][0-9]{1,2}[a-z][0-9]{1,2})([a-z+-]?)", text)
    if not m:
        return None
    base, suffix = m.groups()
    notation, colour = position.notation, position.engine.state()[0]
    endings = []                    # in the game's order of promotion choices
    for t in (notation.text(code, colour) for code in position.engine.pseudo_moves()):
        if t.startswith(base) and re.fullmatch(r"[a-z+-]?", t[len(base):]) \
                and t[len(base):] not in endings:
            endings.append(t[len(base):])
    if not endings:
        return None
    choices = ", ".join(e for e in endings if e) or "none"
    if not suffix:
        destination = re.findall(r"[a-z][0-9]{1,2}", base)[1]
        if endings == ["-"]:
            return f"the piece must turn back on {destination}: write {base}-"
        return (f"the piece must promote on {destination}: write {base}{endings[0]} "
                f"(choices: {choices})")
    if endings == [""]:
        return f"this move does not promote: write {base} without '{suffix}'"
    return f"'{suffix}' is not a promotion choice of this move (choices: {choices})"


def _rule_broken(position, text):
    """Why a move the pieces could make is refused, or None if they cannot make it."""
    notation, colour = position.notation, position.engine.state()[0]
    for code in position.engine.pseudo_moves():
        if notation.text(code, colour) == text:
            reason = position.engine.refusal(code)
            if reason == 0:
                return position._cycle_rule_broken(code)
            return explain_refusal(position.game, reason, colour, code)
    return None


def _why_impossible(position, text, squares):
    """Why no piece can make this move at all (geometry, hand, deployment, zones)."""
    game, meta = position.game, position.game.meta
    colour = position.engine.state()[0]
    mover = meta["side_names"][colour]
    names = [p["name"] for p in meta["pieces"]]
    hands = position.engine.hands()
    ntypes = len(names)
    royal = meta["royal_type"]
    deploying = meta["deployment"] and hands[colour * ntypes + royal] > 0
    target = game.notation.index_of_square[squares[-1]]
    board = dict(zip(meta["squares"], position.engine.board()))
    if "@" in text:
        letter = text.split("@")[0]
        turned = letter.startswith("+")         # dropped turned over (`either side up`)
        typ = next((i for i, p in enumerate(meta["pieces"])
                    if (p["tokens"][0] or (p["tokens"][1] or "").upper()).rstrip("~")
                    == letter.lstrip("+")), None)
        if typ is None or not hands[colour * ntypes + typ]:
            return f"{mover} has no {names[typ] if typ is not None else letter} in hand"
        name = names[typ]
        if turned and typ not in meta["drop_as"]:
            return f"a {name} may not be dropped turned over"
        placed = meta["drop_as"][typ] if turned else typ
        if board[target] > 1:
            return f"{squares[-1]} is not empty"
        if typ == meta["deploy_last"] and sum(hands[colour * ntypes:(colour + 1) * ntypes]) > hands[colour * ntypes + typ]:
            return (f"the {name} must be dropped last, when it is the only piece in "
                    f"{mover}'s hand")
        zone = meta["drop_zones"].get(typ, [[], []])[colour]
        if target not in zone and target in meta["dead"][placed][colour]:
            return f"a {name} may not be dropped on {squares[-1]}: it could never move from there"
        if target not in zone:
            return f"a {name} may not be dropped on {squares[-1]}"
        return (f"a {name} may not be dropped on a file that already holds an own "
                f"{name}")
    if deploying:
        return (f"pieces may not move during deployment: {mover} still has its "
                f"{names[royal]} in hand")
    origin = game.notation.index_of_square[squares[0]]
    code = board[origin]
    if code < 2:
        return f"no piece on {squares[0]}"
    if code_colour(code) != colour:
        return (f"the piece on {squares[0]} is {meta['side_names'][code_colour(code)]}'s and it is "
                f"{mover}'s turn")
    typ = code_type(code)
    if board[target] > 1 and code_colour(board[target]) == colour:
        return f"{squares[-1]} holds {mover}'s own {names[code_type(board[target])]}"
    confined = meta["confined"][typ][colour]
    if confined is not None and target not in confined:
        return f"the {names[typ]} on {squares[0]} may not leave its area to go to {squares[-1]}"
    return f"the {names[typ]} on {squares[0]} cannot go to {squares[-1]} that way"
