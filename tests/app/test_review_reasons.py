"""A review that says why: the reasons of a told decision on the hand page (English, German),
and the game's summary on the score sheet, made of the stored reviews only."""

from __future__ import annotations

import copy
import random
import re
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI

import engine
from app.history import reasons, review_page, reviews, service
from app.history.i18n import Text
from app.history.reasons import Side
from app.history.review_worker import review_seed
from app.jobs import queue
from app.jobs.rows import review_key
from engine.bots import make_bot
from engine.review import HandReview, review_moves
from tests.app.test_history import AppClient, Table, http, open_table, play

__all__ = ["http"]  # the fixture, imported from test_history

WORKER = "test"


async def table_id(table: Table) -> int:
    room = await table.app.state.hub.room(table.code)
    return int(room.live.table_id)


async def computed(app: FastAPI, code: str, number: int) -> dict[str, Any]:
    """The engine's review of the card play of finished hand ``number`` (the auction left out:
    it costs most CPU and these tests need only some decisions)."""
    history = await service.load(session_factory=app.state.session_factory, invite_code=code)
    assert history is not None
    record = history.hand(number)
    assert record is not None
    moves = [(move.seat, move.action) for move in record.moves]
    wanted = [i for i, state in enumerate(record.states[:-1]) if state.phase == engine.Phase.PLAY]
    seed = review_seed(history.live.table_id, number)
    decisions = review_moves(record.dealt, moves, wanted, seed=seed)
    review = HandReview(record.dealt.rules.name, record.dealt.players, seed, tuple(decisions))
    return engine.to_json_object(review)


def make_costly(raw: dict[str, Any], loss: float) -> None:
    """Make a stored decision one that cost ``loss``: its best alternative ``loss`` above the
    one taken (the reasons stay the rollouts' own)."""
    alternatives = raw["alternatives"]
    taken = next(
        i
        for i, a in enumerate(alternatives)
        if engine.action_from_json(a["action"]) == engine.action_from_json(raw["taken"])
    )
    if taken == 0:
        alternatives[0], alternatives[1] = alternatives[1], alternatives[0]
        taken = 1
    alternatives[0]["value"] = alternatives[taken]["value"] + loss
    raw.update(
        best=alternatives[0]["action"],
        value_best=alternatives[0]["value"],
        value_taken=alternatives[taken]["value"],
        loss=loss,
    )


def choices(result: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """The decisions (of ``seat``) that had an alternative, in log order."""
    return [
        d
        for d in result["decisions"]
        if len(d["alternatives"]) > 1 and (seat is None or d["seat"] == seat)
    ]


async def store(app: FastAPI, table: Table, number: int, result: dict[str, Any]) -> None:
    """A done review of hand ``number``, as the worker writes it."""
    db, tid = app.state.db_engine, await table_id(table)
    now = datetime.now(UTC)
    assert await reviews.start(db=db, table_id=tid, hand_number=number, worker=WORKER, now=now)
    done = {"db": db, "table_id": tid, "hand_number": number, "worker": WORKER}
    assert await reviews.finish(**done, result=result)


def strip_reasons(result: dict[str, Any]) -> dict[str, Any]:
    """A review as stored before the reasons were kept."""
    old = copy.deepcopy(result)
    for d in old["decisions"]:
        for a in d["alternatives"]:
            for key in ("goal", "points", "tricks"):
                del a[key]
    return old


def seat_section(html: str, seat: int) -> str:
    return html.split(f'data-testid="review-seat-{seat}"', 1)[1].split("</article>", 1)[0]


async def test_a_told_decision_says_why_in_english_and_german(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    result = await computed(app, table.code, 1)
    d = choices(result)[0]
    make_costly(d, 12.0)
    await store(app, table, 1, result)
    seat, name = d["seat"], ["Anna", "Ben", "Conny"][d["seat"]]

    body = (await client.get(f"/api/tables/{table.code}/hands/1/review")).json()
    told = next(s for s in body["seats"] if s["seat"] == seat)["told"]
    moment = next(m for m in told if m["move"] == d["move"])
    assert "~12 points" in moment["text"]
    why = " ".join(moment["reasons"])
    assert re.search(r"misses its goal in \d+ of 10 deals|makes its goal in \d+ of 10 deals", why)
    assert re.search(r"On average \w+'s team takes [\d.]+ card points and [\d.]+ tricks with", why)
    worlds = d["worlds"]
    assert f"These are shares and averages over {worlds} deals that agree with what {name}" in why
    # The review's worlds were weighted by the card-location model, and it says so.
    assert why.endswith(
        f"what {name} knew then, the likelier deals drawn more often by what the auction and "
        "the play revealed."
    )
    decision = next(x for x in body["decisions"] if x["move"] == d["move"])
    assert decision["worlds"] == worlds and decision["weighted"] is True
    assert all(a["points"] is not None for a in decision["alternatives"])

    html = (await client.get(f"/t/{table.code}/hands/1")).text
    mine = seat_section(html, seat)
    assert 'data-testid="reasons"' in mine and "knew then, the likelier deals" in mine
    assert f'id="moment-{d["move"]}"' in mine

    german = seat_section((await client.get(f"/t/{table.code}/hands/1?lang=de")).text, seat)
    assert re.search(
        r"(erreicht das Team von \w+|verfehlt das andere Team) sein Ziel in \d+ von 10", german
    )
    assert f"Das sind Anteile und Mittelwerte über {worlds} Verteilungen" in german
    assert f"was {name} damals wusste; wahrscheinlichere Verteilungen" in german
    assert "nach dem, was Versteigerung und Spiel verraten haben, öfter gezogen." in german
    assert re.search(
        r"Im Schnitt holt das Team von \w+ [\d,]+ Kartenpunkte und [\d,]+ Stiche mit", german
    )

    # The reader's own decision says "you", in both languages.
    client.cookies.set(f"mu_seat_{table.code}", table.tokens[seat])
    yours = seat_section((await client.get(f"/t/{table.code}/hands/1?lang=en")).text, seat)
    assert "On average your team takes" in yours and "what you knew then, the" in yours
    deine = seat_section((await client.get(f"/t/{table.code}/hands/1?lang=de")).text, seat)
    assert "Im Schnitt holt dein Team" in deine and "was du damals wusstest; " in deine


async def test_a_review_stored_before_the_reasons_is_told_without_them(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    result = await computed(app, table.code, 1)
    make_costly(choices(result)[0], 6.0)
    old = strip_reasons(result)
    for d in old["decisions"]:
        del d["worlds"]  # not read from an old review either
    await store(app, table, 1, old)
    for lang in ("en", "de"):
        page = await client.get(f"/t/{table.code}/hands/1?lang={lang}")
        assert page.status_code == 200 and 'data-status="done"' in page.text
        assert 'data-testid="moment"' in page.text and 'data-testid="reasons"' not in page.text
    body = (await client.get(f"/api/tables/{table.code}/hands/1/review")).json()
    assert body["status"] == "done"
    assert all(m["reasons"] == [] for s in body["seats"] for m in s["told"])
    assert all(a["goal"] is None for d in body["decisions"] for a in d["alternatives"])
    sheet = await client.get(f"/t/{table.code}/sheet")
    assert sheet.status_code == 200 and 'data-testid="mistakes-' in sheet.text


def count_review_reads(app: FastAPI) -> list[str]:
    """Every SQL statement that reads ``hand_reviews`` from now on."""
    seen: list[str] = []

    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "hand_reviews" in statement:
            seen.append(statement)

    sa.event.listen(app.state.db_engine.sync_engine, "before_cursor_execute", before)
    return seen


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_sheet_sums_up_the_reviewed_hands_with_links(http: AppClient, lang: str) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    await play(table, "played")
    await play(table, "played", stop_after=4)  # hand 3 is running
    db, tid = app.state.db_engine, await table_id(table)
    first = await computed(app, table.code, 1)
    for d in first["decisions"]:  # a known count: nothing costly but what is made so here
        d["loss"] = 0.0
    blunder, mistake, inaccuracy = choices(first)[:3]
    make_costly(blunder, 12.5)
    make_costly(mistake, 6.0)
    make_costly(inaccuracy, 2.0)
    await store(app, table, 1, first)
    # A review stored under the running hand's number is never shown (nothing of it is).
    leak = copy.deepcopy(first)
    make_costly(choices(leak)[3], 40.0)
    await store(app, table, 3, leak)
    jobs_before = await queue.state(db, review_key(tid, 2))

    reads = count_review_reads(app)
    html = (await client.get(f"/t/{table.code}/sheet?lang={lang}")).text
    assert len(reads) == 1  # one query for the whole game, whatever its number of hands
    assert await queue.state(db, review_key(tid, 2)) == jobs_before  # no review hurried

    section = html.split('data-testid="game-review"', 1)[1].split("</section>", 1)[0]
    meta = section.split('data-testid="game-review-meta"', 1)[1].split("</p>", 1)[0]
    if lang == "en":
        assert "Reviewed so far: 1 of 2 finished hands." in meta
        assert (
            "at least 2 points more in that hand, a mistake from 5 points, a blunder from 10"
            in meta
        )
        assert "≥ 10 points" in section
    else:
        assert "Bisher analysiert: 1 von 2 beendeten Spielen." in meta
        assert "Patzer" in section and "≥ 10 Punkte" in section
    expected = {s: [0, 0, 0] for s in range(3)}
    for d, kind in ((inaccuracy, 0), (mistake, 1), (blunder, 2)):
        expected[d["seat"]][kind] += 1
    for seat, (inaccuracies, mistakes, blunders) in expected.items():
        assert f'data-testid="inaccuracies-{seat}">{inaccuracies}<' in section
        assert f'data-testid="mistakes-{seat}">{mistakes}<' in section
        assert f'data-testid="blunders-{seat}">{blunders}<' in section
    links = re.findall(r'<a href="([^"]+)" data-testid="largest-link">', section)
    assert len(links) == 3 and all("/hands/1?" in link for link in links)
    assert "/hands/3" not in section
    top = f"/t/{table.code}/hands/1?step={blunder['move'] + 1}&amp;seat={blunder['seat']}"
    assert any(link == f"{top}#moment-{blunder['move']}" for link in links)
    worst = section.split(top, 1)[1].split("</li>", 1)[0]
    assert ("~12 " if lang == "en" else "~12 Punkte") in worst  # "~12 points", rounded down

    # The link opens the hand at that decision, the moment marked in the review.
    page = (await client.get(top.replace("&amp;", "&"))).text
    assert f'data-step="{blunder["move"] + 1}"' in page
    assert re.search(rf'id="moment-{blunder["move"]}" class="h-here"', page)


async def test_a_sheet_without_reviews_says_so(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    html = (await client.get(f"/t/{table.code}/sheet")).text
    assert 'data-testid="game-review"' not in html  # no finished hand yet
    await play(table, "played")
    html = (await client.get(f"/t/{table.code}/sheet")).text
    assert "Reviewed so far: 0 of 1 finished hand." in html
    assert 'data-testid="game-review-table"' not in html


def a_decision(
    taken: engine.Action,
    best: engine.Action,
    reasons: tuple[Any, ...],
    worlds: int = 48,
    weighted: bool = False,
) -> review_page.Decision:
    """A told decision with the best and the taken alternative's reasons given."""
    (goal_best, points_best, tricks_best), (goal_taken, points_taken, tricks_taken) = reasons
    top = review_page.Alternative(
        engine.action_to_json(best), "", 9.0, False, True, goal_best, points_best, tricks_best
    )
    mine = review_page.Alternative(
        engine.action_to_json(taken), "", 3.0, True, False, goal_taken, points_taken, tricks_taken
    )
    return review_page.Decision(
        5, 0, "play", 2, "Trick 2", engine.action_to_json(taken), engine.action_to_json(best),
        "", "", 3.0, 9.0, 6.0, [top, mine], worlds, weighted,
    )  # fmt: skip


RED_1, GREEN_7 = engine.Play(1), engine.Play(32)
NAMES = ["Anna", "Ben", "Conny", "Dora"]


def test_the_reasons_in_words() -> None:
    d = a_decision(GREEN_7, RED_1, ((0.7, 31.24, 3.1), (0.25, 24.5, 2.4)))
    en, de = Text("en"), Text("de")
    assert reasons.explain(d, GREEN_7, RED_1, NAMES, Side.TEAM, en, yours=True) == [
        "With the red 1, your team makes its goal in 7 of 10 deals you could be facing, "
        "with the green 7 in 3.",
        "On average your team takes 31.2 card points and 3.1 tricks with the red 1, "
        "24.5 and 2.4 with the green 7.",
        "These are shares and averages over 48 deals that agree with what you knew then.",
    ]
    assert reasons.explain(d, GREEN_7, RED_1, NAMES, Side.TEAM, de, yours=True) == [
        "Mit Rot 1 erreicht dein Team sein Ziel in 7 von 10 möglichen Verteilungen, "
        "mit Grün 7 in 3.",
        "Im Schnitt holt dein Team 31,2 Kartenpunkte und 3,1 Stiche mit Rot 1, "
        "24,5 und 2,4 mit Grün 7.",
        "Das sind Anteile und Mittelwerte über 48 Verteilungen, die zu dem passen, was du "
        "damals wusstest.",
    ]
    against = reasons.explain(d, GREEN_7, RED_1, NAMES, Side.AGAINST, en)
    assert against[0] == (
        "With the red 1, the other team misses its goal in 7 of 10 deals Anna could be facing, "
        "with the green 7 in 3."
    )
    assert against[1].startswith("On average Anna's team takes 31.2 card points")
    assert against[2].endswith("over 48 deals that agree with what Anna knew then.")
    gegen = reasons.explain(d, GREEN_7, RED_1, NAMES, Side.AGAINST, de)
    assert gegen[0].startswith("Mit Rot 1 verfehlt das andere Team sein Ziel in 7 von 10")
    assert gegen[1].startswith("Im Schnitt holt das Team von Anna 31,2 Kartenpunkte")
    one = reasons.explain(a_decision(GREEN_7, RED_1, ((1.0, 9, 1), (0.0, 8, 1)), 1), GREEN_7,
                          RED_1, NAMES, Side.OPEN, de)  # fmt: skip
    assert one[0].startswith("Mit Rot 1 erreicht das Team von Anna sein Ziel in 10 von 10")
    assert one[2] == (
        "Das sind Anteile und Mittelwerte über 1 Verteilung, die zu dem passt, was Anna "
        "damals wusste."
    )


def test_weighted_worlds_are_named_in_the_reasons() -> None:
    """A review whose deals were drawn by what the auction and the play revealed says so, in
    both languages, for the reader's own decision and for another's."""
    d = a_decision(GREEN_7, RED_1, ((0.7, 31.24, 3.1), (0.25, 24.5, 2.4)), weighted=True)
    en, de = Text("en"), Text("de")
    assert reasons.explain(d, GREEN_7, RED_1, NAMES, Side.TEAM, en, yours=True)[2] == (
        "These are shares and averages over 48 deals that agree with what you knew then, "
        "the likelier deals drawn more often by what the auction and the play revealed."
    )
    assert reasons.explain(d, GREEN_7, RED_1, NAMES, Side.TEAM, de, yours=True)[2] == (
        "Das sind Anteile und Mittelwerte über 48 Verteilungen, die zu dem passen, was du "
        "damals wusstest; wahrscheinlichere Verteilungen, nach dem, was Versteigerung und "
        "Spiel verraten haben, öfter gezogen."
    )
    assert reasons.explain(d, GREEN_7, RED_1, NAMES, Side.AGAINST, en)[2] == (
        "These are shares and averages over 48 deals that agree with what Anna knew then, "
        "the likelier deals drawn more often by what the auction and the play revealed."
    )
    one = a_decision(GREEN_7, RED_1, ((1.0, 9, 1), (0.0, 8, 1)), 1, weighted=True)
    assert reasons.explain(one, GREEN_7, RED_1, NAMES, Side.OPEN, de)[2] == (
        "Das sind Anteile und Mittelwerte über 1 Verteilung, die zu dem passt, was Anna damals "
        "wusste; wahrscheinlichere Verteilungen, nach dem, was Versteigerung und Spiel "
        "verraten haben, öfter gezogen."
    )


@pytest.mark.parametrize(
    ("action", "en", "de"),
    [
        (engine.Pass(), "By passing", "Mit Passen"),
        (
            engine.Bid((1, 32)),
            "By showing red 1 and green 7",
            "Mit dem Zeigen von Rot 1 und Grün 7",
        ),
        (engine.Discard((1,)), "By discarding red 1", "Mit dem Ablegen von Rot 1"),
        (engine.Trump(engine.TrumpKind("7")), "By naming 7s", "Mit der Ansage 7er"),
        (
            engine.Trump(engine.TrumpKind("none")),
            "By naming No trump",
            "Mit der Ansage Ohne Trumpf",
        ),
        (engine.Partner(2), "With Conny as partner", "Mit Conny als Partner"),
    ],
)
def test_every_kind_of_decision_has_its_words(action: engine.Action, en: str, de: str) -> None:
    d = a_decision(engine.Pass() if action != engine.Pass() else RED_1, action,
                   ((0.5, 10.0, 1.0), (0.2, 8.0, 1.0)))  # fmt: skip
    taken = engine.action_from_json(d.taken)
    english = reasons.explain(d, taken, action, NAMES, Side.OPEN, Text("en"))
    assert english[0].startswith(f"{en}, Anna's team makes its goal in 5 of 10 deals")
    german = reasons.explain(d, taken, action, NAMES, Side.OPEN, Text("de"))
    assert german[0].startswith(f"{de} erreicht das Team von Anna sein Ziel in 5 von 10")


def test_no_goal_no_goal_sentence_and_old_reviews_no_reasons() -> None:
    """A side without a goal (a revised hand without a Shield, all passed) is told its card
    points and tricks only; a review stored before the reasons is told without any."""
    d = a_decision(GREEN_7, RED_1, ((None, 20.0, 2.0), (0.4, 18.0, 2.0)))
    told = reasons.explain(d, GREEN_7, RED_1, NAMES, Side.AGAINST, Text("en"))
    assert len(told) == 2 and told[0].startswith("On average Anna's team takes 20.0")
    old = a_decision(GREEN_7, RED_1, ((None, None, None), (None, None, None)))
    assert reasons.explain(old, GREEN_7, RED_1, NAMES, Side.TEAM, Text("en")) == []
    assert reasons.tenths(0.25) == 3 and reasons.tenths(0.049) == 0 and reasons.tenths(1.0) == 10


def test_a_seats_side_is_what_the_table_knew() -> None:
    state = engine.deal(4, 0, random.Random(1))
    assert reasons.side_at(state, 1) == Side.OPEN  # the auction: no chief yet
    seat = state.to_move
    state = engine.apply(state, seat, engine.Bid((state.hands[seat][0],)))
    while state.phase == engine.Phase.AUCTION:
        state = engine.apply(state, state.to_move, engine.Pass())
    chief = state.chief
    assert chief is not None and reasons.side_at(state, chief) == Side.TEAM
    others = [s for s in range(4) if s != chief]
    assert all(reasons.side_at(state, s) == Side.OPEN for s in others)  # a partner to come
    bot = make_bot("heuristic")
    while state.phase != engine.Phase.PLAY:
        state = engine.apply(
            state, state.to_move, bot.act(engine.view(state, state.to_move), random.Random(2))
        )
    partner = state.partner
    assert reasons.side_at(state, partner) == Side.TEAM
    assert all(reasons.side_at(state, s) == Side.AGAINST for s in others if s != partner)
