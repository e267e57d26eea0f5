"""The calibration page's "Learn my tiles": the PIN asks the daemon, through a request file, to learn the tile set
laid out; its answer is shown on the page and in the calibration JSON (issue 23)."""

from __future__ import annotations

import pytest
from markupsafe import escape
from test_web_calibrate import data_dir, sample  # noqa: F401 (data_dir: a fixture)

from tilecam.core.calibration_files import laid_out_request, write_laid_out_outcome
from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.web.app import create_app

PIN = "123456"
ROUTE = "/api/calibration/laid-out"
BUTTON = "Learn my tiles (lay the set out)"


@pytest.fixture()
def service(data_dir):
    store = GameStore(data_dir)
    yield GameService(store)
    store.close()


@pytest.fixture()
def client(data_dir, service):
    app = create_app({"TESTING": True, "DATA_DIR": str(data_dir), "PIN": PIN}, service=service)
    return app.test_client()


def unlocked(client) -> dict[str, str]:
    """The header a PIN session sends with a change."""
    return {"X-CSRF-Token": client.post("/auth/pin", json={"pin": PIN}).get_json()["csrf"]}


def test_asking_needs_the_pin_and_its_header_token(client, data_dir):
    sample(data_dir)
    r = client.post(ROUTE, json={})
    assert r.status_code == 401 and "PIN" in r.get_json()["error"]
    unlocked(client)
    r = client.post(ROUTE, json={})                              # the session, but not its header token
    assert r.status_code == 403 and "X-CSRF-Token" in r.get_json()["error"]
    assert laid_out_request(data_dir) is None


def test_without_the_camera_running_asking_is_refused_and_says_why(client, data_dir):
    r = client.post(ROUTE, json={}, headers=unlocked(client))
    assert r.status_code == 409 and "the camera is not running" in r.get_json()["error"]
    assert laid_out_request(data_dir) is None


def test_a_tile_set_not_bundled_or_a_body_not_an_object_is_refused(client, data_dir):
    sample(data_dir)
    headers = unlocked(client)
    assert client.post(ROUTE, json={"tileset": "klingon"}, headers=headers).status_code == 400
    assert client.post(ROUTE, json=["english"], headers=headers).status_code == 400
    assert laid_out_request(data_dir) is None


def test_asking_writes_the_request_for_the_games_tile_set_and_the_page_says_it_waits(client, data_dir, service):
    sample(data_dir)
    service.new_game(["Ann", "Ben"], {"tileset": "german", "lexicon": "none"})
    r = client.post(ROUTE, headers=unlocked(client))                     # no body: the game's set
    assert r.status_code == 202
    request = laid_out_request(data_dir)
    assert request["tileset"] == "german" and request["asked"] > 0
    assert r.get_json()["laid_out"] == {"state": "asked", "tileset": "german", "asked": request["asked"],
                                        "message": r.get_json()["laid_out"]["message"]}
    assert client.get("/api/calibration").get_json()["laid_out"]["state"] == "asked"
    assert "next still picture" in client.get("/calibrate").get_data(as_text=True)
    # a set named in the body is the one asked for
    client.post(ROUTE, json={"tileset": "english"}, headers=unlocked(client))
    assert laid_out_request(data_dir)["tileset"] == "english"


def test_the_daemons_answer_is_shown_in_the_json_and_on_the_page(client, data_dir):
    sample(data_dir)
    assert client.get("/api/calibration").get_json()["laid_out"] is None
    learnt = {"state": "learnt", "tiles": 27, "read_alike": 26, "tileset": "english", "asked": 1.0, "answered": 2.0,
              "message": "27 tiles learnt; 26 of them read as their place's letter: the camera reads your tiles"}
    write_laid_out_outcome(data_dir, learnt)
    assert client.get("/api/calibration").get_json()["laid_out"] == learnt
    assert escape(learnt["message"]) in client.get("/calibrate").get_data(as_text=True)
    refused = {"state": "refused", "cause": "layout", "tileset": "english", "asked": 3.0, "answered": 4.0,
               "message": "26 tiles read where the set has 26 letters and a blank: lay one tile of each"}
    write_laid_out_outcome(data_dir, refused)
    assert client.get("/api/calibration").get_json()["laid_out"]["cause"] == "layout"
    html = client.get("/calibrate").get_data(as_text=True)
    assert escape(f"not learnt: {refused['message']}") in html and 'data-state="refused"' in html


def test_the_page_shows_the_button_and_names_the_set_and_its_letters_in_order(client, service):
    html = client.get("/calibrate").get_data(as_text=True)             # no game yet: English
    assert BUTTON in html and 'id="laid-out-pin"' in html
    assert "English set" in html and "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z blank" in html
    service.new_game(["Ann", "Ben"], {"tileset": "spanish", "lexicon": "none"})
    html = client.get("/calibrate").get_data(as_text=True)
    assert "Spanish set" in html and "A B C CH D E" in html and html.count(BUTTON) == 1
