"""The JSON API describes itself (``/api/openapi.json``), and a property-based fuzz of every endpoint in that
document (schemathesis, in-process through WSGI: nothing leaves the machine) finds no 5xx, and every refusal is a
4xx with a message. Commands are fuzzed with a players' PIN session, so they reach the game, not only the lock."""

from __future__ import annotations

from collections import Counter

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck

from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.engine.lexicon import Lexicon
from tilecam.web.app import create_app
from tilecam.web.openapi import document

PIN = "482913"
#: Cases generated per endpoint: enough to reach each one's refusals, few enough that the fuzz of all of them runs
#: in well under a minute on the 2-core development machine.
MAX_EXAMPLES = 50
#: The seed of the fuzz: the same cases on every run (tests never use unseeded randomness).
SEED = 24


@pytest.fixture()
def app(tmp_path):
    service = GameService(GameStore(tmp_path / "data"), lexicon=Lexicon.from_words(["QUANT", "QAT", "AT", "TA"]))
    service.new_game(["Ann", "Ben"])
    service.play("8D QUANT", actor="test")
    config = {"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "PIN": PIN, "SSE_MAX_S": 0.2}
    return create_app(config, service=service)


def test_the_document_describes_every_json_route(app):
    doc = app.test_client().get("/api/openapi.json").get_json()
    assert doc == document() and doc["openapi"].startswith("3.")
    described = {p.replace("{", "<").replace("}", ">") for p in doc["paths"]}
    routes = {str(rule).replace("<int:", "<") for rule in app.url_map.iter_rules()
              if str(rule).startswith(("/api/", "/auth/", "/health"))}
    assert routes - described == {"/api/events"}  # the live stream (Server-Sent Events), described in docs/API.md


def test_no_endpoint_answers_5xx_and_every_refusal_says_why(app):
    client = app.test_client()
    csrf = client.post("/auth/pin", json={"pin": PIN}).get_json()["csrf"]
    cookie = client.get_cookie("session").value
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    seen: Counter[str] = Counter()
    statuses: Counter[tuple[str, int]] = Counter()
    failures: list[str] = []

    for result in schema.get_all_operations():
        operation = result.ok()
        label = f"{operation.method.upper()} {operation.path}"

        @hypothesis.seed(SEED)
        @hypothesis.settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
                             suppress_health_check=list(HealthCheck), phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate])
        @hypothesis.given(case=operation.as_strategy())
        def fuzz(case):
            response = case.call(headers={"X-CSRF-Token": csrf}, cookies={"session": cookie})
            seen[label] += 1
            status = response.status_code
            statuses[label, status] += 1
            if status >= 500:
                failures.append(f"{label} → {status}: {case.path_parameters} {case.query} {case.body!r}")
            elif status >= 400:
                body = response.json()
                if not (isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"]):
                    failures.append(f"{label} → {status} without a message: {body!r}")

        fuzz()

    print(f"\nschemathesis: {len(seen)} endpoints, {sum(seen.values())} cases, "
          f"{sum('→ 5' in f for f in failures)} answered 5xx; {sorted(statuses.items())}")
    assert failures == []
    command = "POST /api/game/{action}"
    assert statuses[command, 200] and statuses[command, 409], statuses  # the session let commands reach the game
    described = {f"{m.upper()} {p}" for p, ops in document()["paths"].items() for m in ops}
    assert set(seen) == described - {"GET /api/openapi.json"}  # schemathesis leaves out the document itself
