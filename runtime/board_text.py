"""The text board that str(position) prints: ranks from the top, files a, b, ...
underneath, the hands (in drop games) and whose turn it is.

    8 | r n b q k b n r
    ...
    1 | R N B Q K B N R
        a b c d e f g h
    White to move
"""


from .encoding import FIRST_PIECE_CODE, code_colour, code_type


def text_board(pos, flip=False):
    """The board as text; with `flip`, turned round for the second player (their first
    rank at the bottom)."""
    meta = pos.game.meta
    files, ranks = meta["files"], meta["ranks"]
    tokens = [p["tokens"] for p in meta["pieces"]]
    codes = pos.engine.board()
    width = max(len(t) for pair in tokens for t in pair if t)
    label = len(str(ranks))
    rank_order = range(ranks) if flip else range(ranks - 1, -1, -1)
    file_order = range(files - 1, -1, -1) if flip else range(files)
    lines = []
    for r in rank_order:
        cells = [_token(tokens, codes[r * files + f]).rjust(width) for f in file_order]
        lines.append(f"{r + 1:>{label}} | {' '.join(cells)}")
    lines.append(" " * (label + 3) + " ".join(chr(97 + f).rjust(width) for f in file_order))
    if meta["has_drops"] or meta["setup_has_holdings"]:
        lines += _hands(pos, tokens)
    names = meta["side_names"]
    lines.append(f"{names[pos.engine.state()[0]]} to move")
    return "\n".join(lines)


def _token(tokens, code):
    if code < FIRST_PIECE_CODE:
        return "."
    return tokens[code_type(code)][code_colour(code)]


def _hands(pos, tokens):
    meta = pos.game.meta
    counts = pos.engine.hands()
    ntypes = len(tokens)
    out = []
    for colour, name in enumerate(meta["side_names"]):
        held = [tokens[t][colour] for t in range(ntypes)
                for _ in range(counts[colour * ntypes + t])]
        out.append(f"{name}'s hand: {' '.join(held) or '-'}")
    return out
