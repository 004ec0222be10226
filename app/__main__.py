"""``python -m app --host H --port P``: migrate the database, then serve the app."""

from __future__ import annotations

import argparse
import gc
import logging

import uvicorn

from app.config import Settings
from app.migrate import upgrade_head

# Measured with bench/ws_bench.py at K = 200 tables: with CPython's default thresholds the
# server stopped for a garbage collection longer than 5 ms about three times a second (the
# longest ~0.45 s on a busy machine), which set the latency tail; with these settings, 8 such
# pauses in the whole run. Most garbage here is freed by reference counting anyway, so
# collect far less often, and never rescan the objects that exist once the app is built.
GC_THRESHOLDS = (50_000, 50, 1000)


def main(argv: list[str] | None = None) -> None:
    settings = Settings()
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    upgrade_head(settings.database_url)

    from app.main import app  # built after the migration, with the same settings

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        proxy_headers=True,
        ws_per_message_deflate=settings.ws_deflate,
    )


if __name__ == "__main__":
    main()
