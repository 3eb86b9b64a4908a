"""`stalemate draw|loss|win [, stalemating illegal]`: the result for a side with no
legal move that is not in check, and whether a move that stalemates is refused.

Engine: the search scores a stalemate by the rule; a stalemating move is refused
(STALEMATING) by a one-ply look-ahead.  Oracle: tests/oracle/interpreter.py,
`OraclePosition.outcome` and `Interpreter.is_legal`.
"""

TEMPLATE = "rules/stalemate.j2"
REFUSALS = {"STALEMATING": "it would leave {other} without a legal move, and stalemating "
                           "is not allowed"}


def active(tables):
    return tables.stalemating_illegal or tables.meta["stalemate"] != "draw"
