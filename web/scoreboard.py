"""The pages people look at during a game: the phone scoreboard, the players' control page, the device (TV) page."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from tilecam.engine.variants import registry
from tilecam.web import qr

bp = Blueprint("scoreboard", __name__)


def _initial_state() -> dict:
    """The state drawn before the live stream connects, so the first paint already shows the game."""
    _seq, state = current_app.extensions["tilecam.live"].current_cached()
    return state


@bp.get("/")
def index():
    return render_template("scoreboard.html", initial_state=_initial_state())


@bp.get("/control")
def control():
    return render_template("control.html", initial_state=_initial_state(), registry=registry())


@bp.get("/device")
def device():
    url = current_app.config.get("JOIN_URL") or qr.join_url(request.host, request.scheme)
    return render_template("device.html", initial_state=_initial_state(), join_url=url, qr_svg=qr.qr_svg(url))
