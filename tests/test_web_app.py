"""The web app through Flask's test client: every route, who may change what, and errors as JSON / HTML."""

from __future__ import annotations

import io
import json
import os
import stat

import pytest

from tilecam.engine.gcg import read_gcg
from tilecam.engine.lexicon import Lexicon
from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.web.app import create_app

PIN = "482913"
WORDS = ["QUANT", "QAT", "AT", "TA", "ZA", "ZAS"]


@pytest.fixture()
def service(tmp_path):
    (tmp_path / "data").mkdir()
    store = GameStore(tmp_path / "data")
    yield GameService(store, lexicon=Lexicon.from_words(WORDS))
    store.close()


@pytest.fixture()
def app(tmp_path, service):
    config = {"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PIN": PIN, "SSE_HEARTBEAT_S": 0.05,
              "SSE_MAX_S": 0.5, "SSE_POLL_S": 0.05}
    return create_app(config, service=service)


@pytest.fixture()
def client(app):
    return app.test_client()


def unlock(client) -> str:
    r = client.post("/auth/pin", json={"pin": PIN})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["csrf"]


def act(client, token, action, body=None, **headers):
    return client.post(f"/api/game/{action}", json=body or {}, headers={"X-CSRF-Token": token, **headers})


@pytest.fixture()
def player(client):
    """A client unlocked with the PIN; returns (client, token)."""
    return client, unlock(client)


@pytest.fixture()
def game(service):
    return service.new_game(["Ann", "Ben"], actor="test")


# ------------------------------------------------------------------------------------------------ set-up


def test_secret_key_and_pin_are_generated_in_the_data_dir_and_kept(tmp_path, service):
    data = tmp_path / "fresh"
    app1 = create_app({"DATA_DIR": str(data)}, service=service)
    app2 = create_app({"DATA_DIR": str(data)}, service=service)
    assert len(app1.config["SECRET_KEY"]) == 64 and app1.config["SECRET_KEY"] == app2.config["SECRET_KEY"]
    assert app1.config["PIN"].isdigit() and len(app1.config["PIN"]) == 6 and app1.config["PIN"] == app2.config["PIN"]
    for name in ("web_secret_key", "web_pin"):
        assert stat.S_IMODE(os.stat(data / name).st_mode) == 0o600
    assert create_app({"DATA_DIR": str(tmp_path / "other")}, service=service).config["SECRET_KEY"] != \
        app1.config["SECRET_KEY"]


def test_app_opens_its_own_service_on_the_data_dir(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "PIN": PIN})
    r = app.test_client().get("/api/state")
    assert r.status_code == 200 and r.get_json()["status"] == "none"
    assert (tmp_path / "tilecam.sqlite3").exists()


# ------------------------------------------------------------------------------------------------ pages


@pytest.mark.parametrize("path", ["/", "/control", "/device", "/review/"])
def test_pages_render_without_a_game(client, path):
    r = client.get(path)
    assert r.status_code == 200 and r.mimetype == "text/html"
    assert b"/static/css/app.css" in r.data and b"http://" not in r.data.split(b"<main>")[0].replace(
        b'http://www.w3.org', b'')  # no external assets in the head


def test_scoreboard_embeds_the_current_state(client, service, game):
    service.play("8D QUANT", actor="test")
    r = client.get("/")
    state = json.loads(r.data.split(b'id="initial-state">')[1].split(b"</script>")[0])
    assert state["players"][0] == {"name": "Ann", "score": 48, "clock": None, "rack_count": 7}
    assert state["board"][7] == "...QUANT......." and state["board_svg"].startswith("<svg")


def test_pages_send_a_content_security_policy_without_outside_sources(client):
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "http" not in csp


def test_device_page_has_a_qr_code_with_the_lan_address(client, monkeypatch):
    monkeypatch.setattr("tilecam.web.qr.lan_ip", lambda: "192.168.1.77")
    r = client.get("/device", headers={"Host": "tilecam.local:8080"})
    assert b"http://192.168.1.77:8080/" in r.data and b".local" not in r.data
    assert b'class="qr"' in r.data and r.data.count(b"<path") >= 1


def test_unknown_page_is_html_404_and_unknown_api_is_json_404(client):
    r = client.get("/nope")
    assert r.status_code == 404 and r.mimetype == "text/html" and b"404" in r.data
    r = client.get("/api/nope")
    assert r.status_code == 404 and r.get_json()["status"] == 404


def test_wrong_method_is_json_405(client):
    r = client.post("/api/state")
    assert r.status_code == 405 and "error" in r.get_json()


# ------------------------------------------------------------------------------------------------ reading API


def test_state_without_a_game(client):
    s = client.get("/api/state").get_json()
    assert s["status"] == "none" and s["players"] == [] and s["moves"] == [] and s["board_svg"].startswith("<svg")


def test_state_with_a_game(client, service, game):
    service.play("8D QUANT", actor="camera")
    service.play("D8 .AT", actor="camera")
    s = client.get("/api/state").get_json()
    assert [p["score"] for p in s["players"]] == [48, 12] and s["turn"] == 0
    assert s["board"][8][3] == "A" and len(s["board"]) == 15
    assert [m["word"] for m in s["moves"]] == ["QUANT", ".AT"]
    assert s["last_move"]["word"] == ".AT" and s["last_move"]["words"][0]["word"] == "QAT"
    assert s["last_move"]["words"][0]["breakdown"]
    assert s["bag"] == 100 - 14 - 7 and s["unseen_total"] == sum(s["unseen"].values())
    assert s["seq"] == service.store.last_seq()


def test_state_clocks_show_overtime_and_penalty(client, service):
    now = [1000.0]
    service._now = lambda: now[0]
    service.new_game(["Ann", "Ben"], {"clock_seconds": 60}, actor="test")
    now[0] += 61 + 60  # Ann is two minutes in, one started minute over
    s = client.get("/api/state").get_json()
    ann, ben = s["players"]
    assert ann["clock"]["running"] and ann["clock"]["remaining_s"] == pytest.approx(-61)
    assert ann["clock"]["penalty"] == 20 and ann["clock"]["penalty_per_minute"] == 10
    assert not ben["clock"]["running"] and ben["clock"]["penalty"] == 0


def test_moves_games_and_game_detail(client, service, game):
    service.play("8D QUANT", actor="camera")
    assert client.get("/api/moves").get_json()["moves"][0]["score"] == 48
    games = client.get("/api/games").get_json()["games"]
    assert games[0]["id"] == game and games[0]["players"] == ["Ann", "Ben"]
    detail = client.get(f"/api/games/{game}").get_json()
    assert detail["moves"][0]["word"] == "QUANT" and detail["settings"]["challenge_rule"] == "double"
    events = client.get(f"/api/games/{game}/events").get_json()["events"]
    assert [e["kind"] for e in events] == ["game_started", "play"]
    assert client.get(f"/api/games/{game}/events?after={events[0]['seq']}").get_json()["events"][0]["kind"] == "play"


def test_unknown_game_is_404_json(client):
    for path in ("/api/games/99", "/api/games/99/review", "/api/games/99/game.gcg", "/api/games/99/snapshots/0.jpg",
                 "/api/games/99/events"):
        r = client.get(path)
        assert r.status_code == 404 and "no game 99" in r.get_json()["error"], path
    assert client.get("/review/99").status_code == 404


def test_events_json_polling(client, service, game):
    first = service.store.last_seq()
    service.play("8D QUANT", actor="camera")
    body = client.get(f"/api/events.json?after={first}").get_json()
    assert [e["kind"] for e in body["events"]] == ["play"] and body["last_seq"] == first + 1
    assert client.get("/api/events.json?after=x").status_code == 400
    assert client.get("/api/events.json?limit=0").status_code == 400
    assert client.get("/api/events.json?after=99999999999999999999999").status_code == 400


def test_gcg_export_reads_back_as_the_same_game(client, service, game):
    service.play("8D QUANT", actor="camera")
    service.pass_turn(actor="camera")
    r = client.get(f"/api/games/{game}/game.gcg")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    back = read_gcg(r.data.decode())
    assert [p.name for p in back.players] == ["Ann", "Ben"]
    assert [(e.kind, e.position, e.word, e.score) for e in back.events] == [("play", "8D", "QUANT", 48),
                                                                            ("pass", "", "", 0)]


def test_json_export(client, service, game):
    service.play("8D QUANT", actor="camera")
    body = client.get(f"/api/games/{game}/game.json").get_json()
    assert body["players"] == ["Ann", "Ben"] and body["moves"][0]["score"] == 48
    assert [e["kind"] for e in body["events"]] == ["game_started", "play"]


def test_review_data_and_snapshot_of_a_stored_game(client, service, game):
    service.play("8D QUANT", actor="camera", snapshot_jpeg=b"\xff\xd8\xff\xe0fake-jpeg")
    service.play("D8 .AT", actor="camera")
    review = client.get(f"/api/games/{game}/review").get_json()
    frames = review["frames"]
    assert len(frames) == 3 and frames[0]["rows"][7] == "." * 15 and frames[2]["totals"] == [48, 12]
    assert frames[1]["snapshot"] == f"/api/games/{game}/snapshots/0.jpg" and "snapshot" not in frames[2]
    r = client.get(frames[1]["snapshot"])
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and r.data.startswith(b"\xff\xd8")
    assert client.get(f"/api/games/{game}/snapshots/1.jpg").status_code == 404
    page = client.get(f"/review/{game}")
    assert page.status_code == 200 and f"/api/games/{game}/review".encode() in page.data


def test_board_svg_endpoint(client):
    rows = ["." * 15] * 7 + ["...QUANT......."] + ["." * 15] * 7
    r = client.get("/api/board.svg", query_string={"rows": "/".join(rows), "position": "8D", "word": "QUANT"})
    assert r.status_code == 200 and r.mimetype == "image/svg+xml" and r.data.count(b'class="last"') == 5
    for bad in ({"rows": ""}, {"rows": "<script>"}, {"rows": "/".join(rows[:3])},
                {"rows": "/".join(rows), "position": "99Z", "word": "QUANT"}):
        r = client.get("/api/board.svg", query_string=bad)
        assert r.status_code == 400 and r.get_json()["error"], bad


def test_health_runs_the_checks_it_is_given(tmp_path, service):
    from tilecam.firmware.doctor import health_checks

    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "HEALTH_CHECKS": health_checks},
                        service=service).test_client()
    body = client.get("/health").get_json()
    names = [c["name"] for c in body["checks"]]
    assert "store" in names and "web" in names and "camera" not in names
    assert body["live_streams"] == {"open": 0, "opened": 0}
    bare = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)}, service=service).test_client()
    assert [c["name"] for c in bare.get("/health").get_json()["checks"]] == ["web"]


# ------------------------------------------------------------------------------------------------ auth


def test_auth_status_and_pin(client):
    assert client.get("/auth/status").get_json() == {"authorised": False}
    assert client.post("/auth/pin", json={"pin": "000000"}).status_code == 403
    assert client.post("/auth/pin", json={}).status_code == 400
    token = unlock(client)
    assert client.get("/auth/status").get_json() == {"authorised": True, "csrf": token}
    assert client.post("/auth/logout").get_json() == {"authorised": False}
    assert client.get("/auth/status").get_json() == {"authorised": False}


def test_pin_guessing_is_rate_limited(client):
    for _ in range(5):
        assert client.post("/auth/pin", json={"pin": "111111"}).status_code == 403
    r = client.post("/auth/pin", json={"pin": PIN})
    assert r.status_code == 429 and "wait" in r.get_json()["error"]


def test_session_cookie_is_httponly_and_samesite_strict(client):
    r = client.post("/auth/pin", json={"pin": PIN})
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and PIN not in cookie


def test_viewer_without_pin_cannot_change_anything(client, service, game):
    before = service.store.last_seq()
    for action in ("pass", "undo", "new", "play", "end", "pause"):
        r = client.post(f"/api/game/{action}", json={})
        assert r.status_code == 401 and "PIN" in r.get_json()["error"], action
    assert service.store.last_seq() == before


def test_change_needs_the_header_token(player, service, game):
    client, token = player
    assert client.post("/api/game/pass", json={}).status_code == 403
    assert client.post("/api/game/pass", json={}, headers={"X-CSRF-Token": "forged"}).status_code == 403
    assert service.state()["moves"] == []
    assert act(client, token, "pass").status_code == 200
    assert service.state()["moves"][0]["kind"] == "pass"


def test_cross_origin_requests_are_refused(player, service, game):
    client, token = player
    r = act(client, token, "pass", Origin="http://evil.example")
    assert r.status_code == 403 and "cross-origin" in r.get_json()["error"]
    assert act(client, token, "pass", **{"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert client.post("/auth/pin", json={"pin": PIN}, headers={"Origin": "http://evil.example"}).status_code == 403
    assert act(client, token, "pass", Origin="http://localhost").status_code == 200


def test_every_change_is_an_event_with_who_and_when(player, service, game):
    client, token = player
    assert act(client, token, "play", {"position": "8D", "word": "QUANT"}).status_code == 200
    event = service.store.events(game)[-1]
    assert event.kind == "play" and event.actor.startswith("web:") and event.time > 0


# ------------------------------------------------------------------------------------------------ commands


def test_new_game_with_settings(player, service):
    client, token = player
    r = act(client, token, "new", {"players": ["Ann", "Ben", "Cy"], "tileset": "english", "challenge_rule": "single",
                                   "clock_seconds": 1500, "lexicon": "enable1"})
    assert r.status_code == 200, r.get_json()
    record = service.store.game(r.get_json()["game_id"])
    assert record.players == ("Ann", "Ben", "Cy") and record.settings.challenge_rule == "single"
    assert record.settings.clock_seconds == 1500


@pytest.mark.parametrize("body, status", [
    ({"players": "Ann"}, 400),
    ({"players": ["Ann"]}, 409),
    ({"players": ["Ann", "Ben"], "challenge_rule": "bogus"}, 409),
    ({"players": ["Ann", "Ben"], "clock_seconds": "soon"}, 400),
])
def test_new_game_refusals(player, body, status):
    client, token = player
    r = act(client, token, "new", body)
    assert r.status_code == status and r.get_json()["error"]


def test_commands_without_a_game_are_409_with_the_reason(player):
    client, token = player
    r = act(client, token, "pass")
    assert r.status_code == 409 and "no game" in r.get_json()["error"]


def test_play_pass_exchange_undo(player, service, game):
    client, token = player
    assert act(client, token, "play", {"position": "8D", "word": "QUANT"}).status_code == 200
    assert act(client, token, "exchange", {"tiles": "3"}).status_code == 200
    assert act(client, token, "exchange", {"tiles": "abc"}).status_code == 200
    assert act(client, token, "exchange", {"tiles": "-1"}).status_code == 400
    assert act(client, token, "pass").status_code == 200
    kinds = [m["kind"] for m in service.state()["moves"]]
    assert kinds == ["play", "exchange", "exchange", "pass"]
    assert act(client, token, "undo").status_code == 200
    assert [m["kind"] for m in service.state()["moves"]] == ["play", "exchange", "exchange"]


@pytest.mark.parametrize("body", [{}, {"position": "8D"}, {"position": "ZZ", "word": "QUANT"},
                                  {"position": "8D", "word": 5}])
def test_bad_play_is_4xx_never_500(player, game, body):
    client, token = player
    r = act(client, token, "play", body)
    assert 400 <= r.status_code < 500 and r.get_json()["error"]


def test_illegal_play_is_refused_with_the_engines_reason(player, service, game):
    client, token = player
    r = act(client, token, "play", {"position": "1A", "word": "QAT"})
    assert r.status_code == 409 and "centre" in r.get_json()["error"].lower() or "center" in r.get_json()["error"]
    assert service.state()["moves"] == []


def test_challenge_takes_a_phony_off_under_double(player, service, game):
    client, token = player
    act(client, token, "play", {"position": "8D", "word": "TANQU"})
    r = act(client, token, "challenge")
    assert r.status_code == 200
    s = service.state()
    assert s["players"][0]["score"] == 0 and s["board"][7] == "." * 15
    assert "withdrawn" in s["moves"][0]["flags"]


def test_challenge_of_a_good_play_costs_the_challenger_a_turn(player, service, game):
    client, token = player
    act(client, token, "play", {"position": "8D", "word": "QUANT"})
    assert act(client, token, "challenge").status_code == 200
    s = service.state()
    assert s["players"][0]["score"] == 48 and s["turn"] == 0  # Ben lost his turn
    assert act(client, token, "challenge", {"valid": "yes"}).status_code == 400


def test_withdraw(player, service, game):
    client, token = player
    act(client, token, "play", {"position": "8D", "word": "QUANT"})
    assert act(client, token, "withdraw").status_code == 200
    assert service.state()["players"][0]["score"] == 0


def test_blank_letter_and_tile_correction(player, service, game):
    client, token = player
    service.play("8D QUAN?", actor="camera")
    s = service.state()
    assert s["pending"][0]["kind"] == "blank"
    assert act(client, token, "set_blank", {"square": "H8", "letter": "t"}).status_code == 200
    assert service.state()["board"][7] == "...QUANt......."
    assert act(client, token, "correct_tile", {"row": 7, "col": 7, "letter": "T"}).status_code == 200
    s = service.state()
    assert s["board"][7] == "...QUANT......." and s["players"][0]["score"] == 48
    assert "corrected" in s["moves"][0]["flags"]
    assert act(client, token, "set_blank", {"square": "Q99", "letter": "t"}).status_code == 400
    assert act(client, token, "correct_tile", {"square": "A1", "letter": "T"}).status_code == 409
    assert act(client, token, "set_blank", {"square": "H8", "letter": "tt"}).status_code == 400


def test_end_game_with_racks_and_pause(player, service):
    client, token = player
    act(client, token, "new", {"players": ["Ann", "Ben", "Cy"]})
    assert act(client, token, "pause", {"paused": True}).status_code == 200
    assert service.state()["status"] == "paused"
    assert act(client, token, "pause", {"paused": True}).status_code == 409
    assert act(client, token, "pause", {"paused": "no"}).status_code == 400
    assert act(client, token, "pause", {"paused": False}).status_code == 200
    act(client, token, "play", {"position": "8D", "word": "QUANT"})
    r = act(client, token, "end_game", {"racks": {"0": "AB", "1": "C", "2": "DE"}})
    assert r.status_code == 200, r.get_json()
    s = service.state()
    assert s["is_over"] and s["status"] == "finished"
    assert act(client, token, "end", {"racks": ["A"]}).status_code == 400


def test_unknown_action_and_non_object_body(player, game):
    client, token = player
    assert act(client, token, "explode").status_code == 404
    r = client.post("/api/game/pass", data="[1, 2]", content_type="application/json",
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 400


# ------------------------------------------------------------------------------------------------ review / import


def test_review_list_shows_games(client, service, game):
    service.play("8D QUANT", actor="camera")
    r = client.get("/review/")
    assert "Ann <b>48</b> · Ben <b>0</b>".encode() in r.data and f"/review/{game}".encode() in r.data
    assert client.get("/api/games").get_json()["games"][0]["scores"] == [48, 0]


def test_import_gcg_to_view_it(client, service, shared_dir):
    path = shared_dir / "data" / "gcg" / "liwords_omgwords_vs_josh.gcg"
    before = service.store.last_seq()
    r = client.post("/review/import", data={"file": (io.BytesIO(path.read_bytes()), "game.gcg")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    page = client.get(r.headers["Location"])
    assert page.status_code == 200 and b"Cesar" in page.data
    review = client.get(r.headers["Location"] + ".json").get_json()
    assert review["frames"][-1]["totals"] == [457, 397]
    assert client.get(r.headers["Location"] + ".gcg").data == path.read_bytes()
    assert service.store.last_seq() == before  # viewing only: nothing stored


def test_import_rejects_what_is_not_gcg(client):
    assert client.post("/review/import", data={"text": ""}).status_code == 400
    r = client.post("/review/import", data={"text": "#player1 a A\n#player2 b B\n>a: XYZ 99Q FOO +1 1\n"})
    assert r.status_code == 400 and b"GCG" in r.data
    assert client.get("/review/imported/nope").status_code == 404
    assert client.get("/review/imported/nope.json").get_json()["status"] == 404
    r = client.post("/review/import", data={"text": "#player1 a A\n"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403


def test_pages_and_assets_are_gzipped_for_browsers_that_accept_it(client, service, game):
    import gzip

    service.play("8D QUANT", actor="test")
    for path in ("/", "/static/js/live.js", "/static/css/app.css", "/api/state"):
        plain = client.get(path)
        packed = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"], path
        assert gzip.decompress(packed.data) == plain.data and len(packed.data) < len(plain.data) / 2, path
        assert "Content-Encoding" not in plain.headers
