"""Hand files (engine/notation.py): exact round trips on seeded random games, typed errors."""

from __future__ import annotations

import random

import pytest

import engine
from engine import notation
from tests.engine.randomplay import random_action

NAMES = ["Anna", 'Ben "B"', "Cleo; C.", "Dan\\", "Eve", "Finn"]


def random_game(
    players: int, variant: str, seed: int
) -> tuple[engine.Game, list[engine.HandState]]:
    rng = random.Random(seed)
    options = engine.GameOptions(players, variant, hands=rng.randint(1, 5))
    game = engine.new_game(options, first_dealer=rng.randrange(players))
    hands = []
    while not game.over:
        game = engine.deal_next(game, rng)
        while game.hand is not None and not game.hand.is_over:
            assert game.hand.to_move is not None
            game = engine.play(game, game.hand.to_move, random_action(game.hand, rng))
        assert game.hand is not None
        hands.append(game.hand)
    return game, hands


@pytest.mark.parametrize("variant", ["classic", "revised"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_game_round_trip_is_exact(players: int, variant: str) -> None:
    for seed in range(12):
        game, hands = random_game(players, variant, seed * 31 + players)
        text = notation.export_game(
            game.options, hands, players=NAMES[:players], event="Test", date="2026.11.25"
        )
        parsed = notation.parse(text)
        assert parsed.players == tuple(NAMES[:players]) and parsed.variant == variant
        assert parsed.complete
        assert parsed.game.rows == game.rows and parsed.game.totals == game.totals
        assert parsed.game.winners == game.winners
        for mine, theirs in zip(parsed.hands, hands, strict=True):
            assert mine.result == engine.result(theirs)
            assert mine.final.tricks == theirs.tricks
            assert mine.final.auction_log == theirs.auction_log
            assert mine.final.deal == theirs.deal and mine.final.kitty == theirs.kitty
        again = notation.export_game(
            parsed.game.options, [h.final for h in parsed.hands],
            players=parsed.players, event=parsed.event, date=parsed.date,
        )  # fmt: skip
        assert again == text


@pytest.mark.parametrize("variant", ["classic", "revised"])
def test_hand_round_trip_is_exact(variant: str) -> None:
    rng = random.Random(5)
    for _ in range(60):
        players = rng.randint(3, 6)
        hand = engine.deal(players, rng.randrange(players), rng, variant)
        while not hand.is_over:
            assert hand.to_move is not None
            hand = engine.apply(hand, hand.to_move, random_action(hand, rng))
        number = rng.randint(1, 30)  # a hand of a game keeps its number
        text = notation.export_hand(
            hand, players=NAMES[:players], event="E", date="2026.01.02", number=number
        )
        parsed = notation.parse(text)
        assert not parsed.complete and len(parsed.hands) == 1
        assert parsed.hands[0].number == number
        assert parsed.game.rows[0].score == engine.result(hand).total
        assert parsed.hands[0].result == engine.result(hand)
        assert [(m.seat, m.action) for m in parsed.hands[0].moves] == [
            (m.seat, m.action) for m in notation.moves_of(hand)
        ]


def test_card_names_are_distinct_and_readable() -> None:
    names = [notation.card_name(c) for c in range(60)]
    assert len(set(names)) == 60
    assert names[:12] == ["R0", "R1", "R1'", "R2", "R3", "R4", "R5", "R6", "R7", "R7'", "R8", "R9"]
    assert names[59] == "P9"


def sample_text() -> tuple[str, engine.HandState]:
    _, hands = random_game(4, "classic", 11)
    played = next(h for h in hands if h.outcome == engine.Outcome.PLAYED)
    text = notation.export_hand(played, players=NAMES[:4], event="E", date="2026.01.02")
    return text, played


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_errors_are_typed_and_carry_line_numbers() -> None:
    text, _ = sample_text()
    lines = text.splitlines()

    broken = text.replace('[Rules "classic"]', '[Rules "poker"]')
    with pytest.raises(notation.BadValue) as bad:
        notation.parse(broken)
    assert bad.value.line == line_of(text, "[Rules")

    auction = line_of(text, "[Auction]") + 1
    wrong = lines[:]
    wrong[auction - 1] = wrong[auction - 1].split()[0] + " Q5"
    with pytest.raises(notation.BadValue) as card:
        notation.parse("\n".join(wrong))
    assert card.value.line == auction and card.value.code == "bad_value"

    swapped = lines[:]
    seat = int(swapped[auction - 1].split()[0])
    swapped[auction - 1] = f"{seat % 4 + 1} pass"
    with pytest.raises(notation.IllegalMove) as illegal:
        notation.parse("\n".join(swapped))
    assert illegal.value.line == auction and illegal.value.rule == "not_your_turn"

    with pytest.raises(notation.SyntaxProblem) as syntax:
        notation.parse(text.replace("[Deal]", "[Deal"))
    assert syntax.value.line == line_of(text, "[Deal]")

    with pytest.raises(notation.MissingTag):
        notation.parse(text.replace('[Dealer "', '[Dealr "'))

    score = line_of(text, "Score ")
    cheat = lines[:]
    cheat[score - 1] = "Score 999 0 0 0"
    with pytest.raises(notation.ResultMismatch) as mismatch:
        notation.parse("\n".join(cheat))
    assert mismatch.value.line == line_of(text, "Outcome ")

    deal = line_of(text, "[Deal]") + 1
    short = lines[:]
    short[deal - 1] = " ".join(short[deal - 1].split()[:-1])
    with pytest.raises(notation.BadDeal):
        notation.parse("\n".join(short))

    cut = lines[: line_of(text, "[Play]") + 1]
    with pytest.raises(notation.ResultMismatch):
        notation.parse("\n".join(cut))


def test_the_result_section_is_optional() -> None:
    text, played = sample_text()
    lines = text.splitlines()
    parsed = notation.parse("\n".join(lines[: line_of(text, "[Result]") - 1]))
    assert parsed.hands[0].result == engine.result(played)
