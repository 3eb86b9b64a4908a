"""Promotions as the resolver reads them: `promote`, `demote` and
`captured promoted pieces revert` (which adds a twin type per promotion choice, as
Fairy-Stockfish's `~` pieces)."""

from .geometry import PieceWalk, squares_of
from .model import Promotion, SquareSet

SIDES = ("white", "black")


class PromotionResolver:
    """Mixed into the Resolver, which provides the pieces read so far, the board,
    regions (as_set), piece_name() and error()."""

    def _promotions(self):
        out = {}
        for st in self.lists["promote"]:
            name = self.piece_name(st, st.piece)
            choices = [self.piece_name(st, c) for c in st.choices]
            errors_before = len(self.bag.items)
            zone = self.as_set(st, st.zone)
            if len(self.bag.items) > errors_before:
                continue            # the zone itself is wrong; that error says enough
            forced = self.as_set(st, st.forced) if st.forced else SquareSet((), ())
            if name is None or None in choices:
                continue
            if not zone.white and not zone.black:
                self.error(st, st.piece, f"promotion of '{name}' can never happen: "
                           "its zone has no squares")
                continue
            on_leaving = st.trigger == "leaving"
            if self.pieces[name]["atoms"] and not self._can_promote(name, zone, on_leaving):
                self.error(st, st.zone[1] if st.zone[0] == "ref" else
                           st.piece,
                           f"promotion of '{name}' can never happen: no move of a {name} "
                           f"{'starts or ends' if on_leaving else 'ends'} in its zone")
                continue
            bad_choice = False
            for k, (choice, token) in enumerate(zip(choices, st.choices)):
                if self.pieces[choice]["royal"]:
                    self.error(st, token, f"'{name}' may not promote to the royal '{choice}'")
                    bad_choice = True
                elif choice == name:
                    self.error(st, token, f"'{name}' cannot promote to itself")
                    bad_choice = True
                elif choice in choices[:k]:
                    # Each choice is a move of its own: listed twice, it would be
                    # generated twice.
                    self.error(st, token, f"'{choice}' is listed twice")
                    bad_choice = True
            plus = [c for c in choices if self.pieces[c]["letter"].startswith("+")]
            if len(plus) > 1:
                # A promotion to a `+X` piece is written with a bare `+` (b2h8+): two such
                # choices would be the same move text and could not be told apart.
                self.error(st, st.choices[choices.index(plus[1])],
                           f"'{plus[0]}' and '{plus[1]}' would both be written '+' in moves: "
                           "give all but one of them an ordinary letter")
                bad_choice = True
            if bad_choice:
                continue
            out[name] = Promotion(choices=tuple(choices), zone=zone,
                                  on_leaving=st.trigger == "leaving", forced=forced,
                                  captured_only=st.captured_only)
        self._flips(out)
        return out

    def _flips(self, out):
        """`flip PIECE… [on capturing]`: each named piece and its `+` side promote into
        each other on every move (every capture), anywhere, compulsorily."""
        everywhere = self.names({(f, r) for f in range(self.files) for r in range(self.ranks)})
        board = SquareSet(everywhere, everywhere)
        promoted = set(out)         # the pieces of `promote` statements
        for st in self.lists["flip"]:
            for token in st.pieces:
                name = self.piece_name(st, token)
                other = name and self._flip_side(st, token, name)
                if other is None:
                    continue
                for src, dst in ((name, other), (other, name)):
                    if src in promoted:     # (a later flip replaces an earlier one)
                        self.error(st, token, f"'{src}' has a promote statement already: "
                                   "a flipping piece promotes by flipping only")
                        continue
                    out[src] = Promotion(choices=(dst,), zone=board, on_leaving=True,
                                         forced=board, on_capture=st.on_capture)

    def _flip_side(self, st, token, name):
        """The piece lettered `+LETTER` that `name` flips to, or None after an error."""
        letter = self.pieces[name]["letter"]
        if letter.startswith("+"):
            self.error(st, token, f"flip names the unpromoted side: '{name}' ({letter}) is "
                       "the promoted side of a piece")
            return None
        other = next((n for n, info in self.pieces.items()
                      if info["letter"] == "+" + letter), None)
        if other is None:
            self.error(st, token, f"'{name}' has no other side to flip to: declare a piece "
                       f"lettered +{letter}")
        elif self.pieces[name]["royal"]:
            self.error(st, token, f"the royal '{name}' cannot flip")
            return None
        return other

    def _can_promote(self, name, zone, on_leaving):
        """Could some move of the piece (on an empty board, initial-only moves allowed
        anywhere) end in the promotion zone (or, `on leaving`, start there), for either
        side?"""
        board = [(f, r) for f in range(self.files) for r in range(self.ranks)]
        for colour, side in enumerate(SIDES):
            squares = squares_of(zone.for_side(side), self.files, self.ranks)
            walk = PieceWalk(self.files, self.ranks, self.symmetry,
                             self.pieces[name]["atoms"], colour)
            for square in board:
                reach = set(walk.reach(square))
                if reach & squares or (on_leaving and reach and square in squares):
                    return True
        return False

    def _demotions(self, promotions):
        """What a captured promoted piece becomes: explicit `demote`, or for a `+X` piece
        the single piece that promotes to it."""
        sources = {}
        for src, promo in promotions.items():
            for choice in promo.choices:
                sources.setdefault(choice, []).append(src)
        out = {}
        explicit = {str(st.piece) for st in self.lists["demote"]}
        for name, info in self.pieces.items():
            if info["letter"].startswith("+") and name not in explicit:
                srcs = sources.get(name, [])
                if len(srcs) == 1:
                    out[name] = srcs[0]
                elif len(srcs) > 1:
                    self.error(info["statement"], info["statement"].name,
                               f"'{name}' is promoted from several pieces ({', '.join(srcs)}): "
                               f"say what it demotes to with `demote {name} to PIECE`")
        for st in self.lists["demote"]:
            name = self.piece_name(st, st.piece)
            target = self.piece_name(st, st.to)
            if name and target:
                out[name] = target
        return out

    def _reverting_types(self, promotions, demotions):
        """`captured promoted pieces revert`: each promotion to an ordinary piece gets a
        twin type that moves the same but returns to hand as the piece it came from
        (written with `~` in FEN, as Fairy-Stockfish does)."""
        if "captured_revert" not in self.statements:
            return []
        st = self.statements["captured_revert"]
        derived = []
        for src, promo in list(promotions.items()):
            new_choices = []
            for choice in promo.choices:
                info = self.pieces[choice]
                if info["letter"].startswith("+") or choice in demotions:
                    new_choices.append(choice)
                    continue
                twin = f"{choice}_from_{src}"
                letter = info["letter"] + "~"
                tokens = tuple(t + "~" if t else None for t in info["tokens"])
                if any(i["letter"] == letter for i in self.pieces.values()):
                    self.error(st, None, f"several pieces promote to '{choice}': cannot tell "
                               "what it reverts to")
                    continue
                self.pieces[twin] = {"statement": info["statement"], "letter": letter,
                                     "tokens": tokens, "betza": info["betza"], "royal": False,
                                     "atoms": list(info["atoms"])}
                demotions[twin] = src
                derived.append({"name": twin, "twin_of": choice})
                new_choices.append(twin)
            promotions[src] = Promotion(tuple(new_choices), promo.zone, promo.on_leaving,
                                        promo.forced, promo.on_capture, promo.captured_only)
        return derived
