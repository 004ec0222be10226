"""The one router of the history that ``app/main.py`` includes: a table's pages, imported
files' pages, then the JSON."""

from __future__ import annotations

from fastapi import APIRouter

from app.history import api, imports, pages

router = APIRouter()
router.include_router(pages.router)
router.include_router(imports.router)
router.include_router(api.tables_api)
router.include_router(api.me_api)
