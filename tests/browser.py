"""Headless Debian Chromium for the browser tests (tests/test_browser_web.py, tests/test_browser_calibrate.py,
tests/test_variants_web_browser.py): the skip when it or Playwright is missing, the ``browser``, ``page`` and
``shots`` fixtures they share, and :func:`serve` for their real waitress server.

A test module calls :func:`skip_without_chromium` at module level, then imports the fixtures it uses by name
(``from browser import browser, page, shots``) so that pytest finds them in the module. Importing this module
needs neither Chromium nor Playwright.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}


def skip_without_chromium():
    """Skip the calling test module, with the reason, when /usr/bin/chromium or Playwright (Python) is missing;
    else return ``playwright.sync_api``. Call it at module level."""
    __tracebackhide__ = True  # the skip is reported at the calling module's line, as when each module wrote it out
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium; `make test` does it as root)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")


@contextmanager
def serve(data: Path, pin: str, *, threads: int = 16, **service_options) -> Iterator:
    """``(server, service)``: the web app on a game store in ``data`` with this PIN, served by waitress on a
    loopback port (``server.url``) until the block ends."""
    from tilecam.core.service import GameService
    from tilecam.core.store import GameStore
    from tilecam.web.app import create_app
    from tilecam.web.server import ServerThread

    store = GameStore(data)
    service = GameService(store, **service_options)
    app = create_app({"DATA_DIR": str(data), "PIN": pin, "SSE_HEARTBEAT_S": 5.0}, service=service)
    with ServerThread(app, threads=threads) as server:
        yield server, service
    store.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("TILECAM_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def phone_page(browser) -> Iterator:
    """A page in a fresh phone-sized context; on leaving, the context is closed and no page error may have
    happened."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  bypass_csp=True)  # Playwright evaluates its wait predicates as strings
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    yield p
    context.close()
    assert errors == [], errors


@pytest.fixture()
def page(browser):
    with phone_page(browser) as p:
        yield p
