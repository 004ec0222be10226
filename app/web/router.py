"""HTML pages. Filled in by the browser-client work; the server includes this router."""

from fastapi import APIRouter

router = APIRouter()
