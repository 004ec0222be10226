"""The lesson pages and their small JSON API; the server keeps no lesson state.

* ``GET /learn/{lesson}``: the page (the table's board plus the lesson's panel);
* ``GET /api/lessons/{lesson}/steps/{index}``: one step (``payload.step_payload``);
* ``POST /api/lessons/{lesson}/steps/{index}`` with ``{"action": {...}}``: is this the move?
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi import Path as Path_
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

import engine
from app.lesson import payload, script, words
from app.web import i18n, pages, templating
from app.web.pages import PageLanguage

router = APIRouter(include_in_schema=False)
_ENVIRONMENTS = {lang: templating.environment(i18n.translations(lang)) for lang in i18n.LANGUAGES}

LessonName = Annotated[str, Path_(max_length=32)]


class MoveBody(BaseModel):
    action: dict[str, Any]


def _lesson(name: str, index: int | None = None) -> script.Lesson:
    try:
        lesson = script.load(name)
    except KeyError:
        raise HTTPException(404, "no such lesson") from None
    if index is not None and not 0 <= index < len(lesson.steps):
        raise HTTPException(404, "no such step")
    return lesson


@router.get("/learn/{lesson}", response_class=HTMLResponse)
def lesson_page(request: Request, lesson: LessonName, lang: PageLanguage) -> HTMLResponse:
    """A lesson in the real table UI."""
    found = _lesson(lesson)
    # The lessons in a ring: after the last one comes the first again.
    names = script.LESSONS
    following = script.load(names[(names.index(found.name) + 1) % len(names)])
    html = pages.render(
        _ENVIRONMENTS,
        "lesson.html",
        lang,
        path=request.url.path,
        lesson=found.name,
        next_lesson=following.name,
        next_title=words.say(lang, following.title, {}),
    )
    remember = "lang" in request.query_params
    return pages.respond(html, lang, remember=remember, headers={"Cache-Control": "no-store"})


@router.get("/api/lessons/{lesson}/steps/{index}")
def lesson_step(lesson: LessonName, index: int, lang: PageLanguage) -> dict[str, Any]:
    """Step ``index``: the sentence, its target, the intended move and the learner's view."""
    return payload.step_payload(_lesson(lesson, index), index, lang)


@router.post("/api/lessons/{lesson}/steps/{index}")
def lesson_move(
    lesson: LessonName, index: int, body: MoveBody, lang: PageLanguage
) -> dict[str, Any]:
    """``{"ok": true}`` for the step's move, else the refusal code and its explanation."""
    found = _lesson(lesson, index)
    try:
        action = engine.action_from_json(body.action)
    except engine.IllegalAction as refused:
        why = words.refusal(lang, refused.code, found.variant, {})
        return {"ok": False, "code": refused.code, "why": why}
    return payload.try_move(found, index, action, lang)
