"""A section's effective Fairy-Stockfish configuration: the defaults, then the built-in
parent at the root of its inheritance chain, then each ini ancestor and the section
itself, applied as Fairy-Stockfish applies them.  Every value remembers the section
and line that set it, so that a refusal can name them."""

from dataclasses import dataclass, field

from . import fsf
from .errors import ImportRefusal


@dataclass
class Setting:
    value: str
    section: str | None = None      # None: a default or the built-in parent's value
    line: int | None = None
    key: str | None = None          # the option as written (promotionPieceTypes sets
                                    # promotionPieceTypesWhite)
    shown: str | None = None        # what a comment says of it, where not `key = value`

    @property
    def from_ini(self):
        return self.line is not None


@dataclass
class PieceSetting:
    letter: str                     # lowercase, as the ini writes it
    betza: str
    setting: Setting


@dataclass
class Config:
    section: str
    builtin: str | None                          # the FSF built-in at the chain's root
    pieces: dict = field(default_factory=dict)   # FSF type -> PieceSetting
    options: dict = field(default_factory=dict)  # option -> Setting
    removed: list = field(default_factory=list)  # (FSF type, Setting) taken out in the ini
    chain: list = field(default_factory=list)    # the ini sections, root first

    def value(self, option):
        return self.options[option].value

    def flag(self, option):
        return self.options[option].value == "true"

    def ini_settings(self):
        """The options the ini chain sets: (option, Setting), in line order."""
        found = [(name, s) for name, s in self.options.items() if s.from_ini]
        return sorted(found, key=lambda item: (item[1].section != self.section, item[1].line))

    def set_settings(self):
        """The options the ini chain or the built-in parent sets (not the defaults)."""
        return [(name, s) for name, s in self.options.items() if s.section is not None]

    def type_of(self, letter):
        """The FSF piece type with this letter (case-insensitive), or None."""
        for name, piece in self.pieces.items():
            if piece.letter == letter.lower():
                return name
        return None


def chain_of(sections, name):
    """The ini sections from the root ancestor to `name`, and the built-in at the root."""
    chain, seen, current = [], set(), sections[name]
    while True:
        if current.name in seen:
            raise ImportRefusal(name, None, current.line, "inheritance cycle: "
                                f"[{current.name}] is its own ancestor")
        seen.add(current.name)
        chain.append(current)
        parent = current.parent
        if parent is None:
            return chain[::-1], None
        if parent in sections and parent != current.name:
            current = sections[parent]
            continue
        if parent in fsf.BUILTIN_PARENTS and bundled(parent):
            return chain[::-1], parent
        known = ", ".join(p for p in sorted(fsf.BUILTIN_PARENTS) if bundled(p))
        raise ImportRefusal(name, f"[{current.name}:{parent}]", current.line,
                            f"the parent '{parent}' is a Fairy-Stockfish built-in variant "
                            f"that Fairyforge has no definition of yet (parents it knows: "
                            f"{known})", parent=parent)


def bundled(fsf_name):
    """Whether Fairyforge bundles a definition of this built-in variant."""
    from ..compiler import loader
    return loader.bundled_path(fsf_name) is not None


def effective(sections, name):
    """The effective configuration of section `name`."""
    chain, builtin = chain_of(sections, name)
    config = Config(name, builtin, chain=[s.name for s in chain])
    config.options = {key: Setting(value) for key, value in fsf.DEFAULTS.items()}
    if builtin:
        base = fsf.BUILTIN_PARENTS[builtin]
        for piece, value in base["pieces"].items():
            _add_piece(config, piece, value[0], Setting(value, builtin))
        _apply_options(config, {key: Setting(value, builtin)
                                for key, value in base["options"].items()})
    for section in chain:
        _apply_section(config, section)
    return config


def _apply_section(config, section):
    settings = {key: Setting(entry.value, section.name, entry.line, key)
                for key, entry in section.options.items()}
    for piece in fsf.PIECE_OPTIONS:
        if piece in settings:
            _piece_option(config, piece, settings.pop(piece))
    _apply_options(config, settings)


def _piece_option(config, piece, setting):
    text = setting.value
    if not text or not text[0].isalpha():
        if piece in config.pieces:
            config.removed.append((piece, setting))
        config.pieces.pop(piece, None)
        return
    _add_piece(config, piece, text[0].lower(), setting)


def _add_piece(config, piece, letter, setting):
    owner = config.type_of(letter)
    if owner and owner != piece:            # a letter names one type: the old one goes
        config.removed.append((owner, setting))
        del config.pieces[owner]
    if owner and setting.from_ini:
        _drop_promotion_choice(config, owner, letter, setting)
    if piece in fsf.PIECE_TYPES:
        betza = fsf.PIECE_TYPES[piece]
    else:                                   # custom pieces and the king: "k:KN"
        betza = setting.value[2:] if len(setting.value) > 2 else ("K" if piece == fsf.KING
                                                                   else "")
    config.pieces[piece] = PieceSetting(letter, betza, setting)


def _drop_promotion_choice(config, owner, letter, setting):
    """FSF's add_piece removes the piece that had the letter, even of the same type, and
    remove_piece takes that type out of the promotion choices (variant.h): a section
    that declares its queen again promotes to no queen unless it lists the choices
    itself (which the parser reads after the pieces, _apply_options).  A default value
    (no section) names the chess types by their chess letters."""
    chess = {t: c for t, c in fsf.CHESS_PIECES.items()}
    for option in fsf.BOTH_SIDES["promotionPieceTypes"]:
        current = config.options.get(option)
        if current is None:
            continue
        gone = chess.get(owner) if current.section is None else letter
        if gone and gone in current.value.lower():
            kept = "".join(ch for ch in current.value if ch.lower() != gone) or "-"
            config.options[option] = Setting(
                kept, current.section, setting.line, setting.key,
                f"{setting.key} = {setting.value}, which takes {owner} out of the promotions")


def _merge_promoted_types(config, settings):
    """promotedPieceType adds to the pairs already set (parser.cpp sets each listed
    type's promotion and leaves the others'): `l:g n:g` in a child of gorogoro keeps
    its pawn's and silver's."""
    new = settings.get("promotedPieceType")
    old = config.options.get("promotedPieceType")
    if new is None or old is None or not old.value.strip():
        return
    given = {pair.split(":")[0].lower() for pair in new.value.split()}
    kept = [pair for pair in old.value.split() if pair.split(":")[0].lower() not in given]
    if kept:
        new.value = " ".join(kept + new.value.split())


def _apply_options(config, settings):
    """Options that set several at once first, the specific ones after (they win)."""
    _merge_promoted_types(config, settings)
    if "pawnTypes" in settings:
        for group in fsf.PAWN_TYPES_SETS:
            for target in fsf.BOTH_SIDES[group]:
                config.options[target] = settings["pawnTypes"]
        config.options["pawnTypes"] = settings.pop("pawnTypes")
    for group, targets in fsf.BOTH_SIDES.items():
        if group in settings:
            for target in targets:
                config.options[target] = settings[group]
            settings.pop(group)
    config.options.update(settings)
