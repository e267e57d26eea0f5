"""``tilecam serve``: the web app over the store's games, read and write, without a camera.

For looking back at recorded games, keeping score by hand (the control page), or running the scoreboard on another
machine than the camera. Served by waitress; the PIN for changes is printed at start (it lives in the data folder).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="serve the scoreboard and review of the stored games (no camera)")
    p.add_argument("--data-dir", type=Path, default=None,
                   help="folder of the game store, secret key and PIN (default: the user data folder)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--port", type=int, default=8080, help="port (default: 8080)")
    p.add_argument("--threads", type=int, default=None,
                   help="server threads; each open scoreboard holds one (default: 160)")
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from tilecam.web.app import create_app
    from tilecam.web.qr import lan_ip
    from tilecam.web.server import DEFAULT_THREADS, make_server

    if not 0 <= args.port <= 65535:
        print(f"tilecam serve: --port must be 0..65535, not {args.port}", file=sys.stderr)
        return 2
    config = {"DATA_DIR": str(args.data_dir)} if args.data_dir else None
    app = create_app(config)
    try:
        server = make_server(app, host=args.host, port=args.port, threads=args.threads or DEFAULT_THREADS)
    except (OSError, ValueError) as exc:
        print(f"tilecam serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    port = server.effective_port
    print(f"tilecam: scoreboard on http://{lan_ip()}:{port}/  (data: {app.config['DATA_DIR']})", flush=True)
    print(f"tilecam: players' PIN {app.config['PIN']}", flush=True)
    try:
        server.run()
    finally:
        app.extensions["tilecam.stopping"].set()
    return 0
