"""Server memory for one large, compressed WebSocket frame (issue 14, defect 4).

    .venv/bin/python bench/ws_frame_memory.py                 # WS_MAX_FRAME_BYTES default
    .venv/bin/python bench/ws_frame_memory.py --max-frame 16777216   # uvicorn's own default

Starts ``python -m app`` on a throw-away SQLite file, opens a spectator socket with
permessage-deflate, sends one 16 MiB text frame (a few KB on the wire once compressed) and
prints the server's peak resident memory (VmHWM) before and after, and how the socket ended.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]


def peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise RuntimeError("no VmHWM")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-frame", type=int, default=None)
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'mu.db'}", "LOG_LEVEL": "WARNING"}
    if args.max_frame:
        env["WS_MAX_FRAME_BYTES"] = str(args.max_frame)
    command = [sys.executable, "-m", "app", "--port", str(args.port)]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(200):
            try:
                httpx.get(base + "/healthz")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        code = httpx.post(base + "/api/tables", json={"players": 3}).json()["invite_code"]
        with connect(f"ws://127.0.0.1:{args.port}/ws/{code}", max_size=None) as ws:
            ws.recv(timeout=5)
            before = peak_kib(server.pid)
            ws.send("[" + " " * (16 * 1024 * 1024 - 2) + "]")
            try:
                outcome = f"answered: {str(ws.recv(timeout=30))[:60]}"
            except ConnectionClosed as closed:
                outcome = f"closed: {closed.rcvd.code if closed.rcvd else None}"
            after = peak_kib(server.pid)
        print(f"peak RSS before {before / 1024:.1f} MiB, after {after / 1024:.1f} MiB")
        print(f"growth {(after - before) / 1024:.1f} MiB; socket {outcome}")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
