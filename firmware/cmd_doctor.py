"""``tilecam doctor``: check the camera, model, lexicon, store, free disk and temperature, and say what to fix.

Exit status 0 when every essential check passes, 1 otherwise (warnings such as a warm Pi do not fail it).
The checks themselves live in :mod:`tilecam.firmware.doctor` (``run_checks``), shared with the web's ``/health``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

# Where deploy/install.sh puts the configuration (tilecam.firmware.config.SYSTEM_CONFIG, not imported here so that
# the command line starts without numpy).
SYSTEM_CONFIG = "/etc/tilecam/config.toml"


class ConfigFileError(ValueError):
    """The configuration file named does not exist."""


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
    """The config file to read: ``--config``, else the device's own rule (``$TILECAM_CONFIG``, the system file,
    the user's config folder), so that ``run``, ``serve`` and ``doctor`` agree."""
    from tilecam.firmware.config import default_config_path

    return explicit if explicit is not None else default_config_path(env)


def load_config(path: Path | None) -> Any:
    """The device's config (its loader, the one place that reads TOML), or None for the defaults."""
    from tilecam.firmware.config import load_config as load

    if path is None:
        return None
    if not path.is_file():
        raise ConfigFileError(f"config file {path} does not exist")
    return load(path)


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
