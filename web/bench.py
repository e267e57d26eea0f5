"""``tilecam bench web``: many phones on the live scoreboard while a recorded game is replayed through the service.

A child process runs the real thing — waitress + the app + a GameService on a fresh store — so its CPU time can be
measured apart from the viewers. The parent opens ``--viewers`` Server-Sent Events streams on loopback (raw
sockets, one thread each), waits until the server counts them all, then tells the child to replay a GCG game event
by event. Every viewer records when each event id arrives; the child records when each event was committed.

Figures: events delivered (received / expected over all viewers), delivery latency p50/p99/max (commit → arrival),
the server process's CPU time and share of one core over the replay, its peak memory, and the scoreboard's page
weight (HTML + CSS + JS + icon, uncompressed, with the finished game's state embedded).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib
from pathlib import Path

DEFAULT_GCG = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "gcg" / "liwords_omgwords_vs_josh.gcg"


# ------------------------------------------------------------------------------------------------ the server side


def replay_gcg(service, text: str, actor: str = "bench", interval_s: float = 0.0, on_commit=None) -> int:
    """Replay a GCG game's events through ``service`` (a new game); returns how many events were committed.

    Plays, passes, exchanges and withdrawals become the service's commands, the end of the game one ``end_game``;
    lines the service derives by itself (challenge bonus, time penalty, end-of-game rack points) are skipped.
    """
    from tilecam.engine.gcg import read_gcg

    gcg = read_gcg(text)
    service.new_game([p.name or p.nick for p in gcg.players], actor=actor)
    commands = []
    for ev in gcg.events:
        if ev.kind == "play":
            commands.append(lambda ev=ev: service.play((ev.position, ev.word), actor=actor, player=ev.player))
        elif ev.kind == "pass":
            commands.append(lambda ev=ev: service.pass_turn(actor, player=ev.player))
        elif ev.kind == "exchange":
            commands.append(lambda ev=ev: service.exchange(ev.letters or ev.count, actor, player=ev.player))
        elif ev.kind == "withdraw":
            commands.append(lambda: service.withdraw(actor))
    if any(ev.kind in ("end_rack", "end_penalty") for ev in gcg.events):
        commands.append(lambda: service.end_game(None, actor))
    for command in commands:
        if interval_s:
            time.sleep(interval_s)
        event = command()
        if on_commit is not None:
            on_commit(event.seq, time.time())
    return len(commands)


def _child(data_dir: str, gcg_path: str, interval_s: float, threads: int) -> int:
    """The server process: prints ``port N``, waits for ``go``, replays, prints ``commit SEQ T`` lines and
    ``done LAST``, then waits for ``stop``."""
    from tilecam.core.service import GameService
    from tilecam.core.store import GameStore
    from tilecam.web.app import create_app
    from tilecam.web.server import ServerThread

    service = GameService(GameStore(Path(data_dir)))
    app = create_app({"DATA_DIR": data_dir, "PIN": "000000", "SSE_HEARTBEAT_S": 5.0}, service=service)
    server = ServerThread(app, threads=threads).start()
    print(f"port {server.port} seq {service.store.last_seq()}", flush=True)
    for line in sys.stdin:
        if line.strip() == "go":
            break
    text = Path(gcg_path).read_text(encoding="utf-8-sig")
    cpu0 = time.process_time()
    replay_gcg(service, text, interval_s=interval_s,
               on_commit=lambda seq, t: print(f"commit {seq} {t:.6f}", flush=True))
    # Let the streams finish sending the last event before the CPU time is read.
    time.sleep(1.0)
    print(f"done {service.store.last_seq()} cpu {time.process_time() - cpu0:.4f}", flush=True)
    for line in sys.stdin:
        if line.strip() == "stop":
            break
    server.stop()
    return 0


# ------------------------------------------------------------------------------------------------ the viewers


class Viewer(threading.Thread):
    """One phone: a raw HTTP/1.1 SSE client that records (seq, arrival time) of each message."""

    def __init__(self, port: int, after: int, gzip: bool = True) -> None:
        super().__init__(daemon=True)
        self.port, self.after, self.gzip = port, after, gzip
        self.arrivals: dict[int, float] = {}
        self.connected = threading.Event()
        self.last_wanted: int | None = None
        self.error: str | None = None
        self.bytes = 0
        self._sock: socket.socket | None = None

    def run(self) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
            self._sock = sock
            encoding = "Accept-Encoding: gzip\r\n" if self.gzip else ""
            # HTTP/1.0: the body comes unchunked, so the SSE text (or gzip) can be read as it is.
            sock.sendall(f"GET /api/events?after={self.after} HTTP/1.0\r\nHost: 127.0.0.1:{self.port}\r\n"
                         f"Accept: text/event-stream\r\n{encoding}\r\n".encode())
            buf = b""
            head = b""
            decoder = None
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                now = time.time()
                self.bytes += len(chunk)
                if not self.connected.is_set():
                    head += chunk
                    if b"\r\n\r\n" not in head:
                        continue
                    headers, chunk = head.split(b"\r\n\r\n", 1)
                    if not headers.startswith((b"HTTP/1.0 200", b"HTTP/1.1 200")):
                        raise OSError(headers.split(b"\r\n", 1)[0].decode(errors="replace"))
                    if b"chunked" in headers.lower():
                        raise OSError("unexpected chunked response")
                    if b"content-encoding: gzip" in headers.lower():
                        decoder = zlib.decompressobj(31)
                    self.connected.set()
                buf += decoder.decompress(chunk) if decoder else chunk
                for seq in re.findall(rb"\nid: (\d+)\n", buf):
                    self.arrivals.setdefault(int(seq), now)
                buf = buf[-64:]  # keep a tail so an id line split over two reads is still found
                if self.last_wanted is not None and self.last_wanted in self.arrivals:
                    break
        except OSError as exc:
            self.error = str(exc)
        finally:
            self.connected.set()
            if self._sock is not None:
                self._sock.close()


def _get(url: str, gzip: bool = False) -> bytes:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip else {})
    with urllib.request.urlopen(request, timeout=30) as r:
        return r.read()


def page_weight(base: str) -> dict[str, tuple[int, int]]:
    """(plain, gzip) bytes of the scoreboard page and every asset it links (stylesheets, scripts, icon)."""
    html = _get(base + "/")
    sizes = {"/": (len(html), len(_get(base + "/", gzip=True)))}
    for ref in re.findall(rb'(?:href|src)="(/static/[^"]+)"', html):
        path = ref.decode()
        sizes[path] = (len(_get(base + path)), len(_get(base + path, gzip=True)))
    return sizes


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def run(viewers: int, gcg: Path, interval_s: float, threads: int, gzip: bool = True) -> dict:
    data_dir = tempfile.mkdtemp(prefix="tilecam-bench-web-")
    child = subprocess.Popen(
        [sys.executable, "-m", "tilecam.web.bench", "--child", data_dir, str(gcg), str(interval_s), str(threads)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        first = child.stdout.readline().split()
        if len(first) != 4 or first[0] != "port":
            raise RuntimeError(f"the server process did not start: {first}")
        port, start_seq = int(first[1]), int(first[3])
        base = f"http://127.0.0.1:{port}"
        print(f"server on {base}; opening {viewers} live streams…", file=sys.stderr, flush=True)
        crowd = [Viewer(port, start_seq, gzip=gzip) for _ in range(viewers)]
        for v in crowd:
            v.start()
        deadline = time.monotonic() + 60
        while json.loads(_get(base + "/health"))["live_streams"]["open"] < viewers:
            refused = [v.error for v in crowd if v.error]
            if refused or time.monotonic() > deadline:
                raise RuntimeError(f"not every viewer got a stream ({len(refused)} refused, e.g. "
                                   f"{refused[:1]}); more --threads?")
            time.sleep(0.1)
        print("all connected; replaying the game…", file=sys.stderr, flush=True)
        t0 = time.time()
        child.stdin.write("go\n")
        commits: dict[int, float] = {}
        for line in child.stdout:
            parts = line.split()
            if parts and parts[0] == "commit":
                commits[int(parts[1])] = float(parts[2])
                if len(commits) % 10 == 0:
                    print(f"  {len(commits)} events committed", file=sys.stderr, flush=True)
            elif parts and parts[0] == "done":
                last, server_cpu = int(parts[1]), float(parts[3])
                break
        replay_s = time.time() - t0
        # Every event since the start reaches the viewers (new_game's own events included).
        wanted = list(range(start_seq + 1, last + 1))
        for v in crowd:
            v.last_wanted = last
        for v in crowd:
            v.join(timeout=10)
        weight = page_weight(base)
        child.stdin.write("stop\n")
        child.stdin.flush()
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = server_cpu
    latencies = [
        (v.arrivals[seq] - commits[seq]) * 1000
        for v in crowd for seq in wanted if seq in v.arrivals and seq in commits
    ]
    delivered = sum(1 for v in crowd for seq in wanted if seq in v.arrivals)
    return {
        "viewers": viewers,
        "events": len(wanted),
        "commands": len(commits),
        "delivered": delivered,
        "expected": viewers * len(wanted),
        "latency_ms_p50": _percentile(latencies, 50),
        "latency_ms_p99": _percentile(latencies, 99),
        "latency_ms_max": max(latencies) if latencies else float("nan"),
        "latency_ms_mean": statistics.fmean(latencies) if latencies else float("nan"),
        "replay_s": replay_s,
        "server_cpu_s": cpu_s,
        "server_cpu_share": cpu_s / replay_s if replay_s else float("nan"),
        "server_peak_rss_mib": after.ru_maxrss / 1024,
        "viewer_errors": [v.error for v in crowd if v.error],
        "gzip": gzip,
        "wire_kib_per_viewer": statistics.fmean(v.bytes for v in crowd) / 1024,
        "page_weight": weight,
        "page_weight_total": sum(plain for plain, _ in weight.values()),
        "page_weight_total_gzip": sum(packed for _, packed in weight.values()),
    }


def format_table(r: dict, gcg: Path, interval_s: float) -> str:
    lines = [
        f"game: {gcg.name}, {r['commands']} commands → {r['events']} events, one every {interval_s * 1000:.0f} ms",
        "",
        "| viewers | events delivered | latency p50 | latency p99 | latency max | server CPU (replay) | CPU share | "
        "peak RSS |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {r['viewers']} | {r['delivered']} / {r['expected']} | {r['latency_ms_p50']:.1f} ms | "
        f"{r['latency_ms_p99']:.1f} ms | {r['latency_ms_max']:.1f} ms | {r['server_cpu_s']:.2f} s in "
        f"{r['replay_s']:.1f} s | {r['server_cpu_share'] * 100:.0f} % of a core | {r['server_peak_rss_mib']:.0f} MiB |",
        "",
        "| scoreboard page weight | bytes | gzip (as sent to browsers) |",
        "| --- | ---: | ---: |",
    ]
    lines += [f"| `{path}` | {plain:,} | {packed:,} |" for path, (plain, packed) in r["page_weight"].items()]
    lines.append(f"| **total** | **{r['page_weight_total']:,}** ({r['page_weight_total'] / 1024:.1f} KiB) | "
                 f"**{r['page_weight_total_gzip']:,}** ({r['page_weight_total_gzip'] / 1024:.1f} KiB) |")
    lines.append(f"\nlive stream: {r['wire_kib_per_viewer']:.0f} KiB on the wire per viewer for the whole game "
                 f"({'gzip' if r['gzip'] else 'plain'})")
    if r["viewer_errors"]:
        lines.append(f"\nviewer errors: {len(r['viewer_errors'])}, e.g. {r['viewer_errors'][0]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--child":
        return _child(argv[1], argv[2], float(argv[3]), int(argv[4]))
    parser = argparse.ArgumentParser(prog="tilecam bench web", description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=100, help="concurrent live streams (default 100)")
    parser.add_argument("--gcg", type=Path, default=DEFAULT_GCG, help=f"game to replay (default {DEFAULT_GCG.name})")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between commands (default 0.1)")
    parser.add_argument("--threads", type=int, default=None, help="server threads (default: viewers + 24)")
    parser.add_argument("--no-gzip", action="store_true", help="viewers do not accept gzip (plain SSE text)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON too")
    args = parser.parse_args(argv)
    if args.viewers < 1:
        parser.error("--viewers must be at least 1")
    if not args.gcg.is_file():
        parser.error(f"no GCG file {args.gcg} (pass --gcg)")
    threads = args.threads or args.viewers + 24
    result = run(args.viewers, args.gcg, args.interval, threads, gzip=not args.no_gzip)
    print(format_table(result, args.gcg, args.interval))
    if args.json:
        print(json.dumps(result, indent=2))
    ok = result["delivered"] == result["expected"] and not result["viewer_errors"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
