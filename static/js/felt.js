// The middle of the table: during the auction what has happened, during the play each card in
// front of whoever played it; a just-won trick stays whole a moment with its winner lit and a
// line saying who won it, then slides over to the winner's seat.
import { announce } from "./announce.js";
import { cardFace } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { seatName } from "./names.js";
import { count, places } from "./seats.js";
import { state } from "./state.js";

// A completed trick stays whole this long (the server's TRICK_PAUSE_MS, on the page's #app as
// data-trick-pause-ms; the server's bots wait as long before leading), then slides to its
// winner for at most SLIDE_MS (never longer than half the pause; no slide with reduced motion).
const DEFAULT_PAUSE_MS = 1200;
const SLIDE_MS = 450;

export function trickPauseMs() {
  const ms = Number(document.getElementById("app")?.dataset.trickPauseMs);
  return Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_PAUSE_MS;
}

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
const slideMs = (pause) => (reducedMotion() ? 0 : Math.min(SLIDE_MS, pause / 2));

// "Konrad wins the trick (+8)"; "You win the trick (+8)" for your own seat.
export function trickLine(view, trick) {
  const points = `+${trick.points}`;
  if (trick.winner === view.seat) return _("You win the trick ({points})", { points });
  return _("{name} wins the trick ({points})", { name: seatName(view, trick.winner), points });
}

// The middle of the table: during the auction what has happened, during the play each card in
// front of whoever played it (a just-won trick, `shownTrick`: by default the one being shown,
// stays a moment with its winner lit and named), and a marked empty place in front of the
// player to move.
export function renderFelt(view, shownTrick = state.trick.showing) {
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
  const line = shownTrick ? trickLine(view, shownTrick) : "";
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
    h("p", { class: "trick-line", dataset: { testid: "trick-line" } }, line),
    h("div", { class: "t-bottom" }, spot(at.bottom, "bottom")),
  );
  state.trick.onFelt = new Set(plays.map((p) => p.card.id));
  for (const card of box.querySelectorAll(".played.arrive")) comeFromPlayer(view, card);
}

// A card just played comes from its player: from their seat's plate, or your own from your
// hand, measured once the whole board is drawn (the next frame). Nothing moves for people who
// asked their system for reduced motion.
const ARRIVE_MS = 350;

function comeFromPlayer(view, card) {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const seat = Number(card.dataset.seat);
  const mine = seat === view.seat;
  requestAnimationFrame(() => {
    const from = (mine && $("#me .hand")) || $(`#ring .seat[data-seat="${seat}"]`);
    // The felt may have been drawn again meanwhile: the card's place now.
    const placed = card.isConnected ? card : $(`#trick .played[data-seat="${seat}"]`);
    if (!from || !placed) return;
    const start = from.getBoundingClientRect();
    const end = placed.getBoundingClientRect();
    if (!start.width || !end.width) return;
    const dx = Math.round(start.left + start.width / 2 - (end.left + end.width / 2));
    const dy = Math.round(start.top + start.height / 2 - (end.top + end.height / 2));
    placed.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(0.85)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
      { duration: ARRIVE_MS, easing: "ease-out" },
    );
  });
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
  if (!seat || reducedMotion()) return;
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

// A trick that has just been completed stays whole in the middle for the pause, its winner lit
// and named, then slides over to the winner's seat; `redraw()` draws the felt again afterwards.
// Cards of the next trick that arrive meanwhile (a bot's lead, your own, another device's) wait
// until then: the view has them, the felt shows them once the pause is over; a trick completed
// meanwhile (a person led at once, the others followed) is shown next, for the whole pause too.
// The last trick of a hand is not in the next hand's view: the page shows it with `showTrick`.
export function noticeTrickWon(previous, view, redraw) {
  if (!previous || previous.hand_number !== view.hand_number) return;
  const before = previous.tricks?.length ?? 0;
  const now = view.tricks?.length ?? 0;
  if (now < before) {
    state.trick.queue = []; // a move was taken back
    endShowing();
  }
  if (now > before && view.last_trick) showTrick(view, view.last_trick, redraw);
}

// Shows `trick` (a finished trick: cards, winner, points) for the pause, after the one shown
// now if any; `redraw()` afterwards. `speak`: the announcer says its line (the announcer's own
// story says the tricks within a hand, not the last one of a hand, which the next hand's view
// no longer holds).
export function showTrick(view, trick, redraw, { speak = false } = {}) {
  const shown = state.trick;
  if (shown.showing) {
    shown.queue.push({ view, trick, redraw, speak });
    return;
  }
  const pause = trickPauseMs();
  const slide = slideMs(pause);
  shown.showing = trick;
  if (speak) announce(trickLine(view, trick));
  const collect = () => {
    shown.collecting = true;
    collectTrick();
  };
  const end = () => {
    endShowing();
    redraw();
  };
  // The pause counts from when the trick is on the felt: the page draws it right after this
  // call, in the same task.
  shown.showTimer = setTimeout(() => {
    if (slide) shown.collectTimer = setTimeout(collect, pause);
    shown.showTimer = setTimeout(end, pause + slide);
  }, 0);
}

// The trick shown has had its time: the next one waiting is shown, or else what waited for
// the tricks to be seen runs.
function endShowing() {
  const shown = state.trick;
  clearTimeout(shown.showTimer);
  clearTimeout(shown.collectTimer);
  shown.showing = null;
  shown.collecting = false;
  const next = shown.queue.shift();
  if (next) {
    showTrick(next.view, next.trick, next.redraw, { speak: next.speak });
    return;
  }
  const after = shown.after;
  shown.after = [];
  for (const then of after) then();
}

// Runs `then` once the tricks shown now have been seen (at once when none is shown).
export function afterTrickShown(then) {
  if (state.trick.showing) state.trick.after.push(then);
  else then();
}
