"""A play the camera's lexicon rejected (read clearly) reaches the scoreboard as a "phony?" badge."""

from __future__ import annotations

import json

from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.web.app import create_app


def make_client(tmp_path):
    store = GameStore(tmp_path / "data")
    service = GameService(store)                  # no lexicon here: only the camera's word says "phony"
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PIN": "123456"}, service=service)
    return app.test_client(), service, store


def test_a_phony_play_is_flagged_in_the_state_the_page_and_its_script(tmp_path):
    client, service, store = make_client(tmp_path)
    service.new_game(["Ann", "Ben"], actor="test")
    service.play("8G XYZ", actor="camera", phony=("XYZ",))
    service.play("G8 .AT", actor="camera")        # a later good play keeps no flag
    state = client.get("/api/state").get_json()
    assert [m["flags"] for m in state["moves"]] == [["phony"], []]
    assert state["last_move"]["flags"] == []
    service.undo(actor="test")
    state = client.get("/api/state").get_json()
    assert state["last_move"]["flags"] == ["phony"]
    page = client.get("/")
    embedded = json.loads(page.data.split(b'id="initial-state">')[1].split(b"</script>")[0])
    assert embedded["moves"][0]["flags"] == ["phony"]
    script = client.get("/static/js/live.js").get_data(as_text=True)
    assert '"phony?"' in script and "flagBadge(" in script    # the badge the move list and last move draw
    css = client.get("/static/css/app.css").get_data(as_text=True)
    assert ".flag.phony" in css
    store.close()
