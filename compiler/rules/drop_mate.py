"""Checkmate by a drop, in the two conventions (docs/language.md section 3.14):

* `drop PIECES ... not mating`: a drop of these pieces may not give checkmate (shogi's
  uchifuzume).  Engine: a dropping move that checks is refused (DROP_MATE) when the
  opponent then has no legal move, looked up one ply ahead (why_illegal hook).  Oracle:
  tests/oracle/interpreter.py, `Interpreter.is_legal` (drop mate).
* `drop PIECES ... mating loses`: Fairy-Stockfish's convention (shogiPawnDropMateIllegal).
  The mating drop is a legal move, and the checkmated side then wins: the game_end hook
  finds the side to move in check without a legal move just after such a drop (GameEnd
  MATING_DROP).  Perft counts the drop, as Fairy-Stockfish's does.  Oracle: pyffish
  (tests/test_flips.py).

Both are flags of the drop statement, which the core resolves (compiler/resolve.py,
`_drops`); this module is their engine side.
"""

ORDER = 30

TEMPLATE = "rules/drop_mate.j2"
REFUSALS = {"DROP_MATE": "a {piece} drop may not give checkmate"}
ENDS = {"MATING_DROP": "checkmate by a forbidden drop"}


def lower(variant, lowerer):
    types = {p.name: i for i, p in enumerate(variant.pieces)}
    return {"types": [types[d.piece] for d in variant.drops if d.not_mating],
            "losing": [types[d.piece] for d in variant.drops if d.mating_loses]}


def active(tables):
    return bool(tables["types"] or tables["losing"])
