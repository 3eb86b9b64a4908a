"""`move rule N`: a draw after N moves by each side without a capture or a move of a
piece that only moves forward (chess's fifty-move rule).

Engine: the search scores such a position as a draw; Position.outcome reports it.
"""

TEMPLATE = "rules/move_rule.j2"


def active(tables):
    return bool(tables.meta["move_rule"])
