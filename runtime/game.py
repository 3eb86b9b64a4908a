"""Games: a compiled variant, ready to make positions."""

import functools
import os

from .move import Notation
from .position import Position


class Game:
    """A variant compiled into an engine module.

    Attributes: `name`, `title`, `variant` (the rule model), `module` (the generated
    extension module), `meta` (its tables for the runtime), `module_path`.
    """

    def __init__(self, variant, module, module_path):
        self.variant = variant
        self.module = module
        self.module_path = module_path
        self.meta = module.META
        self.name = variant.name
        self.title = variant.title
        self.notation = Notation(self.meta)
        # FEN token -> (type index, colour), and the types that can be held in hand.
        self.token_table = {tok: (i, colour) for i, p in enumerate(self.meta["pieces"])
                            for colour, tok in enumerate(p["tokens"]) if tok is not None}
        self.droppable = {self.variant.pieces.index(self.variant.piece(d.piece))
                          for d in self.variant.drops}

    @functools.cached_property
    def position_rules(self):
        """The game's rules about positions (what a FEN may hold), worked out once."""
        from .compiler.positions import rules_for
        return rules_for(self.variant)

    @property
    def start_fen(self):
        return self.meta["setup"]

    def start(self):
        """The start position."""
        return Position(self, self.meta["setup"])

    def position(self, fen):
        """A position from a FEN in Fairy-Stockfish's style (FenError if it is wrong)."""
        return Position(self, fen)

    @property
    def source_path(self):
        """The generated Cython source of this game's engine."""
        base = os.path.basename(self.module_path).split(".")[0]
        return os.path.join(os.path.dirname(self.module_path), base + ".pyx")

    def __repr__(self):
        return f"<Game {self.name}>"
