"""The ``search`` bot: determinized Monte-Carlo (PIMC) over the heuristic policy.

For every decision it samples worlds consistent with its view (:mod:`engine.bots.sampling`:
the unseen cards dealt to the other seats by hand size, respecting shown voids), and in each
world tries every candidate action and plays the hand out with the heuristic policy for all
seats (:func:`engine.bots.playout.rollout`).  The candidate with the best mean Mü score for the
bot's seat (card points + bonus/penalty, or Eklat points) over the worlds wins; the same
worlds and rollout seeds are used for every candidate (common random numbers), and ties go
to the heuristic's own choice.

Candidates: every legal card in play; every trump or partner option; in the auction a pass,
the heuristic's bid and bids of 1..k cards (k = the most it may show, up to 4) in the
heuristic's showing order (revised: also the counts that take or tie the Crown); in the
revised 3-player discard, every 3 of the heuristic's 5 weakest cards.

The ``expert`` (``make_bot("expert")``: ``weighted=True``, ``confidence=EXPERT_CONFIDENCE``)
draws its worlds by the card-location model and leaves the heuristic's choice only for a
candidate whose lead over it is larger than ``confidence`` standard errors of their paired
differences over the worlds (:func:`clearly_better`): the plain search takes the best mean
however small its lead, and at a small world budget many such leads are noise (docs/bots.md,
"The expert against the search bot").

Budget: ``time_limit`` seconds per decision (stops before a world that would overrun it,
estimated as 1.5 times the mean world so far, and drops a world that the clock overruns
anyway, e.g. on a loaded machine) and at most ``max_worlds`` worlds; ``time_limit=None``
makes the bot deterministic for a given ``rng`` (tests, reproducible benchmarks).  The clock
is an input too (``clock``, default :func:`time.perf_counter`), so a test can give it a clock
of its own and check the budget without measuring time.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections.abc import Callable

from engine._guard import COMPILED
from engine.actions import Action, Play
from engine.bots import playout, policy, revised
from engine.bots.base import fits_prompt, random_action, the_prompt, to_action
from engine.bots.heuristic import heuristic_actions
from engine.bots.sampling import SamplingError, WorldSampler
from engine.enums import Phase
from engine.prompts import PlayPrompt
from engine.state import END_TURN, PARTNER_BASE, TRUMP_BASE, HandState
from engine.views import HandView

# Seconds per decision: a p95 decision time under 150 ms from the sources, and under 80 ms
# compiled (make compile), whose worlds cost about half the CPU, so that 0.08 s holds as many
# worlds as 0.14 s does from the sources (docs/bots.md, "The compiled engine").
DEFAULT_TIME_LIMIT = 0.08 if COMPILED else 0.14
DEFAULT_MAX_WORLDS = 200
MAX_BID_CANDIDATE = 4
DISCARD_POOL = 5  # the revised discard: choices among the 5 weakest cards
# The expert's bar for leaving the heuristic's choice, in standard errors of the paired
# differences (tuned on duplicate deals at 4 and 5 players, docs/bots.md).
EXPERT_CONFIDENCE = 1.0
# The expert's world cap: its weighted deals cost more per world, and so do the rollouts of
# the heuristic's choice after the halving has dropped it, so where a decision reaches the
# cap before the clock it stops sooner and spends no more CPU than the search bot
# (docs/bots.md, "The bar's baseline kept to the end").
EXPERT_MAX_WORLDS = 160


def candidates(state: HandState, seat: int, rng: random.Random) -> list[list[int]]:
    """The decisions to compare, the heuristic's first, as integer action sequences."""
    first = heuristic_actions(state, seat, rng)
    out = [first]
    phase = state.phase
    if phase == Phase.AUCTION:
        extra = _bid_candidates(state, seat)
    elif phase == Phase.DISCARD:
        extra = _discard_candidates(state, seat)
    elif phase == Phase.PLAY:
        extra = [[a] for a in sorted(state.legal_plays(seat))]
    elif phase == Phase.PARTNER:
        extra = [[PARTNER_BASE + s] for s in state.partner_options()]
    else:
        extra = [[TRUMP_BASE + k] for k in state.trump_options()]
    out.extend(seq for seq in extra if seq != first)
    return out


def _bid_sizes(state: HandState, seat: int, room: int) -> list[int]:
    """How many cards to try showing: 1..MAX_BID_CANDIDATE, and in the revised edition
    also the counts that take the Crown (by one or two) or tie it (to take the Shield)."""
    sizes = list(range(1, MAX_BID_CANDIDATE + 1))
    crown = state.chief
    if state.rules.roles_move and crown is not None and crown != seat:
        gap = state.counts[crown] - state.counts[seat]
        sizes += [k for k in (gap, gap + 1, gap + 2) if k > MAX_BID_CANDIDATE]
    return [k for k in sizes if k <= room]


def _bid_candidates(state: HandState, seat: int) -> list[list[int]]:
    """A pass and bids of the sizes above, in the heuristic's showing order."""
    room = min(state.turn_cap - state.counts[seat], len(state.hands[seat]))
    kinds = policy.ranked_kinds(state, seat)
    order = policy.show_order(state, seat, kinds[0][1])
    return [[END_TURN]] + [[*order[:k], END_TURN] for k in _bid_sizes(state, seat, room)]


def _discard_candidates(state: HandState, seat: int) -> list[list[int]]:
    """Every choice of the discards among the heuristic's ``DISCARD_POOL`` weakest cards."""
    pool = revised.discard_order(state, seat)[:DISCARD_POOL]
    return [list(c) for c in itertools.combinations(pool, state.discards_left)]


def clearly_better(scores: list[int], baseline: list[int], z: float) -> bool:
    """Whether ``scores`` beat ``baseline`` (the same worlds and rollout seeds, so paired)
    by more than ``z`` standard errors of the mean paired difference.  One world gives no
    error estimate: a lead there stands."""
    diffs = [a - b for a, b in zip(scores, baseline, strict=True)]
    mean = statistics.fmean(diffs)
    if len(diffs) < 2:
        return mean > 0
    return mean > z * statistics.stdev(diffs, mean) / math.sqrt(len(diffs))


class SearchBot:
    """PIMC with heuristic rollouts, anytime under a time and world budget.  With
    ``weighted=True`` its worlds are drawn by the card-location model
    (:mod:`engine.bots.inference`), so they fit what the auction and the play revealed; with
    ``confidence`` above 0 it leaves the heuristic's choice only for a clearly better one.
    The ``expert`` is both (``make_bot("expert")``)."""

    def __init__(
        self,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        max_worlds: int = DEFAULT_MAX_WORLDS,
        clock: Callable[[], float] = time.perf_counter,
        weighted: bool = False,
        confidence: float = 0.0,
    ) -> None:
        if max_worlds < 1:
            raise ValueError("max_worlds must be at least 1")
        self.name = "expert" if weighted else "search"
        self.weighted = weighted
        self.confidence = confidence
        self.time_limit = time_limit
        self.max_worlds = max_worlds
        self.clock = clock
        self.last_worlds = 0  # worlds used by the latest decision (for benchmarks)

    def act(self, view: HandView, rng: random.Random) -> Action:
        start = self.clock()
        prompt = the_prompt(view)
        if isinstance(prompt, PlayPrompt) and len(prompt.cards) == 1:
            self.last_worlds = 0
            return Play(prompt.cards[0])
        try:
            sampler = self.sampler(view)
            world = sampler.sample(rng)
        except SamplingError:
            return random_action(view, rng)
        seat = sampler.seat
        options = candidates(world, seat, rng)
        best = options[0]
        if len(options) > 1:
            best = self._search(sampler, world, seat, options, rng, start)
        action = to_action(prompt, best)
        return action if fits_prompt(action, view) else random_action(view, rng)

    def sampler(self, view: HandView) -> WorldSampler:
        """Where this bot's worlds come from: the seat's view, weighted for the expert."""
        return WorldSampler(view, self.weighted)

    def _search(
        self,
        sampler: WorldSampler,
        world: HandState,
        seat: int,
        options: list[list[int]],
        rng: random.Random,
        start: float,
    ) -> list[int]:
        per_world: list[list[int]] = [[] for _ in options]  # each candidate's scores
        alive = list(range(len(options)))
        worlds = 0
        limit = self.time_limit
        # Successive halving: at a third and at two thirds of the world budget, keep the
        # better half of the candidates (at least two).
        cuts = {max(2, self.max_worlds // 3), max(3, 2 * self.max_worlds // 3)}
        deadline = None if limit is None else start + limit
        while worlds < self.max_worlds:
            if worlds:
                world = sampler.sample(rng)
            seed = rng.getrandbits(32)
            # With the bar the heuristic's choice (0) is its baseline: rolled out in every
            # world, also once the halving has dropped it from the contest (alive is sorted).
            rolled = alive if not self.confidence or alive[0] == 0 else [0, *alive]
            scores = self._world_scores(world, seat, options, rolled, seed, worlds, deadline)
            if scores is None:
                break
            for i, value in zip(rolled, scores, strict=True):
                per_world[i].append(value)
            worlds += 1
            if limit is not None:
                elapsed = self.clock() - start
                if elapsed + 1.5 * elapsed / worlds > limit:  # room for a slower world
                    break
            if worlds in cuts and len(alive) > 2:
                totals = {i: sum(per_world[i]) for i in alive}  # the same worlds for each
                alive.sort(key=lambda i: (-totals[i], i))
                alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        self.last_worlds = worlds
        best = max(alive, key=lambda i: (sum(per_world[i]), -i))
        bar = self.confidence
        if bar and best and not clearly_better(per_world[best], per_world[0], bar):
            best = 0  # the heuristic's choice
        return options[best]

    def _world_scores(
        self,
        world: HandState,
        seat: int,
        options: list[list[int]],
        alive: list[int],
        seed: int,
        worlds: int,
        deadline: float | None,
    ) -> list[int] | None:
        """The seat's score after each live candidate in one world, or ``None`` once the
        clock runs out mid-world (the first world always completes).  The clock is read
        before every rollout, so a machine under load overruns the budget by one rollout
        at most, not a whole world; a world left unfinished counts for no candidate."""
        scores = []
        for i in alive:
            if deadline is not None and worlds and self.clock() > deadline:
                return None
            sim = world.clone()
            for a in options[i]:
                sim.apply_action(a)
            playout.seeded_rollout(sim, seed)
            scores.append(playout.score(sim, seat))
        return scores
