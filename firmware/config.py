"""The device's configuration: typed dataclasses with defaults, loaded from one TOML file, overridden by flags.

The file (``--config FILE``; else ``$TILECAM_CONFIG``; else ``/etc/tilecam/config.toml`` on the Pi; else the user
config folder's ``tilecam/config.toml``; else the defaults) has one table per section::

    data_dir = "/var/lib/tilecam"

    [camera]
    source = "auto"            # auto | picamera | webcam[:N] | demo | PATH (video, folder or .zip of frames)

    [loop]
    settle_seconds = 0.8
    idle_fps = 2.0

    [web]
    port = 8000

    [buttons]
    pins = [17, 27]            # BCM pins, one per player, in seat order; [] = no buttons

    [game]
    players = ["Ann", "Ben"]
    challenge_rule = "double"

Helpers receive only their section (``config.loop`` goes to the capture loop). An unknown key or a value of the
wrong type is a :class:`ConfigError` naming the file and the key, so a typo is not silently ignored.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tilecam.core.store import GameSettings
from tilecam.firmware.loop import LoopConfig
from tilecam.web.server import DEFAULT_PORT, DEFAULT_THREADS

SYSTEM_CONFIG = Path("/etc/tilecam/config.toml")


class ConfigError(ValueError):
    """A config file that cannot be read, or a key or value in it that is not understood."""


@dataclass(frozen=True, slots=True)
class CameraConfig:
    source: str = "auto"
    fps: float | None = None                 # frame rate of a recording without one (folder of frames)
    realtime: bool = True                    # play recordings at their recorded rate (False: as fast as read)
    stills: bool = False                     # one photo per turn, each a settled board (a clock-button rig)
    pi_main: tuple[int, int] = (2304, 1296)  # Pi camera reading resolution
    pi_lores: tuple[int, int] = (320, 180)   # Pi camera motion stream
    autofocus: bool = True
    snapshot_width: int = 1280               # JPEG kept with each move is at most this wide
    snapshot_quality: int = 80


@dataclass(frozen=True, slots=True)
class WebConfig:
    enabled: bool = True
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT                 # 8000, shared with `tilecam serve` (tilecam.web.server)
    threads: int = DEFAULT_THREADS           # each open live page holds one; 100 phones + pages and commands
    qr: bool = True                          # print a QR code of the URL in the terminal


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    pins: tuple[int, ...] = ()
    long_press_s: float = 1.5
    double_press_s: float = 0.4


@dataclass(frozen=True, slots=True)
class GameConfig(GameSettings):
    """The game started when there is none to resume (a person can start another from the web): its players and
    its settings (the fields of :class:`~tilecam.core.store.GameSettings`, in the same ``[game]`` table)."""

    players: tuple[str, ...] = ("Player 1", "Player 2")
    auto_start: bool = True

    def settings(self) -> GameSettings:
        """The stored settings of the game this starts."""
        return GameSettings(**{f.name: getattr(self, f.name) for f in dataclasses.fields(GameSettings)})


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Which move tracker consumes the frames: ``"module:callable"`` called with the service's board rows and the
    tile set name; empty = the project's tracker (``tilecam.vision.tracker``)."""

    factory: str = ""


@dataclass(frozen=True, slots=True)
class Config:
    data_dir: str | None = None
    camera: CameraConfig = field(default_factory=CameraConfig)
    loop: LoopConfig = field(default_factory=LoopConfig)
    web: WebConfig = field(default_factory=WebConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    game: GameConfig = field(default_factory=GameConfig)
    tracker: TrackerConfig = field(default_factory=TrackerConfig)

    def replace(self, section: str | None = None, **changes: Any) -> "Config":
        """A copy with ``changes`` made at the top level, or inside ``section``."""
        if section is None:
            return dataclasses.replace(self, **changes)
        return dataclasses.replace(self, **{section: dataclasses.replace(getattr(self, section), **changes)})


def default_config_path(env: typing.Mapping[str, str] | None = None) -> Path | None:
    """The config file to use when none is named, or None (defaults only)."""
    env = os.environ if env is None else env
    if env.get("TILECAM_CONFIG"):
        return Path(env["TILECAM_CONFIG"])
    if SYSTEM_CONFIG.is_file():
        return SYSTEM_CONFIG
    import platformdirs

    user = Path(platformdirs.user_config_dir("tilecam", appauthor=False)) / "config.toml"
    return user if user.is_file() else None


def load_config(path: str | Path | None = None) -> Config:
    """Read ``path`` (or the default file, if any) into a :class:`Config`."""
    p = Path(path) if path is not None else default_config_path()
    if p is None:
        return Config()
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"no config file {p}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {p}: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from exc
    return parse_config(data, source=str(p))


def parse_config(data: dict[str, Any], source: str = "config") -> Config:
    return _build(Config, data, source, "")


def _build(cls: type, data: Any, source: str, where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: [{where}] must be a table")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        known = ", ".join(sorted(names))
        raise ConfigError(f"{source}: unknown key {_key(where, unknown[0])!r} (known here: {known})")
    values = {}
    for name, value in data.items():
        key = _key(where, name)
        hint = hints[name]
        if dataclasses.is_dataclass(hint):
            values[name] = _build(hint, value, source, key)
        else:
            values[name] = _coerce(hint, value, source, key)
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{source}: [{where or 'top level'}] {exc}") from exc


def _key(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _coerce(hint: Any, value: Any, source: str, key: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _coerce(option, value, source, key)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0] if errors else f"{source}: {key}: bad value {value!r}")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list):
            raise ConfigError(f"{source}: {key} must be a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(args[0], v, source, key) for v in value)
        if len(value) != len(args):
            raise ConfigError(f"{source}: {key} must be a list of {len(args)} values, got {value!r}")
        return tuple(_coerce(a, v, source, key) for a, v in zip(args, value))
    if hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is str:
        if isinstance(value, str):
            return value
    else:
        return value
    raise ConfigError(f"{source}: {key} must be {getattr(hint, '__name__', hint)}, got {value!r}")
