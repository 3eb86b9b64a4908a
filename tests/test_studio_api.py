"""The studio's server without a browser (Starlette's test client): files stay inside
the folder, uploads are limited, moves are refused with the rule's reason, the
websocket builds and thinks."""

import os
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():     # Starlette 1.x prefers httpx2; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from fairyforge.studio.app import create_app  # noqa: E402
from fairyforge.studio.workspace import MAX_TEXT  # noqa: E402

GOOD = 'variant mini "Mini" extends chess\nstalemate loss\n'


@pytest.fixture()
def folder(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "mini.variant").write_text(GOOD)
    (tmp_path / "secret.variant").write_text('variant secret "Secret" extends chess\n')
    (tmp_path / "secret.txt").write_text("not for the studio")
    return root


@pytest.fixture()
def client(folder):
    with TestClient(create_app(str(folder))) as c:
        yield c


def test_page_and_lists(client):
    page = client.get("/")
    assert page.status_code == 200 and "studio.js" in page.text
    assert client.get("/static/studio.js").status_code == 200
    assert client.get("/static/..%2Fapp.py").status_code == 404
    games = client.get("/api/games").json()
    assert "shogi" in games["bundled"] and games["files"] == ["mini.variant"]


@pytest.mark.parametrize("path", ["../secret.txt", "../secret.variant", "/etc/passwd",
                                  "sub/../../secret.txt", "link/secret.txt", ""])
def test_no_file_outside_the_folder_is_read(client, folder, path):
    os.symlink(folder.parent, folder / "link")
    response = client.get("/api/file", params={"path": path})
    assert response.status_code in (400, 403)
    assert "not for the studio" not in response.text
    assert client.get("/api/reports/file", params={"path": path}).status_code in (400, 403)


@pytest.mark.parametrize("path", ["../evil.variant", "/tmp/evil.variant", "x.py"])
def test_no_file_outside_the_folder_is_written(client, folder, path):
    response = client.put("/api/file", params={"path": path}, json={"text": GOOD})
    assert response.status_code == 403
    assert not (folder.parent / "evil.variant").exists()


def test_write_read_and_limits(client, folder):
    assert client.put("/api/file", params={"path": "sub/new.variant"},
                      json={"text": GOOD}).json() == {"path": "sub/new.variant"}
    assert (folder / "sub" / "new.variant").read_text() == GOOD
    assert client.get("/api/file", params={"path": "sub/new.variant"}).json()["text"] == GOOD
    huge = "#" * (MAX_TEXT + 10)
    assert client.put("/api/file", params={"path": "big.variant"},
                      json={"text": huge}).status_code == 413
    assert client.post("/api/check", json={"text": huge}).status_code == 413
    assert not (folder / "big.variant").exists()


def test_check_reports_line_and_column(client):
    text = 'variant broken "B" extends chess\npiece foo Z Qx\n'
    found = client.post("/api/check", json={"text": text}).json()["diagnostics"]
    assert found and found[0]["line"] == 2 and found[0]["column"] == 14
    assert "Betza" in found[0]["message"]
    assert client.post("/api/check", json={"text": GOOD}).json()["diagnostics"] == []


def test_a_parent_outside_the_folder_is_not_followed(client):
    text = 'variant sneaky "S" extends "../secret.variant"\n'
    found = client.post("/api/check", json={"text": text}).json()["diagnostics"]
    assert [d["line"] for d in found] == [1] and "outside" in found[0]["message"]
    response = client.post("/api/boards", json={"text": text, "path": "s.variant"})
    assert response.status_code == 422 and "outside" in response.text


def test_moves_refusals_navigation_fen_and_pgn(client):
    state = client.post("/api/boards", json={"game": "ichess"}).json()
    board = state["id"]
    assert {m["drop"] for m in state["legal"]} == {"Q", "R", "B", "N"}
    refused = client.post(f"/api/boards/{board}/move", json={"move": "e3e4"})
    assert refused.status_code == 400
    assert "pieces may not move during deployment" in refused.json()["error"]
    refused = client.post(f"/api/boards/{board}/move", json={"move": "K@e1"})
    assert "must be dropped last" in refused.json()["error"]
    state = client.post(f"/api/boards/{board}/move", json={"move": "Q@d1"}).json()
    state = client.post(f"/api/boards/{board}/move", json={"move": "Q@d8"}).json()
    assert state["sans"] == ["Q@d1", "Q@d8"] and state["length"] == 2
    assert client.get(f"/api/boards/{board}", params={"ply": 1}).json()["legal"] == []
    pgn = client.get(f"/api/boards/{board}/pgn")
    assert "1. Q@d1 Q@d8" in pgn.text and "attachment" in pgn.headers["content-disposition"]
    assert client.post(f"/api/boards/{board}/undo").json()["sans"] == ["Q@d1"]
    bad = client.post(f"/api/boards/{board}/fen", json={"fen": "8/8/8 w - - 0 1"})
    assert bad.status_code == 400 and "FEN" in bad.json()["error"]
    chess = client.post("/api/boards", json={"game": "chess"}).json()["id"]
    state = client.post(f"/api/boards/{chess}/fen",
                        json={"fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}).json()
    assert "O-O" in {m["san"] for m in state["legal"]}
    assert client.get("/api/boards/999").status_code == 404


def test_websocket_builds_and_thinks(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "open", "path": "mini.variant"})
        messages = []
        while True:
            messages.append(ws.receive_json())
            if messages[-1]["type"] in ("opened", "build-error"):
                break
        state = messages[-1]["state"]
        assert state["game"] == "mini"
        ws.send_json({"type": "think", "board": state["id"], "depth": 2, "play": True})
        kinds = []
        while not kinds or kinds[-1]["type"] != "bestmove":
            kinds.append(ws.receive_json())
        assert [k["info"]["depth"] for k in kinds if k["type"] == "info"] == [1, 2]
        assert kinds[-1]["state"]["length"] == 1
        ws.send_json({"type": "open", "text": "variant x\n", "path": "x.variant"})
        error = ws.receive_json()
        assert error["type"] == "build-error" and error["diagnostics"]


def test_diff_endpoint(client):
    result = client.post("/api/diff", json={"a": {"game": "chess"},
                                            "b": {"path": "mini.variant"}, "depth": 1}).json()
    assert "stalemate" in result["text"].lower()
    assert result["play"]["found"] is False
    other = client.post("/api/diff", json={"a": {"game": "chess"}, "b": {"game": "shogi"}})
    assert other.json()["play_error"].startswith("cannot compare by play")


def test_the_command_serves_on_loopback(folder):
    """`fairyforge studio --no-browser` answers on 127.0.0.1 from the folder it runs in."""
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "fairyforge.cli", "studio", "--no-browser",
                               "--port", str(port)], cwd=folder, stderr=subprocess.PIPE,
                              text=True)
    try:
        deadline, page = time.monotonic() + 30, None
        while page is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as reply:
                    page = reply.read().decode()
            except OSError:
                time.sleep(0.2)
        assert page is not None and "mini.variant" in page
    finally:
        server.terminate()
        _, err = server.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/" in err
