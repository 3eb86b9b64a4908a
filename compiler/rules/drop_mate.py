"""`drop PIECES ... not mating`: a drop of these pieces may not give checkmate (shogi's
uchifuzume).  Written as a flag of the drop statement, which the core resolves
(compiler/resolve.py, `_drops`); this module is its engine side.

Engine (templates/rules/drop_mate.j2): a dropping move that checks is refused
(DROP_MATE) when the opponent then has no legal move, looked up one ply ahead.
Fairy-Stockfish generates such a drop and scores it as a loss instead;
docs/language.md compares the two.  Oracle: tests/oracle/interpreter.py,
`Interpreter.is_legal` (drop mate).
"""

ORDER = 30

TEMPLATE = "rules/drop_mate.j2"
REFUSALS = {"DROP_MATE": "a {piece} drop may not give checkmate"}


def lower(variant, lowerer):
    types = {p.name: i for i, p in enumerate(variant.pieces)}
    return {"types": [types[d.piece] for d in variant.drops if d.not_mating]}


def active(tables):
    return bool(tables["types"])
