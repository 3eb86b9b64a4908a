"""`no facing kings`: the two royal pieces may not stand on one file with nothing
between them (xiangqi's flying general).

Engine: a move that leaves them facing is refused (ROYALS_FACING).  Oracle:
tests/oracle/interpreter.py, `Interpreter.kings_face`.
"""

TEMPLATE = "rules/facing_kings.j2"
REFUSALS = {"ROYALS_FACING": "the two {royal}s would face each other on an open file"}


def active(tables):
    return tables.no_facing_kings
