"""USI, UCCI and XBoard sessions, chosen by their first command as Fairy-Stockfish
chooses them, each driven over pipes with every line checked."""

import re

import pytest

from fairyforge.protocols.notation import Usi, ZeroRanks, fen_to_sfen, sfen_to_fen

from test_uci_session import Engine, check_lines

USI_INFO = r"info depth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ time \d+( pv( \S+)+)?"
UCCI_INFO = r"info depth \d+ score (-?\d+|mate -?\d+) nodes \d+ nps \d+ time \d+( pv( \S+)+)?"


def handshake(option, default, ok):
    """The expected answer to a handshake: `option` starts each option line."""
    return ["id name Fairyforge", "id author the Fairyforge developers",
            rf"{option} Hash type spin default 16 min 1 max 4096",
            rf"{option} Threads type spin default 1 min 1 max 64",
            rf"{option} MultiPV type spin default 1 min 1 max 256",
            rf"{option} Ponder type check default false",
            rf"{option} Move[ _]Overhead type spin default 100 min 0 max 5000",
            rf"{option} UCI_LimitStrength type check default false",
            rf"{option} UCI_Elo type spin default 1350 min 500 max 2850",
            rf"{option} UCI_Chess960 type check default false",
            rf"{option} UCI_Variant type combo default {default}( var \S+)+",
            rf"{option} VariantPath type string default <empty>", ok]


@pytest.fixture
def engine():
    process = Engine()
    yield process
    process.kill()


def test_usi_session(engine, games):
    shogi = games["shogi"]
    engine.send("usi")
    check_lines(engine.until("usiok"), handshake("option name", "shogi", "usiok"))
    assert engine.ask("setoption name USI_Hash value 64", "setoption name USI_Ponder value false",
                      "usinewgame", "position startpos moves 7g7f 3c3d") == []
    check_lines(engine.ask("d"), [
        "info string sfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        r"info string fen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL\[\] w "
        "- - 2 2", (r"info string +\d+( +[.A-Za-z+]+)+", "+")])
    lines = engine.search("go btime 1000 wtime 1000 byoyomi 200")
    check_lines(lines, [(USI_INFO, "+"), r"bestmove \S+ ponder \S+"])
    position = shogi.start()
    for move in ("c3c4", "g7g6"):
        position.push_uci(move)
    assert Usi(shogi).find(lines[-1].split()[1], position.legal_moves()) is not None
    lines = engine.search("position sfen 8k/9/8P/9/9/9/9/9/K8 b G 1", "go depth 3")
    check_lines(lines, [(USI_INFO, "+"), r"bestmove G\*1b.*"])
    assert "score mate 1 " in lines[-2]                     # mate distances in plies
    check_lines(engine.search("position sfen 8k/8G/8P/9/9/9/9/9/K8 w - 2", "go depth 2"),
                ["info depth 0 score mate 0", "bestmove resign"])
    engine.send("gameover win")
    assert engine.quit() == []


def test_ucci_session(engine, games):
    xiangqi = games["xiangqi"]
    engine.send("ucci")
    check_lines(engine.until("ucciok"), handshake("option", "xiangqi", "ucciok"))
    assert engine.ask("setoption Hash 32", "position startpos moves h2e2 h9g7") == []
    position = xiangqi.start()
    for move in ("h3e3", "h10g8"):
        position.push_uci(move)
    assert engine.ask("d")[0] == f"info string fen {position.fen()}"
    lines = engine.search("go depth 2")
    check_lines(lines, [(UCCI_INFO, "+"), r"bestmove [a-i][0-9][a-i][0-9] ponder \S+"])
    best = lines[-1].split()[1]
    assert ZeroRanks(xiangqi).find(best, position.legal_moves()) is not None
    lines = engine.search(f"banmoves {best}", "go depth 2")
    assert lines[-1].split()[1] != best
    mated = "3k5/3R5/9/9/9/9/9/9/9/3RK4 b - - 0 1"
    assert xiangqi.position(mated).outcome().reason == "checkmate"
    engine.send(f"position fen {mated}", "go time 5 increment 0")
    check_lines(engine.until("nobestmove"), ["info depth 0 score mate 0", "nobestmove"])
    engine.send("quit")
    assert engine.finish() == ["bye"]


def test_xboard_session(engine, games):
    games["xiangqi"]
    engine.send("xboard", "protover 2")
    lines = engine.until("feature done=1")
    check_lines(lines, [
        r'feature setboard=1 usermove=1 time=1 memory=1 smp=1 colors=0 draw=0 sigint=0 '
        r'sigterm=0 ping=1 analyze=1 reuse=1 myname="Fairyforge" variants="[a-z0-9,-]*normal[a-z0-9,-]*"',
        'feature option="Move Overhead -spin 100 0 5000"',
        'feature option="UCI_LimitStrength -check 0"',
        'feature option="UCI_Elo -spin 1350 500 2850"',
        'feature option="UCI_Chess960 -check 0"',
        'feature option="VariantPath -string <empty>"', "feature done=1"])
    variants = lines[0].split('variants="')[1].rstrip('"').split(",")
    assert len(variants) == len(set(variants)), variants        # `normal` once
    engine.send("new", "sd 2", "usermove e2e4")
    move = engine.until(r"move \S+", 60)[-1].split()[1]
    position = games["chess"].start()
    position.push_uci("e2e4")
    position.push_uci(move)                                 # legal for Black
    engine.send("usermove e2e5", "ping 7")
    check_lines(engine.until("pong 7"), [r"Illegal move \(illegal move e2e5: .*\): e2e5",
                                         "pong 7"])
    engine.send("force", "setboard 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go", "ping 8")
    check_lines(engine.until("pong 8"), [r"1-0 \{White wins by checkmate\}", "pong 8"])
    engine.send("setboard nonsense", "variant nosuch", "frobnicate", "ping 9")
    check_lines(engine.until("pong 9"), [r"# error: position refused: .*",
                                         "tellusererror Illegal position",
                                         "Error \\(unsupported variant\\): nosuch",
                                         "Error \\(unknown command\\): frobnicate", "pong 9"])
    engine.send("new", "variant xiangqi", "post", "sd 2", "go")
    lines = engine.until(r"move \S+", 60)
    check_lines(lines, [r"# variant xiangqi files 9 ranks 10",
                        ("# waiting for the xiangqi engine to be built", "*"),
                        (r"\d+ -?\d+ \d+ \d+\t\S+( \S+)*", "+"), r"move [a-i][0-9][a-i][0-9]"])
    engine.send("force", "analyze")
    engine.until(r"\d+ -?\d+ \d+ \d+\t.*", 30)
    engine.send("exit", "undo", "ping 10")
    lines = engine.until("pong 10")
    assert all(re.fullmatch(r"\d+ -?\d+ \d+ \d+\t.*|pong 10", line) for line in lines), lines
    assert engine.quit() == []


def test_sfen_and_fen_convert_both_ways(games):
    shogi = games["shogi"]
    sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w 2Pb 4"
    fen = sfen_to_fen(sfen.split(), shogi)
    assert fen == ("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[PPb] b - - 0 2")
    assert fen_to_sfen(fen) == sfen
    assert fen_to_sfen(shogi.start_fen) == ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
                                            "LNSGKGSNL b - 1")
