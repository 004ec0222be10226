"""``python -m app --host H --port P``: migrate the database, then serve the app."""

from __future__ import annotations

import argparse
import logging

import uvicorn

from app.config import Settings
from app.migrate import upgrade_head


def main(argv: list[str] | None = None) -> None:
    settings = Settings()
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    upgrade_head(settings.database_url)
    uvicorn.run("app.main:app", host=args.host, port=args.port, proxy_headers=True)


if __name__ == "__main__":
    main()
