"""A variants.ini section translated into the text of a Fairyforge definition.

`translate(sections, name, filename)` returns an `Imported` (the definition's text) or
raises `ImportRefusal` naming the section, the option, its line and why.  The steps:
the section's effective configuration (config.py); every option the ini sets checked
against the option table (options.py); the statements written concern by concern
(emit.py), as a child of the bundled game when the section descends from one; and the
text checked by the compiler, whose errors are traced back to the option that wrote
the line.
"""

import re
from dataclasses import dataclass

from . import emit, emit_drops, fsf
from .config import effective
from .errors import ImportRefusal
from .lines import Line
from .options import lookup, refusal_reason


@dataclass
class Imported:
    section: str
    text: str

    @property
    def filename(self):
        return f"{self.section}.variant"


def translate(sections, name, filename="variants.ini", path=None):
    """The definition text of section `name`; `path` is where it will be written (its
    `extends` is resolved from there)."""
    config = effective(sections, name)
    for option, setting in config.set_settings():
        reason = refusal_reason(setting.key or option, setting)
        if reason:
            where = "" if setting.from_ini else f" (from the built-in {setting.section})"
            raise ImportRefusal(name, setting.key or option, setting.line, reason + where,
                                setting.value)
    body = _as_child(config) or _standalone(config)
    text = _header(config, sections, filename) + _render(config, body)
    if _stuck_pieces_matter(config, path or f"{name}.variant"):
        # written out whole: the parent's promotions may rely on the rule it takes back
        body = _standalone(config)
        body = (body[0], body[1] + [Line("stuck pieces allowed", ("immobilityIllegal",))])
        text = _header(config, sections, filename) + _render(config, body)
    _check(config, text, body, path or f"{name}.variant")
    return Imported(name, text)


def _stuck_pieces_matter(config, path):
    """immobilityIllegal = false (FSF's default) is `stuck pieces allowed` where the
    language's rule against stuck pieces would forbid something in this game, judged
    on the game written out whole (its promotions say where FSF forces them)."""
    if config.flag("immobilityIllegal"):
        return False
    from ..compiler import parse, resolve
    from ..compiler.diagnostics import DiagnosticBag
    bag = DiagnosticBag()
    text = _render(config, _standalone(config))
    variant = resolve.resolve(parse.parse_text(text, path, bag), bag)
    return not bag and not variant.dead_drops_allowed and emit_drops.needs_stuck_pieces(variant)


# A concern whose statements are checked against another's: the parent's castling
# and check count (`3+3`) against a new setup, its promotions and en passant against
# new pieces.
DEPENDS = {"setup": ("castling", "initial", "check_count"),
           "pieces": ("en_passant", "initial", "move_rule", "explosions"),
           "castling": ("setup",)}


# Options that shape several concerns (pawnTypes also names the en passant and the
# move rule's pieces)
ALSO = {"pawnTypes": ("en_passant", "move_rule")}


def _touched(config):
    concerns = {lookup(setting.key or option).concern for option, setting in config.ini_settings()}
    concerns |= {lookup(option).concern for option, _ in config.ini_settings() if lookup(option)}
    concerns |= {c for option, setting in config.ini_settings()
                 for c in ALSO.get(setting.key or option, ())}
    if any(piece.setting.from_ini for piece in config.pieces.values()):
        concerns.add("pieces")
    return concerns


def _as_child(config):
    """`extends PARENT` and the statements of the concerns the ini changes, or None when
    that cannot be written (a piece taken out, another board, a rule taken back)."""
    if not config.builtin:
        return None
    parent = config.builtin
    letters = {p.letter for p in config.pieces.values()}
    if any(config.pieces.get(t) is None and setting.from_ini and _letter_gone(config, t, letters)
           for t, setting in config.removed):
        return None
    concerns = _touched(config) - {"gui", "refused"}
    concerns |= {c for concern in concerns for c in DEPENDS.get(concern, ())}
    from ..compiler import loader
    variant = loader.load_variant(parent)
    if "drops" in concerns and config.flag("capturesToHand") and \
            any(p.promotion and p.promotion.captured_only for p in variant.pieces):
        # `only to captured pieces` is FSF's promotionLimit only without drops (grand);
        # with drops FSF still counts the pieces on the board, and the language's limits
        # do not count the promoted pieces a captured one reverts from (`Q~`)
        raise ImportRefusal(config.section, "capturesToHand", config.options[
            "capturesToHand"].line, "captures to hand in a child of a game that promotes "
            "only to captured pieces (FSF's promotionLimit): the language has no limit "
            "that counts the promoted pieces of `captured promoted pieces revert`", "true")
    if "board" in concerns:
        return None
    writer = emit.Writer(config, _child_names(config, variant), variant.symmetry, extends=True,
                         parent=variant)
    lines = []
    for concern, generate in emit.CONCERNS.items():
        if concern in concerns:
            produced = generate(writer)
            if produced == emit.TAKE_BACK:
                return None
            lines += produced
    return parent, writer.region_lines + lines


def _letter_gone(config, fsf_type, letters):
    base = fsf.BUILTIN_PARENTS[config.builtin]["pieces"]
    return base.get(fsf_type, " ")[0] not in letters


def _child_names(config, variant):
    by_token = {p.tokens[0]: p.name for p in variant.pieces if p.tokens[0]}
    taken = {p.name for p in variant.pieces}
    names = {}
    for fsf_type, piece in config.pieces.items():
        for key, token in ((fsf_type, piece.letter.upper()),
                           ("+" + fsf_type, "+" + piece.letter.upper())):
            names[key] = by_token.get(token) or _fresh(key, taken)
    return names


def _fresh(key, taken):
    name = ("promoted_" + emit.snake(key[1:])) if key.startswith("+") else emit.snake(key)
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _standalone(config):
    taken, names = set(), {}
    for fsf_type in config.pieces:
        names[fsf_type] = _fresh(fsf_type, taken)
        names["+" + fsf_type] = _fresh("+" + fsf_type, taken)
    sideways = any(re.search(r"[lr]", p.betza) for p in config.pieces.values())
    writer = emit.Writer(config, names, "rotate" if sideways else "mirror")
    lines = []
    for generate in emit.CONCERNS.values():
        produced = generate(writer)
        lines += [] if produced == emit.TAKE_BACK else produced
    board_lines, rest = lines[:2], lines[2:]
    return None, board_lines + writer.region_lines + rest


def _header(config, sections, filename):
    section = sections[config.section]
    parent = f":{section.parent}" if section.parent else ""
    out = [f"# Imported by `fairyforge import` from {filename}, section "
           f"[{config.section}{parent}] (line {section.line})."]
    if len(config.chain) > 1:
        out.append(f"# Its ini ancestors: {' <- '.join(config.chain)}.")
    gui = [f"{s.key} = {s.value} (line {s.line})" for o, s in config.ini_settings()
           if lookup(s.key or o).concern == "gui"]
    if gui:
        out.append("# For XBoard/WinBoard only, not rules: " + "; ".join(gui) + ".")
    return "\n".join(out) + "\n"


def _render(config, body):
    parent, lines = body
    extends = f" extends {parent}" if parent else ""
    out = [f'variant {config.section} "{config.section}"{extends}']
    width = max(len(line.text) for line in lines) if lines else 0
    for line in lines:
        said = _said(config, line.sources)
        out.append(f"{line.text:<{min(width, 48)}}  # {said}" if said else line.text)
    return "\n".join(out) + "\n"


def _said(config, sources):
    """What the ini said for a statement: its options as written, with their lines."""
    seen, parts = set(), []
    for source in sources:
        setting = config.options.get(source) or getattr(config.pieces.get(source), "setting",
                                                           None)
        if setting is None or not setting.from_ini or (setting.key, setting.line) in seen:
            continue
        seen.add((setting.key, setting.line))
        shown = getattr(setting, "shown", None) or f"{setting.key} = {setting.value}"
        parts.append(f"{shown} (line {setting.line})")
    return "; ".join(parts)


def _check(config, text, body, path):
    """The compiler's verdict on the text; an error becomes the refusal of the option
    that wrote the line."""
    from ..compiler import parse, resolve
    from ..compiler.diagnostics import DiagnosticBag
    bag = DiagnosticBag()
    variant = resolve.resolve(parse.parse_text(text, path, bag), bag)
    if not bag:
        return _check_hand_order(config, variant)
    first = bag.sorted()[0]
    sources = _sources_of_line(text, body, first.location.line)
    setting = next((config.options.get(s) or config.pieces.get(s, None) for s in sources
                    if s), None)
    setting = getattr(setting, "setting", setting)
    raise ImportRefusal(config.section, getattr(setting, "key", None) or (sources or [None])[0],
                        getattr(setting, "line", None),
                        f"the language cannot express it yet: {first.message}",
                        getattr(setting, "value", None))


def _check_hand_order(config, variant):
    clash = emit_drops.hand_order_clash(config, variant)
    if clash is None:
        return
    first, second = clash
    piece = config.pieces[first]
    raise ImportRefusal(config.section, piece.setting.key or first, piece.setting.line,
                        f"Fairy-Stockfish writes {first} before {second} in a hand, "
                        "Fairyforge's FEN writer, which knows FSF's pieces by their moves "
                        f"only, after it ({first} moves as {piece.betza})", piece.setting.value)


def _sources_of_line(text, body, number):
    wanted = text.splitlines()[number - 1].split("  # ")[0].strip()
    for line in body[1]:
        if line.text == wanted:
            return [s for s in line.sources]
    return []
