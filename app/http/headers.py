"""Security headers on every HTTP response (the ``secure`` package's ASGI middleware).

The client makes no request outside this site and has no inline script, style or ``data:``
URL, so the Content-Security-Policy allows ``'self'`` only (``connect-src 'self'`` covers the
table's WebSocket on the same host). Frames are refused (``frame-ancestors 'none'`` and
``X-Frame-Options``), no page sends a Referer, and browsers never guess content types. With an
``https://`` ``BASE_URL`` browsers are also told to use HTTPS only (HSTS).
"""

from __future__ import annotations

import secure
from fastapi import FastAPI
from secure.middleware import SecureASGIMiddleware

CSP = (
    secure.ContentSecurityPolicy()
    .default_src("'self'")
    .script_src("'self'")
    .style_src("'self'")
    .img_src("'self'")
    .connect_src("'self'")
    .worker_src("'self'")
    .manifest_src("'self'")
    .object_src("'none'")
    .base_uri("'none'")
    .form_action("'self'")
    .frame_ancestors("'none'")
)


def policy(*, https: bool) -> secure.Secure:
    return secure.Secure(
        csp=CSP,
        xcto=secure.XContentTypeOptions().nosniff(),
        xfo=secure.XFrameOptions().deny(),
        referrer=secure.ReferrerPolicy().no_referrer(),
        coop=secure.CrossOriginOpenerPolicy().same_origin(),
        hsts=secure.StrictTransportSecurity().max_age(31_536_000) if https else None,
    )


def install(app: FastAPI, *, https: bool) -> None:
    app.add_middleware(SecureASGIMiddleware, secure=policy(https=https))
