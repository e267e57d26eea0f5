"""``tilecam serve``: the web app over the store's games, read and write, without a camera.

For looking back at recorded games, keeping score by hand (the control page), or running the scoreboard on another
machine than the camera. It reads the same config file as ``tilecam run`` (``--config``; else ``$TILECAM_CONFIG``,
``/etc/tilecam/config.toml``, the user config), so on a Pi it serves the service's store (``data_dir``) on the same
port; flags override the file. Served by waitress; the PIN for changes is printed at start (it lives in the data
folder).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="serve the scoreboard and review of the stored games (no camera)")
    p.add_argument("--config", type=Path, default=None,
                   help="TOML config file (default: $TILECAM_CONFIG, /etc/tilecam/config.toml, the user config)")
    p.add_argument("--data-dir", type=Path, default=None,
                   help="folder of the game store, secret key and PIN (default: the config's data_dir, else the "
                        "user data folder)")
    p.add_argument("--host", default=None, help="address to listen on (default: the config's, 0.0.0.0: all)")
    p.add_argument("--port", type=int, default=None, help="port (default: the config's, 8000)")
    p.add_argument("--threads", type=int, default=None,
                   help="server threads; each open scoreboard holds one (default: the config's)")
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from tilecam.firmware.config import ConfigError, load_config
    from tilecam.firmware.doctor import health_checks
    from tilecam.web.app import create_app
    from tilecam.web.qr import lan_ip
    from tilecam.web.server import make_server

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"tilecam serve: {exc}", file=sys.stderr)
        return 2
    host = args.host if args.host is not None else config.web.host
    port = args.port if args.port is not None else config.web.port
    threads = args.threads or config.web.threads
    if not 0 <= port <= 65535:
        print(f"tilecam serve: --port must be 0..65535, not {port}", file=sys.stderr)
        return 2
    data_dir = args.data_dir or config.data_dir
    app = create_app({"HEALTH_CHECKS": health_checks, **({"DATA_DIR": str(data_dir)} if data_dir else {})})
    try:
        server = make_server(app, host=host, port=port, threads=threads)
    except (OSError, ValueError) as exc:
        print(f"tilecam serve: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return 1
    print(f"tilecam: scoreboard on http://{lan_ip()}:{server.effective_port}/  (data: {app.config['DATA_DIR']})",
          flush=True)
    print(f"tilecam: players' PIN {app.config['PIN']}", flush=True)
    try:
        server.run()
    finally:
        app.extensions["tilecam.stopping"].set()
    return 0
