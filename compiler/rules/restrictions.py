"""`until SIDE EVENTS: SIDE may not EVENTS`: one side may not capture, check or promote
until the other side has done one of the trigger events (WWII Chess rule 8).

Engine (templates/rules/restrictions.j2): after each move a trigger event lifts the
restriction for good (the position's `lifted` bits, also its FEN's extra field);
while it holds, a forbidden move is refused.  Oracle: tests/oracle/interpreter.py,
`Interpreter.is_legal` (restrictions).
"""

from dataclasses import dataclass
from typing import Any

from ..nodes import Node

ORDER = 20

GRAMMAR = '''
// until SIDE EVENTS: SIDE may not EVENTS   (WWII Chess rule 8)
restriction_decl: "until" SIDE_NAME event_list ":" SIDE_NAME "may" "not" event_list
event_list: EVENT ("," EVENT | "or" EVENT)*
EVENT: "captures" | "checks" | "promotes" | "capture" | "check" | "promote"
'''
KEYWORDS = ("until",)
TERMINAL_WORDS = {"EVENT": "captures, checks or promotes", "COLON": "':'"}
EVENTS = ("capture", "check", "promote")
SIDES = ("white", "black")


def event_list(parts):
    """`captures, checks or promotes` -> ["capture", "check", "promote"]."""
    return [str(t).rstrip("s").replace("checke", "check") for t in parts]


TRANSFORMS = {"event_list": event_list}


@dataclass
class Until(Node):
    trigger_side: Any
    events: list
    restricted_side: Any
    forbidden: list


@dataclass(frozen=True)
class Restriction:
    """Until `trigger_side` has done one of `events`, `restricted_side` may not do any of
    `forbidden` (events: capture, check, promote)."""

    trigger_side: str
    events: tuple
    restricted_side: str
    forbidden: tuple


STATEMENTS = {"restriction_decl": Until}
FIELDS = [("restrictions", tuple, ())]
TEMPLATE = "rules/restrictions.j2"
REFUSALS = {
    "RESTRICTED_CAPTURE": "{mover} may not capture before {trigger} has {events}",
    "RESTRICTED_CHECK": "{mover} may not give check before {trigger} has {events}",
    "RESTRICTED_PROMOTION": "{mover} may not promote before {trigger} has {events}",
}


def resolve(nodes, context):
    out = []
    for node in nodes:
        trigger, restricted = str(node.trigger_side), str(node.restricted_side)
        if trigger == restricted:
            context.error(node, node.restricted_side,
                          "a restriction must name two different sides")
            continue
        out.append(Restriction(trigger_side=trigger, events=tuple(sorted(set(node.events))),
                               restricted_side=restricted,
                               forbidden=tuple(sorted(set(node.forbidden)))))
    return {"restrictions": tuple(out)}


def lower(variant, lowerer):
    """Per restriction: the colours, their names, the events that lift it and the ones
    it forbids, and its bit in the position's `lifted` field."""
    names = variant.side_names
    out = []
    for r in variant.restrictions:
        trigger, restricted = SIDES.index(r.trigger_side), SIDES.index(r.restricted_side)
        out.append({"trigger": trigger, "restricted": restricted,
                    "trigger_name": names[trigger], "restricted_name": names[restricted],
                    "events": list(r.events), "forbidden": list(r.forbidden),
                    "lifted_bit": 1 << trigger})
    return {"restrictions": out}


def active(tables):
    return bool(tables["restrictions"])


def _words(r):
    return (f"restriction: until {r.trigger_side} does one of ({', '.join(r.events)}), "
            f"{r.restricted_side} may not ({', '.join(r.forbidden)})")


def diff_wording(words):
    """How `fairyforge diff` words a change of this rule (compiler/diff/rules.py gives
    the helpers)."""
    words.item_wording("restrictions", "special", "restriction", _words)
