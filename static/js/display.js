// The table display (/t/{code}/display): a shared screen (TV, tablet) shows the felt large and
// follows the table live over the spectator socket (it counts as a spectator); the people play
// on their phones. No hand, no chat input, no controls: the board's region modules draw it.
//
// It shows every card: a completed trick stays whole with its winner lit and named (felt.js,
// noticeTrickWon), and so does a hand's last trick, which the next hand's first view no longer
// holds (the server deals the next hand in the same change that ends one): the display fetches
// it from the finished hand and shows it the same way (felt.js, showTrick). Between hands the side panel shows the hand's result until the next
// hand's play starts; the running totals are always there. The join panel (QR code, short code)
// steps aside while every seat is taken. The announcer (announce.js) says it all, the last card
// and the last trick's winner before the next hand.
import { announce, announceFeature } from "./announce.js";
import { $, fill, h } from "./dom.js";
import { collectTrick, noticeTrickWon, renderFelt, showTrick } from "./felt.js";
import { eventText } from "./host.js";
import { _ } from "./i18n.js";
import { renderInfo, statusText } from "./info.js";
import { seatName } from "./names.js";
import { TableSocket } from "./net.js";
import { CLOSE } from "./protocol.js";
import { renderRing } from "./seats.js";
import { eventSentence } from "./speech.js";
import * as store from "./state.js";
import { hasGame, state } from "./state.js";
import { story } from "./summary.js";

const app = $("#app");
store.openPage(app.dataset.code);

const ENDED = {
  [CLOSE.UNKNOWN_TABLE]: () => _("This invite link does not lead to a table."),
  [CLOSE.SPECTATORS_FULL]: () => _("This table already has as many spectators as it allows. Please try again later."),
  [CLOSE.REMOVED]: () => _("The host sent the spectators away."),
  [CLOSE.TABLE_CLOSED]: () => _("The host has closed this table: nobody new can join or watch."),
  [CLOSE.TABLE_DELETED]: () => _("The host deleted this table."),
};

const announcer = announceFeature();

// A finished hand whose last trick is (to be) shown: `view` the hand's last view, from which the
// board is drawn until that trick has been seen; `pending` while the trick is fetched.
const end = { view: null, pending: false };

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const seatsOf = (view) => Array.from({ length: view.players ?? view.seats?.length ?? 0 }, (_, i) => i);

// A hand was played to its end and the next one dealt in the same change.
const handEnded = (previous, view) =>
  hasGame(previous) && previous.phase === "play" && previous.hand_number !== view.hand_number;

function onView(view, version) {
  const previous = store.applyView(view, version);
  if (handEnded(previous, view)) holdLastTrick(previous);
  else noticeTrickWon(previous, view, draw);
  draw();
}

// The finished hand's last trick, from the hand's record: shown whole for the pause, its last
// card and winner said before anything of the next hand.
async function holdLastTrick(previous) {
  Object.assign(end, { view: previous, pending: true });
  const url = `${state.api}/hands/${previous.hand_number}`;
  const hand = await fetch(url, { cache: "no-store" })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null);
  if (end.view !== previous) return;
  const trick = hand?.tricks?.at(-1) ?? null;
  end.pending = false;
  if (!trick) {
    end.view = null;
    draw();
    return;
  }
  const onFelt = new Set((previous.trick ?? []).map((play) => play.card.id));
  for (const play of trick.cards) {
    if (!onFelt.has(play.card.id)) announce(eventSentence(previous, { type: "play", ...play }));
  }
  announce(eventSentence(previous, { type: "trick", winner: trick.winner, points: trick.points }));
  showTrick(previous, trick, () => {
    if (end.view === previous) end.view = null;
    draw();
  });
  draw();
}

function draw() {
  const view = state.view;
  if (!view) return;
  document.body.dataset.phase = view.phase;
  document.body.dataset.version = String(state.version);
  const shown = end.view ?? view;
  const trick = state.trick.showing;
  if (hasGame(shown)) {
    renderInfo(shown);
    // While the last trick is fetched nobody is to play on the finished hand's felt.
    renderFelt(end.pending ? { ...shown, to_move: null } : shown, trick);
    if (state.trick.collecting) collectTrick();
  } else {
    fill($("#trick"));
    $("#hand-no").textContent = _("Waiting for players");
  }
  renderRing(shown, () => []);
  $("#status").textContent = hasGame(view) && !end.view ? statusText(view) : "";
  const note = view.host_event ? eventText(view.host_event) : "";
  $("#host-note").textContent = note;
  $("#host-note").hidden = !note;
  renderScores(view);
  // Every seat taken: the join panel steps aside (it comes back when a seat opens).
  const seats = view.seats ?? [];
  const full = seats.length > 0 && seats.every((seat) => seat?.name);
  $("#display-join").hidden = full;
  app.classList.toggle("seats-full", full);
  // Nothing of the next hand is said before the last one's last trick.
  if (!end.pending) announcer.render({ view, screen: "board" });
}

// The running totals, always; between hands (until the next hand's play starts) and at the end
// of the game also the finished hand: its story and each seat's score in it.
function renderScores(view) {
  const result = view.game_over ? (view.result ?? view.last_result) : view.last_result;
  const between = Boolean(result) && !end.view && (view.game_over || view.phase !== "play");
  const number = view.game_over ? (view.hand_number ?? 1) : (view.hand_number ?? 2) - 1;
  const box = $("#display-result");
  box.hidden = !between;
  if (between) {
    fill(
      box,
      h("h3", {}, view.game_over ? _("Game over") : _("Hand {n} is over", { n: number })),
      h("ul", { class: "story" }, ...story(view, result).map((line) => h("li", {}, line))),
    );
  } else fill(box);
  const seats = seatsOf(view);
  const winners = new Set(view.game_over ? (view.winners ?? []) : []);
  fill(
    $("#display-totals"),
    h("caption", { class: "sr-only" }, _("Running totals")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, _("Player")),
        between ? h("th", { scope: "col" }, _("Hand {n}", { n: number })) : null,
        h("th", { scope: "col" }, _("Total")),
      ),
    ),
    h(
      "tbody",
      {},
      ...seats.map((seat) =>
        h(
          "tr",
          { class: winners.has(seat) ? "winner" : "", dataset: { seat } },
          h("th", { scope: "row" }, seatName(view, seat) ?? ""),
          between ? h("td", { dataset: { testid: `display-hand-${seat}` } }, signed(result.total?.[seat] ?? 0)) : null,
          h("td", { dataset: { testid: `display-total-${seat}` } }, String(view.totals?.[seat] ?? 0)),
        ),
      ),
    ),
  );
}

const socket = new TableSocket(state.code, {
  onMessage: (message) => {
    if (message.type === "view") onView(message.view, message.version);
  },
  onStatus: (connected) => ($("#banner").hidden = connected),
  onClose: (code) => {
    if (!Object.hasOwn(ENDED, code)) return false;
    $("#banner").hidden = true;
    $("#display-ended").textContent = ENDED[code]();
    $("#display-ended").hidden = false;
    return true;
  },
});
store.setSocket(socket);
socket.open();
