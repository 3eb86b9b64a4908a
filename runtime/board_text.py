"""The text board that str(position) prints: ranks from the top, files a, b, ...
underneath, the hands (in drop games) and whose turn it is.

    8 | r n b q k b n r
    ...
    1 | R N B Q K B N R
        a b c d e f g h
    White to move
"""


def text_board(pos):
    meta = pos.game.meta
    files, ranks = meta["files"], meta["ranks"]
    tokens = [p["tokens"] for p in meta["pieces"]]
    codes = pos.engine.board()
    width = max(len(t) for pair in tokens for t in pair if t)
    label = len(str(ranks))
    lines = []
    for r in range(ranks - 1, -1, -1):
        cells = []
        for f in range(files):
            code = codes[r * files + f]
            cells.append((tokens[(code >> 1) - 1][code & 1] if code >= 2 else ".").rjust(width))
        lines.append(f"{r + 1:>{label}} | {' '.join(cells)}")
    lines.append(" " * (label + 3) + " ".join(chr(97 + f).rjust(width) for f in range(files)))
    if meta["has_drops"] or meta["setup_has_holdings"]:
        lines += _hands(pos, tokens)
    names = meta["side_names"]
    lines.append(f"{names[pos.engine.state()[0]]} to move")
    return "\n".join(lines)


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
