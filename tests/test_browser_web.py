"""End to end in headless Debian Chromium against a real waitress server on a loopback port.

Skipped, with the reason, when /usr/bin/chromium or Playwright is missing (``make test`` installs Chromium when it
may). Screenshots of the phone, control and review views are written to ``$TILECAM_SCREENSHOTS`` (default: the
test's temporary folder) so a person can look at them.
"""

from __future__ import annotations

import time

import pytest
from browser import PHONE, browser, page, serve, shots, skip_without_chromium  # noqa: F401 (fixtures)

PIN = "246810"

pytestmark = pytest.mark.browser

skip_without_chromium()

from tilecam.engine.lexicon import Lexicon  # noqa: E402


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    lexicon = Lexicon.from_words(["QUANT", "QAT", "AT", "ZA"])
    with serve(tmp_path_factory.mktemp("web-browser"), PIN, threads=24, lexicon=lexicon) as served:
        yield served


def rows_in_moves(page) -> int:
    return page.eval_on_selector("#moves tbody", "t => t.children.length")


def test_a_committed_move_appears_on_an_open_phone_page_within_a_second(served, page, shots):
    server, service = served
    service.new_game(["Ann", "Benedikt"], {"clock_seconds": 1500}, actor="test")
    service.play("8D QUANT", actor="camera")
    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live-ok", timeout=5000)
    assert rows_in_moves(page) == 1
    board_box = page.locator(".board-wrap").bounding_box()
    last_box = page.locator("#last-move").bounding_box()

    t0 = time.monotonic()
    service.play("D8 .AT", actor="camera")
    page.wait_for_function("document.querySelector('#moves tbody').children.length === 2", timeout=1000)
    latency = time.monotonic() - t0
    assert latency < 1.0

    assert "QAT" in page.inner_text("#last-move")
    assert page.inner_text("#players").split() .count("12") == 1
    assert page.locator("#board svg .last").count() == 2
    # No layout shift: the board and the last-move box did not move or change size.
    assert page.locator(".board-wrap").bounding_box() == board_box
    assert page.locator("#last-move").bounding_box() == last_box
    # Fits a 360-px phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(shots / "phone-live.png"), full_page=True)


def test_the_status_line_says_what_the_camera_last_said(served, page):
    """The daemon puts its loop's and tracker's status on the service (``service.device``, never stored); the
    scoreboard's status line shows the tracker's (a board turned on the table, no board found), with each state and
    between game events (``GET /api/device``, polled)."""
    server, service = served
    service.new_game(["Ann", "Ben"], actor="test")
    service.device = {"state": "watching", "tracker": "the board was turned a quarter turn clockwise; watching"}
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#conn.live-ok", timeout=5000)
        assert page.inner_text("#camera-status") == "camera: the board was turned a quarter turn clockwise; watching"
        service.device = {"state": "watching", "tracker": "unreadable: no board found (3 frames so far)"}
        page.wait_for_function("document.querySelector('#camera-status').textContent.includes('no board found')",
                               timeout=5000)            # between game events: polled
        service.device = {}
        service.play("8D QUANT", actor="camera")
        page.wait_for_function("document.querySelector('#camera-status').textContent === ''", timeout=5000)
    finally:
        service.device = {}


def test_browser_reconnects_by_itself_and_catches_up_with_last_event_id(served, page):
    server, service = served
    service.new_game(["Ann", "Ben"], actor="test")
    app = server.app
    streams = app.extensions["tilecam.streams"]
    app.config["SSE_MAX_S"] = 0.5  # the server ends each stream after half a second; the browser must come back
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#conn.live-ok", timeout=5000)
        opened = streams.opened
        time.sleep(0.7)
        # Committed while the first stream has ended and before (or while) the browser reconnects.
        service.play("8D QUANT", actor="camera")
        service.pass_turn(actor="camera")
        page.wait_for_function("document.querySelector('#moves tbody').children.length === 2", timeout=3000)
        assert streams.opened > opened
        # Later reconnects resume from the last id received (Last-Event-ID), not from the page's first ?after=:
        # no event arrives twice.
        reconnects = streams.opened
        deadline = time.monotonic() + 3
        while streams.opened < reconnects + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        service.pass_turn(actor="camera")
        page.wait_for_function("document.querySelector('#moves tbody').children.length === 3", timeout=3000)
        assert page.evaluate("document.getElementById('live').dataset.events") == "3"
    finally:
        app.config["SSE_MAX_S"] = 3600.0


def test_correction_flow_with_the_pin(served, page, shots):
    server, service = served
    service.new_game(["Ann", "Ben"], actor="test")
    service.play("8D QUAN?", actor="camera")
    page.goto(server.url + "/control")
    assert page.locator("#controls").is_hidden()
    messages: list[str] = []
    page.once("dialog", lambda d: (messages.append(d.message), d.accept()))
    page.fill("#pin", "000000")
    page.click("#pin-form button")
    page.wait_for_timeout(300)
    assert messages and "wrong PIN" in messages[0] and page.locator("#controls").is_hidden()

    page.fill("#pin", PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#controls", state="visible")
    assert "Which letter is the blank on 8H?" in page.inner_text("#pending")
    assert "Which letter is the blank on 8H?" in page.inner_text("#last-move")
    # Name the blank.
    page.click("text=Blank's letter")
    page.fill("form[data-action=set_blank] input[name=square]", "H8")
    page.fill("form[data-action=set_blank] input[name=letter]", "t")
    page.click("form[data-action=set_blank] button")
    page.wait_for_function("document.querySelector('#moves tbody td.mv').textContent.includes('QUANt')", timeout=2000)
    # Correct a misread tile: it was a real T.
    page.click("text=Correct a misread tile")
    page.fill("form[data-action=correct_tile] input[name=square]", "H8")
    page.fill("form[data-action=correct_tile] input[name=letter]", "T")
    page.click("form[data-action=correct_tile] button")
    page.wait_for_function("document.querySelector('#players').textContent.includes('48')", timeout=2000)
    assert service.state()["board"][7] == "...QUANT......."
    assert page.inner_text("#pending") == ""
    # A refused command shows the service's reason.
    page.click("button[data-action=withdraw]")
    page.click("button[data-action=withdraw]")
    page.wait_for_function("document.getElementById('msg').classList.contains('bad')", timeout=2000)
    assert "no play" in page.inner_text("#msg")
    page.click("button[data-action=pass]")
    page.wait_for_function("document.querySelector('#moves tbody td.mv').textContent === 'pass'", timeout=2000)
    kinds = [e.kind for e in service.store.events(service.game_id)]
    assert kinds[-4:] == ["set_blank", "correct_tile", "withdraw", "pass"]
    page.screenshot(path=str(shots / "phone-control.png"), full_page=True)


def test_review_replay_steps_through_a_game(served, page, shots):
    server, service = served
    game = service.new_game(["Ann", "Ben"], actor="test")
    service.play("8D QUANT", actor="camera", snapshot_jpeg=_tiny_jpeg())
    service.play("D8 .AT", actor="camera")
    service.pass_turn(actor="camera")
    page.goto(f"{server.url}/review/{game}")
    page.wait_for_function("document.getElementById('review').dataset.shown === '3'", timeout=3000)
    assert page.inner_text("#pos") == "3 / 3"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('review').dataset.shown === '2'", timeout=2000)
    assert "Ben: D8 .AT +12" in page.inner_text("#move-info")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('review').dataset.shown === '1'", timeout=2000)
    assert page.locator("#snapshot img").count() == 1
    assert page.locator("#board svg .tile").count() == 5
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('review').dataset.shown === '0'", timeout=2000)
    assert page.locator("#board svg .tile").count() == 0
    page.click("#last")
    page.wait_for_function("document.getElementById('review').dataset.shown === '3'", timeout=2000)
    assert page.locator("#chart polyline").count() == 2
    assert "Ann" in page.inner_text("#stats") and "48" in page.inner_text("#stats")
    page.screenshot(path=str(shots / "phone-review.png"), full_page=True)


def test_device_page_on_a_landscape_tv(served, browser, shots):
    server, service = served
    context = browser.new_context(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    page = context.new_page()
    page.goto(server.url + "/device")
    page.wait_for_selector("#conn.live-ok", timeout=5000)
    assert page.locator("svg.qr").count() == 1
    board = page.locator(".board-wrap").bounding_box()
    assert board["y"] + board["height"] <= 720 + 1  # the whole board is on screen
    page.screenshot(path=str(shots / "tv-device.png"))
    context.close()


def _tiny_jpeg() -> bytes:
    import cv2
    import numpy as np

    ok, buf = cv2.imencode(".jpg", np.full((48, 64, 3), 128, np.uint8))
    assert ok
    return buf.tobytes()

