// The invite/lobby/table page. It asks the server about the table once, then follows it over the
// table's WebSocket (as a spectator until you take a seat) and redraws on every view: the lobby
// while seats are free, a notice when a newcomer finds every seat taken, then the table.
//
// The page's state is one object (state.js); every server message goes through one router
// (router.js) to the page's handlers below or to a feature's; the features are listed once here.
import { againFeature } from "./again.js";
import { announceFeature } from "./announce.js";
import { awayFeature } from "./away.js";
import { clickCard, drawBoard } from "./board.js";
import { promptControls } from "./controls.js";
import { $, fill, toast } from "./dom.js";
import { aboutMoves, errorText } from "./errors.js";
import { afterTrickShown, noticeTrickWon, renderFelt, showTrick } from "./felt.js";
import { fetchFonts } from "./fonts.js";
import { selecting } from "./hand.js";
import { hintsFeature } from "./hints.js";
import { keysFeature } from "./keys.js";
import { HOST_CLOSES, hostFeature } from "./host.js";
import { N_, _ } from "./i18n.js";
import { drawLobby, lobbySeats, takeSeat, takeable } from "./lobby.js";
import { logFeature } from "./log.js";
import { finishedHand, lookBackFeature } from "./lookback.js";
import { TableSocket } from "./net.js";
import { CLOSE } from "./protocol.js";
import { pauseFeature } from "./pause.js";
import { pushFeature } from "./push.js";
import { messageRouter } from "./router.js";
import { rulesCard } from "./rules.js";
import { renderRing } from "./seats.js";
import { chime } from "./sound.js";
import * as store from "./state.js";
import { hasGame, isSeated, state, yourSeat } from "./state.js";
import { srModeFeature } from "./srmode.js";
import { openSummary, wireTools } from "./tools.js";
import { talkFeature } from "./talk.js";
import { undoFeature } from "./undo.js";

const rejoinKey = () => `mu_rejoin_${state.code}`;
const overKey = () => `mu_over_${state.code}`;
const baseTitle = document.title;

// What the features may ask of the page.
const send = (message) => Boolean(state.socket?.send(message));
const page = {
  send,
  redraw: () => onBoard() && draw(),
  redrawSeats: () => onBoard() && renderRing(state.view, seatExtras),
  reconnect: () => state.socket?.reconnectNow(),
  act: (action) => act(action),
};

store.openPage($("#app").dataset.code);

// Every feature, in one list (docs/client.md, "Features"): {name, onMessage, render, seatExtra}.
const features = [
  logFeature(page), // before talk: a docked log is open when talk draws its lines
  talkFeature(page),
  awayFeature(page),
  againFeature(page),
  undoFeature(page),
  pauseFeature(page),
  hintsFeature(page),
  lookBackFeature(page),
  pushFeature(page),
  announceFeature(page),
  keysFeature(page),
  srModeFeature(page),
  hostFeature(page),
];
const seatExtras = (seat) => features.map((feature) => feature.seatExtra?.(state, seat) ?? null);
const renderFeatures = () => features.forEach((feature) => feature.render?.(state));

const controls = promptControls(act, { onCard, onReason: (reason) => toast(reason) });

// The page preloads the info (templates/table.html), so the first fetch takes that answer; after
// a rejoin link was redeemed it is asked again: the seat cookie changes who "you" are.
async function fetchInfo(fresh) {
  const response = await fetch(state.api, fresh ? { cache: "no-store" } : {});
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`table info ${response.status}`);
  return response.json();
}

// A personal link carries the seat token in its #fragment, which browsers never send to a server
// or put in a Referer: trade it once for this browser's seat cookie and drop it from the address
// bar and the history.
async function redeemRejoinLink() {
  const token = new URLSearchParams(location.hash.slice(1)).get("rejoin");
  if (!token) return false;
  history.replaceState(null, "", location.pathname + location.search);
  const response = await fetch(`${state.api}/rejoin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }),
  }).catch(() => null);
  if (!response?.ok) toast(_(REJOIN_FAILED), 8000);
  return true;
}
const REJOIN_FAILED = N_(
  "This personal link does not hold a seat at this table. You can watch or take a free seat.",
);

async function start() {
  wireTools({ join, watch });
  const redeemed = await redeemRejoinLink();
  // The socket opens while the info is on its way, a round trip saved: what it says before the
  // info is there waits for it (beforeInfo).
  connect();
  let info;
  try {
    info = await fetchInfo(redeemed);
  } catch {
    state.socket.close();
    $("#loading").textContent = _("The table could not be loaded. Please reload the page.");
    return;
  }
  if (!info) {
    state.socket.close();
    $("#loading").hidden = true;
    $("#missing").hidden = false;
    return;
  }
  store.setInfo(info);
  fill($("#rules-card"), rulesCard(info.rules));
  // The rules in short are written for one variant (the page says which).
  const short = $("#rules-short");
  short.hidden = info.options?.variant !== short.dataset.variant;
  route();
  beforeInfo.splice(0).forEach((deliver) => deliver());
}

// The socket's messages that came before the table's info, in order (start delivers them).
const beforeInfo = [];

const onBoard = () => Boolean(state.view) && state.screen === "board";

// ----- which screen: lobby, "this table is full", or the table -----

function route() {
  const view = state.view;
  const seats = lobbySeats(state.info, view);
  const seated = yourSeat() !== null;
  const status = view?.status ?? state.info.status;
  const playing = view ? hasGame(view) : status !== "waiting";
  let screen = "lobby";
  if (playing && (seated || state.watching || status === "over")) screen = "board";
  else if (playing && !seats.some(takeable)) screen = "full";
  // The table needs a view to draw; until the socket's first one the page says it is loading.
  if (screen === "board" && !hasGame(view)) screen = "loading";
  const before = store.setScreen(screen);
  $("#loading").hidden = screen !== "loading";
  $("#lobby").hidden = screen !== "lobby";
  $("#full").hidden = screen !== "full";
  $("#board").hidden = screen !== "board";
  $("#tools").hidden = screen !== "board";
  if (screen === "lobby") {
    const canJoin = !seated && !state.watching && seats.some(takeable);
    drawLobby({ info: state.info, seats, you: yourSeat(), canJoin });
  }
  // The lobby closes when the table is full: start at the top, where the table begins.
  if (screen === "board" && before !== "board") scrollTo(0, 0);
}

// While your seat request is on its way the lobby stays up (a spectator's view would show the
// table, or "table is full", for a moment), but it follows every view: the seat picker shows
// who took which seat, so a refused request finds the picker up to date.
function drawJoining() {
  if (state.screen !== "lobby") return;
  const seats = lobbySeats(state.info, state.view);
  drawLobby({ info: state.info, seats, you: null, canJoin: true });
}

// ----- the live table -----

// The page's own messages; the features add theirs (router.js).
const OWN_MESSAGES = { view: onView, error: onError, pong: () => {} };

// Close codes after which reconnecting would not help.
const FINAL_CLOSE = {
  [CLOSE.BAD_TOKEN]: onRejected,
  [CLOSE.UNKNOWN_TABLE]: onGone,
  [CLOSE.SPECTATORS_FULL]: onFull,
  ...HOST_CLOSES,
};

function connect() {
  const dispatch = messageRouter(OWN_MESSAGES, features);
  const socket = new TableSocket(state.code, {
    onMessage: (message) => {
      if (socket !== state.socket) return;
      if (state.info) dispatch(message);
      else beforeInfo.push(() => socket === state.socket && dispatch(message));
    },
    onStatus: (connected) => socket === state.socket && onStatus(connected),
    onClose: (code) => {
      if (socket !== state.socket || !Object.hasOwn(FINAL_CLOSE, code)) return false;
      $("#banner").hidden = true;
      FINAL_CLOSE[code]();
      return true;
    },
  });
  store.setSocket(socket);
  socket.open();
  $("#btn-me").hidden = !localStorage.getItem(rejoinKey());
}

async function join(event) {
  event.preventDefault();
  const joined = await takeSeat(event.target);
  if (!joined) {
    if (state.view) route();
    return;
  }
  if (joined.rejoin_url) localStorage.setItem(rejoinKey(), new URL(joined.rejoin_url, location.origin).href);
  state.socket.close();
  connect(); // again, now with the seat cookie the server just set
}

function onStatus(connected) {
  $("#banner").hidden = connected;
  document.body.classList.toggle("offline", !connected);
}

function onGone() {
  for (const id of ["#loading", "#board", "#lobby", "#full", "#tools"]) $(id).hidden = true;
  $("#missing").hidden = false;
}

// The table has all the spectators it takes (seated players always get in).
function onFull() {
  toast(_("This table already has as many spectators as it allows. Please try again later."), 10000);
}

function onRejected() {
  toast(
    _(
      "The server refused the connection: this browser's seat is not valid here, or the page was opened under another address.",
    ),
    8000,
  );
}

function onError(message) {
  // A refused chat line or reaction leaves a move in flight alone.
  if (aboutMoves(message.code ?? "")) store.setPending(false);
  store.setHintPending(false);
  toast(errorText(message));
  if (onBoard()) draw();
}

function onView({ view, version }) {
  const previous = store.applyView(view, version);
  // Exposed for people debugging a table and for the end-to-end tests: which view is on screen.
  document.body.dataset.version = version;
  if (state.joining) {
    drawJoining();
    return;
  }
  route();
  if (state.screen !== "board") {
    renderFeatures();
    return;
  }
  if (!selecting(view.prompt) || view.prompt?.type !== previous?.prompt?.type) store.clearSelected();
  noticeTrickWon(previous, view, redrawFelt);
  draw();
  noticeTurn(previous, view);
  noticeHandOver(previous, view);
}

const redrawFelt = () => onBoard() && renderFelt(state.view, state.trick.showing);

function draw() {
  drawBoard(controls, seatExtras);
  renderFeatures();
}

const myTurn = (view) => Boolean(view?.prompt) && isSeated(view) && view.to_move === view.seat;

function noticeTurn(previous, view) {
  const mine = myTurn(view);
  document.title = mine ? "▶ " + _("Your turn") + " · " + baseTitle : baseTitle;
  document.body.classList.toggle("my-turn", mine);
  if (mine && !myTurn(previous)) {
    chime();
    // On a phone the controls or the hand may be scrolled away: bring them into view.
    const target = $("#prompt").hidden ? $("#me .hand") : $("#prompt");
    target?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
}

// The server deals the next hand in the same change that ends one; the finished hand's result
// stays in the view (`last_result`), its last trick does not: the page fetches the hand and
// shows that trick on the felt like any other (felt.js). Then the summary opens for the seats
// that played it: never for spectators, never on a page opened or reloaded in the next hand.
// The end of the game (standings) is shown to everyone, once per tab, after its last trick.
function noticeHandOver(previous, view) {
  if (view.game_over) {
    if (previous?.game_over || (!previous && sessionStorage.getItem(overKey()))) return;
    sessionStorage.setItem(overKey(), "1");
    afterTrickShown(() => openSummary(view));
    return;
  }
  if (!hasGame(previous) || previous.hand_number === view.hand_number) return;
  const summary = isSeated(view) && Boolean(view.last_result);
  showLastTrick(previous, view).then(() => summary && afterTrickShown(() => openSummary(view)));
}

// A hand ended in the auction (everybody passed, a stalemate) has no trick to show.
async function showLastTrick(previous, view) {
  if (previous.phase !== "play") return;
  const last = (await finishedHand(state.code, previous.hand_number))?.tricks?.at(-1);
  if (!last || state.view?.hand_number !== view.hand_number) return;
  showTrick(view, last, redrawFelt, { speak: true });
  redrawFelt();
}

// Whether the action went out (the screen-reader mode's command line says so).
function act(action) {
  if (state.pending) return false;
  if (state.version === null || !send({ type: "action", version: state.version, action })) {
    toast(_("Not connected right now. Your move was not sent."));
    return false;
  }
  store.setPending(true);
  store.clearSelected();
  draw();
  return true;
}

function onCard(card, place) {
  clickCard(card, place, act, draw);
}

function watch() {
  store.watch();
  route();
  if (state.screen === "board") draw();
}

// The typeface's files, fetched for the next visit once the page is usable (static/js/fonts.js).
start().finally(fetchFonts);
