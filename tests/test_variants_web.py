"""The registry's variants in the web app (Flask test client): the new-game form lists them, a Super Scrabble,
Spanish, Finish Line or Harry Potter game started from it is drawn, scored and exported as it should be."""

from __future__ import annotations

import re

import pytest

from tilecam.core.lexicons import lexicon_for_settings
from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.engine.gcg import read_gcg
from tilecam.engine.variants import finish_line_target, registry
from tilecam.web.app import create_app

PIN = "135790"


@pytest.fixture()
def client(tmp_path):
    store = GameStore(tmp_path)
    service = GameService(store, lexicon=lexicon_for_settings)
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "PIN": PIN}, service=service)
    yield app.test_client()
    store.close()


@pytest.fixture()
def token(client) -> str:
    r = client.post("/auth/pin", json={"pin": PIN})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["csrf"]


def act(client, token, action, body=None):
    r = client.post(f"/api/game/{action}", json=body or {}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, (action, r.status_code, r.get_json())
    return r.get_json()


def state(client) -> dict:
    return client.get("/api/state").get_json()


def test_the_new_game_form_offers_every_variant_tile_set_and_finish_line_level(client):
    page = client.get("/control").get_data(as_text=True)
    reg = registry()
    for v in reg["variants"]:
        assert f'<option value="{v["name"]}"' in page
    for t in reg["tilesets"]:
        assert f'<option value="{t["name"]}"' in page
    for level in reg["finish_line"]["levels"]:
        assert f'<option value="{level}"' in page
    assert 'data-tileset="english-super"' in page and 'name="target"' in page and 'name="lexicon"' in page


def test_a_super_scrabble_game_from_the_page_is_drawn_21_by_21(client, token):
    act(client, token, "new_game", {"players": ["Ann", "Ben"], "variant": "super", "lexicon": "enable1",
                                    "challenge_rule": "double", "challenge_points": "5", "clock_seconds": None})
    s = state(client)
    assert (s["settings"]["layout"], s["settings"]["tileset"], s["size"]) == ("super21", "english-super", 21)
    assert s["bag"] == 200 - 14
    act(client, token, "play", {"position": "11K", "word": "QUANT"})
    s = state(client)
    assert s["board_svg"].count('class="square"') == 21 * 21 and s["board_svg"].count('class="last"') == 5
    assert len(s["board"]) == 21 and s["players"][0]["score"] == 30  # 11K is the 21x21 board's centre: ×2
    act(client, token, "play", {"position": "11K", "word": ".....ASSERT"})  # on to column U, the last
    assert state(client)["board"][10][20] == "T"
    review = client.get(f"/api/games/{s['game_id']}/review").get_json()
    assert review["layout"] == "super21" and len(review["frames"][-1]["rows"]) == 21
    rows = "/".join(review["frames"][-1]["rows"])
    svg = client.get("/api/board.svg", query_string={"rows": rows, "layout": "super21"})
    assert svg.status_code == 200 and svg.get_data(as_text=True).count('class="square"') == 441


def test_a_spanish_game_shows_its_two_letter_tiles_as_people_read_them(client, token):
    act(client, token, "new_game", {"players": ["Ana", "Beto"], "variant": "tournament", "tileset": "spanish"})
    act(client, token, "play", {"position": "8G", "word": "[CH]E"})
    s = state(client)
    assert s["board"][7][6:8] == "ÇE"  # board text: one symbol a square
    assert ">CH<" in s["board_svg"] and "Ç" not in s["board_svg"]
    assert s["moves"][0]["word"] == "[CH]E" and s["moves"][0]["score"] == 12
    assert "CH" in s["unseen"] and "Ç" not in s["unseen"] and s["unseen"]["CH"] == 0
    rows = "/".join(s["board"])
    svg = client.get("/api/board.svg", query_string={"rows": rows, "tileset": "spanish"}).get_data(as_text=True)
    assert ">CH<" in svg


def test_a_finish_line_game_shows_the_target_and_each_players_progress(client, token):
    act(client, token, "new_game", {"players": ["Ann", "Ben", "Cy"], "variant": "finish-line", "level": "expert"})
    s = state(client)
    assert s["target"] == finish_line_target("expert", 3) and s["to_target"] == [s["target"]] * 3
    act(client, token, "new_game", {"players": ["Ann", "Ben"], "variant": "finish-line", "target": "40"})
    act(client, token, "play", {"position": "8D", "word": "QUANT"})
    s = state(client)
    assert (s["target"], s["progress"], s["to_target"]) == (40, [1.0, 0.0], [0, 40])
    assert "target" in s["pending"][0]["question"]
    act(client, token, "end_game", {})
    assert state(client)["is_over"]


def test_a_target_for_a_variant_without_one_is_refused(client, token):
    r = client.post("/api/game/new", json={"players": ["A", "B"], "variant": "super", "level": "expert"},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 409 and "no target" in r.get_json()["error"]


def test_harry_potter_card_and_magical_word_from_the_phone(client, token):
    act(client, token, "new_game", {"players": ["Harry", "Ron"], "variant": "harry-potter"})
    assert state(client)["cards"] is True
    act(client, token, "play", {"position": "8D", "word": "QUANT"})
    assert act(client, token, "card", {"name": "First-years o'er here", "multiplier": "3", "points": ""}
               )["payload"]["score"] == 96
    assert act(client, token, "magical_word", {"word": ""})["payload"]["score"] == 10
    s = state(client)
    assert [m["kind"] for m in s["moves"]] == ["play", "card", "magical_word"]
    assert s["players"][0]["score"] == 48 + 96 + 10 and s["last_move"]["kind"] == "magical_word"
    r = client.post("/api/game/card", json={"name": "Accio", "points": 10})  # no header token
    assert r.status_code in (401, 403)


def test_a_harry_potter_game_exported_from_the_web_reads_back(client, token):
    act(client, token, "new_game", {"players": ["Harry", "Ron"], "variant": "harry-potter"})
    act(client, token, "play", {"position": "8D", "word": "QUANT"})
    act(client, token, "card", {"name": "First-years o'er here", "multiplier": 3})
    act(client, token, "magical_word", {})
    gcg = read_gcg(client.get(f"/api/games/{state(client)['game_id']}/game.gcg").get_data(as_text=True))
    assert [(e.kind, e.word, e.total) for e in gcg.events][1:] == [
        ("card", "First-years o'er here", 48 + 96), ("magical_word", "QUANT", 48 + 96 + 10)]


@pytest.mark.parametrize("variant, tileset, plays", [
    ("super", None, [("11K", "QUANT"), ("K11", ".AT")]),
    ("tournament", "spanish", [("8G", "[CH]E"), ("G8", ".ILE")]),
])
def test_gcg_exported_from_the_web_reads_back(client, token, variant, tileset, plays):
    body = {"players": ["Ann", "Ben"], "variant": variant}
    if tileset:
        body["tileset"] = tileset
    act(client, token, "new_game", body)
    for position, word in plays:
        act(client, token, "play", {"position": position, "word": word})
    s = state(client)
    text = client.get(f"/api/games/{s['game_id']}/game.gcg").get_data(as_text=True)
    game = read_gcg(text)
    rules = game.rules()
    assert (rules.layout, rules.tileset) == (s["settings"]["layout"], s["settings"]["tileset"])
    replayed = game.replay(rules)
    assert replayed.scores == [p["score"] for p in s["players"]]
    assert replayed.board.rows() == s["board"]
    if tileset == "spanish":
        assert re.search(r"\[CH\]E", text)


def test_an_imported_super_gcg_is_reviewed_on_its_own_board(client, token):
    act(client, token, "new_game", {"players": ["Ann", "Ben"], "variant": "super"})
    act(client, token, "play", {"position": "11K", "word": "QUANT"})
    text = client.get(f"/api/games/{state(client)['game_id']}/game.gcg").get_data(as_text=True)
    r = client.post("/review/import", data={"text": text}, headers={"Origin": "http://localhost"})
    assert r.status_code in (302, 303), r.get_data(as_text=True)[:300]
    assert client.get(r.headers["Location"]).status_code == 200
    review = client.get(r.headers["Location"] + ".json").get_json()
    assert review["layout"] == "super21" and review["frames"][-1]["rows"][10][10:15] == "QUANT"
