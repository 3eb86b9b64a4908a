"""Perft against Fairy-Stockfish's counts (tests/data/perft_public.tsv): every row up
to one million nodes.  Deeper rows run with
--runslow; speed is measured by bench/perft.py, never here."""

import csv
import os

import pytest

from conftest import DATA

LIMIT = 1_000_000


def rows():
    with open(os.path.join(DATA, "perft_public.tsv")) as handle:
        return [r for r in csv.DictReader(handle, delimiter="\t")]


def _params(select):
    return [pytest.param(r["variant"], r["fen"], int(r["depth"]), int(r["nodes"]),
                         id=f"{r['variant']}-d{r['depth']}-{r['fen'][:20]}")
            for r in rows() if select(int(r["nodes"]))]


@pytest.mark.parametrize("variant,fen,depth,nodes", _params(lambda n: n <= LIMIT))
def test_perft_matches_fairy_stockfish(games, variant, fen, depth, nodes):
    assert games[variant].position(fen).perft(depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("variant,fen,depth,nodes", _params(lambda n: LIMIT < n <= 25_000_000))
def test_deep_perft(games, variant, fen, depth, nodes):
    assert games[variant].position(fen).perft(depth) == nodes


def test_divide_sums_to_perft(games):
    pos = games["chess"].position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    parts = pos.divide(2)
    assert len(parts) == 48
    assert sum(count for _, count in parts) == 2039


def test_perft_leaves_position_unchanged(games):
    pos = games["shogi"].start()
    before = (pos.fen(), pos.key())
    pos.perft(3)
    assert (pos.fen(), pos.key()) == before
