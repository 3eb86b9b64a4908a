"""A rule set as a playtest ships it to its workers: a label, the rule model, its hash.

Workers get the rule model itself (the frozen `Variant` of compiler/model.py, which
pickles in a few kilobytes), never a path: they need no shared file system and no copy
of the user's definition files.  Each worker compiles the engine into its own cache
(`$FAIRYFORGE_CACHE` on that machine) the first time it meets a model, and keeps the
loaded game for the rest of its life.

The model's hash is the SHA-256 of its canonical YAML (`model.dump_yaml`, the same
text the build cache keys engines on): two rule sets with the same hash play the same
game.  A worker recomputes it before building, so a worker whose Fairyforge reads the
model differently (another version) refuses the job instead of playing other rules.
"""

from dataclasses import dataclass

from ..errors import FairyforgeError


class PlaytestError(FairyforgeError):
    """A playtest cannot start or go on (bad options, a database from another run...)."""


def model_hash(variant):
    """SHA-256 of the rule model's canonical YAML (hex): the key parameter files use too."""
    from ..compiler import evalparams
    return evalparams.model_hash(variant)


@dataclass(frozen=True)
class RuleSet:
    label: str           # its name in reports and in the database
    source: str          # what the user named: a bundled game or a definition's path
    model_hash: str
    variant: object      # the rule model (compiler.model.Variant)
    evaluation: str = "auto"    # "auto": learned parameters where there are; "derived"

    @classmethod
    def load(cls, source, label=None):
        """Resolve a bundled name or definition file (DefinitionError, UnknownGameError)."""
        from ..compiler import loader
        variant = loader.load_variant(source)
        return cls(label or variant.name, source, model_hash(variant), variant)

    def model_yaml(self):
        from ..compiler import model
        return model.dump_yaml(self.variant)


_GAMES = {}       # model hash -> Game, in this process


def game_for(ruleset, progress=None):
    """The compiled game of a rule set, built into this machine's cache on first use."""
    key = (ruleset.model_hash, ruleset.evaluation)
    game = _GAMES.get(key)
    if game is None:
        from ..compiler import build
        from ..game import Game
        if model_hash(ruleset.variant) != ruleset.model_hash:
            raise PlaytestError(
                f"this worker reads the rule model of {ruleset.label} differently from the "
                "machine that sent it (another Fairyforge version?): install the same "
                "version on every worker")
        evaluation = None if ruleset.evaluation == "derived" else "auto"
        path, module = build.load_module(ruleset.variant, progress=progress,
                                         evaluation=evaluation)
        game = Game(ruleset.variant, module, path)
        _GAMES[key] = game
    return game
