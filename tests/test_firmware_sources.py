"""Frame sources: recordings (folder, zip, video), the webcam and Pi camera control logic with fakes, --source."""

from __future__ import annotations

import json
import zipfile

import cv2
import numpy as np
import pytest

from tilecam.firmware import sources
from tilecam.firmware.sources import (
    BadSourceSpec,
    EndOfStream,
    FolderSource,
    FrameSource,
    PiCameraSettings,
    PiCameraSource,
    SourceError,
    VideoFileSource,
    WebcamSource,
    ZipFramesSource,
    natural_key,
    open_source_spec,
)


def _image(value: int, size=(120, 160)) -> np.ndarray:
    img = np.zeros((*size, 3), np.uint8)
    img[:] = value
    return img


def test_natural_key_orders_numbers_by_value():
    names = ["image-10.jpg", "image-2.jpg", "image-1.jpg", "Image-3.jpg"]
    assert sorted(names, key=natural_key) == ["image-1.jpg", "image-2.jpg", "Image-3.jpg", "image-10.jpg"]


def test_folder_source_reads_in_natural_order_then_ends(tmp_path):
    for n, value in [(10, 200), (2, 50), (1, 10)]:
        cv2.imwrite(str(tmp_path / f"image-{n}.png"), _image(value))
    (tmp_path / "notes.txt").write_text("not a frame")
    src = FolderSource(tmp_path, fps=4)
    assert isinstance(src, FrameSource) and not src.live
    src.open()
    frames = [src.read() for _ in range(3)]
    assert [int(f.full()[0, 0, 0]) for f in frames] == [10, 50, 200]
    assert [f.t for f in frames] == [0.0, 0.25, 0.5]
    assert frames[0].lores.ndim == 2 and frames[0].lores.shape[1] == sources.LORES_WIDTH
    with pytest.raises(EndOfStream):
        src.read()


def test_folder_source_skips_past_an_undecodable_frame(tmp_path):
    cv2.imwrite(str(tmp_path / "1.png"), _image(10))
    (tmp_path / "2.png").write_bytes(b"not a png")
    cv2.imwrite(str(tmp_path / "3.png"), _image(30))
    src = FolderSource(tmp_path)
    src.open()
    src.read()
    with pytest.raises(SourceError, match="cannot decode"):
        src.read()
    assert int(src.read().full()[0, 0, 0]) == 30


def test_empty_or_missing_folder_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="no image files"):
        FolderSource(tmp_path).open()
    with pytest.raises(SourceError, match="no folder"):
        FolderSource(tmp_path / "nope").open()


def _zip(path, values, meta=None):
    with zipfile.ZipFile(path, "w") as z:
        for i, v in enumerate(values):
            ok, buf = cv2.imencode(".png", _image(v))
            z.writestr(f"frames/f-{i}.png", buf.tobytes())
        if meta is not None:
            z.writestr("game.json", json.dumps(meta))
    return path


def test_zip_source_reads_members_in_natural_order_and_metadata(tmp_path):
    path = _zip(tmp_path / "clip.zip", [v * 10 for v in range(12)], {"fps": 2, "players": ["A", "B"]})
    src = ZipFramesSource(path)
    src.open()
    assert src.metadata["players"] == ["A", "B"] and src.fps == 2
    values = [int(src.read().full()[0, 0, 0]) for _ in range(12)]
    assert values == [v * 10 for v in range(12)]
    with pytest.raises(EndOfStream):
        src.read()
    src.close()


def test_zip_source_can_loop(tmp_path):
    src = ZipFramesSource(_zip(tmp_path / "c.zip", [1, 2]), loop=True)
    src.open()
    assert [int(src.read().full()[0, 0, 0]) for _ in range(5)] == [1, 2, 1, 2, 1]


def test_video_file_source_reads_an_mjpeg_avi(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (160, 120))
    for v in (0, 100, 200):
        writer.write(_image(v))
    writer.release()
    src = VideoFileSource(path)
    src.open()
    assert src.fps == pytest.approx(5.0)
    frames = [src.read() for _ in range(3)]
    assert [round(float(f.full().mean()) / 50) * 50 for f in frames] == [0, 100, 200]
    assert frames[2].t == pytest.approx(0.4)
    with pytest.raises(EndOfStream):
        src.read()


class FakeCapture:
    def __init__(self, opened=True, fail_after=None):
        self.opened, self.fail_after, self.reads, self.grabs, self.props = opened, fail_after, 0, 0, {}

    def isOpened(self):
        return self.opened

    def set(self, prop, value):
        self.props[prop] = value

    def grab(self):
        self.grabs += 1
        return True

    def read(self):
        self.reads += 1
        if self.fail_after is not None and self.reads > self.fail_after:
            return False, None
        return True, _image(self.reads)

    def release(self):
        self.opened = False


def test_webcam_source_sets_a_one_frame_buffer_and_reports_failures():
    cap = FakeCapture(fail_after=1)
    src = WebcamSource(2, capture_factory=lambda i: cap)
    assert src.live and src.name == "webcam:2"
    src.open()
    assert cap.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert int(src.read().full()[0, 0, 0]) == 1
    with pytest.raises(SourceError, match="stopped delivering"):
        src.read()
    with pytest.raises(SourceError, match="no webcam"):
        WebcamSource(0, capture_factory=lambda i: FakeCapture(opened=False)).open()


class FakePicamera2:
    """Enough of picamera2.Picamera2 to drive PiCameraSource: records configuration and controls."""

    def __init__(self, num, has_af=True, fail_capture=False):
        self.num = num
        self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)} if has_af else {}
        self.controls: dict = {}
        self.control_calls: list[dict] = []
        self.config_args: dict = {}
        self.started = False
        self.af_cycles = 0
        self.fail_capture = fail_capture
        self.captured: list[str] = []
        # AE/AWB converge over a few frames, then hold.
        self._meta = iter([
            {"ExposureTime": 10000, "AnalogueGain": 4.0, "ColourGains": (1.2, 2.0)},
            {"ExposureTime": 20000, "AnalogueGain": 2.0, "ColourGains": (1.5, 1.8)},
            {"ExposureTime": 24000, "AnalogueGain": 1.6, "ColourGains": (1.6, 1.7)},
            {"ExposureTime": 24100, "AnalogueGain": 1.6, "ColourGains": (1.6, 1.7)},
        ])
        self._last = {"ExposureTime": 24100, "AnalogueGain": 1.6, "ColourGains": (1.6, 1.7)}

    def create_video_configuration(self, **kw):
        self.config_args = kw
        return {"config": kw}

    def configure(self, config):
        self.configured = config

    def start(self):
        self.started = True

    def stop(self):
        self.started = False

    def close(self):
        pass

    def set_controls(self, controls):
        self.control_calls.append(dict(controls))
        self.controls.update(controls)

    def autofocus_cycle(self):
        self.af_cycles += 1
        return True

    def capture_metadata(self):
        meta = next(self._meta, self._last)
        return {**meta, "LensPosition": 3.25}

    def capture_array(self, name="main"):
        self.captured.append(name)
        if self.fail_capture:
            raise RuntimeError("Camera frontend has timed out!")
        if name == "lores":
            w, h = self.config_args["lores"]["size"]
            stride = w + 32     # libcamera pads rows to its stride
            yuv = np.zeros((h * 3 // 2, stride), np.uint8)
            yuv[:h, :w] = 77    # luma
            yuv[:h, w:] = 255   # padding: must not reach the motion image
            yuv[h:] = 128       # chroma planes
            return yuv
        w, h = self.config_args["main"]["size"]
        return np.full((h, w, 3), 99, np.uint8)


def test_picamera_configures_two_streams_and_locks_focus_exposure_and_white_balance():
    cams = []

    def factory(num):
        cams.append(FakePicamera2(num))
        return cams[-1]

    src = PiCameraSource(PiCameraSettings(main=(640, 480), lores=(160, 120)), picamera2_factory=factory)
    src.open()
    cam = cams[0]
    assert cam.started
    assert cam.config_args["lores"] == {"size": (160, 120), "format": "YUV420"}
    assert cam.config_args["main"]["format"] == "RGB888" and cam.config_args["queue"] is False
    assert cam.af_cycles == 1
    assert {"AfMode": sources.AF_MODE_MANUAL, "LensPosition": 3.25} in cam.control_calls
    last = cam.control_calls[-1]
    assert last["AeEnable"] is False and last["AwbEnable"] is False
    # Locked at the settled values, not the first ones.
    assert last["ExposureTime"] == 24100 and last["AnalogueGain"] == 1.6 and last["ColourGains"] == (1.6, 1.7)

    frame = src.read()
    assert cam.captured == ["lores"]                      # the full-size stream is not touched for motion
    assert frame.lores.shape == (120, 160) and int(frame.lores.max()) == 77  # the Y plane only
    assert frame.full().shape == (480, 640, 3)
    assert cam.captured == ["lores", "main"]
    src.close()
    assert not cam.started


def test_picamera_without_autofocus_skips_the_focus_cycle():
    cam = FakePicamera2(0, has_af=False)
    src = PiCameraSource(picamera2_factory=lambda n: cam)
    src.open()
    assert cam.af_cycles == 0
    assert "LensPosition" not in src.locked_controls and src.locked_controls["AeEnable"] is False


def test_picamera_capture_failure_is_a_source_error():
    cam = FakePicamera2(0, fail_capture=True)
    src = PiCameraSource(picamera2_factory=lambda n: cam)
    src.open()
    with pytest.raises(SourceError, match="stopped delivering"):
        src.read()


def test_source_spec_auto_prefers_picamera_then_webcam_then_demo(tmp_path):
    c = open_source_spec("auto", probe_picamera=lambda: True, probe_webcam=lambda i: True)
    assert isinstance(c.source, PiCameraSource) and "Pi camera" in c.reason
    c = open_source_spec("auto", probe_picamera=lambda: False, probe_webcam=lambda i: True)
    assert isinstance(c.source, WebcamSource) and "webcam 0" in c.reason
    c = open_source_spec("auto", probe_picamera=lambda: False, probe_webcam=lambda i: False)
    assert c.source.name == "demo" and "demo" in c.reason


def test_source_spec_kinds_and_paths(tmp_path):
    assert open_source_spec("webcam:3").source.name == "webcam:3"
    assert open_source_spec("webcam").source.name == "webcam:0"
    assert isinstance(open_source_spec("picamera").source, PiCameraSource)
    assert isinstance(open_source_spec(str(tmp_path)).source, FolderSource)
    z = _zip(tmp_path / "x.zip", [1])
    assert isinstance(open_source_spec(str(z)).source, ZipFramesSource)
    (tmp_path / "v.avi").write_bytes(b"")
    assert isinstance(open_source_spec(str(tmp_path / "v.avi")).source, VideoFileSource)
    with pytest.raises(BadSourceSpec, match="not auto"):
        open_source_spec("/no/such/thing")
    cv2.imwrite(str(tmp_path / "one.png"), _image(1))
    with pytest.raises(BadSourceSpec, match="one image"):
        open_source_spec(str(tmp_path / "one.png"))


def test_the_bundled_demo_clip_opens_and_its_game_is_legal():
    from tilecam.engine.game import Game
    from tilecam.engine.move import Placement

    src = open_source_spec("demo", realtime_demo=False).source
    src.open()
    try:
        meta = src.metadata
        assert len(src) >= 10 and meta["fps"] > 0 and len(meta["players"]) == 2
        game = Game(meta["players"])
        for move in meta["moves"]:
            game.play(Placement.from_gcg(*move.split()))   # raises on an illegal move
        assert set(meta["end_racks"]) == {"0", "1"}
        first = src.read()
        assert first.full().ndim == 3 and first.full().shape[1] >= 640
    finally:
        src.close()
    assert sources.DEMO_CLIP.stat().st_size < 3_500_000
