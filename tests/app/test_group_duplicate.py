"""A group's game on the deals of an earlier game (issue 39, point 2: duplicate): every hand is
dealt the same cards to the same seats, the group page links both games to their comparison,
and the comparison says per seat's cards who did better. A running game's deals are refused."""

from __future__ import annotations

from sqlalchemy import select

from app.tables.models import Hand, Table
from tests.app.test_groups import AppClient, group_table, new_group
from tests.app.test_history import Cells, http, play  # noqa: F401  (fixture)
from tests.app.test_history import Table as TableUnderTest


async def _seat(table: TableUnderTest, code: str, names: list[str]) -> TableUnderTest:
    tokens = []
    for name in names:
        seat = await table.http.post(f"/api/tables/{code}/seats", json={"name": name})
        assert seat.status_code == 201, seat.text
        tokens.append(seat.json()["token"])
    table.http.cookies.clear()
    return TableUnderTest(table.app, table.http, code, tokens)


async def test_a_game_on_the_deals_of_another_gets_the_same_cards_and_is_compared(
    http: AppClient,  # noqa: F811
) -> None:
    app, client = http
    code = await new_group(client)
    first = await group_table(app, client, code)
    await play(first, "played")
    # Its deals are not all known while it is played: refused, nothing opened.
    refused = await client.post(f"/g/{code}/deals/{first.code}")
    assert refused.status_code == 409 and "still being played" in refused.text
    for kind in ["eklat", "played"]:
        await play(first, kind)

    opened = await client.post(f"/g/{code}/deals/{first.code}")
    assert opened.status_code == 303, opened.text
    again = opened.headers["location"].removeprefix("/t/")
    info = (await client.get(f"/api/tables/{again}")).json()
    assert info["options"]["deals_of"] == first.code and info["options"]["hands"] == 3
    assert info["host"] and "seed" not in str(info)
    second = await _seat(first, again, ["Erik", "Fay", "Gus", "Hana"])
    room = await app.state.hub.room(again)
    original = await app.state.hub.room(first.code)
    for number, kind in enumerate(["played", "played", "played"], start=1):
        # The same cards to the same seats, dealt by the same dealer.
        hand = room.live.hand
        assert hand is not None and room.live.hand_number == number
        async with app.state.session_factory() as session:
            seeds = (
                await session.execute(
                    select(Hand.table_id, Hand.seed, Hand.dealer).where(Hand.number == number)
                )
            ).all()
        ids = {original.live.table_id, room.live.table_id}
        assert len({(seed, dealer) for table_id, seed, dealer in seeds if table_id in ids}) == 1
        await play(second, kind)
    assert room.live.game.over

    # Both games link to their comparison on the group page; both count for the group.
    page = await client.get(f"/g/{code}")
    links = [a for a in Cells(page.text).attrs.items() if a[0] == "compare-deals"]
    assert links and page.text.count(f'href="/g/{code}/deals/') == 2
    compared = await client.get(f"/g/{code}/deals/{again}")
    assert compared.status_code == 200
    cells = Cells(compared.text)
    assert "deal-1" in cells.text and "deal-3" in cells.text and "deal-2" in cells.text
    for seat, (a, b) in enumerate(
        zip(["Anna", "Ben", "Cleo", "Dan"], ["Erik", "Fay", "Gus", "Hana"], strict=True)
    ):
        row = " ".join(cells.text[f"deals-seat-{seat}"])
        assert a in row and b in row
        # The totals: the sum of that seat's scores over the three deals, in each game.
        mine = sum(result["total"][seat] for result in first.results)
        theirs = sum(result["total"][seat] for result in second.results)
        better = " ".join(cells.text[f"deals-better-{seat}"])
        if mine == theirs:
            assert better == "a tie"
        else:
            winner = a if mine > theirs else b
            assert better == f"{winner}, by {abs(mine - theirs)}"
    german = await client.get(f"/g/{code}/deals/{first.code}?lang=de")
    assert "Wer mit denselben Karten besser war" in german.text


async def test_unknown_games_and_deals_nobody_replayed(http: AppClient) -> None:  # noqa: F811
    app, client = http
    code = await new_group(client)
    alone = await group_table(app, client, code)
    for kind in ["played", "played", "played"]:
        await play(alone, kind)
    nothing = await client.get(f"/g/{code}/deals/{alone.code}")
    assert nothing.status_code == 404 and "No other game" in nothing.text
    unknown = await client.post(f"/g/{code}/deals/no-such-game")
    assert unknown.status_code == 404 and "no such game" in unknown.text
    # A table of another group (or none) is not this group's game.
    other = await new_group(client, "Andere")
    assert (await client.post(f"/g/{other}/deals/{alone.code}")).status_code == 404
    async with app.state.session_factory() as session:
        first = await session.scalar(select(Table.id).where(Table.invite_code == alone.code))
        on_its_deals = (
            await session.scalars(select(Table.id).where(Table.deals_of == first))
        ).all()
    assert on_its_deals == []  # nothing was opened


async def test_a_practice_table_on_a_group_game_changes_no_standings_or_ratings(
    http: AppClient,  # noqa: F811
) -> None:
    app, client = http
    code = await new_group(client)
    game = await group_table(app, client, code)
    for kind in ["played", "eklat", "played"]:
        await play(game, kind)
    client.cookies.set(f"mu_seat_{game.code}", game.tokens[0])
    assert (await client.post(f"/g/{code}/claim", data={"name": "Anna"})).status_code == 303
    before = (await client.get(f"/g/{code}")).text
    sheet = (await client.get(f"/t/{game.code}/game.txt")).text

    made = await client.post(f"/api/tables/{game.code}/hands/3/practice", json={"step": 3})
    assert made.status_code == 201, made.text
    claim = client.cookies.get(f"mu_group_{code}")
    practice = await _seat(game, made.json()["invite_code"], ["Anna", "Ben", "Cleo", "Dan"])
    # Anna's browser: her claimed name, her seat at the game and at the practice table.
    assert claim is not None
    client.cookies.set(f"mu_group_{code}", claim)
    client.cookies.set(f"mu_seat_{game.code}", game.tokens[0])
    client.cookies.set(f"mu_seat_{practice.code}", practice.tokens[0])
    await play(practice, "played")
    room = await app.state.hub.room(practice.code)
    assert room.live.game.over

    # The group's page (standings, ratings, games, tables) and the game are as they were.
    assert (await client.get(f"/g/{code}")).text == before
    assert (await client.get(f"/t/{game.code}/game.txt")).text == sheet
