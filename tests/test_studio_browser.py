"""The studio in a real browser: Chromium driven by Playwright, against the server run
in a thread on a free loopback port.

Skipped, saying why, when Playwright or a Chromium is missing (`.ci/run` installs
Debian's chromium; elsewhere: apt-get install chromium, or set FAIRYFORGE_CHROMIUM to
a Chromium binary).  Set FAIRYFORGE_SCREENSHOTS=DIR to keep the screenshots taken on
the way (the studio on shogi and on Kjartansson, the editor with an error).
"""

import os
import shutil
import socket
import threading
import time

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the studio extra (uvicorn) is not installed")

from fairyforge.compiler import resolve  # noqa: E402
from fairyforge.studio.app import create_app  # noqa: E402


def chromium_path():
    for candidate in (os.environ.get("FAIRYFORGE_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get "
                                "install chromium, or set FAIRYFORGE_CHROMIUM)")


def shogi_back_text():
    """Shogi whose silver may also step straight back (the diff test's example)."""
    with open(resolve.bundled_path("shogi"), encoding="utf-8") as handle:
        return handle.read().replace("piece silver   S   FfW", "piece silver   S   FvW")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("studio")
    (root / "shogi_back.variant").write_text(shogi_back_text())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(str(root)), host="127.0.0.1", port=port,
                            log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert instance.started, "the studio did not start"
    yield f"http://127.0.0.1:{port}/"
    instance.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM,
                                     args=["--no-sandbox", "--disable-gpu"])
        yield instance
        instance.close()


@pytest.fixture()
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(60_000)
    yield page
    context.close()
    assert not errors, errors


def shot(page, name):
    folder = os.environ.get("FAIRYFORGE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name))


def open_game(page, server, name):
    page.goto(f"{server}?game={name}")
    page.wait_for_function("document.querySelector('#game-title').textContent.length > 0")
    page.wait_for_selector("#board svg")


def click_square(page, square):
    """Click the middle of a square (a piece there takes the click, as for a person)."""
    box = page.locator(f'#board rect.square[data-square="{square}"]').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def click_hand(page, side, letter):
    page.locator(f'#board .hand-piece[data-side="{side}"][data-drop="{letter}"]').click()


def move_list(page):
    return page.locator("#moves li").all_inner_texts()


def wait_moves(page, count):
    page.wait_for_function(f"document.querySelectorAll('#moves li').length === {count}")


def test_the_studio_loads_with_a_board(page, server):
    open_game(page, server, "chess")
    assert page.locator("#board rect.square").count() == 64
    assert page.locator("#board g.piece").count() == 32
    assert page.locator("#game-select option").count() >= 9


def test_shogi_with_a_promotion_choice_and_a_drop(page, server):
    open_game(page, server, "shogi")
    for frm, to, count in (("c3", "c4", 1), ("g7", "g6", 2)):
        click_square(page, frm)
        click_square(page, to)
        wait_moves(page, count)
    click_square(page, "b2")
    assert page.locator("#board .hint").count() > 0          # its legal moves are marked
    click_square(page, "h8")
    menu = page.locator("#promotion")
    menu.wait_for(state="visible")
    assert sorted(menu.locator("button[data-uci]").all_inner_texts()) == [
        "horse (Bxh8+)", "no promotion (Bxh8=)"]
    menu.locator('button[data-uci="b2h8+"]').click()
    wait_moves(page, 3)
    click_square(page, "g9")
    click_square(page, "h8")
    wait_moves(page, 4)
    click_hand(page, "white", "B")
    click_square(page, "e5")
    wait_moves(page, 5)
    assert move_list(page) == ["Pc4", "Pg6", "Bxh8+", "Sxh8", "B@e5"]
    assert page.locator('#board g.piece[data-square="e5"]').get_attribute("data-piece") == "B"
    shot(page, "studio-shogi.png")


def test_ichess_deployment_with_refused_moves(page, server):
    open_game(page, server, "ichess")
    click_square(page, "e3")                     # a pawn may not move yet ...
    click_square(page, "e4")
    page.wait_for_selector("#message.refused")
    assert "pieces may not move during deployment" in page.inner_text("#message")
    click_hand(page, "white", "K")               # ... and the king comes last
    click_square(page, "e1")
    page.wait_for_function("document.querySelector('#message').textContent.includes('last')")
    assert "must be dropped last" in page.inner_text("#message")
    order = ["Q", "R", "R", "B", "B", "N", "N", "K"]
    white = ["d1", "a1", "h1", "c1", "f1", "b1", "g1", "e1"]
    black = ["d8", "a8", "h8", "c8", "f8", "b8", "g8", "e8"]
    for i, letter in enumerate(order):
        for side, square in (("white", white[i]), ("black", black[i])):
            click_hand(page, side, letter)
            click_square(page, square)
            wait_moves(page, 2 * i + 1 + (side == "black"))
    assert page.locator("#board .hand-piece").count() == 0
    click_square(page, "e3")                     # deployment over: pawns move
    click_square(page, "e4")
    wait_moves(page, 17)
    assert move_list(page)[-1] == "Pe4"
    assert page.inner_text("#message") == ""


def test_kjartansson_board_and_engine(page, server):
    open_game(page, server, "kjartansson")
    assert page.locator("#board rect.square").count() == 9 * 14
    page.select_option("#strength", "d2")
    page.select_option("#engine-side", "black")
    click_square(page, "e5")
    click_square(page, "e6")
    wait_moves(page, 2)                          # the engine answered
    shot(page, "studio-kjartansson.png")


def test_editor_shows_a_diagnostic_where_the_error_is(page, server):
    open_game(page, server, "chess")
    page.click('nav button[data-pane="editor"]')
    page.select_option("#template-list", "game:crazyhouse")
    page.click("#open-template")
    page.wait_for_function("document.querySelector('#source').value.includes('crazyhouse')")
    page.wait_for_selector("#diagnostics li.ok")
    source = page.locator("#source")
    text = source.input_value().replace("drop all in all", "drop all in everywhere")
    source.fill("")
    source.type(text[:200])                      # typed, as a person would (the start)
    source.fill(text)
    item = page.locator("#diagnostics li.diagnostic").first
    item.wait_for()
    line = text.splitlines().index(next(ln for ln in text.splitlines()
                                         if "everywhere" in ln)) + 1
    assert item.get_attribute("data-line") == str(line)
    assert "everywhere" in item.inner_text()
    assert page.locator("#gutter .error-line").inner_text() == str(line)
    shot(page, "studio-editor-error.png")


def test_diff_shows_the_rules_and_the_witness_on_two_boards(page, server):
    open_game(page, server, "chess")
    page.click('nav button[data-pane="diff"]')
    page.select_option("#diff-a", "game:shogi")
    page.select_option("#diff-b", "path:shogi_back.variant")
    page.fill("#diff-depth", "2")
    page.click("#compare")
    page.wait_for_selector("#diff-board-a svg")
    assert "silver" in page.inner_text("#diff-text")
    assert page.locator("#diff-board-b line.arrow").count() == 1     # the step back
    assert page.locator("#diff-board-a line.arrow").count() == 0
    assert "only here" in page.inner_text("#diff-caption-b")
    shot(page, "studio-diff.png")
