"""``/docs``: the OpenAPI description in Swagger UI, served from this process, never a CDN.

FastAPI's own ``/docs`` page loads Swagger UI from a CDN and starts it with an inline script;
both break the rule that the browser loads only what we serve (and the Content-Security-Policy
blocks them). Here the Swagger UI files come from the ``fastapi-offline`` package, and the page
starts it from ``static/docs.js``. ``API_DOCS=false`` switches ``/docs`` and ``/openapi.json``
off (e.g. in production).
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).resolve().parent / "static"

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mü Online API</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/static/docs.js"></script>
</body>
</html>
"""

router = APIRouter(include_in_schema=False)


@router.get("/docs", response_class=HTMLResponse)
def docs() -> HTMLResponse:
    return HTMLResponse(PAGE)


def install(app: FastAPI) -> None:
    """Serve ``/docs`` and its assets (the app is built with FastAPI's own docs off)."""
    app.include_router(router)
    app.mount("/docs/assets", StaticFiles(directory=ASSETS), name="docs-assets")
