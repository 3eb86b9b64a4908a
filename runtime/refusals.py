"""The engine's verdicts in words: why a move is illegal (Refusal numbers), and which
rule ended a game (GameEnd numbers).

The numbers and the words of each come from the rule kind that owns them
(fairyforge.compiler.rules); this module fills in the names of the game.
"""

from .encoding import selected_type

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
