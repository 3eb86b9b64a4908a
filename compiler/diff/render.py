"""A RuleDiff or a PlayDiff as text (in the manner of diff(1)), YAML or JSON."""

import json

import yaml

from .result import MARKERS, PlayDiff

FORMATS = ("text", "yaml", "json")


def _who(ident):
    text = str(ident.get("name"))
    extra = []
    if ident.get("title") and ident.get("title") != ident.get("name"):
        extra.append(str(ident["title"]))
    if ident.get("parent"):
        extra.append(f"extends {ident['parent']}")
    if ident.get("source") and ident.get("source") != ident.get("name"):
        extra.append(f"from {ident['source']}")
    return text + (f" ({', '.join(extra)})" if extra else "")


def _short(ident, letter):
    """How the legend names a side: its name, or A/B with the source if names are equal."""
    return str(ident.get("name")) if not ident.get("_same_name") else \
        f"{letter} ({ident.get('source') or ident.get('name')})"


def render_text(result):
    """The rule diff as text; the empty string when there is no difference (as diff(1))."""
    if not result:
        return ""
    lines = [f"--- {_who(result.a)}", f"+++ {_who(result.b)}"]
    for group in result.groups:
        lines.append("")
        lines.append(group.title)
        for entry in group.entries:
            lines.append(f"  {MARKERS.get(entry.kind, '?')} {entry.text}")
            for detail in entry.details:
                lines.append(f"      {detail}")
    n = result.count
    la, lb = _short(result.a, "A"), _short(result.b, "B")
    lines.append("")
    lines.append(f"{n} difference{'s' if n != 1 else ''} "
                 f"(+ only in {lb}, - only in {la}, ~ changed)")
    return "\n".join(lines) + "\n"


def _play_head(play):
    a, b = play.a, play.b
    if play.start_fen_a == play.start_fen_b:
        return f"Play: {a} vs {b}, from {play.start_fen_a}"
    return (f"Play: {a} vs {b}, from each game's start position "
            f"({play.start_fen_a} / {play.start_fen_b})")


def render_play_text(play):
    a, b = play.a, play.b
    lines = [_play_head(play)]
    if play.found:
        n = len(play.sequence)
        if n:
            lines.append(f"the legal moves differ after {n} move{'s' if n != 1 else ''}: "
                         + " ".join(play.sequence))
        else:
            lines.append("the legal moves differ in the start position")
        lines.append(f"  position in {a}: {play.fen_a}")
        if play.fen_b != play.fen_a:
            lines.append(f"  position in {b}: {play.fen_b}")
        lines.append(f"  only {a} allows: {' '.join(play.only_a) or '(nothing more)'}")
        lines.append(f"  only {b} allows: {' '.join(play.only_b) or '(nothing more)'}")
    elif play.complete:
        lines.append(f"no difference up to depth {play.depth} "
                     f"({play.positions} positions compared)")
    else:
        lines.append(f"no difference found in the {play.positions} positions compared; the "
                     f"search stopped at the position limit during depth "
                     f"{play.searched_depth} of {play.depth}")
    return "\n".join(lines) + "\n"


def render(result, fmt="text"):
    """A RuleDiff or a PlayDiff as text, YAML or JSON."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format '{fmt}' (formats: {', '.join(FORMATS)})")
    if fmt == "text":
        return render_play_text(result) if isinstance(result, PlayDiff) else render_text(result)
    data = result.as_dict()
    if isinstance(result, PlayDiff):
        data = {"play": data}
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, width=100,
                          allow_unicode=True)
