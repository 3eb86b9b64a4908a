"""`fairyforge play GAME`: play against the engine in the terminal."""

import sys

from .errors import FairyforgeError
from .search import think

HELP = ("Type a move (e2e4, e7e8q, b2h8+, P@e4), 'moves' to list the legal ones, 'undo' "
        "to take back your last move, 'hint', or 'quit'.")


def board_text(position):
    """The board as text: ranks from the top, both hands, whose turn."""
    meta = position.game.meta
    files, ranks = meta["files"], meta["ranks"]
    codes = position.engine.board()
    tokens = [p["tokens"] for p in meta["pieces"]]
    width = max(len(t) for pair in tokens for t in pair if t) + 1
    lines = []
    for r in range(ranks - 1, -1, -1):
        cells = []
        for f in range(files):
            code = codes[r * files + f]
            cells.append((tokens[(code >> 1) - 1][code & 1] if code > 1 else ".").rjust(width))
        lines.append(f"{r + 1:>3} " + "".join(cells))
    lines.append("    " + "".join(chr(97 + f).rjust(width) for f in range(files)))
    if meta["has_drops"] or meta["setup_has_holdings"]:
        hands = position.engine.hands()
        n = len(tokens)
        for colour, side in enumerate(meta["side_names"]):
            held = " ".join(f"{tokens[t][colour]}x{hands[colour * n + t]}"
                            for t in range(n) if hands[colour * n + t])
            lines.append(f"    {side} holds: {held or '-'}")
    lines.append(f"    {meta['side_names'][0 if position.turn == 'white' else 1]} to move")
    return "\n".join(lines)


def describe_score(info):
    if info is None:
        return ""
    if info.mate is not None:
        return f"mate in {abs(info.mate)} for {'the engine' if info.mate > 0 else 'you'}"
    return f"{info.score / 100:+.2f} for the engine"


def play(game, human="white", depth=None, movetime=2.0, stdin=sys.stdin, out=sys.stdout):
    position = game.start()
    say = lambda text="": print(text, file=out, flush=True)   # noqa: E731
    say(f"{game.title}: you play {human}. {HELP}")
    while True:
        say()
        say(board_text(position))
        outcome = position.outcome()
        if outcome is not None:
            winner = outcome.winner or "nobody"
            say(f"Game over: {outcome.reason}, {winner} wins." if outcome.winner
                else f"Game over: {outcome.reason}, a draw.")
            return outcome
        if position.turn != human:
            result = think(position, depth=depth, movetime=None if depth else movetime)
            position.push(result.best_move)
            say(f"Engine plays {result.best_move} ({describe_score(result.info)}, "
                f"depth {result.info.depth}, {result.info.nps} nodes/s)")
            continue
        out.write("Your move: ")
        out.flush()
        line = stdin.readline()
        if not line:
            return None
        text = line.strip()
        if text in ("quit", "exit"):
            return None
        if text == "moves":
            say(" ".join(sorted(str(m) for m in position.legal_moves())))
        elif text == "hint":
            result = think(position, depth=depth or 4)
            say(f"Hint: {result.best_move}")
        elif text == "undo":
            if position.engine.ply() >= 2:
                position.pop()
                position.pop()
            else:
                say("Nothing to take back.")
        else:
            try:
                position.push_uci(text)
            except FairyforgeError as err:
                say(str(err))
