"""``tilecam doctor``: check the camera, model, lexicon, store, free disk and temperature, and say what to fix.

Exit status 0 when every essential check passes, 1 otherwise (warnings such as a warm Pi do not fail it).
The checks themselves live in :mod:`tilecam.firmware.doctor` (``run_checks``), shared with the web's ``/health``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

# Where deploy/install.sh puts the configuration; used when --config is not given and the file exists.
SYSTEM_CONFIG = Path("/etc/tilecam/config.toml")


class ConfigFileError(ValueError):
    """The configuration file is missing or is not valid TOML."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "doctor", help="check camera, model, lexicon, store, disk and temperature; say what to fix",
        description="Check this tilecam installation and say what to fix. Exit 0 when all essential checks pass.",
    )
    p.add_argument("--config", type=Path, default=None,
                   help=f"TOML configuration (default: $TILECAM_CONFIG, else {SYSTEM_CONFIG} if it exists, else the "
                        "user's config folder)")
    p.add_argument("--source", default=None, help="camera source to check: auto|picamera|webcam[:N]|demo|PATH")
    p.add_argument("--data-dir", default=None, help="folder holding the game database")
    p.add_argument("--only", default=None, help="comma-separated checks to run (default: all)")
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(func=_run)


def config_path(explicit: Path | None, env: dict[str, str] | None = None) -> Path | None:
    """The config file to read: ``--config``, else ``$TILECAM_CONFIG``, else the system file when it exists."""
    env = dict(os.environ) if env is None else env
    if explicit is not None:
        return explicit
    try:  # the device's own rule (it also looks in the user's config folder), so `run` and `doctor` agree
        from tilecam.firmware.config import default_config_path
    except ModuleNotFoundError:
        default_config_path = None
    if default_config_path is not None:
        return default_config_path(env)
    if env.get("TILECAM_CONFIG"):
        return Path(env["TILECAM_CONFIG"])
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def load_config(path: Path | None) -> Any:
    """The device's config loader when it is in this build (one place reads TOML), else the raw TOML tables."""
    if path is None:
        return {}
    if not path.is_file():
        raise ConfigFileError(f"config file {path} does not exist")
    try:
        config_module = importlib.import_module("tilecam.firmware.config")
    except ModuleNotFoundError as exc:
        if exc.name != "tilecam.firmware.config":
            raise
        config_module = None
    loader = getattr(config_module, "load_config", None) if config_module else None
    if loader is not None:
        return loader(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigFileError(f"{path}: {exc}") from exc


def with_overrides(config: Any, source: str | None, data_dir: str | None) -> Any:
    """The settings the doctor checks: the config's, with the command-line options on top."""
    from tilecam.firmware.doctor import DoctorSettings

    settings = DoctorSettings.from_config(config)
    changes: dict[str, Any] = {}
    if source:
        changes["source"] = source
    if data_dir:
        changes["data_dir"] = data_dir
    if not changes:
        return settings
    import dataclasses

    return dataclasses.replace(settings, **changes)


def _run(args: argparse.Namespace) -> int:
    from tilecam.firmware import doctor

    path = config_path(args.config)
    try:
        config = load_config(path)
    except ValueError as exc:  # ConfigFileError and the config module's own typed errors
        print(f"tilecam doctor: {exc}", file=sys.stderr)
        return 2
    settings = with_overrides(config, args.source, args.data_dir)
    only = [n.strip() for n in args.only.split(",") if n.strip()] if args.only else None
    try:
        checks = doctor.run_checks(settings, only=only)
    except ValueError as exc:
        print(f"tilecam doctor: {exc}", file=sys.stderr)
        return 2
    ok = doctor.all_essential_ok(checks)
    if args.json:
        print(json.dumps({"ok": ok, "config": str(path) if path else None,
                          "checks": [c.to_dict() for c in checks]}, indent=2, ensure_ascii=False))
    else:
        print(format_report(checks, path))
    return 0 if ok else 1


def format_report(checks: list, path: Path | None) -> str:
    """One line per check, with the fix under each failed one, and a verdict."""
    lines = [f"tilecam doctor — config: {path or 'defaults (no config file)'}"]
    width = max((len(c.name) for c in checks), default=0)
    for c in checks:
        mark = "ok  " if c.ok else ("FAIL" if c.essential else "warn")
        lines.append(f"  {mark}  {c.name:<{width}}  {c.detail}")
        if not c.ok and c.fix:
            lines.append(f"        {'':<{width}}  fix: {c.fix}")
    failed = [c.name for c in checks if not c.ok and c.essential]
    warned = [c.name for c in checks if not c.ok and not c.essential]
    if failed:
        lines.append(f"NOT READY: {', '.join(failed)} failed" + (f"; warnings: {', '.join(warned)}" if warned else ""))
    else:
        lines.append("READY" + (f" (warnings: {', '.join(warned)})" if warned else ""))
    return "\n".join(lines)
