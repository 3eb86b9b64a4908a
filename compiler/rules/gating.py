"""`gating [PIECES] from hand`: when a piece first leaves a square of its side's back
rank, the mover may put a piece from its hand on the square it left (S-chess, Fairy-
Stockfish's `gating` with `seirawanGating`).  A castling may gate on the king's square
or on the rook's.  Each back-rank square keeps its gating right until a piece leaves
it or is captured there; the rights are written in the FEN's castling field as file
letters (`KQBCDFGkqbcdfg`) and read as Fairy-Stockfish reads them
(compiler/positions.py).  The pieces in hand need no drop rule: in a game whose hand
is filled only by the setup, the setup's holdings make no drops.  In a game with drops,
a piece is gated only where it may be dropped (as Fairy-Stockfish, which gates within
the drop region: S-house's pawns never on the first rank).

As in Fairy-Stockfish, a gating move is legal exactly when the same move without the
gate is: the gated piece never shields its own king; a gate does not restart the
halfmove clock; and the gating rights are not part of the position's key (two
positions that differ only in them repeat each other).

Engine: the rights are bits of Pos.castling above the castling rights (unhashed, lost
with CASTLE_CLEAR when a piece leaves or is taken on the square); templates/rules/
gating.j2 adds the gating variants of the board moves and castlings (the `extra_moves`
hook, which runs after all other moves are generated: drops are skipped), puts the gated piece down after the move (after_make) and takes it back
(unmake), and refuses a gate that would shield the king (why_illegal).  A move carries
its gated type as a slot in its top bits (runtime/encoding.py).  Oracle: pyffish's
seirawan and shouse (tests/test_gating_hand.py, tests/test_fsf_catalog.py).
"""

from dataclasses import dataclass

from fairyforge.encoding import MAX_GATE_TYPES

from ..nodes import Node
from . import first_moves

ORDER = 11

GRAMMAR = '''
// gating [PIECES] from hand: a piece first leaving its back rank may leave one from the hand
gating_decl: "gating" name_list? "from" "hand"
'''
KEYWORDS = ("gating",)

RIGHT_BITS = 31                 # Pos.castling is a C int: castling and gating rights together


@dataclass
class Gating(Node):
    pieces: list = None


STATEMENTS = {"gating_decl": Gating}
FIELDS = [("gate_pieces", tuple, ())]      # the pieces that may be gated (none: no gating)
TEMPLATE = "rules/gating.j2"
REFUSALS = {"GATE_SHIELDS_ROYAL": "it would leave {mover}'s {royal} attacked but for the "
                                  "gated piece (a gate never shields the {royal})"}


def _eligible(context):
    """The pieces `gating from hand` means: every one that can be held (not royal, not
    a piece's promoted side, not a promoted twin `Q~` that returns to hand as a pawn)."""
    return [name for name, info in context.pieces.items()
            if not info["royal"] and not info["letter"].startswith("+")
            and "~" not in info["letter"]]


def resolve(nodes, context):
    names = []
    for node in nodes:
        listed = node.pieces if node.pieces else None
        found = ([n for n in (context.piece_name(node, t) for t in listed) if n]
                 if listed is not None else _eligible(context))
        for name in found:
            if context.pieces[name]["royal"]:
                context.error(node, None, f"gating: '{name}' is royal and is never in hand")
            elif name not in names:
                names.append(name)
        if len(names) > MAX_GATE_TYPES:
            context.error(node, None, f"gating: {len(names)} piece types may be gated, at "
                          f"most {MAX_GATE_TYPES} are supported (name them: `gating A, B "
                          "from hand`)")
            return {"gate_pieces": ()}
    castlings = max(1, 2 * len(context.lists["castling"]))     # (at most)
    if names and 2 * context.files + castlings > RIGHT_BITS:
        context.error(nodes[-1], None, f"gating: a board of {context.files} files has too "
                      "many back-rank squares to keep their gating rights beside "
                      f"{castlings} castling rights (at most "
                      f"{(RIGHT_BITS - castlings) // 2} files)")
        return {"gate_pieces": ()}
    return {"gate_pieces": tuple(names)}


def may_hold(variant, parsed, colour):
    """Does `colour` hold pieces, or may it come to (captures go to hand)?  Only then
    does Fairy-Stockfish read and write its gating letters (else a file letter is a
    Shredder-FEN castling right)."""
    captures = variant.captures
    return (captures.to_hand_white or captures.to_hand_black
            or any(c == colour for _, c in parsed.holdings))


def read_rights(rules, parsed):
    """(castling K/Q letters, gated squares {(file, rank)}, problems) of a FEN's
    castling field in a game with gating, read as Fairy-Stockfish reads it: `K`/`Q`
    give the castling right and gate the king's and the rook's squares; a file letter
    (`B`, `c`) gates that square of its side's back rank (of a side that holds no piece
    and never will, it is a Shredder-FEN castling right); a side whose king's square is
    gated but which has no castling right castles with every gated rook (Chess960's
    `AEH`).  `rules` is the game's PositionRules."""
    v = rules.v
    letters, gates, problems = [], set(), []
    text = "" if parsed.castling == "-" else parsed.castling
    for token in text:
        colour = 0 if token.isupper() else 1
        rank = 0 if colour == 0 else v.ranks - 1
        if token in rules.castling:
            letters.append(token)
            _, king, rook, _, _ = rules.castling[token]
            gates |= {sq for sq in (king, rook)
                      if parsed.board.get(sq, (None, None))[1] == colour}
            continue
        f = ord(token.lower()) - ord("a")
        if not 0 <= f < v.files or not token.isalpha():
            letters.append(token)           # (refused as a castling right)
        elif not may_hold(v, parsed, colour):
            letters.append(rules.castling_files.get(token, token))
        elif parsed.board.get((f, rank), (None, None))[1] != colour:
            problems.append(("castling", f"'{token}': no {('white', 'black')[colour]} piece "
                             f"on {token.lower()}{rank + 1} to gate from"))
        else:
            gates.add((f, rank))
    letters += _inferred_castling(rules, parsed, letters, gates)
    return letters, gates, problems


def _inferred_castling(rules, parsed, letters, gates):
    """The castling rights of a side whose king's square is gated and that was given no
    castling letter: one for each castling whose rook's square is gated too."""
    out = []
    for letter, (colour, king, rook, rook_piece, king_piece) in rules.castling.items():
        if any(rules.castling[x][0] == colour for x in letters if x in rules.castling):
            continue
        if king in gates and rook in gates and parsed.board.get(king) == king_piece \
                and parsed.board.get(rook) == rook_piece:
            out.append(letter)
    return out


def write_rights(meta, castling_letters, bits, hands):
    """The castling field of a game with gating, as Fairy-Stockfish writes it: for
    White then Black, its castling letters, then the files of its gated squares, but
    the king's file while it may castle (not Chess960) and the rooks' files of its
    castling rights; no gating letters for a side whose hand is empty and can never
    fill again."""
    gating, ntypes = meta["gating"], len(meta["pieces"])
    out = []
    for colour in (0, 1):
        own = [(c, letter) for c, letter in castling_letters if c["colour"] == colour]
        out += [letter for _, letter in own]
        if not (gating["persist"] or any(hands[colour * ntypes:(colour + 1) * ntypes])):
            continue
        skip = {c["rook_from"] for c, _ in own}
        if own and not meta["chess960_castling"]:
            skip |= {c["king_from"] for c, _ in own}
        for b in gating["bits"]:
            if b["colour"] == colour and bits & b["mask"] and b["square"] not in skip:
                letter = chr(ord("a") + b["file"])
                out.append(letter.upper() if colour == 0 else letter)
    return "".join(out) or "-"


def lower(variant, lowerer):
    if not variant.gate_pieces:
        return {"on": False, "mask": 0, "bits": []}
    # above the castling and first-move rights (NCASTLE)
    first = max(1, len(variant.castling) + len(first_moves.rights(variant)))
    bits = []
    squares = [(colour, f) for colour in (0, 1) for f in range(variant.files)]
    for i, (colour, f) in enumerate(squares):        # each side's back rank
        rank = 0 if colour == 0 else variant.ranks - 1
        bits.append({"colour": colour, "file": f, "square": lowerer.index(f, rank),
                     "mask": 1 << (first + i)})
    captures = variant.captures
    zones = {rule.piece: rule.zone for rule in variant.drops}
    allowed = []                    # per (slot, colour): the bits of the squares it may go
    for name in variant.gate_pieces:
        for colour in (0, 1):
            zone = (lowerer.side_squares(zones[name], colour) if name in zones
                    else {b["square"] for b in bits})
            allowed.append(sum(b["mask"] for b in bits if b["square"] in zone))
    return {"on": True, "types": [lowerer.type_index[n] for n in variant.gate_pieces],
            "allowed": allowed, "bits": bits, "mask": sum(b["mask"] for b in bits),
            "persist": bool(captures.to_hand_white or captures.to_hand_black),
            "side_mask": [sum(b["mask"] for b in bits if b["colour"] == c) for c in (0, 1)]}


def active(tables):
    return tables["on"]


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule."""
    @words.variant_wording("gate_pieces")
    def gate_pieces(cmp, old, new):
        new = tuple(cmp.map_b(tuple(new)))
        if set(old) != set(new):
            cmp.add("special", words.change_kind(old, new), "gating",
                    f"gating from hand: {', '.join(old) or 'none'} -> {', '.join(new) or 'none'}")
