"""The calibration page and its JSON/picture routes read what the daemon wrote into the data folder."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from tilecam.core.calibration_files import write_calibration
from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.web.app import create_app


@pytest.fixture()
def data_dir(tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    return d


@pytest.fixture()
def client(data_dir):
    store = GameStore(data_dir)
    app = create_app({"TESTING": True, "DATA_DIR": str(data_dir), "PIN": "123456"}, service=GameService(store))
    yield app.test_client()
    store.close()


def sample(data_dir, updated=None):
    ok, buf = cv2.imencode(".jpg", np.full((90, 160, 3), 128, np.uint8))
    grid = ["." * 15] * 7 + ["...CAT........."] + ["." * 15] * 7
    conf = [[0.99] * 15 for _ in range(15)]
    conf[7][4] = 0.31
    info = {"updated": time.time() if updated is None else updated,
            "status": {"source": "demo", "state": "watching", "fps": 2.0, "tracker": "watching",
                       "line": "demo · watching · 2 fps"},
            "board": {"found": True, "from": "reader", "score": 12.5, "corners": [[1, 1], [150, 1], [150, 80], [1, 80]],
                      "problem": ""},
            "image": {"width": 160, "height": 90},
            "reading": {"grid": grid, "confidence": conf, "low": [[7, 4]], "low_below": 0.5, "age_s": 0.0}}
    write_calibration(data_dir, buf.tobytes(), info)
    return buf.tobytes(), info


def test_without_a_calibration_the_routes_say_so(client):
    r = client.get("/api/calibration")
    assert r.status_code == 404 and r.is_json and "no calibration picture yet" in r.get_json()["error"]
    r = client.get("/api/calibration.jpg")
    assert r.status_code == 404 and r.is_json and "tilecam run" in r.get_json()["error"]
    page = client.get("/calibrate")
    assert page.status_code == 200 and b"no calibration picture yet" in page.data
    img_tag = page.data.split(b'<img id="calib-img"')[1].split(b">")[0]
    assert b"src=" not in img_tag and b'width="960"' in img_tag          # no picture, but its box is kept
    assert page.data.count(b"<td") == 225                      # the empty 15x15 grid holds the page's layout


def test_with_a_calibration_the_json_picture_and_page_show_it(client, data_dir):
    jpeg, info = sample(data_dir, updated=time.time() - 3)
    r = client.get("/api/calibration")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    body = r.get_json()
    assert body["status"] == info["status"] and body["reading"]["grid"][7] == "...CAT........."
    assert body["board"]["found"] and 2.5 <= body["age_s"] <= 10
    assert body["image_url"].startswith("/api/calibration.jpg?v=")
    pic = client.get(body["image_url"])
    assert pic.status_code == 200 and pic.mimetype == "image/jpeg" and pic.data == jpeg
    page = client.get("/calibrate")
    html = page.data.decode()
    assert "demo · watching · 2 fps" in html and body["image_url"].replace("&", "&amp;") in html
    assert 'style="aspect-ratio: 160 / 90"' in html                  # the picture's box is sized before it loads
    rows = html.split('id="calib-grid"')[1].split("</table>")[0].split("<tr>")[1:]
    assert len(rows) == 15
    cells = rows[7].split("<td")[1:]
    assert [c.split(">")[1][0] for c in cells[3:6]] == ["C", "A", "T"]
    assert 'class="low"' in cells[4] and 'class="low"' not in cells[3]          # A read unsure, C sure
    assert html.count('class="low"') == 1
    assert client.get("/static/js/calibrate.js").status_code == 200


def test_the_device_page_links_to_the_camera_view(client):
    assert b'href="/calibrate"' in client.get("/device").data
