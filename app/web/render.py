"""Private pages: the route class that marks every response ``noindex`` and ``no-store``, and
the renderer that turns a template of one set of environments (one per language) into a page.

Used by the pages behind a private link (a table's history, an imported file, a group), whose
only key is the code in their address.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from jinja2 import Environment

from app.http import errors
from app.web import i18n, pages

PRIVATE_HEADERS = {"X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-store"}


class PrivateRoute(APIRoute):
    """Adds the privacy headers to every response of these routes, errors included."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def private(request: Request) -> Response:
            try:
                response = await handler(request)
            except RequestValidationError as exc:
                # Answered here rather than by the app's handler, so it gets the headers too.
                response = await errors.validation_error(request, exc)
            response.headers.update(PRIVATE_HEADERS)
            return response

        return private


class Renderer:
    """Renders the templates of ``environments`` (one per supported language)."""

    def __init__(self, environments: Mapping[str, Environment]) -> None:
        self.environments = environments

    def page(self, template: str, lang: str, *, path: str, **context: object) -> str:
        """``template`` in ``lang``; ``path`` is the page's own (base.html's language links)."""
        return pages.render(self.environments, template, lang, path=path, **context)

    def __call__(
        self,
        request: Request,
        template: str,
        lang: str,
        *,
        status_code: int = 200,
        **context: object,
    ) -> HTMLResponse:
        html = self.page(template, lang, path=request.url.path, **context)
        # Only a supported ?lang= is remembered (the privacy headers come from PrivateRoute).
        remember = i18n.supported(request.query_params.get("lang")) is not None
        return pages.respond(html, lang, remember=remember, status_code=status_code)
