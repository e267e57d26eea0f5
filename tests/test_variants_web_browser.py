"""The registry's variants in headless Debian Chromium against a real waitress server: a Super Scrabble, a Spanish,
a Finish Line and a Harry Potter game started from the control page's new-game form, drawn on the phone.

Skipped, with the reason, when /usr/bin/chromium or Playwright is missing (as tests/test_browser_web.py).
Screenshots go to ``$TILECAM_SCREENSHOTS`` (default: the test's temporary folder).
"""

from __future__ import annotations

import pytest
from browser import browser, phone_page, serve, shots, skip_without_chromium  # noqa: F401 (fixtures)

from tilecam.core.lexicons import lexicon_for_settings

PIN = "975310"
WAIT_MS = 3000  # how long the page may take to show what the server committed

pytestmark = pytest.mark.browser

skip_without_chromium()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("variants-browser"), PIN, lexicon=lexicon_for_settings) as served:
        yield served


@pytest.fixture()
def page(browser, served):
    server, _service = served
    with phone_page(browser) as p:
        p.goto(server.url + "/control")
        p.fill("#pin", PIN)
        p.click("#pin-form button")
        p.wait_for_selector("#controls", state="visible")
        yield p


def start(page, variant: str, players=("Ann", "Ben"), **fields: str) -> None:
    """Fill the new-game form as a person would and start the game."""
    page.click("#new-game summary")
    inputs = page.locator("#new-game-form input[name=player]")
    for i in range(4):
        inputs.nth(i).fill(players[i] if i < len(players) else "")
    page.select_option("#ng-variant", variant)
    for selector, value in fields.items():
        element = page.locator(f"#ng-{selector}")
        if element.evaluate("e => e.tagName") == "SELECT":
            element.select_option(value)
        else:
            element.fill(value)
    page.click("#new-game-form button")


def wait_for(page, predicate: str) -> None:
    page.wait_for_function(predicate, timeout=WAIT_MS)


def test_super_scrabble_from_the_form_is_drawn_21_by_21(served, page, shots):
    _server, service = served
    start(page, "super")
    wait_for(page, "window.tilecamState && window.tilecamState.size === 21")
    assert service.state()["settings"]["tileset"] == "english-super"
    assert page.locator("#ng-tileset").input_value() == "english-super"  # the variant brought its tiles
    service.play("11K QUANT", actor="camera")
    wait_for(page, "document.querySelectorAll('#board rect.square').length === 441 && "
                   "document.querySelectorAll('#board rect.last').length === 5")
    assert "Super Scrabble" in page.inner_text("#variant")
    page.screenshot(path=str(shots / "variant-super.png"), full_page=True)


def test_spanish_tiles_from_the_form_show_ch(served, page, shots):
    _server, service = served
    start(page, "tournament", tileset="spanish")
    wait_for(page, "window.tilecamState && window.tilecamState.settings.tileset === 'spanish'")
    assert "No word list ships" in page.locator("#ng-lexicon-hint").text_content()
    page.click("text=Play a word by hand")
    page.fill("form[data-action=play] input[name=position]", "8G")
    page.fill("form[data-action=play] input[name=word]", "[CH]E")
    page.click("form[data-action=play] button")
    wait_for(page, "document.querySelector('#moves tbody td.mv') && "
                   "document.querySelector('#moves tbody td.mv').textContent === '8G [CH]E'")
    texts = page.eval_on_selector_all("#board text", "ts => ts.map(t => t.textContent)")
    assert "CH" in texts and "Ç" not in texts
    assert service.state()["players"][0]["score"] == 12
    page.screenshot(path=str(shots / "variant-spanish.png"), full_page=True)


def test_finish_line_from_the_form_shows_target_and_progress(served, page, shots):
    _server, service = served
    page.click("#new-game summary")
    page.select_option("#ng-variant", "finish-line")
    assert page.locator("#ng-finish-line").is_visible()
    page.click("#new-game summary")  # closed again; start() opens it
    start(page, "finish-line", players=("Ann", "Ben", "Cy"), level="beginner")
    wait_for(page, "window.tilecamState && window.tilecamState.target")
    target = service.state()["target"]
    assert f"target {target}" in page.inner_text("#variant")
    service.play("8D QUANT", actor="camera")
    wait_for(page, f"document.querySelector('#players .progress .need').textContent === '{target - 48} to go'")
    width = page.eval_on_selector("#players .progress i", "i => i.style.width")
    assert width == f"{round(100 * 48 / target)}%"
    page.screenshot(path=str(shots / "variant-finish-line.png"), full_page=True)


def test_harry_potter_card_and_magical_word_from_the_phone(served, page, shots):
    _server, service = served
    start(page, "harry-potter", players=("Harry", "Ron"))
    wait_for(page, "window.tilecamState && window.tilecamState.cards")
    service.play("8D QUANT", actor="camera")
    wait_for(page, "!document.getElementById('harry-potter').hidden")
    page.click("#harry-potter summary")
    page.fill("#card-form input[name=name]", "First-years o'er here")
    page.fill("#card-form input[name=multiplier]", "3")
    page.click("#card-form button")
    wait_for(page, "document.querySelector('#moves tbody td.mv').textContent.startsWith('card')")
    page.click("#magical-form button")
    wait_for(page, "document.querySelector('#moves tbody td.mv').textContent === 'magical word QUANT'")
    assert service.state()["players"][0]["score"] == 48 + 96 + 10
    assert "magical word QUANT" in page.inner_text("#last-move")
    page.screenshot(path=str(shots / "variant-harry-potter.png"), full_page=True)
