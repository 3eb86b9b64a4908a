"""`until SIDE EVENTS: SIDE may not EVENTS`: one side may not capture, check or promote
until the other side has done one of the trigger events (WWII Chess rule 8).

Engine: after each move, a trigger event lifts the restriction for good (the `lifted`
bits of the position, also its FEN's extra field); while it holds, a forbidden move is
refused.  Oracle: tests/oracle/interpreter.py, `Interpreter.is_legal` (restrictions).
"""

TEMPLATE = "rules/restrictions.j2"
REFUSALS = {
    "RESTRICTED_CAPTURE": "{mover} may not capture before {trigger} has {events}",
    "RESTRICTED_CHECK": "{mover} may not give check before {trigger} has {events}",
    "RESTRICTED_PROMOTION": "{mover} may not promote before {trigger} has {events}",
}


def active(tables):
    return bool(tables.restrictions)
