// Drop-outs: a person whose connection is lost shows as away, with a countdown to the moment a
// bot takes over their seat (the server sends that time in the view: `takeover_at`); then the
// seat says "bot playing" until they are back. Your own page, when its connection is lost, offers
// "I'm back" to reconnect at once; reconnecting is all it takes to play again yourself.
//
// Your own line: the socket listens closely while your move is awaited or on its way, so a
// network that dies then is noticed within seconds (net.js); its loss and its return are said
// to a screen reader (the banner in sight is table.js's).
import { announce } from "./announce.js";
import { $, h } from "./dom.js";
import { _ } from "./i18n.js";
import { seatName } from "./names.js";
import { isSeated, state } from "./state.js";

// The feature (docs/client.md, "Features"). `page`: {reconnect(), redrawSeats()}.
export function awayFeature(page) {
  $("#btn-back").addEventListener("click", page.reconnect);
  return {
    name: "away",
    render: (current) => {
      tickWhileCounting(page, current);
      watchLine(current);
    },
    seatExtra: countdownAt,
  };
}

// Seconds left before the bot takes over `seat`, or null (no countdown).
function secondsLeft(view, seat) {
  const at = view.seats?.[seat]?.takeover_at;
  if (at === null || at === undefined) return null;
  return Math.max(0, Math.ceil(at - Date.now() / 1000));
}

const counting = (view) => Boolean(view) && (view.seats ?? []).some((_seat, i) => secondsLeft(view, i) !== null);

// A countdown on screen is redrawn every second while one runs (state.away.ticker).
function tickWhileCounting(page, { view }) {
  const away = state.away;
  if (!counting(view) || away.ticker) return;
  away.ticker = setInterval(() => {
    if (!counting(state.view)) {
      clearInterval(away.ticker);
      away.ticker = 0;
      return;
    }
    page.redrawSeats();
  }, 1000);
}

const yourMove = (view) =>
  Boolean(view?.prompt) && isSeated(view) && view.to_move === view.seat && !view.game_over;

function watchLine({ view }) {
  const { socket } = state;
  if (!socket) return;
  if (socket !== state.away.socket) {
    state.away.socket = socket;
    socket.addEventListener("status", ({ detail }) => sayLine(detail.connected));
  }
  socket.watchClosely(yourMove(view) || state.pending);
}

function sayLine(connected) {
  const away = state.away;
  if (connected && away.lost) announce(_("Connected again."));
  if (!connected) announce(_("Connection lost. Reconnecting…"));
  away.lost = !connected;
}

function countdownAt({ view }, seat) {
  const left = secondsLeft(view, seat);
  if (left === null) return null;
  const turn = view.to_move === seat && !view.game_over;
  const text = left > 0 ? _("away · bot in {s} s", { s: left }) : _("away · bot takes over");
  return h(
    "span",
    {
      "class": `badge b-away${turn ? " b-away-turn" : ""}`,
      "title": _("{name} lost the connection. A bot plays for them if they are not back in time.", {
        name: seatName(view, seat),
      }),
      "dataset": { testid: `away-${seat}` },
    },
    text,
  );
}
