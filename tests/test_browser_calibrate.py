"""The calibration page's "Learn my tiles" clicked through in headless Debian Chromium against a real waitress
server, on the phone: the instruction, the button, the PIN, the page waiting, the daemon's answer (issue 23).

Skipped, with the reason, when /usr/bin/chromium or Playwright is missing (as tests/test_browser_web.py). The daemon
is played by the test: it answers with the writers of :mod:`tilecam.core.calibration_files`, as ``tilecam run``
does. Screenshots go to ``$TILECAM_SCREENSHOTS`` (default: the test's temporary folder).
"""

from __future__ import annotations

import time

import pytest
from browser import PHONE, browser, page, serve, shots, skip_without_chromium  # noqa: F401 (fixtures)
from test_web_calibrate import sample

from tilecam.core.calibration_files import (laid_out_request, withdraw_laid_out_request,
                                            write_laid_out_outcome)

PIN = "864209"
POLL_MS = 2000      # calibrate.js polls /api/calibration this often
BUTTON = "Learn my tiles (lay the set out)"

pytestmark = pytest.mark.browser

skip_without_chromium()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    data = tmp_path_factory.mktemp("calibrate-browser")
    with serve(data, PIN) as (server, service):
        yield server, service, data


def result_state(page) -> str | None:
    return page.get_attribute("#laid-out-result", "data-state")


def test_learn_my_tiles_with_the_pin_waits_for_the_camera_and_shows_what_it_learnt(served, page, shots):
    server, service, data = served
    service.new_game(["Ann", "Ben"], {"tileset": "spanish", "lexicon": "none"}, actor="test")
    sample(data)                                  # `tilecam run`'s calibration picture: its camera runs
    page.goto(server.url + "/calibrate")

    # The instruction names the game's set and its tiles in the order to lay them (Spanish: CH is one tile).
    how = page.inner_text("#laid-out-how")
    assert "Spanish set" in how
    order = page.inner_text("#laid-out-order").split()
    assert order[:4] == ["A", "B", "C", "CH"] and order[-1] == "blank" and "Ñ" in order
    assert page.inner_text("#laid-out-result") == "" and result_state(page) is None
    # The PIN form appears only once the button is pressed.
    assert page.locator("#laid-out-pin").is_hidden()

    page.get_by_role("button", name=BUTTON).click()
    page.wait_for_selector("#laid-out-pin", state="visible", timeout=2000)
    assert page.evaluate("document.activeElement.id") == "laid-out-pin-input"
    assert laid_out_request(data) is None           # nothing asked before the PIN
    page.fill("#laid-out-pin-input", PIN)
    page.click("#laid-out-pin button[type=submit]")

    # Asked: the request file is written for the game's set, the PIN form goes away, the page says it waits.
    page.wait_for_function("document.getElementById('laid-out-result').dataset.state === 'asked'", timeout=2000)
    assert page.locator("#laid-out-pin").is_hidden()
    assert page.inner_text("#laid-out-result").startswith("asked")
    assert "next still picture" in page.inner_text("#laid-out-result")
    request = laid_out_request(data)
    assert request is not None and request["tileset"] == "spanish"
    # The page's poll, while the request waits, keeps saying so (it is not wiped by the same state anew).
    page.wait_for_timeout(POLL_MS + 300)
    assert result_state(page) == "asked"

    # The daemon answers from its camera: the outcome written, the request withdrawn.
    learnt = {"state": "learnt", "tiles": 29, "read_alike": 28, "tileset": "spanish", "asked": request["asked"],
              "answered": round(time.time(), 3),
              "message": "29 tiles learnt; 28 of them read as their place's letter: the camera reads your tiles"}
    write_laid_out_outcome(data, learnt)
    withdraw_laid_out_request(data, request["asked"])
    t0 = time.monotonic()
    page.wait_for_function("document.getElementById('laid-out-result').dataset.state === 'learnt'",
                           timeout=POLL_MS + 1500)
    assert time.monotonic() - t0 < (POLL_MS + 1500) / 1000
    assert page.inner_text("#laid-out-result") == learnt["message"]
    assert page.locator("#laid-out-pin").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]   # fits a 360-px phone
    page.locator("#laid-out").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "phone-calibrate-laid-out.png"), full_page=True)

    # Pressed again, the page is unlocked already: it asks at once, with no PIN form.
    page.get_by_role("button", name=BUTTON).click()
    page.wait_for_function("document.getElementById('laid-out-result').dataset.state === 'asked'", timeout=2000)
    assert page.locator("#laid-out-pin").is_hidden()
    assert laid_out_request(data)["asked"] >= request["asked"]
