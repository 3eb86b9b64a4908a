"""The generated engines under AddressSanitizer + UBSan (opt-in: --runslow).

Builds every bundled game with -fsanitize=address,undefined and runs random playouts
(push/pop, legal moves, perft, FEN round trips, refused input) in a child process with
the ASan runtime preloaded; see bench/sanitize.py.  The first run compiles nine
sanitized engines (a few minutes); later runs use the cache.
"""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(__file__)
SCRIPT = os.path.join(os.path.dirname(HERE), "bench", "sanitize.py")


@pytest.mark.slow
def test_random_playouts_under_address_sanitizer():
    proc = subprocess.run([sys.executable, SCRIPT, "--plies", "400"], capture_output=True,
                          text=True, timeout=3600)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    assert ", 0 with sanitizer findings" in proc.stdout
