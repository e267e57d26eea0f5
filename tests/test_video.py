"""The game-video generator: seeded scripts with the truth alongside, and move inference over its simulated
readings (a whole game reconstructed: placements, withdrawals, no phantom moves)."""

from __future__ import annotations

import pytest

from tilecam.engine.gcg import read_gcg
from tilecam.engine.rules import Rules
from tilecam.models.video import ScriptConfig, occluded_squares, script_game, simulate_readings
from tilecam.vision.tracker import External, GameRecorder, MoveTracker, TrackerConfig, replay_frames

GAME = """#player1 ann Ann
#player2 ben Ben
>ann: AQNTUXY 8D QUANT +48 48
>ben: EEIKLRS D8 .IKE +17 17
>ann: AEIORXY -EIO +0 48
>ben: ELRSSTT 9F ZITS +30 47
>ben: ELRSSTT -- -30 17
>ann: AEIRSTX 7E AX +41 89
>ben: ELRSSTT 10D .Lt +3 20
"""


@pytest.fixture(scope="module")
def record():
    return read_gcg(GAME)


def test_script_is_seeded_and_deterministic(record):
    a, b, c = script_game(record, 7), script_game(record, 7), script_game(record, 8)
    assert a.specs == b.specs and a.truth == b.truth
    assert a.specs != c.specs
    assert [t["kind"] for t in a.truth] == ["play", "play", "exchange", "play", "withdraw", "play", "play"]
    assert a.externals == [{"frame": a.truth[2]["frame"], "event": "exchange", "player": 0, "count": 3}]


def test_truth_frames_show_the_board_after_each_event(record):
    video = script_game(record, 3)
    game = record.replay(Rules())
    final = game.board.rows()
    assert video.specs[-1].rows == tuple(final) and not video.specs[-1].hand
    for t in video.truth:
        spec = video.specs[t["frame"] - 1]    # the first still frame after the event
        assert spec.event == t["index"] and not spec.hand
    # hands appear only while tiles change, and cover squares on the board
    changing = [i for i in range(1, len(video.specs)) if video.specs[i].rows != video.specs[i - 1].rows]
    assert changing and all(video.specs[i].hand and occluded_squares(video.specs[i]) for i in changing)


def test_phony_is_placed_then_taken_back(record):
    video = script_game(record, 5)
    zits = [i for i, s in enumerate(video.specs) if "Z" in "".join(s.rows)]
    assert zits and video.specs[zits[-1] + 1].hand          # the hand takes it back
    assert "Z" not in "".join(video.specs[-1].rows)


@pytest.mark.parametrize("seed", [11, 12])
def test_tracker_reconstructs_the_game_from_simulated_readings(record, seed):
    cfg = ScriptConfig(p_hesitate=0.5, p_nudge=0.8)
    video = script_game(record, seed, config=cfg)
    readings = simulate_readings(video, seed, doubt_rate=0.05)
    tracker = MoveTracker("english", config=TrackerConfig(settle_readings=3))
    recorder = GameRecorder(["Ann", "Ben"], Rules(max_scoreless_turns=None))
    externals = [External(e["frame"], e["event"], e["player"], e.get("count", 0)) for e in video.externals]
    replay_frames(((i / 10, r) for i, r in enumerate(readings)), tracker, recorder, externals=externals)
    got = [(e.kind, e.position, e.word.replace("?", "t"), e.score) for e in recorder.game.history]
    want = [(t["kind"], t.get("position", ""), t.get("word", ""), t["score"]) for t in video.truth]
    assert got == want
    assert recorder.problems == []


def test_render_and_write_frames_with_a_stand_in_renderer(record, tmp_path, monkeypatch):
    """The render path (lighting, jitter, size, files) with a stand-in for tilecam.models.synth."""
    import json
    import sys
    import types

    import numpy as np

    from tilecam.models.video import render_game, write_frames

    calls = []

    def render_board(rows, seed=0, tileset="english", hand=None, **_):
        calls.append((tuple(rows), bool(hand)))
        img = np.full((200, 200, 3), 120, np.uint8)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != ".":
                    img[10 + r * 12:20 + r * 12, 10 + c * 12:20 + c * 12] = 230
        return img

    import tilecam.models

    stand_in = types.SimpleNamespace(render_board=render_board, sample_scene=lambda rng, tileset="english": None)
    # Both places an import looks: the module table and the package attribute (set once the real one was imported).
    monkeypatch.setitem(sys.modules, "tilecam.models.synth", stand_in)
    monkeypatch.setattr(tilecam.models, "synth", stand_in, raising=False)
    video = render_game(record, seed=2, image_px=100)
    assert len(video.frames) == len(video.specs) == len(calls)
    assert all(f.shape == (100, 100, 3) for f in video.frames)
    again = render_game(record, seed=2, image_px=100)
    assert all((a == b).all() for a, b in zip(video.frames, again.frames))
    out = write_frames(video, tmp_path / "v")
    names = sorted(p.name for p in out.glob("frame_*.jpg"))
    assert len(names) == len(video.frames) and names[0] == "frame_000001.jpg"
    truth = json.loads((out / "truth.json").read_text())
    assert truth["events"] == video.truth and len(truth["frame_events"]) == len(video.frames)
    lines = (out / "events.jsonl").read_text().splitlines()
    assert [json.loads(x)["event"] for x in lines] == ["exchange"]


def test_photo_compositor_paints_tiles_and_a_hand_where_the_spec_says(shared_dir):
    import numpy as np

    from tilecam.models.video import FrameSpec, PhotoCompositor, occluded_squares
    from tilecam.vision.locate import locate_board

    comp = PhotoCompositor.load(seed=1, shared=shared_dir, games=("game03",), photos=1)   # the last photo only
    empty_rows = ("." * 15,) * 15
    cat = tuple(r if i != 7 else "......." + "CAT" + "....." for i, r in enumerate(empty_rows))
    blank = comp.render(FrameSpec(empty_rows))
    with_cat = comp.render(FrameSpec(cat))
    again = comp.render(FrameSpec(cat))
    assert (with_cat == again).all() and (comp.render(FrameSpec(empty_rows)) == blank).all()
    corners = locate_board(blank).corners
    changed = np.argwhere(np.abs(with_cat.astype(int) - blank.astype(int)).sum(axis=2) > 60)
    ys, xs = changed[:, 0], changed[:, 1]
    cell = (corners[1][0] - corners[0][0]) / 15
    assert corners[0][0] + 6.5 * cell < xs.mean() < corners[0][0] + 9.5 * cell    # around columns H–J
    assert corners[0][1] + 7 * cell < ys.mean() < corners[0][1] + 8 * cell          # on row 8
    hand = FrameSpec(cat, hand=((7.5, 19.0), (8.5, 19.0), (8.5, 8.5), (7.5, 8.5)))
    assert occluded_squares(hand) and not (comp.render(hand) == with_cat).all()


def test_a_record_centred_on_a_super_board_opens_on_its_centre_star(record):
    from tilecam.engine.variants import rules_for
    from tilecam.models.video import centred

    assert centred(record, 15) is record
    video = script_game(centred(record, 21), 4, rules=rules_for("super"))
    assert video.tileset == "english-super" and all(len(s.rows) == 21 == len(s.rows[0]) for s in video.specs)
    first = video.truth[0]
    assert (first["position"], first["word"]) == ("11G", "QUANT")      # 8D moved 3 down, 3 right: over K11
    assert video.specs[-1].rows[10][6:11] == "QUANT"
    arms = [p for s in video.specs for p in s.hand]
    assert max(max(x, y) for x, y in arms) > 21           # arms reach in from beyond the 21x21 board's edges


def test_a_super_video_is_rendered_on_its_layout_in_a_frame_with_classic_sized_squares(record, monkeypatch):
    import sys
    import types

    import numpy as np

    import tilecam.models
    from tilecam.engine.variants import rules_for
    from tilecam.models.video import centred, iter_render

    calls = []

    def render_board(rows, seed=0, tileset="english", hand=None, layout="standard15", size=(960, 720), **_):
        calls.append((len(rows), tileset, layout, size))
        return np.zeros((size[1], size[0], 3), np.uint8)

    stand_in = types.SimpleNamespace(render_board=render_board, sample_scene=lambda rng, tileset="english": None)
    monkeypatch.setitem(sys.modules, "tilecam.models.synth", stand_in)
    monkeypatch.setattr(tilecam.models, "synth", stand_in, raising=False)
    video = script_game(centred(record, 21), 4, rules=rules_for("super"))
    frames = list(iter_render(video.specs[:3], video.tileset, 4, layout="super21"))
    assert calls == [(21, "english-super", "super21", (1344, 1008))] * 3 and frames[0].shape == (1008, 1344, 3)
    with pytest.raises(ValueError, match="only the classic board"):
        next(iter_render(video.specs, video.tileset, 4, renderer="photos", layout="super21"))


# --- camera set-ups (``iter_render(camera=…)``, ``tilecam bench moves --camera``) ----------------------------------

CAMERA_SEED = 20600


def _edges(corners):
    """The grid's four edge lengths in pixels: top (row 1), right, bottom, left."""
    import numpy as np

    return np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)


def test_a_steep_camera_shows_the_board_foreshortened_as_from_45_degrees(record):
    """Leaning along the board's rows (its lean's direction set to the board's turn), a camera 45 degrees from
    overhead sees the far edge shorter than the near one by the pinhole's ratio (D + s) / (D - s): D the camera's
    distance, s how far an edge rises towards it or sinks away, half the grid's side times sin 45 degrees."""
    import math
    from dataclasses import replace

    import numpy as np

    from tilecam.models import synth
    from tilecam.models.video import camera_scene

    drawn = synth.sample_scene(np.random.default_rng(CAMERA_SEED))
    steep = camera_scene(replace(drawn, tilt_dir_deg=drawn.roll_deg), "steep")
    assert steep.tilt_deg == 45
    assert (steep.fill, steep.roll_deg, steep.distance) == (drawn.fill, drawn.roll_deg, drawn.distance)
    frame = synth.render_board(script_game(record, CAMERA_SEED).specs[-1].rows, seed=CAMERA_SEED, scene=steep)
    top, right, bottom, left = _edges(frame.corners)
    flat_side = 15 * synth.CELL + 2 * round(steep.frame_frac * synth.CELL)
    distance, rise = steep.distance * flat_side, 15 * synth.CELL / 2 * math.sin(math.radians(45))
    assert max(top, bottom) / min(top, bottom) == pytest.approx((distance + rise) / (distance - rise), rel=0.02)
    assert max(top, bottom) / min(top, bottom) > 1.15                      # clearly foreshortened
    assert right == pytest.approx(left, rel=0.02)                          # the sides lean alike


def test_a_small_camera_gives_squares_30_px_wide(record):
    """From the rendered frame's truth corners: a square's mean width is 30 px at 960x720, seen from above as
    drawn or from 45 degrees (the latter's near squares wider, far ones narrower)."""
    import numpy as np

    from tilecam.models import synth
    from tilecam.models.video import camera_scene

    rows = script_game(record, CAMERA_SEED).specs[-1].rows
    drawn = synth.sample_scene(np.random.default_rng(CAMERA_SEED))
    for camera in ("small", "steep-small"):
        frame = synth.render_board(rows, seed=CAMERA_SEED, scene=camera_scene(drawn, camera))
        assert frame.image.shape == (720, 960, 3)
        assert _edges(frame.corners).mean() / 15 == pytest.approx(30, abs=0.5), camera


@pytest.mark.parametrize("camera", ["drawn", "steep", "small", "steep-small"])
def test_every_camera_keeps_the_board_inside_the_frame(camera):
    """Over many drawn scenes: the grid inside the 960x720 frame (synth fits the whole board, frame included, for
    any fill up to ``MAX_FILL``); a small board's squares 30 px, or fewer where that would need a larger fill."""
    import numpy as np

    from tilecam.models import synth
    from tilecam.models.video import MAX_FILL, camera_scene
    from tilecam.vision.warp import square_px

    for seed in range(40):
        scene = camera_scene(synth.sample_scene(np.random.default_rng(seed)), camera)
        corners = synth.grid_corners(scene)
        assert (corners >= 0).all() and (corners[:, 0] < 960).all() and (corners[:, 1] < 720).all(), seed
        assert scene.fill <= MAX_FILL
        if camera.endswith("small"):
            squares = square_px(corners)
            assert squares == pytest.approx(30, abs=0.2) if scene.fill < MAX_FILL else squares < 30, seed


def test_the_drawn_camera_renders_the_frames_it_always_did(record):
    """The default path is the one before camera set-ups existed: one seed's first frames (a still board, then a
    hand placing QUANT) hash as they did then. Should synth's drawing change on purpose, pin the new digest (last
    pinned when the tiles stood up, ``synth.TILE_THICKNESS``)."""
    import hashlib

    from tilecam.models.video import iter_render

    specs = script_game(record, CAMERA_SEED).specs[:16]
    digest = hashlib.sha256()
    for image in iter_render(specs, "english", CAMERA_SEED, camera="drawn"):
        digest.update(image.tobytes())
    assert digest.hexdigest() == "1217e655da4609008ae3548e9eb81c102ac26fcf3844e52e9fa42cda6a26d2bb"
    with pytest.raises(ValueError, match="unknown camera set-up 'fisheye'"):
        next(iter_render(specs, "english", CAMERA_SEED, camera="fisheye"))
