// The middle of the table: during the auction what has happened, during the play each card in
// front of whoever played it; a just-won trick stays a moment with its winner lit, then slides
// over to the winner's seat.
import { cardFace } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { seatName } from "./names.js";
import { count, places } from "./seats.js";
import { state } from "./state.js";

// A won trick stays in the middle this long; it starts moving to its winner after COLLECT_MS.
const TRICK_SHOW_MS = 1400;
const COLLECT_MS = 750;

// The middle of the table: during the auction what has happened, during the play each card in
// front of whoever played it (a just-won trick, `shownTrick`, stays a moment with its winner
// lit), and a marked empty place in front of the player to move.
export function renderFelt(view, shownTrick = null) {
  const box = $("#trick");
  box.classList.toggle("won", Boolean(shownTrick));
  box.classList.remove("collect");
  if (shownTrick) box.dataset.winner = shownTrick.winner;
  else delete box.dataset.winner;
  const plays = shownTrick ? shownTrick.cards : (view.trick ?? []);
  if (!plays.length && view.phase !== "play") {
    fill(box, view.phase === "auction" ? auctionLog(view) : null);
    state.trick.onFelt = new Set(); // a card not among them has just been played: it slides in
    return;
  }
  const bySeat = new Map(plays.map((p) => [p.seat, p]));
  const waiting = !shownTrick && view.phase === "play" ? view.to_move : null;
  const spot = (seat, place) => {
    const play = bySeat.get(seat);
    if (play) return trickCard(view, play, place, shownTrick?.winner === seat, !state.trick.onFelt.has(play.card.id));
    return h("div", { class: `spot at-${place}${seat === waiting ? " waiting" : ""}`, dataset: { seat } });
  };
  const at = places(view);
  fill(
    box,
    h("div", { class: "t-top" }, ...at.top.map((seat) => spot(seat, "top"))),
    at.left.length ? h("div", { class: "t-left" }, ...at.left.map((seat) => spot(seat, "left"))) : null,
    at.right.length ? h("div", { class: "t-right" }, ...at.right.map((seat) => spot(seat, "right"))) : null,
    h("div", { class: "t-bottom" }, spot(at.bottom, "bottom")),
  );
  state.trick.onFelt = new Set(plays.map((p) => p.card.id));
}

function trickCard(view, play, place, winner, arriving) {
  return h(
    "figure",
    {
      class: `spot played at-${place}${winner ? " winner" : ""}${arriving ? " arrive" : ""}`,
      dataset: { seat: play.seat },
    },
    cardFace(play.card, { tag: "span", ranking: view.trump_ranking }),
    h("figcaption", {}, seatName(view, play.seat)),
  );
}

// A won trick gathers up and moves to its winner's seat (nothing moves for people who asked
// their system for reduced motion: the trick simply goes when the next one starts).
export function collectTrick() {
  const box = $("#trick");
  const winner = box.dataset.winner;
  const seat = winner === undefined ? null : $(`#ring .seat[data-seat="${winner}"]`);
  if (!seat || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const target = seat.getBoundingClientRect();
  for (const card of box.querySelectorAll(".played")) {
    const from = card.getBoundingClientRect();
    card.style.setProperty("--dx", `${target.left + target.width / 2 - (from.left + from.width / 2)}px`);
    card.style.setProperty("--dy", `${target.top + target.height / 2 - (from.top + from.height / 2)}px`);
  }
  box.classList.add("collect");
}

function auctionLog(view) {
  const leader = view.auction_leader;
  const recent = (view.auction ?? []).slice(-view.players);
  return h(
    "div",
    { class: "auction-log", dataset: { testid: "auction-log" } },
    h(
      "p",
      { class: "lead" },
      leader === null || leader === undefined
        ? (view.bids ?? []).some((bid) => count(bid) > 0)
          ? _("Nobody leads the auction alone yet")
          : _("Nobody has placed cards yet")
        : _("{name} leads the auction with {n}", {
            name: seatName(view, leader),
            n: count(view.bids?.[leader]),
          }),
    ),
    h(
      "ol",
      {},
      ...recent.map((entry) =>
        h(
          "li",
          {},
          entry.type === "pass"
            ? _("{name} passed", { name: seatName(view, entry.seat) })
            : _("{name} placed {n}", { name: seatName(view, entry.seat), n: entry.cards.length }),
        ),
      ),
    ),
  );
}

// A trick that has just been completed stays in the middle for a moment, its winner lit up,
// then slides over to the winner's seat; `redraw()` draws the felt again afterwards.
export function noticeTrickWon(previous, view, redraw) {
  if (view.trick?.length) {
    // The next trick has begun: its first card matters more than the last one's glory.
    stopShowing();
    return;
  }
  const before = JSON.stringify(previous?.last_trick ?? null);
  if (!previous || !view.last_trick || before === JSON.stringify(view.last_trick)) return;
  stopShowing();
  const trick = state.trick;
  trick.showing = view.last_trick;
  trick.collectTimer = setTimeout(() => {
    trick.collecting = true;
    collectTrick();
  }, COLLECT_MS);
  trick.showTimer = setTimeout(() => {
    stopShowing();
    redraw();
  }, TRICK_SHOW_MS);
}

function stopShowing() {
  const trick = state.trick;
  clearTimeout(trick.showTimer);
  clearTimeout(trick.collectTimer);
  trick.showing = null;
  trick.collecting = false;
}
