"""Compare two variants: their resolved rule models, or their engines' behaviour.

`diff_variants(a, b)` compares two rule models (never the definition text), so two
definitions that differ only in formatting, statement order, comments or the names of
regions compare equal.  The result, a RuleDiff, is a list of groups (board, pieces,
captures, drops, special rules, game end, setup, other), each a list of entries with a
`kind` (added, removed or changed), a `subject`, a one-line `text` in plain words and
`details` (more lines of plain words, with the Betza beside every move).

`play_diff(game_a, game_b, depth)` compares two compiled games by what they allow: a
breadth-first search for the shortest move sequence after which the two engines'
legal moves differ.

    from fairyforge.compiler import diff
    result = diff.diff_files("chess", "crazyhouse")
    print(diff.render(result, "text"))
    play = diff.play_diff(ff.load("shogi"), ff.load("my_shogi.variant"), depth=3)

The package:

    result.py    RuleDiff, Group, Entry, PlayDiff, DiffError
    words.py     canon (what "equal" means); squares, square sets and values in words
    moves.py     the move describer: move atoms -> words and Betza (betza.py's tables)
    registry.py  the model diff: the wording registry, Comparison, diff_variants
    pieces.py    the wording of pieces, one registered aspect at a time
    rules.py     the wording of the board and the rules (captures, drops, special
                 rules, game end)
    setup.py     the wording of the start position
    play.py      the play diff (play_diff, check_playable)
    render.py    text, YAML and JSON

The wording registry (registry.py)
----------------------------------
Each rule's words are a function registered for the model fields it renders; the model
diff runs them in registration order and needs no list of fields or chain of cases:

    @variant_wording("no_facing_kings")            # Variant field(s) it renders
    def facing(cmp, old, new):                     # A's and B's values (a tuple of
        if old != new:                             # values for several fields)
            cmp.add("special", "added" if new else "removed", "flying kings", "...")

    @piece_aspect("royalty", "royal", describe=describe_royal)
    def royal(cmp, pa, pb):                        # a piece both games have
        return ["becomes royal"] if pb.royal and not pa.royal else []

    def describe_royal(cmp, piece, side):          # a piece only one game has
        return ["royal: ..."] if piece.royal else []

`cmp` (registry.Comparison) holds the two variants (`cmp.a`, `cmp.b`), their boards
(`cmp.board_a`, `cmp.board_b`, for words.squareset_text), their sides (`cmp.side_a`,
`cmp.side_b`: variant, board, pieces, captured-piece conversions), the piece renaming
(`cmp.name_a`, `cmp.map_b`: B's names in A's terms, `cmp.both`) and `cmp.add(group,
kind, subject, text, details)`.  A piece aspect's lines become the details of the
piece's entry and its name joins "<piece>: <aspects> changed"; an aspect may also add
entries of its own elsewhere (first-move moves and confinement are special rules).
`rules.flag_wording` and `rules.item_wording` register the common shapes: a yes/no rule,
and a list of items (castlings, restrictions).  `claim_fields` marks fields shown
elsewhere (the header).

A field no registration names is still compared, generically: a Variant field under
"Other rules" ("field X changed from .. to .."), a PieceType field among the piece's
"other fields".  A rule kind's module can therefore register its own wording when it is
imported; the modules below are imported in the order of the entries within a group.
"""

# The wording modules register themselves on import, in this order (pieces first: their
# first-move moves and confinement lead the special rules); then each rule kind
# registers its own wording (compiler/rules/*.py, diff_wording), in ORDER.
from . import pieces, rules, setup  # noqa: F401
from .. import rules as _rule_kinds

for _kind in _rule_kinds.REGISTRY:
    if hasattr(_kind, "diff_wording"):
        _kind.diff_wording(rules)
from .moves import atom_changes, describe_moves, moves_text
from .play import DEFAULT_MAX_POSITIONS, PROGRESS_SECONDS, check_playable, play_diff
from .registry import (PIECE_ASPECTS, VARIANT_WORDING, Comparison, claim_fields,
                       diff_files, diff_variants, piece_aspect, variant_wording)
from .render import FORMATS, render, render_play_text, render_text
from .result import (GROUP_TITLES, GROUPS, KINDS, MARKERS, DiffError, Entry, Group,
                     PlayDiff, RuleDiff)
from .rules import IDENTITY_FIELDS
from .words import (Board, canon, generic_changes, piece_tokens, squares_text,
                    squareset_change, squareset_text, unknown_field_changes, value_text)

__all__ = [
    "atom_changes", "describe_moves", "moves_text",
    "DEFAULT_MAX_POSITIONS", "PROGRESS_SECONDS", "check_playable", "play_diff",
    "PIECE_ASPECTS", "VARIANT_WORDING", "Comparison", "claim_fields", "diff_files",
    "diff_variants", "piece_aspect", "variant_wording",
    "FORMATS", "render", "render_play_text", "render_text",
    "GROUP_TITLES", "GROUPS", "KINDS", "MARKERS", "DiffError", "Entry", "Group", "PlayDiff",
    "RuleDiff", "IDENTITY_FIELDS",
    "Board", "canon", "generic_changes", "piece_tokens", "squares_text", "squareset_change",
    "squareset_text", "unknown_field_changes", "value_text",
]
