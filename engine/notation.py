"""Mü hand files: a finished hand, or a whole game, as plain text (docs/notation.md).

The notation is modelled on Portable Bridge Notation: tag pairs ``[Name "value"]``, some of
which open a section of data lines.  A file is rebuilt by dealing the cards of its ``Deal``
section with :func:`engine.deal_from` and playing its typed actions with :func:`engine.apply`
in a game (:func:`engine.play`), so a file that parses replays to exactly the hand that was
played, and a file whose moves the rules refuse does not parse::

    [Event "Tuesday"]
    [Date "2026.11.25"]
    [Players "Anna; Ben; Cleo; Dan"]
    [Rules "classic"]
    [Hand "1"]
    [Dealer "1"]
    [Deal]
    1 R0 R1 ...
    [Auction]
    1 R3 Y3
    2 pass
    ...

Cards are a colour letter (``R`` red, ``Y`` yellow, ``G`` green, ``B`` blue, ``P`` purple) and
the number; the second of the twin 1s and 7s of a colour carries a prime (``R1'``).  Seats are
numbered from 1 in the order of ``Players``.  Errors are :class:`NotationError` subclasses
that carry the line number (1-based) and a stable ``code``.

One move on its own line (:func:`move_text`, :func:`parse_move`) is its seat, the action's word
(its ``type``: ``pass``, ``bid``, ``discard``, ``trump``, ``partner``, ``play``) and what the
section lines write after the seat: ``"2 bid R5 R8"``, ``"1 trump 7"``, ``"1 partner 4"``.
This is the one notation of a card and a move: the lessons' scripts are written in it, and the
client's typed commands read its words (:data:`COLOUR_LETTERS`, :data:`TWIN_MARK`,
:data:`MOVE_WORDS`, written into ``static/js/protocol.js`` by ``tools/gen_protocol_js.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, replace
from typing import Final

from engine.actions import ACTION_TYPES, Action, Bid, Discard, Partner, Pass, Play, Trump
from engine.cards import COLOUR_OF, COLOURS, DECK_SIZE, SLOT_NUMBERS
from engine.dealing import deal_from
from engine.enums import Colour, Outcome, TrumpKind
from engine.errors import IllegalAction
from engine.game import Game, GameOptions, new_game, play
from engine.records import record
from engine.results import HandResult, hand_result
from engine.state import HandState
from engine.variants import PLAYER_COUNTS, VARIANTS

MAX_NAME = 40
# The notation's words: each colour's letter, the mark of the second of twin cards, and the
# word of each kind of move (the action's ``type``, as in its JSON form).
COLOUR_LETTERS: Final[dict[Colour, str]] = dict(zip(COLOURS, "RYGBP", strict=True))
TWIN_MARK: Final = "'"
MOVE_WORDS: Final[tuple[str, ...]] = tuple(
    str(f.default) for kind in ACTION_TYPES for f in fields(kind) if f.name == "type"
)
_TWIN_SLOTS = (2, 9)  # the second 1 and the second 7 of a colour
_TAG = re.compile(r'^\[([A-Za-z]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]$')


def card_name(card: int) -> str:
    """``0`` -> ``"R0"``; the second twin of a colour gets a prime: ``2`` -> ``"R1'"``."""
    slot = card % len(SLOT_NUMBERS)
    prime = TWIN_MARK if slot in _TWIN_SLOTS else ""
    return f"{COLOUR_LETTERS[COLOURS[COLOUR_OF[card]]]}{SLOT_NUMBERS[slot]}{prime}"


_CARD_IDS = {card_name(c): c for c in range(DECK_SIZE)}


def card_id(word: str) -> int:
    """The inverse of :func:`card_name`: ``"G9"`` -> 35 (lower case and a typographic ``’``
    are read too).  :class:`BadValue` for a word that names no card."""
    return _card_words(0, (word,))[0]


# ---- errors ------------------------------------------------------------------------------


class NotationError(ValueError):
    """A hand file that does not parse or does not replay; ``line`` is 1-based (0: the file
    as a whole) and ``code`` a stable machine word for translated messages."""

    code = "notation"

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line, self.message = line, message


class SyntaxProblem(NotationError):
    """A line that is neither a tag pair nor data of the section it stands in."""

    code = "syntax"


class MissingTag(NotationError):
    """A required tag (or section) is absent."""

    code = "missing_tag"


class BadValue(NotationError):
    """A tag's value or a data line's word is not what it should be (a card, a seat, ...)."""

    code = "bad_value"


class BadDeal(NotationError):
    """The Deal section is not a deal of the rules edition (``engine.deal_from`` refused)."""

    code = "bad_deal"


class IllegalMove(NotationError):
    """A move the rules refuse (``rule`` is the engine's refusal code), or moves after the
    hand's end, or a hand that ends before the file does."""

    code = "illegal_move"

    def __init__(self, line: int, message: str, rule: str = "") -> None:
        super().__init__(line, message)
        self.rule = rule


class ResultMismatch(NotationError):
    """The Result section disagrees with the replayed hand, or a hand is not finished."""

    code = "result_mismatch"


# ---- the parsed form ---------------------------------------------------------------------


@record
class Move:
    seat: int
    action: Action


@record
class NotatedHand:
    """One hand: its number in the game, the deal, the moves in order, the final state."""

    number: int
    dealer: int
    dealt: HandState
    moves: tuple[Move, ...]
    final: HandState

    @property
    def result(self) -> HandResult:
        return hand_result(self.final)


@record
class Notated:
    """A parsed file: its tags, the players' names, the hands, and the game they were replayed
    in with :func:`engine.play` (a file without an end condition tag: a game of exactly its
    hands); ``complete`` when the file names its end condition (a game file)."""

    event: str
    date: str
    players: tuple[str, ...]
    variant: str
    hands: tuple[NotatedHand, ...]
    game: Game
    complete: bool


# ---- export ------------------------------------------------------------------------------


def moves_of(hand: HandState) -> list[Move]:
    """The moves that led to the finished ``hand``, in the order the rules take them."""
    moves = [Move(seat, Bid(cards) if cards else Pass()) for seat, cards in hand.auction_log]
    if hand.discarded:
        moves.append(Move(_seat(hand.chief), Discard(tuple(hand.discarded))))
    if hand.vice is not None and hand.vice_kind is not None:
        moves.append(Move(hand.vice, Trump(TrumpKind.from_code(hand.vice_kind))))
    if hand.chief_kind is not None:
        moves.append(Move(_seat(hand.chief), Trump(TrumpKind.from_code(hand.chief_kind))))
    if hand.partner is not None:
        moves.append(Move(_seat(hand.chief), Partner(hand.partner)))
    moves += [Move(seat, Play(card)) for _, plays, _, _ in hand.tricks for seat, card in plays]
    return moves


def export_hand(
    hand: HandState, *, players: Sequence[str], event: str, date: str, number: int = 1
) -> str:
    """A finished hand as a hand file (``date``: ``YYYY.MM.DD``).  ``ValueError`` for a hand
    that is not over or names that do not fit the seats."""
    lines = _header(players, hand.rules.name, event, date, hand.players)
    lines += _hand_lines(hand, number)
    return "\n".join(lines) + "\n"


def export_game(
    options: GameOptions,
    hands: Sequence[HandState],
    *,
    players: Sequence[str],
    event: str,
    date: str,
) -> str:
    """A game's finished hands, in order, as a game file (with its end condition, so that the
    reader replays the score sheet; a game still being played: the hands finished so far)."""
    lines = _header(players, options.variant, event, date, options.players)
    if options.hands is not None:
        lines.append(f'[Hands "{options.hands}"]')
    else:
        lines.append(f'[Target "{options.target_score}"]')
    for number, hand in enumerate(hands, start=1):
        lines.append("")
        lines += _hand_lines(hand, number)
    return "\n".join(lines) + "\n"


def _header(players: Sequence[str], variant: str, event: str, date: str, seats: int) -> list[str]:
    if len(players) != seats or any(not n.strip() or len(n) > MAX_NAME for n in players):
        raise ValueError("one name (1 to 40 characters) per seat")
    names = "; ".join(_escape_name(n) for n in players)
    return [
        "% Mü hand file (docs/notation.md)",
        f'[Event "{_quote(event)}"]',
        f'[Date "{_quote(date)}"]',
        f'[Players "{_quote(names)}"]',
        f'[Rules "{variant}"]',
    ]


def _hand_lines(hand: HandState, number: int) -> list[str]:
    if not hand.is_over:
        raise ValueError("only a finished hand can be written down")
    moves = moves_of(hand)
    lines = [f'[Hand "{number}"]', f'[Dealer "{hand.dealer + 1}"]', "[Deal]"]
    lines += [f"{seat + 1} {_cards(cards)}" for seat, cards in enumerate(hand.deal)]
    if hand.kitty:
        lines += ["[Kitty]", _cards(hand.kitty)]
    lines.append("[Auction]")
    lines += [_move_line(m) for m in moves if isinstance(m.action, Bid | Pass)]
    if hand.discarded:
        lines += ["[Discard]", f"{_seat(hand.chief) + 1} {_cards(hand.discarded)}"]
    trumps = [m for m in moves if isinstance(m.action, Trump)]
    if trumps:
        lines += ["[Trumps]", *map(_move_line, trumps)]
    if hand.partner is not None:
        lines += ["[Partner]", f"{_seat(hand.chief) + 1} {hand.partner + 1}"]
    if hand.tricks:
        lines.append("[Play]")
        for leader, plays, _, _ in hand.tricks:
            lines.append(f"{leader + 1} {_cards(c for _, c in plays)}")
    lines += ["[Result]", *_result_lines(hand_result(hand))]
    return lines


def _result_lines(res: HandResult) -> list[str]:
    """What the hand came to, written for the reader; checked against the replay on parse."""
    lines = [f"Outcome {res.kind.value}"]
    if res.chief is not None and res.kind == Outcome.PLAYED:
        lines.append(f"Chief {res.chief + 1} bid {res.bid}")
    if res.card_points:
        lines.append("Points " + " ".join(map(str, res.card_points)))
    lines.append("Score " + " ".join(map(str, res.total)))
    return lines


def _move_line(move: Move) -> str:
    """An Auction or Trumps line: the seat, then ``pass``, the cards shown or the trump."""
    words = _words(move.action) or (move.action.type,)  # a pass is its word alone
    return " ".join((str(move.seat + 1), *words))


def move_text(move: Move) -> str:
    """One move on one line: the seat (from 1), the action's word, then what a section line
    writes after the seat: ``"2 bid R5 R8"``, ``"3 pass"``, ``"1 trump red"``,
    ``"1 partner 4"``, ``"1 play B7'"``, ``"1 discard R1 R2 Y0"``."""
    return " ".join((str(move.seat + 1), move.action.type, *_words(move.action)))


def _words(action: Action) -> tuple[str, ...]:
    """What a move names: its cards, its trump or its partner's seat (from 1); a pass, nothing."""
    if isinstance(action, Bid | Discard):
        return tuple(map(card_name, action.cards))
    if isinstance(action, Play):
        return (card_name(action.card),)
    if isinstance(action, Trump):
        return (action.trump.value,)
    if isinstance(action, Partner):
        return (str(action.seat + 1),)
    return ()


def _cards(cards: Iterator[int] | Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)


def _seat(seat: int | None) -> int:
    if seat is None:
        raise ValueError("the hand has no chief")
    return seat


def _quote(text: str) -> str:
    if "\n" in text or "\r" in text:
        raise ValueError("tag values are single lines")
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _escape_name(name: str) -> str:
    return name.replace("\\", "\\\\").replace(";", "\\;")


# ---- parse -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Block:
    """The lines of one hand: its tags (with line numbers) and sections' data lines."""

    tags: dict[str, tuple[int, str]]
    sections: dict[str, list[tuple[int, str]]]
    line: int


SECTIONS = ("Deal", "Kitty", "Auction", "Discard", "Trumps", "Partner", "Play", "Result")
HEADER_TAGS = ("Event", "Date", "Players", "Rules", "Hands", "Target")
HAND_TAGS = ("Hand", "Dealer")


def parse(text: str) -> Notated:
    """A hand file or a game file, replayed.  Raises a :class:`NotationError` subclass."""
    header, blocks = _split(text)
    players = _players(header)
    variant = _tag(header, "Rules", 0)
    if variant not in VARIANTS:
        raise BadValue(header.tags["Rules"][0], f"unknown rules edition {variant!r}")
    if not blocks:
        raise MissingTag(0, "no hand: a [Hand] tag is missing")
    options = _options(header, len(players), variant, len(blocks))
    game = new_game(options, _dealer(blocks[0], len(players)))
    hands = []
    first = _number(blocks[0].line, _tag(blocks[0], "Hand", blocks[0].line))
    for number, block in enumerate(blocks, start=first):
        hand, game = _replay(block, number, len(players), variant, game)
        hands.append(hand)
    return Notated(
        event=_tag(header, "Event", 0, default=""),
        date=_tag(header, "Date", 0, default=""),
        players=players,
        variant=variant,
        hands=tuple(hands),
        game=game,
        complete="Hands" in header.tags or "Target" in header.tags,
    )


def _split(text: str) -> tuple[_Block, list[_Block]]:
    header = _Block({}, {}, 1)
    blocks: list[_Block] = []
    current, section = header, ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not line.startswith("["):
            if not section:
                raise SyntaxProblem(number, "a data line outside a section")
            current.sections[section].append((number, line))
            continue
        match = _TAG.match(line)
        if match is None:
            raise SyntaxProblem(number, 'a tag pair is written [Name "value"]')
        name, value = match.group(1), match.group(2)
        if name == "Hand":
            current = _Block({}, {}, number)
            blocks.append(current)
        section = ""
        if name in SECTIONS:
            if name in current.sections:
                raise SyntaxProblem(number, f"a second [{name}] section")
            current.sections[name], section = [], name
        elif (name in HEADER_TAGS) == (current is header) and name in HEADER_TAGS + HAND_TAGS:
            if value is None:
                raise SyntaxProblem(number, f"[{name}] needs a value")
            if name in current.tags:
                raise SyntaxProblem(number, f"a second [{name}] tag")
            current.tags[name] = (number, _unquote(value))
        elif name in HEADER_TAGS + HAND_TAGS:
            raise SyntaxProblem(number, f"[{name}] does not belong here")
        # Other tags are kept by nobody: like PBN, a reader skips tags it does not know.
    return header, blocks


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _split_names(raw: str) -> list[str]:
    """``Anna; Ben\\; B`` -> ``["Anna", " Ben; B"]`` (a backslash keeps the next character)."""
    names, current, chars = [], [], iter(raw)
    for char in chars:
        if char == "\\":
            current.append(next(chars, ""))
        elif char == ";":
            names.append("".join(current))
            current = []
        else:
            current.append(char)
    return [*names, "".join(current)]


def _tag(block: _Block, name: str, line: int, default: str | None = None) -> str:
    if name in block.tags:
        return block.tags[name][1]
    if default is None:
        raise MissingTag(line or block.line, f"the [{name}] tag is missing")
    return default


def _players(header: _Block) -> tuple[str, ...]:
    raw = _tag(header, "Players", 0)
    line = header.tags["Players"][0]
    names = tuple(n.strip() for n in _split_names(raw))
    if not 3 <= len(names) <= 6:
        raise BadValue(line, "Mü is played by 3 to 6 players")
    if any(not n or len(n) > MAX_NAME for n in names):
        raise BadValue(line, "every player needs a name of 1 to 40 characters")
    return names


def _options(header: _Block, players: int, variant: str, count: int) -> GameOptions:
    """The game's end condition from its tag; a file without one (a hand file) is a game of
    exactly its hands."""
    hands, target = header.tags.get("Hands"), header.tags.get("Target")
    line, value = hands or target or (0, str(count))
    number = _number(line, value)
    try:
        if target is not None:
            return GameOptions(players, variant, target_score=number)
        return GameOptions(players, variant, hands=number)
    except ValueError as exc:
        raise BadValue(line, str(exc)) from None


def _number(line: int, word: str) -> int:
    if not word.isdigit() or len(word) > 6:
        raise BadValue(line, f"{word!r} is not a number")
    return int(word)


def _seat_word(line: int, word: str, players: int) -> int:
    seat = _number(line, word) - 1
    if not 0 <= seat < players:
        raise BadValue(line, f"there is no seat {word}")
    return seat


def parse_move(text: str, players: int = max(PLAYER_COUNTS)) -> Move:
    """The inverse of :func:`move_text` (a move word in any case; seats up to ``players``).
    Raises :class:`SyntaxProblem` or :class:`BadValue` (``line`` 0); whether the rules allow
    the move is the engine's to judge when it is played."""
    words = text.split()
    if len(words) < 2:
        raise SyntaxProblem(0, f"{text!r} is not a move: a seat, then a move word")
    seat = _seat_word(0, words[0], players)
    return Move(seat, _action(text, words[1].lower(), words[2:], players))


def _action(text: str, word: str, args: list[str], players: int) -> Action:
    if word == "pass" and not args:
        return Pass()
    if word == "bid" and args:
        return Bid(_card_words(0, args))
    if word == "discard" and args:
        return Discard(_card_words(0, args))
    if word == "play" and len(args) == 1:
        return Play(card_id(args[0]))
    if word == "trump" and len(args) == 1:
        return Trump(_trump_word(0, args[0]))
    if word == "partner" and len(args) == 1:
        return Partner(_seat_word(0, args[0], players))
    words = ", ".join(MOVE_WORDS)
    raise SyntaxProblem(0, f"{text!r} is not a move: a seat, one of {words}, and what it names")


def _trump_word(line: int, word: str) -> TrumpKind:
    try:
        return TrumpKind(word.lower())
    except ValueError:
        raise BadValue(line, f"{word!r} is not a trump") from None


def _card_words(line: int, words: Sequence[str]) -> tuple[int, ...]:
    try:
        return tuple(_CARD_IDS[w.replace("’", "'").upper()] for w in words)
    except KeyError as exc:
        raise BadValue(line, f"{exc.args[0]!r} is not a card") from None


def _dealer(block: _Block, players: int) -> int:
    line = block.tags["Dealer"][0] if "Dealer" in block.tags else block.line
    return _seat_word(line, _tag(block, "Dealer", block.line), players)


def _deal(block: _Block, players: int, variant: str) -> HandState:
    dealer = _dealer(block, players)
    rows = block.sections.get("Deal")
    if rows is None:
        raise MissingTag(block.line, "the [Deal] section is missing")
    hands: list[tuple[int, ...] | None] = [None] * players
    for line, text in rows:
        seat_word, *words = text.split()
        seat = _seat_word(line, seat_word, players)
        if hands[seat] is not None:
            raise BadValue(line, f"seat {seat + 1} is dealt twice")
        hands[seat] = _card_words(line, words)
    if any(h is None for h in hands):
        raise BadDeal(rows[0][0] if rows else block.line, "every seat needs a line in [Deal]")
    kitty_rows = block.sections.get("Kitty")
    kitty = None
    if kitty_rows is not None:
        kitty = tuple(c for line, text in kitty_rows for c in _card_words(line, text.split()))
    try:
        return deal_from([h or () for h in hands], dealer, variant, kitty)
    except ValueError as exc:
        raise BadDeal(rows[0][0] if rows else block.line, str(exc)) from None


def _moves(block: _Block, players: int) -> Iterator[tuple[int, Move | tuple[int, int]]]:
    """(line, move) in file order; the Play section yields (line, (leader, card)) per card so
    that the seats are taken from the replay (and the leader checked against it)."""
    for line, text in block.sections.get("Auction", []):
        seat_word, *words = text.split()
        seat = _seat_word(line, seat_word, players)
        if words == ["pass"] or words == ["Pass"]:
            yield line, Move(seat, Pass())
        elif words:
            yield line, Move(seat, Bid(_card_words(line, words)))
        else:
            raise SyntaxProblem(line, "an auction line is a seat and 'pass' or cards")
    for line, text in block.sections.get("Discard", []):
        seat_word, *words = text.split()
        seat = _seat_word(line, seat_word, players)
        yield line, Move(seat, Discard(_card_words(line, words)))
    for line, text in block.sections.get("Trumps", []):
        words = text.split()
        if len(words) != 2:
            raise SyntaxProblem(line, "a trump line is a seat and a trump")
        seat = _seat_word(line, words[0], players)
        yield line, Move(seat, Trump(_trump_word(line, words[1])))
    for line, text in block.sections.get("Partner", []):
        words = text.split()
        if len(words) != 2:
            raise SyntaxProblem(line, "a partner line is the chief's seat and the partner's")
        seat = _seat_word(line, words[0], players)
        yield line, Move(seat, Partner(_seat_word(line, words[1], players)))
    for line, text in block.sections.get("Play", []):
        seat_word, *words = text.split()
        leader = _seat_word(line, seat_word, players)
        for card in _card_words(line, words):
            yield line, (leader, card)
            leader = -1  # only the first card of a trick names its seat


def _replay(
    block: _Block, number: int, players: int, variant: str, game: Game
) -> tuple[NotatedHand, Game]:
    tagged = _number(block.line, _tag(block, "Hand", block.line))
    if tagged != number:
        raise BadValue(block.line, f"hand {tagged} stands where hand {number} belongs")
    dealt = _deal(block, players, variant)
    if game.next_dealer != dealt.dealer:
        raise BadValue(block.line, "the deal passes to the left: wrong dealer")
    game = replace(game, hand=dealt)
    state, moves = dealt, []
    for line, item in _moves(block, players):
        if state.is_over:
            raise IllegalMove(line, "the hand is already over")
        if isinstance(item, tuple):
            leader, card = item
            seat = state.to_move
            if seat is None or leader not in (-1, seat):
                raise IllegalMove(line, f"seat {leader + 1} does not lead this trick")
            move = Move(seat, Play(card))
        else:
            move = item
        try:
            game = play(game, move.seat, move.action)
            state = game.hand or state
        except IllegalAction as exc:
            raise IllegalMove(line, exc.message, exc.code) from None
        moves.append(move)
    if not state.is_over:
        raise ResultMismatch(block.line, f"hand {number} is not finished")
    _check_result(block, state)
    return NotatedHand(number, dealt.dealer, dealt, tuple(moves), state), game


def _check_result(block: _Block, state: HandState) -> None:
    rows = block.sections.get("Result")
    if rows is None:
        return  # the result is optional: the replay says what it is
    expected = _result_lines(hand_result(state))
    got = [text.split() for _, text in rows]
    if got != [line.split() for line in expected]:
        line = rows[0][0] if rows else block.line
        raise ResultMismatch(line, "the [Result] section disagrees with the play")


__all__ = [
    "COLOUR_LETTERS",
    "MOVE_WORDS",
    "TWIN_MARK",
    "BadDeal",
    "BadValue",
    "IllegalMove",
    "MissingTag",
    "Move",
    "Notated",
    "NotatedHand",
    "NotationError",
    "ResultMismatch",
    "SyntaxProblem",
    "card_id",
    "card_name",
    "export_game",
    "export_hand",
    "move_text",
    "moves_of",
    "parse",
    "parse_move",
]
