"""Engine options: what is advertised, how a value is checked, what is refused.

Only options the engine really honours are advertised.  An option that engines commonly
have but Fairyforge does not (SyzygyPath, UCI_ShowWDL ...) is accepted when it asks for
what the engine does anyway (`SyzygyPath <empty>`) and otherwise refused with a reason;
any other name is unknown.  Bad values never change an option.
"""

from dataclasses import dataclass, field

from ..strength import MAX_ELO, MIN_ELO
from .streams import clip

DEFAULT_HASH_MB = 16
MAX_HASH_MB = 4096
MAX_THREADS = 64
MAX_MULTIPV = 256
DEFAULT_ELO = 1350
DEFAULT_MOVE_OVERHEAD = 100      # ms lost per move outside the search (Python, the pipes)
MAX_MOVE_OVERHEAD = 5000


class OptionError(Exception):
    """A setoption that is refused; str() is the message for the client."""


@dataclass
class Option:
    name: str
    kind: str                    # spin, check, combo, string, button
    default: object = None
    low: int = 0
    high: int = 0
    choices: list = field(default_factory=list)

    def parse(self, text):
        """The value `text` stands for, or OptionError saying why it is refused."""
        text = text.strip()
        if self.kind == "spin":
            return self._parse_spin(text)
        if self.kind == "check":
            if text.lower() not in ("true", "false"):
                raise OptionError(f"{self.name} is true or false, not '{clip(text)}'")
            return text.lower() == "true"
        if self.kind == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            known = ", ".join(self.choices[:40]) + (" ..." if len(self.choices) > 40 else "")
            raise OptionError(f"{self.name} has no value '{clip(text)}' (values: {known})")
        if self.kind == "string":
            return "" if text == "<empty>" else text
        return None                                    # a button has no value

    def _parse_spin(self, text):
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isdigit() or not digits.isascii():
            raise OptionError(f"{self.name} must be a whole number from {self.low} to "
                              f"{self.high}, not '{clip(text)}'")
        number = int(text) if len(digits) <= 30 else (1 if text[0] != "-" else -1) * 10 ** 30
        if not self.low <= number <= self.high:
            shown = text if len(digits) <= 30 else f"a {len(digits)}-digit number"
            raise OptionError(f"{self.name} {clip(shown)} is out of range: from {self.low} to "
                              f"{self.high}")
        return number

    def default_text(self):
        if self.kind == "check":
            return "true" if self.default else "false"
        if self.kind == "string":
            return self.default or "<empty>"
        return str(self.default)


# Options engines often have that Fairyforge does not honour: the one value that
# describes what it does anyway, and the reason any other value is refused.
REFUSED = {
    "skill level": (None, "use UCI_LimitStrength and UCI_Elo"),
    "syzygypath": ("<empty>", "there are no endgame tablebases"),
    "uci_showwdl": ("false", "win/draw/loss statistics are not computed"),
}
# Options with no effect on a search that are accepted silently.
IGNORED = {"uci_analysemode", "uci_opponent", "uci_engineabout", "usi_ownbook"}
# Other spellings of advertised options (USI and UCCI names).
ALIASES = {"usi_hash": "hash", "usi_variant": "uci_variant", "usi_ponder": "ponder",
           "cores": "threads"}


def standard_options(variants):
    """The advertised options, in the order they are listed."""
    return [
        Option("Hash", "spin", DEFAULT_HASH_MB, 1, MAX_HASH_MB),
        Option("Threads", "spin", 1, 1, MAX_THREADS),
        Option("MultiPV", "spin", 1, 1, MAX_MULTIPV),
        Option("Ponder", "check", False),
        Option("Move Overhead", "spin", DEFAULT_MOVE_OVERHEAD, 0, MAX_MOVE_OVERHEAD),
        Option("UCI_LimitStrength", "check", False),
        Option("UCI_Elo", "spin", DEFAULT_ELO, MIN_ELO, MAX_ELO),
        Option("UCI_Chess960", "check", False),
        Option("UCI_Variant", "combo", "chess", choices=list(variants)),
        Option("VariantPath", "string", ""),
    ]


def refusal(name, value):
    """None if setting `name` to `value` is harmless, else the refusal message;
    KeyError if Fairyforge knows no such option."""
    key = name.lower()
    if key in IGNORED:
        return None
    if key not in REFUSED:
        raise KeyError(name)
    accepted, reason = REFUSED[key]
    if accepted is not None and value.strip().lower() == accepted:
        return None
    return f"option {clip(name)} is not supported: {reason}"
