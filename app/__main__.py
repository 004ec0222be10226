"""``python -m app --host H --port P``: migrate the database, then serve the app.

On SIGTERM (or Ctrl-C) the server stops accepting connections, lets the changes in progress
commit, and closes every table socket with 1001 "going away" before the process exits; the
clients reconnect (to this process once it is back, or through the load balancer to another).
"""

from __future__ import annotations

import argparse
import gc
import socket

import uvicorn
from fastapi import FastAPI

from app import logging as log
from app.config import Settings
from app.http import headguard
from app.migrate import upgrade_head
from app.protocol import inbound

# Seconds the shutdown waits for requests and sockets before cancelling them.
GRACEFUL_SECONDS = 10


class DrainingServer(uvicorn.Server):
    """uvicorn, but table sockets are closed by the app with 1001 (uvicorn's own shutdown
    would close them with 1012 and before the in-flight actions are done)."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self._app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()  # stop accepting first: new clients go to another process
        log.event("draining")
        await self._app.state.hub.going_away(inbound.CLOSE_GOING_AWAY, "going away")
        await super().shutdown(sockets)


def serve(app: FastAPI, *, host: str, port: int, settings: Settings) -> None:
    """Run ``app`` with uvicorn until SIGTERM/SIGINT, then drain it (see the module doc)."""
    gc.collect()
    gc.freeze()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        http=headguard.protocol(
            timeout=settings.http_head_timeout, max_bytes=settings.http_head_max_bytes
        ),
        timeout_keep_alive=settings.http_keep_alive_seconds,
        ws_per_message_deflate=settings.ws_deflate,
        # uvicorn's default is 16 MiB per frame (a compressed one cost ~35 MB of memory here);
        # the protocol needs 4 KB.
        ws_max_size=settings.ws_max_frame_bytes,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=settings.ws_ping_timeout,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        log_config=None,  # uvicorn's lines go through our handler too (app/logging.py)
    )
    DrainingServer(config, app).run()


def main(argv: list[str] | None = None) -> None:
    settings = Settings()
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    args = parser.parse_args(argv)
    log.configure(settings.log_level, settings.log_format)
    try:
        settings.check_multi_process()
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None
    upgrade_head(settings.direct_url)

    from app.main import app  # built after the migration, with the same settings

    serve(app, host=args.host, port=args.port, settings=settings)


if __name__ == "__main__":
    main()
