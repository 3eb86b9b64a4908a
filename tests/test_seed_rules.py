"""Position tests for the five seed games: each rule of their pages in docs/rules/ (cited
by page, section and ambiguity number) enforced by the compiled engine, refusals
included."""

import pytest

import fairyforge as ff


def legal(pos):
    return {str(m) for m in pos.legal_moves()}


def refused(pos, move, words):
    before = pos.fen()
    with pytest.raises(ff.IllegalMoveError, match=words):
        pos.push_uci(move)
    assert pos.fen() == before


# --- iChess, docs/rules/ichess.md -------------------------------------------------

ICHESS_SAMPLE = """R@a1 R@h8 B@f4 R@f8 R@g1 Q@a8 Q@f2 B@d5 B@e4 N@g8 N@g4 N@g5 N@c4 B@c5 K@h1 K@a7
f4g5 g6g5 e4d5 d6d5 g4h2 g8e7 N@e4 h8g8 B@f4 d5d4 d3d4 c5d4 P@d3 c6c5 d3d4 c5c4
c3c4 e7f5 c4c5f N@h7 c5b6 a7b6 a1d1 f8d8 f2c2 d8c8 c2d3 B@e7 d1a1 a8b7 e4f6 f5g3
g1g3 e7f6 B@e4 b7d7 e4h7 d7d4 d3d4 f6d4 Q@b4 N@b5 h7g8 c8g8 N@a4 b6a7 b4b5 d4a1
b5b6 a7a8 b6a6 R@a7 a4b6""".split()
# Plies (0-based) the sample game marks with + or #: 19.FxPb6+ 24...NxPg3+ 28.QxQd4+
# 29.Q=b4+ 31.N=a4+ 33.Qb6+ 34.QxPa6+ 35.Nb6#
ICHESS_CHECKS = {36, 47, 54, 56, 60, 64, 66, 68}


def test_ichess_sample_game_replays_and_ends_in_mate(games):
    """ichess.md §9, the sample game: every move legal, every + a check, no other check,
    35.Nb6#."""
    pos = games["ichess"].start()
    for ply, move in enumerate(ICHESS_SAMPLE):
        pos.push_uci(move)
        assert pos.is_check() == (ply in ICHESS_CHECKS), (ply, move)
        if ply < len(ICHESS_SAMPLE) - 1:
            assert pos.outcome() is None
    assert pos.fen().startswith("k5r1/r7/QN2p2p/6p1/5B2/PP2PPRP/7N/b6K[PPPPRNNppppqbb] b")
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == ("white", "checkmate")


def test_ichess_setup_pawns_on_board_everything_else_in_hand(games):
    """ichess.md §2.3-2.4 (ambiguity 1: pawns on ranks 3 and 6)."""
    assert games["ichess"].start().fen() == \
        "8/8/pppppppp/8/8/PPPPPPPP/8/8[KQRRBBNNkqrrbbnn] w - - 0 1"


def test_ichess_deployment_drops_only_in_own_half_no_board_moves(games):
    """ichess.md §6.1, §5.2: drops onto the own drop zone, no moves of board pieces."""
    pos = games["ichess"].start()
    moves = legal(pos)
    assert all("@" in m for m in moves)
    assert "Q@d4" in moves and "Q@d5" not in moves
    refused(pos, "a3a4", "pieces may not move during deployment")
    refused(pos, "Q@e5", "may not be dropped on e5")


def test_ichess_king_is_dropped_last(games):
    """ichess.md §6.1, ambiguity 3: the King only when it is the last piece in hand."""
    pos = games["ichess"].start()
    refused(pos, "K@e1", "king must be dropped last")
    for move in ICHESS_SAMPLE[:14]:
        pos.push_uci(move)
    assert {m[0] for m in legal(pos)} == {"K"}          # only the King is left
    pos.push_uci("K@h1")
    assert any("@" not in m for m in legal(pos)) is False   # Black still deploys
    pos.push_uci("K@a7")
    assert any("@" not in m for m in legal(pos))           # normal play begins


def test_ichess_king_not_dropped_on_an_attacked_square(games):
    """ichess.md §6.2, ambiguity 4: the King may not be dropped into check."""
    pos = games["ichess"].position("8/8/pppppppp/8/Q7/PPPPPPPP/8/4K3[k] b - - 0 8")
    moves = legal(pos)
    assert "K@b5" not in moves                  # the a4 queen attacks b5
    refused(pos, "K@b5", "leave Black's king attacked")
    assert "K@a8" in moves


def test_ichess_promotion_to_ferz_optional_then_forced(games):
    """ichess.md §4: optional on moves ending in ranks 5-8, forced on rank 8."""
    pos = games["ichess"].position("k7/4P3/8/8/3P4/8/8/K7[] w - - 0 20")
    assert {"d4d5", "d4d5f"} <= legal(pos)
    assert {m for m in legal(pos) if m.startswith("e7")} == {"e7e8f"}


def test_ichess_captured_ferz_returns_as_pawn(games):
    """ichess.md §5.1: a captured Ferz is demoted and goes to hand as a Pawn."""
    pos = games["ichess"].position("k7/8/8/8/3F4/8/3r4/K7[] b - - 0 20")
    pos.push_uci("d2d4")
    assert pos.fen().split()[0].endswith("[p]")


def test_ichess_no_two_own_pawns_on_a_file(games):
    """ichess.md §5.3: nifu; a Ferz does not count (ambiguity 8)."""
    pos = games["ichess"].position("k7/8/8/8/8/3P4/8/K3F3[PP] w - - 0 20")
    moves = legal(pos)
    assert "P@d2" not in moves and "P@e2" in moves
    refused(pos, "P@d2", "file that already holds an own pawn")


def test_ichess_pawn_drop_mate_is_legal(games):
    """ichess.md §5.4: a pawn drop may checkmate (explicit difference from shogi)."""
    pos = games["ichess"].position("5BR1/8/8/7k/8/6K1/8/8[P] w - - 0 30")
    assert "P@h4" in legal(pos)
    pos.push_uci("P@h4")
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == ("white", "checkmate")


def test_ichess_no_legal_move_loses(games):
    """ichess.md §7.2, ambiguity 6: stalemate loses."""
    pos = games["ichess"].position("k7/2Q5/8/8/8/8/8/K7[] b - - 0 30")
    assert legal(pos) == set() and not pos.is_check()
    assert pos.outcome().winner == "white"


# --- WWII Chess, docs/rules/wwii.md ----------------------------------------------

def wwii(games, fen):
    return games["wwii"].position(fen)


def test_wwii_setup_and_japan_moves_first(games):
    """wwii.md §2 (ambiguity 1: the Bishop on b2)."""
    pos = games["wwii"].start()
    assert pos.fen() == "1rnbqkbnr/1pppppppp/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w k - 0 1 -"
    assert pos.turn == "white" and len(legal(pos)) == 30       # shogi's 30 opening moves


def test_wwii_usa_may_not_capture_check_or_promote_before_japan(games):
    """wwii.md §6.3, rule 8, with the refusal's reason."""
    pos = games["wwii"].start()
    for move in ("e3e4", "d8d6", "e4e5"):
        pos.push_uci(move)
    refused(pos, "d6e5", "USA may not capture before Japan has captured, checked or promoted")
    check = wwii(games, "4k4/9/9/9/9/9/9/3r5/4K4[] b - - 0 1 -")
    refused(check, "d2e2", "USA may not give check before Japan")
    promote = wwii(games, "4k4/9/9/9/9/9/4p4/9/K8[] b - - 0 1 -")
    assert {m for m in legal(promote) if m.startswith("e3")} == {"e3e2"}   # 8th rank: no promotion yet


def test_wwii_restriction_lifts_for_good(games):
    """wwii.md §6.3, rule 8: once Japan has captured (or checked, or promoted) the flag
    stays set."""
    fen = "4k4/9/9/4p4/r1G1P4/9/9/9/4K4[] w - - 0 1 -"
    quiet = wwii(games, fen)
    quiet.push_uci("e1d1")
    refused(quiet, "a5c5", "USA may not capture")
    lifted = wwii(games, fen)
    lifted.push_uci("e5e6")                     # Japan captures: the restriction lifts
    assert lifted.fen().split()[-1] == "w"
    lifted.push_uci("a5c5")
    lifted.push_uci("e1d1")
    assert lifted.fen().split()[-1] == "w"      # and stays lifted


def test_wwii_japan_keeps_captures_with_chess_powers_usa_removes(games):
    """wwii.md §5.1-5.2: Japan's captures go to its hand as chess pieces, the USA's leave."""
    pos = wwii(games, "4k4/9/9/4q4/9/9/4R4/9/K8[] w - - 0 1 -")
    pos.push_uci("e3e6")
    assert pos.fen().split()[0].endswith("[Q]")
    pos.push_uci("e9d9")
    assert "Q@a5" in legal(pos)
    usa = wwii(games, "4k4/9/9/4r4/9/9/4R4/9/K8[] b - - 0 1 w")
    usa.push_uci("e6e3")
    assert usa.fen().split()[0].endswith("[]")


def test_wwii_chess_pawns_promote_on_owner_8th_or_9th(games):
    """wwii.md §4.2, ambiguity 2: optional on the owner's 8th rank, forced on the 9th;
    Japan-owned chess pawns (O) promote to Japan-owned chess pieces."""
    usa = wwii(games, "4k4/9/9/9/9/9/9/4p4/K8[] b - - 0 1 w")
    assert {m for m in legal(usa) if m.startswith("e2")} == {"e2e1q", "e2e1r", "e2e1b", "e2e1n"}
    usa8 = wwii(games, "4k4/9/9/9/9/9/4p4/9/K8[] b - - 0 1 w")
    assert {"e3e2", "e3e2q"} <= legal(usa8)
    japan = wwii(games, "k8/4O4/9/9/9/9/9/9/4K4[] w - - 0 1 -")
    assert {m for m in legal(japan) if m.startswith("e8")} == {"e8e9q", "e8e9c", "e8e9i", "e8e9j"}


def test_wwii_promoted_chess_pieces_keep_their_rank_when_captured(games):
    """wwii.md §5.2 (rule 6): a promoted USA pawn is captured as what it became."""
    pos = wwii(games, "4k4/9/9/9/9/9/9/4p4/K2R5[] b - - 0 1 w")
    pos.push_uci("e2e1q")
    pos.push_uci("d1e1")
    assert pos.fen().split()[0].endswith("[Q]")


def test_wwii_japan_drops_no_chess_pawn_on_ranks_8_9(games):
    """wwii.md §5.3 (rule 4): chess pawns not on ranks 8-9, other pieces anywhere."""
    pos = wwii(games, "4k4/9/9/9/9/9/9/9/K8[OQ] w - - 0 1 -")
    moves = legal(pos)
    assert "O@a8" not in moves and "O@a9" not in moves and "O@a7" in moves
    assert "Q@a9" in moves


def test_wwii_usa_castles_kingside_only(games):
    """wwii.md §6.1, ambiguity 9: K f9-h9, R i9-g9; no queenside castling."""
    pos = wwii(games, "1r3k2r/9/9/9/9/9/9/9/K8[] b k - 0 1 w")
    assert "f9h9" in legal(pos)
    pos.push_uci("f9h9")
    assert pos.fen().startswith("1r4rk1/")
    assert "f9d9" not in legal(wwii(games, "1r3k2r/9/9/9/9/9/9/9/K8[] b k - 0 1 w"))


def test_wwii_no_en_passant(games):
    """wwii.md §6.2: en passant is prohibited for both sides."""
    pos = wwii(games, "4k4/4p4/3O5/9/9/9/9/9/K8[] b - - 0 1 w")
    pos.push_uci("e8e6")
    assert pos.fen().split()[3] == "-"
    assert "d7e8" not in legal(pos) and not any(m.startswith("d7e") for m in legal(pos))


def test_wwii_stalemating_the_opponent_is_illegal(games):
    """wwii.md §7.2, ambiguity 6: a move that leaves the opponent without a legal move is
    illegal."""
    # Japan's gold on b7 would take the last free square of the USA king on a9.
    pos = wwii(games, "k8/2G6/2G6/9/9/9/9/9/4K4[] w - - 0 1 -")
    assert "a9a8" in legal(wwii(games, "k8/2G6/2G6/9/9/9/9/9/4K4[] b - - 0 1 -"))
    refused(pos, "c7b7", "stalemating is not allowed")


def test_wwii_perpetual_check_is_illegal(games):
    """wwii.md §7.3, ambiguity 7: the checking move that makes the 4th occurrence is refused."""
    pos = wwii(games, "R8/4k4/9/9/9/9/9/9/4K4[] w - - 0 1 -")
    for _ in range(3):
        for move in ("a9a8", "e8e9", "a8a9", "e9e8"):
            pos.push_uci(move)
    refused(pos, "a9a8", "perpetual check")


# --- Frontofhouse, docs/rules/frontofhouse.md ---------------------------------------------

def foh(games, fen):
    return games["frontofhouse"].position(fen)


@pytest.mark.parametrize("victim,hand", [("r", "W"), ("q", "F"), ("b", "M"), ("n", "H"),
                                         ("s", "P"), ("p", "P"), ("w", "W")])
def test_frontofhouse_captures_return_as_forward_only_pieces(games, victim, hand):
    """frontofhouse.md §5.1: every capture enters the hand as its FO counterpart."""
    pos = foh(games, f"4k3/8/8/3{victim}4/8/4N3/8/4K3[] w - - 0 1")
    pos.push_uci("e3d5")
    assert pos.fen().split()[0].endswith(f"[{hand}]")


def test_frontofhouse_fo_pieces_promote_on_7th_optional_8th_forced(games):
    """frontofhouse.md §4.3: Wing -> Rook optional on the enemy pawn rank, forced on the
    far rank."""
    pos = foh(games, "4k3/8/W7/8/8/8/8/4K3[] w - - 0 1")
    assert {m for m in legal(pos) if m.startswith("a6")} == {"a6a7", "a6a7r", "a6a8r"}


def test_frontofhouse_helm_must_promote_anywhere_in_the_enemy_camp(games):
    """frontofhouse.md §4.2: Helms ending a move in the enemy camp must promote (ambiguity 4)."""
    pos = foh(games, "k7/8/8/3H4/8/8/8/4K3[] w - - 0 1")
    assert {m for m in legal(pos) if m.startswith("d5")} == {"d5c7n", "d5e7n"}


def test_frontofhouse_pawns_promote_only_to_steward(games):
    """frontofhouse.md §4.1, ambiguity 3: Pawn -> Steward, optional on rank 7, forced on 8."""
    pos = foh(games, "4k3/1P6/8/8/8/6P1/8/4K3[] w - - 0 1")
    assert {m for m in legal(pos) if m.startswith("b7")} == {"b7b8s"}
    pos2 = foh(games, "4k3/8/1P6/8/8/8/8/4K3[] w - - 0 1")
    assert {m for m in legal(pos2) if m.startswith("b6")} == {"b6b7", "b6b7s"}


def test_frontofhouse_double_step_from_either_camp_rank_with_en_passant(games):
    """frontofhouse.md §6.1-6.2, ambiguity 6: a pawn on rank 1 or 2 may double-step;
    en passant."""
    pos = foh(games, "4k3/8/8/8/8/1p6/8/P3K3[] w - - 0 1")
    assert {m for m in legal(pos) if m.startswith("a1")} == {"a1a2", "a1a3"}
    pos.push_uci("a1a3")
    assert pos.fen().split()[3] == "a2"
    pos.push_uci("b3a2")
    assert pos.fen().split()[0] == "4k3/8/8/8/8/8/p7/4K3[p]"   # Black took it


def test_frontofhouse_castling_only_with_the_unmoved_array_rook(games):
    """frontofhouse.md §6.3, ambiguity 8."""
    pos = foh(games, "4k3/8/8/8/8/8/8/4K2R[] w K - 0 1")
    assert "e1g1" in legal(pos)
    for move in ("h1h2", "e8e7", "h2h1", "e7e8"):
        pos.push_uci(move)
    assert "e1g1" not in legal(pos)


def test_frontofhouse_no_drop_where_promotion_would_be_required(games):
    """frontofhouse.md §5.2: Helm not in the enemy camp; others not on the far rank;
    pawns may go on the own first rank."""
    pos = foh(games, "4k3/8/8/8/8/8/8/4K3[HWMFP] w - - 0 1")
    moves = legal(pos)
    assert not {"H@a7", "H@a8", "W@a8", "M@a8", "F@a8", "P@a8"} & moves
    assert {"H@a6", "W@a7", "M@a7", "F@a7", "P@a7", "P@a1"} <= moves
    refused(pos, "H@a7", "helm may not be dropped on a7: it could never move from there")


# --- Kjartansson 9x14, docs/rules/kjartansson.md ---------------------------------------------

def kj(games, rows, hand="", side="w"):
    """A Kjartansson position from 14 rank strings (rank 14 first)."""
    return games["kjartansson"].position("/".join(rows) + f"[{hand}] {side} - - 0 1")


EMPTY14 = ["9"] * 14


def board(**pieces):
    """Rows for a 9x14 board with pieces given as square=token (d1="K")."""
    grid = [["."] * 9 for _ in range(14)]
    for square, token in pieces.items():
        grid[14 - int(square[1:])][ord(square[0]) - 97] = token
    rows = []
    for row in grid:
        text, empty = "", 0
        for cell in row:
            if cell == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return rows


def test_kjartansson_decoded_setup(games):
    """kjartansson.md §2.5: the decoded diagram (ambiguity 2)."""
    assert games["kjartansson"].start().fen() == (
        "lrbakabrl/qeg3geq/1c2s2c1/3hnm3/ppppppppp/9/9/9/9/PPPPPPPPP/3MNH3/1C2S2C1/"
        "QEG3GEQ/LRBAKABRL[] w - - 0 1")


def test_kjartansson_king_and_advisor_confined_to_the_fortress(games):
    """kjartansson.md §6.1: King and Advisors never leave the fortress D1-F3 (ambiguity 16)."""
    pos = kj(games, board(d1="K", e2="A", f14="k"))
    assert {m for m in legal(pos) if m.startswith("d1")} == {"d1e1", "d1d2"}   # e2: own
    assert {m for m in legal(pos) if m.startswith("e2")} == {"e2f1", "e2d3", "e2f3"}


def test_kjartansson_elephant_never_crosses_the_river(games):
    """kjartansson.md §6.1, §5.2, ambiguity 10: the Elephant jumps (A) but stays in its
    own half, and is dropped only there (rule 10d)."""
    pos = kj(games, board(d1="K", c7="E", d8="p", f14="k"), hand="E")
    assert {m for m in legal(pos) if m.startswith("c7")} == {"c7a5", "c7e5"}
    refused(pos, "c7e9", "elephant on c7 may not leave its area")
    assert "E@e5" in legal(pos)
    refused(pos, "E@e9", "may not be dropped on e9")


def test_kjartansson_mao_is_lame_and_helmet_leaps_forward(games):
    """kjartansson.md §3: Mao nN (ambiguity 11), Helmet ffN."""
    pos = kj(games, board(d1="K", e5="M", e6="P", b5="H", f14="k"))
    assert {m for m in legal(pos) if m.startswith("e5")} == {
        "e5c4", "e5c6", "e5g4", "e5g6", "e5d3", "e5f3"}     # the e6 pawn blocks d7, f7
    assert {m for m in legal(pos) if m.startswith("b5")} == {"b5a7", "b5c7"}


def test_kjartansson_cannon_hops_to_capture(games):
    """kjartansson.md §3, ambiguity 12: a screen of either colour."""
    pos = kj(games, board(d1="K", a3="C", a6="P", a9="r", f14="k"))
    moves = {m for m in legal(pos) if m.startswith("a3")}
    assert "a3a9" in moves and "a3a7" not in moves and "a3a5" in moves


def test_kjartansson_pawn_moves_by_river_and_start_rank(games):
    """kjartansson.md §3: fW + fcF, double step from the start rank (ambiguity 5), sideways
    beyond the river (ambiguity 4)."""
    pos = kj(games, board(d1="K", b5="P", e6="P", h9="P", f14="k"))
    assert {m for m in legal(pos) if m.startswith("b5")} == {"b5b6", "b5b7"}
    assert {m for m in legal(pos) if m.startswith("e6")} == {"e6e7"}
    assert {m for m in legal(pos) if m.startswith("h9")} == {"h9h10", "h9h10+", "h9g9", "h9i9"}


def test_kjartansson_en_passant(games):
    """kjartansson.md §6.3, ambiguity 6: an enemy pawn attacking the skipped square."""
    pos = kj(games, board(d1="K", e5="P", d7="p", f14="k"))
    pos.push_uci("e5e7")
    assert pos.fen().split()[3] == "e6"
    pos.push_uci("d7e6")
    assert "P" not in pos.fen().split()[0].split("[")[0]


def test_kjartansson_promotion_in_last_five_ranks(games):
    """kjartansson.md §4 (rule 9): start or end in the zone; forced where no move is left."""
    pos = kj(games, board(d1="K", a13="L", h11="H", c10="S", f14="k"))
    assert {m for m in legal(pos) if m.startswith("a13")} == {"a13a14+"}
    assert {m for m in legal(pos) if m.startswith("h11")} == {"h11g13+", "h11i13+"}
    assert {"c10b9", "c10b9+"} <= legal(pos)           # leaving the zone may promote


def test_kjartansson_promoted_pieces_remember_what_they_were(games):
    """kjartansson.md §5.1, ambiguity 9: a captured promoted Lance returns as a Lance."""
    pos = kj(games, board(d1="K", a10="+L", a12="r", f14="k"), side="b")
    pos.push_uci("a12a10")
    assert pos.fen().split()[0].endswith("[l]")


def test_kjartansson_advisors_are_removed_when_captured(games):
    """kjartansson.md §5.1 (rule 10e): an Advisor is removed from play, not kept in hand."""
    pos = kj(games, board(d1="K", f2="A", f10="r", f14="k"), side="b")
    pos.push_uci("f10f2")
    assert pos.fen().split()[0].endswith("[]")


def test_kjartansson_no_drop_where_a_piece_could_never_move(games):
    """kjartansson.md §5.2 (rule 10b): no Lance on rank 14, no Helmet on ranks 13-14; a
    pawn may go on rank 14 (it still steps sideways there, ambiguity 4)."""
    pos = kj(games, board(d1="K", f14="k"), hand="LHP")
    moves = legal(pos)
    assert not {"L@a14", "H@a13", "H@a14"} & moves
    assert {"L@a13", "H@a12", "P@a14"} <= moves


def test_kjartansson_pawn_drop_may_not_mate(games):
    """kjartansson.md §5.3 (rule 10c): a pawn drop may give check but not checkmate."""
    # The black king on e14 between its own rooks: a pawn on e13 guarded by the gold on
    # e12 (which also covers d13 and f13) would mate.
    # (White pawns on d5 and f5 shield the white king from the rooks.)
    mate = kj(games, board(d1="K", d5="P", f5="P", d14="r", e14="k", f14="r", e12="G"),
              hand="P")
    assert not mate.is_check() and "P@d13" in legal(mate)
    assert "P@e13" not in legal(mate)
    refused(mate, "P@e13", "pawn drop may not give checkmate")
    check = kj(games, board(d1="K", d5="P", f5="P", d14="r", e14="k", f14="r"), hand="P")
    assert "P@e13" in legal(check)              # the king can take an unguarded pawn


def test_kjartansson_kings_may_not_face_each_other(games):
    """kjartansson.md §6.2, ambiguity 13."""
    pos = kj(games, board(e1="K", e7="N", e14="k"))
    assert not any(m.startswith("e7") for m in legal(pos))


def test_kjartansson_stalemate_is_a_draw(games):
    """kjartansson.md §7.1: stalemate is a draw."""
    pos = kj(games, board(f1="K", d14="k", a13="R", e2="R"), side="b")
    assert not pos.is_check() and legal(pos) == set()
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == (None, "stalemate")


def play(pos, moves):
    for move in moves.split():
        assert pos.outcome() is None, move
        pos.push_uci(move)
    return pos


def test_kjartansson_perpetual_chase_is_illegal(games):
    """kjartansson.md §7.4 (rule 6), ambiguity 15: the chasing move that would make the
    3rd occurrence is refused; the chaser must deviate (any other move is fine).  The
    rook shuttles on the a-file attacking the cannon that shuttles on the c-file (a10
    attacks c10, a9 attacks c9)."""
    pos = play(kj(games, board(d1="K", f14="k", a2="R", c10="c")),
               "a2a10 c10c9 a10a9 c9c10 a9a10 c10c9 a10a9 c9c10")
    refused(pos, "a9a10", "repeat the position with a perpetual chase")
    assert {"a9a8", "a9b9"} <= legal(pos)
    assert "a9a10" in legal(kj(games, board(d1="K", f14="k", a9="R", c10="c")))


def test_kjartansson_chaser_must_deviate_before_the_chased_piece_repeats(games):
    """kjartansson.md §7.4, ambiguity 15, "that side must deviate": when the chased
    cannon's shuttle would make the 3rd occurrence, the rook's chasing move before it is
    refused."""
    pos = play(kj(games, board(d1="K", f14="k", a9="R", c10="c")), "a9a10 c10c9 a10a9 "
               "c9c10 a9a10 c10c9")
    refused(pos, "a10a9", "perpetual chase: the chased piece could repeat the position")


def test_kjartansson_repetition_without_a_chase_is_a_draw(games):
    """kjartansson.md §7.2, ambiguity 15: other repetitions are drawn at the 3rd occurrence.  The
    cannon moving away is not chased when it is not only shuttling (here a second
    black piece moves too), and a rook shuttling without attacking chases nothing."""
    # The rook on a2/a3 attacks nothing; the cannon shuttles: a plain repetition.
    pos = play(kj(games, board(d1="K", f14="k", a2="R", c10="c")),
               "a2a3 c10c9 a3a2 c9c10 a2a3 c10c9 a3a2 c9c10")
    assert (pos.outcome().winner, pos.outcome().reason) == (None, "repetition")
    # The rook attacks the cannon every time, but Black shuttles its king, not the
    # cannon: the cannon is attacked, not chased.
    pos = play(kj(games, board(d1="K", f14="k", a1="R", a10="c")),
               "a1a2 f14e14 a2a1 e14f14 a1a2 f14e14 a2a1 e14f14")
    assert (pos.outcome().winner, pos.outcome().reason) == (None, "repetition")


def test_kjartansson_perpetual_check_by_one_piece_is_illegal(games):
    """kjartansson.md §7.3 (rule 7), ambiguity 14: the checking move that repeats a
    position within an unbroken series of checks by the same piece is refused (at the
    3rd occurrence: the draw of ambiguity 15 comes before a 4th)."""
    pos = play(kj(games, board(d1="K", e14="k", a1="R")),
               "a1a14 e14e13 a14a13 e13e14 a13a14 e14e13 a14a13 e13e14")
    refused(pos, "a13a14", "repeat the position with a perpetual check")


def test_kjartansson_perpetual_check_by_two_pieces_is_a_draw(games):
    """kjartansson.md, ambiguity 14, counts the checks of one piece: a knight and a rook
    checking in turn (the knight uncovers the rook) make a plain repetition."""
    pos = play(kj(games, board(d1="K", f14="k", a13="R", d13="N"), side="b"),
               "f14f13 d13b12 f13f14 b12d13 f14f13 d13b12 f13f14")
    assert pos.is_check() is False
    pos.push_uci("b12d13")
    assert pos.is_check()
    assert (pos.outcome().winner, pos.outcome().reason) == (None, "repetition")


# --- Shogi of Chesstonia, docs/rules/chesstonia.md ------------------------------------------

def sc(games, fen):
    return games["chesstonia"].position(fen)


def test_chesstonia_setup_is_marked_provisional():
    """chesstonia.md §2.4, ambiguity 1: the setup is provisional, and the definition says so."""
    from conftest import DEFINITIONS
    text = open(f"{DEFINITIONS}/chesstonia.variant").read()
    assert "PROVISIONAL" in text


def test_chesstonia_pawn_two_step_from_the_first_three_ranks(games):
    """chesstonia.md §3, ambiguity 2: fmnD from ranks 1-3, repeatable."""
    pos = sc(games, "4k4/9/9/9/9/9/9/9/3P5/9/P1P6/4K4[] w - - 0 1")
    moves = legal(pos)
    assert {m for m in moves if m.startswith("a2")} == {"a2a3", "a2a4"}
    assert {m for m in moves if m.startswith("d4")} == {"d4d5"}
    assert {m for m in moves if m.startswith("c2")} == {"c2c3", "c2c4"}


def test_chesstonia_pawns_promote_with_a_choice_of_five(games):
    """chesstonia.md §4, ambiguity 4: Modern Elephant, War Machine, Wazir, Ferz or Knight;
    optional in the zone, forced on the last row."""
    pos = sc(games, "4k4/P8/9/9/4P4/9/9/9/9/9/9/4K4[] w - - 0 1")
    assert {m for m in legal(pos) if m.startswith("e8")} == {
        "e8e9", "e8e9e", "e8e9m", "e8e9w", "e8e9f", "e8e9n"}
    assert {m for m in legal(pos) if m.startswith("a11")} == {
        "a11a12e", "a11a12m", "a11a12w", "a11a12f", "a11a12n"}


def test_chesstonia_captured_promoted_pawn_keeps_its_type(games):
    """chesstonia.md §5.1, ambiguity 5: the captor receives the promoted type."""
    pos = sc(games, "4k4/9/9/N8/9/9/9/9/9/9/4K4/d8[] b - - 0 1")
    pos.push_uci("a1a9")
    assert pos.fen().split()[0].endswith("[n]")


def test_chesstonia_no_doubled_pawns_and_no_pawn_drop_mate(games):
    """chesstonia.md §5.3: nifu (ambiguity 8), pawn-drop mate illegal (ambiguity 9)."""
    pos = sc(games, "4k4/9/9/9/9/9/9/9/9/4P4/9/K8[P] w - - 0 1")
    assert "P@e6" not in legal(pos) and "P@d6" in legal(pos)
    mate = sc(games, "3nkn3/9/4H4/9/9/9/9/9/9/9/9/K8[P] w - - 0 1")   # the horse guards e11
    assert "P@e11" not in legal(mate)
