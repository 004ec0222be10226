// The invite/lobby/table page. It asks the server about the table once, then follows it over the
// table's WebSocket (as a spectator until you take a seat) and redraws on every view: the lobby
// while seats are free, a notice when a newcomer finds every seat taken, then the table.
import {
  collectTrick,
  renderFelt,
  renderInfo,
  renderMe,
  renderPrompt,
  renderRing,
  selecting,
  statusText,
} from "./board.js";
import { $, copyField, fill, h, toast } from "./dom.js";
import { N_, _ } from "./i18n.js";
import { drawLobby, lobbyOptions, lobbySeats, takeSeat, takeable } from "./lobby.js";
import { showLookBack } from "./lookback.js";
import { renderHint } from "./hints.js";
import { TableSocket } from "./net.js";
import { offerPush } from "./push.js";
import { chime, isMuted, setMuted, unlockAudioOnGesture } from "./sound.js";
import { rulesCard } from "./rules.js";
import { fetchSheet, sheetLink, sheetTable, summaryContent } from "./summary.js";
import { onChat, onReaction, startTalk, talkView } from "./talk.js";
import { awayView, startAway } from "./away.js";
import { againView, onNextTable, startAgain } from "./again.js";
import { onUndo, startUndo, undoView, wireUndoButtons } from "./undo.js";

const code = $("#app").dataset.code;
const api = `/api/tables/${encodeURIComponent(code)}`;
const rejoinKey = `mu_rejoin_${code}`;
const overKey = `mu_over_${code}`;
// A won trick stays in the middle this long; it starts moving to its winner after COLLECT_MS.
const TRICK_SHOW_MS = 1400;
const COLLECT_MS = 750;
const baseTitle = document.title;

const ui = {
  info: null,
  view: null,
  socket: null,
  screen: "loading", // "lobby", "full" (every seat held by a person) or "board"
  watching: false, // a visitor who chose to watch rather than take a seat
  joining: false,
  selected: new Set(),
  pending: false,
  showing: null, // a just-won trick kept in the middle for a moment
  collecting: false,
  showTimer: 0,
  collectTimer: 0,
  onCard,
  onBid: () => act({ type: "bid", cards: [...ui.selected] }),
  onPass: () => act({ type: "pass" }),
  onDiscard: () => act({ type: "discard", cards: [...ui.selected] }),
  onTrump: (trump) => act({ type: "trump", trump }),
  onPartner: (seat) => act({ type: "partner", seat }),
  onReason: (reason) => toast(reason),
  hint: null, // the latest beginner hint ({version, action, value, runner_up, worlds})
  hintPending: false,
  onHint: askHint,
};

// What the server's error codes (docs/protocol.md) mean to the player.
const ERROR_TEXT = {
  stale_version: N_("The table changed just before your move. Here is the current state."),
  not_your_turn: N_("It is not your turn."),
  wrong_phase: N_("That is not possible at this moment."),
  too_many_cards: N_("Too many cards for this bid."),
  no_cards: N_("Select at least one card."),
  must_follow_suit: N_("You must follow the led suit."),
  card_not_yours: N_("That card is not yours."),
  trump_not_allowed: N_("That trump is not allowed."),
  partner_not_allowed: N_("You cannot choose that partner."),
  bad_action: N_("The move was not understood."),
  hand_over: N_("The hand is already over."),
  spectator: N_("Spectators can only watch."),
  bad_json: N_("The move was not understood."),
  bad_message: N_("The move was not understood."),
  too_large: N_("The message was too large."),
  discard_not_allowed: N_("Those cards cannot be discarded."),
  not_started: N_("The game starts when every seat is taken."),
  unavailable: N_("The server could not save your move just now. Please try again in a moment."),
  rate_limited: N_("Too many messages at once. Please wait a moment."),
  hints_off: N_("This table plays without hints."),
  chat_empty: N_("Write something first."),
  chat_too_long: N_("That is too long for the chat: at most 200 characters."),
  chat_too_fast: N_("You are talking a lot: please wait a few seconds."),
  nothing_to_undo: N_("That move can no longer be taken back."),
  undo_pending: N_("Another request to take back a move is being decided."),
  no_undo_request: N_("That request is over already."),
};

const TALK = { chat: onChat, reaction: onReaction, next_table: onNextTable, undo: onUndo };

async function fetchInfo() {
  const response = await fetch(api, { cache: "no-store" });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`table info ${response.status}`);
  return response.json();
}

// A personal link carries the seat token in its #fragment, which browsers never send to a server
// or put in a Referer: trade it once for this browser's seat cookie and drop it from the address
// bar and the history.
async function redeemRejoinLink() {
  const token = new URLSearchParams(location.hash.slice(1)).get("rejoin");
  if (!token) return;
  history.replaceState(null, "", location.pathname + location.search);
  const response = await fetch(`${api}/rejoin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }),
  }).catch(() => null);
  if (!response?.ok) toast(_(REJOIN_FAILED), 8000);
}
const REJOIN_FAILED = N_(
  "This personal link does not hold a seat at this table. You can watch or take a free seat.",
);

// Links stored before the token moved out of the path (/t/CODE/rejoin/TOKEN) in the new form.
const rejoinLink = (stored) => stored?.replace(/\/rejoin\/([^/?#]+)$/, "#rejoin=$1") ?? "";

async function start() {
  unlockAudioOnGesture();
  wireTools();
  startTalk({
    code,
    send: (message) => Boolean(ui.socket?.send(message)),
    redraw: redrawRing,
  });
  startAway({ reconnect: () => ui.socket?.reconnectNow(), redraw: redrawRing });
  startAgain({ code });
  // Undo messages carry the version of the view they are about.
  startUndo({
    send: (message) =>
      Boolean(ui.socket?.send({ ...message, version: message.version ?? ui.socket.version })),
  });
  wireUndoButtons();
  await redeemRejoinLink();
  let info;
  try {
    info = await fetchInfo();
  } catch {
    $("#loading").textContent = _("The table could not be loaded. Please reload the page.");
    return;
  }
  if (!info) {
    $("#loading").hidden = true;
    $("#missing").hidden = false;
    return;
  }
  ui.info = info;
  lobbyOptions(info.options);
  fill($("#rules-card"), rulesCard(info.rules));
  // The rules in short are written for one variant (the page says which).
  const short = $("#rules-short");
  short.hidden = info.options?.variant !== short.dataset.variant;
  connect();
  route();
}

// Bubbles and countdowns change between views: only the seats are drawn again.
function redrawRing() {
  if (ui.view && ui.screen === "board") renderRing(ui.view);
}

// ----- which screen: lobby, "this table is full", or the table -----

// Before the first deal the server sends a "waiting" view: the lobby stays up until then.
const hasGame = (view) => Boolean(view?.phase) && view.phase !== "waiting";
const yourSeat = () => (ui.view ? ui.view.seat : ui.info.you) ?? null;

function route() {
  const view = ui.view;
  const seats = lobbySeats(ui.info, view);
  const seated = yourSeat() !== null;
  const status = view?.status ?? ui.info.status;
  const playing = view ? hasGame(view) : status !== "waiting";
  let screen = "lobby";
  if (playing && (seated || ui.watching || status === "over")) screen = "board";
  else if (playing && !seats.some(takeable)) screen = "full";
  // The table needs a view to draw; until the socket's first one the page says it is loading.
  if (screen === "board" && !hasGame(view)) screen = "loading";
  const before = ui.screen;
  ui.screen = screen;
  $("#loading").hidden = screen !== "loading";
  $("#lobby").hidden = screen !== "lobby";
  $("#full").hidden = screen !== "full";
  $("#board").hidden = screen !== "board";
  $("#tools").hidden = screen !== "board";
  if (screen === "lobby") {
    const canJoin = !seated && !ui.watching && seats.some(takeable);
    drawLobby({ info: ui.info, seats, you: yourSeat(), canJoin });
  }
  // The lobby closes when the table is full: start at the top, where the table begins.
  if (screen === "board" && before !== "board") scrollTo(0, 0);
}

// ----- the live table -----

function connect() {
  const socket = new TableSocket(code, {
    onView: (view, version) => socket === ui.socket && onView(view, version),
    onError: (message) => socket === ui.socket && onError(message),
    onHint: (message) => socket === ui.socket && onHint(message),
    onStatus: (connected) => socket === ui.socket && onStatus(connected),
    onRejected: () => socket === ui.socket && onRejected(),
    onGone: () => socket === ui.socket && onGone(),
    onFull: () => socket === ui.socket && onFull(),
    onTalk: (message) => socket === ui.socket && TALK[message.type]?.(message),
  });
  ui.socket = socket;
  socket.open();
  $("#btn-me").hidden = !localStorage.getItem(rejoinKey);
}

async function join(event) {
  event.preventDefault();
  ui.joining = true; // the spectator socket's views would briefly show the table to a watcher
  const joined = await takeSeat(event.target);
  ui.joining = false;
  if (!joined) {
    if (ui.view) route();
    return;
  }
  if (joined.rejoin_url) localStorage.setItem(rejoinKey, new URL(joined.rejoin_url, location.origin).href);
  ui.info = { ...ui.info, you: joined.seat };
  ui.socket.close();
  connect(); // again, now with the seat cookie the server just set
}

function onStatus(connected) {
  $("#banner").hidden = connected;
  document.body.classList.toggle("offline", !connected);
}

function onGone() {
  $("#banner").hidden = true;
  for (const id of ["#loading", "#board", "#lobby", "#full", "#tools"]) $(id).hidden = true;
  $("#missing").hidden = false;
}

// The table has all the spectators it takes (seated players always get in).
function onFull() {
  $("#banner").hidden = true;
  toast(_("This table already has as many spectators as it allows. Please try again later."), 10000);
}

function onRejected() {
  $("#banner").hidden = true;
  toast(
    _(
      "The server refused the connection: this browser's seat is not valid here, or the page was opened under another address.",
    ),
    8000,
  );
}

function askHint() {
  if (ui.hintPending || !ui.socket?.hint()) return;
  ui.hintPending = true;
  draw();
}

function onHint(message) {
  ui.hintPending = false;
  ui.hint = message;
  if (ui.view && ui.screen === "board") draw();
}

function onError(message) {
  // A refused chat line or reaction leaves a move in flight alone.
  if (!/^(chat_|undo_|nothing_to_undo|no_undo)/.test(message.code ?? "")) ui.pending = false;
  ui.hintPending = false;
  toast(
    Object.hasOwn(ERROR_TEXT, message.code)
      ? _(ERROR_TEXT[message.code])
      : _("That did not work: {message}", { message: message.message ?? message.code }),
  );
  if (ui.view && ui.screen === "board") draw();
}

function onView(view, version) {
  if (ui.joining) return;
  const previous = ui.view;
  ui.view = view;
  offerPush(code, api, view.seat !== null && view.seat !== undefined);
  // Exposed for people debugging a table and for the end-to-end tests: which view is on screen.
  document.body.dataset.version = version;
  ui.pending = false;
  talkView(view);
  awayView(view);
  againView(view);
  undoView(view);
  route();
  if (ui.screen !== "board") return;
  if (!selecting(view.prompt) || view.prompt?.type !== previous?.prompt?.type) ui.selected.clear();
  noticeTrickWon(previous, view);
  draw();
  noticeTurn(previous, view);
  noticeHandOver(previous, view);
}

function draw() {
  const view = ui.view;
  const focus = focusedControl();
  document.body.dataset.phase = view.phase;
  renderInfo(view);
  renderRing(view);
  renderFelt(view, ui.showing);
  if (ui.collecting) collectTrick();
  renderPrompt(view, ui);
  renderHint(view, ui);
  renderMe(view, ui);
  $("#status").textContent = statusText(view);
  $("#felt-tools").hidden = !view.game_over;
  restoreFocus(focus);
}

// Redrawing replaces the buttons. A keyboard player keeps their place: the same card or
// button again, or else the first usable card of the hand.
function focusedControl() {
  const el = document.activeElement;
  if (!el || !(el.closest("#me") || el.closest("#prompt"))) return null;
  return { cardId: el.dataset.cardId, testid: el.dataset.testid };
}

function restoreFocus(focus) {
  if (!focus) return;
  const target =
    (focus.cardId && $(`#me [data-card-id="${focus.cardId}"]`)) ||
    (focus.testid && $(`#prompt [data-testid="${focus.testid}"]:not(:disabled)`)) ||
    $('#me button.card[data-legal="true"]') ||
    $("#prompt button:not(:disabled)") ||
    $("#me button.card");
  target?.focus();
}

// A trick that has just been completed stays in the middle for a moment, its winner lit up,
// then slides over to the winner's seat.
function noticeTrickWon(previous, view) {
  if (view.trick?.length) {
    // The next trick has begun: its first card matters more than the last one's glory.
    stopShowing();
    return;
  }
  const before = JSON.stringify(previous?.last_trick ?? null);
  if (!previous || !view.last_trick || before === JSON.stringify(view.last_trick)) return;
  stopShowing();
  ui.showing = view.last_trick;
  ui.collectTimer = setTimeout(() => {
    ui.collecting = true;
    collectTrick();
  }, COLLECT_MS);
  ui.showTimer = setTimeout(() => {
    stopShowing();
    if (ui.view && ui.screen === "board") renderFelt(ui.view);
  }, TRICK_SHOW_MS);
}

function stopShowing() {
  clearTimeout(ui.showTimer);
  clearTimeout(ui.collectTimer);
  ui.showing = null;
  ui.collecting = false;
}

const myTurn = (view) =>
  Boolean(view?.prompt) && view.seat !== null && view.seat !== undefined && view.to_move === view.seat;

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
// stays in the view (`last_result`). Its summary opens for the seats that played it, at the
// moment it ends: never for spectators, never on a page opened or reloaded in the next hand.
// The end of the game (standings) is shown to everyone, once per tab.
function noticeHandOver(previous, view) {
  if (view.game_over) {
    if (previous?.game_over || (!previous && sessionStorage.getItem(overKey))) return;
    sessionStorage.setItem(overKey, "1");
    openSummary(view);
    return;
  }
  const seated = view.seat !== null && view.seat !== undefined;
  if (!seated || !view.last_result || !hasGame(previous)) return;
  if (previous.hand_number !== view.hand_number) openSummary(view);
}

function openSummary(view) {
  $("#toast").hidden = true;
  const dialog = $("#summary");
  const body = $(".dialog-body", dialog);
  fill(body, ...summaryContent(view, code));
  dialog.dataset.kind = view.game_over ? "game-end" : "hand";
  $("[data-testid=summary-close]", dialog).textContent = view.game_over ? _("Close") : _("Continue");
  if (!dialog.open) dialog.showModal();
  fillSheet($(".sheet-slot", body), view);
}

async function fillSheet(slot, view) {
  const sheet = await fetchSheet(code).catch(() => null);
  fill(slot, sheet ? sheetTable(view, sheet) : _("The score sheet could not be loaded."));
}

function act(action) {
  if (ui.pending) return;
  if (!ui.socket?.act(action)) {
    toast(_("Not connected right now. Your move was not sent."));
    return;
  }
  ui.pending = true;
  ui.selected.clear();
  draw();
}

function onCard(card, place) {
  const prompt = ui.view?.prompt;
  if (prompt?.type === "play") {
    act({ type: "play", card: card.id });
    return;
  }
  if (selecting(prompt) && place === "hand") {
    if (ui.selected.has(card.id)) ui.selected.delete(card.id);
    else ui.selected.add(card.id);
    draw();
  }
}

// ----- header tools: look back, score sheet, sound, personal link, help -----

function watch() {
  ui.watching = true;
  route();
  if (ui.screen === "board") draw();
}

function wireTools() {
  $("#join").addEventListener("submit", join);
  $("#spectate").addEventListener("click", watch);
  $("#watch").addEventListener("click", watch);
  $("#copy-invite").addEventListener("click", (e) => copyField($("#invite-url"), e.target, _("Copied")));
  $("#copy-rejoin").addEventListener("click", (e) => copyField($("#rejoin-url"), e.target, _("Copied")));
  $("#btn-look").addEventListener("click", () => ui.view && showLookBack(ui.view));
  $("#btn-sheet").addEventListener("click", showSheet);
  $("#btn-standings").addEventListener("click", () => ui.view && openSummary(ui.view));
  $("#btn-help").addEventListener("click", () => $("#help").showModal());
  $("#btn-rules").addEventListener("click", () => $("#help").showModal());
  $("#btn-me").addEventListener("click", () => {
    $("#rejoin-url").value = rejoinLink(localStorage.getItem(rejoinKey));
    $("#mylink").showModal();
  });
  const sound = $("#btn-sound");
  sound.title = _("A soft sound when it is your turn");
  const label = () => {
    sound.textContent = isMuted() ? _("♪ off") : _("♪ on");
    sound.setAttribute("aria-pressed", String(!isMuted()));
  };
  sound.addEventListener("click", () => {
    setMuted(!isMuted());
    label();
  });
  label();
}

async function showSheet() {
  const body = $("#sheet .dialog-body");
  const slot = h("div", { class: "sheet-slot" }, _("Loading…"));
  fill(body, h("h2", {}, _("Score sheet")), slot, sheetLink(code));
  $("#sheet").showModal();
  if (ui.view) fillSheet(slot, ui.view);
}

start();
