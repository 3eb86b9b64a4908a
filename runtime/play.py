"""`fairyforge play GAME`: play against the engine in the terminal."""

import sys

from .board_text import text_board
from .errors import FairyforgeError
from .search import think

COMMANDS = (("MOVE", "play a move: e2e4, e7e8q (promotion), b2h8+ (shogi-style), P@e4 (drop)"),
            ("moves", "list the legal moves"),
            ("undo", "take back your last move (and the engine's reply)"),
            ("hint", "ask the engine for a move"),
            ("help", "this list"),
            ("quit", "leave the game"))
HELP = "Type a move, or 'help' for the commands."


def help_text():
    width = max(len(name) for name, _ in COMMANDS)
    return "Commands:\n" + "\n".join(f"  {name:<{width}}  {what}" for name, what in COMMANDS)


def board_text(position, flip=False):
    """The board as text, both hands and whose turn (the one text board,
    fairyforge.board_text), turned round for the Black player with `flip`."""
    return text_board(position, flip)


def describe_score(info):
    if info is None:
        return ""
    if info.mate is not None:
        return f"mate in {abs(info.mate)} for {'the engine' if info.mate > 0 else 'you'}"
    return f"{info.score / 100:+.2f} for the engine"


def play(game, human="white", depth=None, movetime=2.0, stdin=sys.stdin, out=sys.stdout,
         fen=None):
    """Play `human`'s side against the engine from the setup (or `fen`) until the game
    ends or the player quits; returns the Outcome, or None."""
    position = game.position(fen) if fen else game.start()
    flip = human == "black"
    say = lambda text="": print(text, file=out, flush=True)   # noqa: E731
    say(f"{game.title}: you play {human}. {HELP}")
    while True:
        say()
        say(board_text(position, flip))
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
        if text in ("help", "?"):
            say(help_text())
        elif text == "moves":
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
        elif text:
            try:
                position.push_uci(text)
            except FairyforgeError as err:
                say(f"{err} (type 'help' for the commands)")
