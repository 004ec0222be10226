// The invite/lobby/table page. It asks the server who sits where, lets a newcomer take a seat
// or watch, then follows the table over the WebSocket and redraws on every view.
import {
  botLevelName,
  renderCenter,
  renderInfo,
  renderMe,
  renderOthers,
  renderPrompt,
  seatName,
  seatNumber,
  selecting,
  statusText,
} from "./board.js";
import { $, copyField, fill, h, toast } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";
import { TableSocket } from "./net.js";
import { chime, isMuted, setMuted, unlockAudioOnGesture } from "./sound.js";
import { rulesCard } from "./rules.js";
import { fetchSheet, sheetLink, sheetTable, summaryContent } from "./summary.js";

const code = $("#app").dataset.code;
const api = `/api/tables/${encodeURIComponent(code)}`;
const rejoinKey = `mu_rejoin_${code}`;
const seenKey = `mu_seen_${code}`;
const TRICK_SHOW_MS = 1400;
const baseTitle = document.title;

const ui = {
  info: null,
  view: null,
  socket: null,
  selected: new Set(),
  pending: false,
  showing: null, // a just-won trick kept in the middle for a moment
  showTimer: 0,
  lobbyTimer: 0,
  onCard,
  onBid: () => act({ type: "bid", cards: [...ui.selected] }),
  onPass: () => act({ type: "pass" }),
  onDiscard: () => act({ type: "discard", cards: [...ui.selected] }),
  onTrump: (trump) => act({ type: "trump", trump }),
  onPartner: (seat) => act({ type: "partner", seat }),
  onReason: (reason) => toast(reason),
};

async function fetchInfo() {
  const response = await fetch(api, { cache: "no-store" });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`table info ${response.status}`);
  return response.json();
}

const seated = (info) => info.you !== null && info.you !== undefined;
const freeSeats = (info) => info.seats.map((s, i) => (s.occupied ? null : i)).filter((i) => i !== null);
// A person may take a free seat or a bot's (the bot leaves from the next action on).
const takeable = (seat) => !seat.occupied || seat.bot;
const joinableSeats = (info) => info.seats.map((s, i) => (takeable(s) ? i : null)).filter((i) => i !== null);
const BOT_LEVELS = ["random", "heuristic", "search"];
const DEFAULT_BOT_LEVEL = "heuristic";
const VARIANT_NAME = { classic: N_("classic rules"), revised: N_("revised edition") };
const SEAT_TAKEN = N_("That seat was just taken. Pick another one.");
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
};

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
  if (!response?.ok) toast(_("This personal link does not hold a seat at this table. You can watch or take a free seat."), 8000);
}

// Links stored before the token moved out of the path (/t/CODE/rejoin/TOKEN) in the new form.
const rejoinLink = (stored) => stored?.replace(/\/rejoin\/([^/?#]+)$/, "#rejoin=$1") ?? "";

async function start() {
  unlockAudioOnGesture();
  wireTools();
  await redeemRejoinLink();
  let info;
  try {
    info = await fetchInfo();
  } catch {
    $("#loading").textContent = _("The table could not be loaded. Please reload the page.");
    return;
  }
  $("#loading").hidden = true;
  if (!info) {
    $("#missing").hidden = false;
    return;
  }
  ui.info = info;
  fill($("#rules-card"), rulesCard(info.rules));
  $("#rules-classic").hidden = info.options?.variant !== "classic";
  if (seated(info) || !joinableSeats(info).length) connect();
  else showLobby();
}

// ----- lobby: invite link, seat picker, who is already here -----

function showLobby() {
  const info = ui.info;
  $("#lobby").hidden = false;
  $("#invite-url").value = `${location.origin}/t/${code}`;
  $("#lobby-options").textContent = optionsText(info.options ?? {});
  const canJoin = !seated(info) && joinableSeats(info).length > 0 && !ui.socket;
  $("#join").hidden = !canJoin;
  $("#waiting").hidden = canJoin;
  if (canJoin) drawSeatPicker(info);
  else drawSeatList(info);
  drawBotSeats(info);
  clearTimeout(ui.lobbyTimer);
  ui.lobbyTimer = setTimeout(refreshLobby, 2000);
}

async function refreshLobby() {
  if ($("#lobby").hidden) return;
  const info = await fetchInfo().catch(() => null);
  if (!info) {
    ui.lobbyTimer = setTimeout(refreshLobby, 2000);
    return;
  }
  const picked = $("#seat-picker input:checked")?.value;
  const levels = Object.fromEntries([...document.querySelectorAll("#bot-seats select")].map((s) => [s.name, s.value]));
  ui.info = info;
  showLobby();
  const again = picked && $(`#seat-picker input[value="${picked}"]:not(:disabled)`);
  if (again) again.checked = true;
  for (const [name, value] of Object.entries(levels)) {
    const select = $(`#bot-seats select[name="${name}"]`);
    if (select) select.value = value;
  }
}

function optionsText(options) {
  return [
    ngettext("{n} player", "{n} players", options.players ?? "?"),
    _(VARIANT_NAME[options.variant] ?? VARIANT_NAME.classic),
    options.hands
      ? ngettext("{n} hand", "{n} hands", options.hands)
      : ngettext("to {n} point", "to {n} points", options.target_score ?? 200),
  ].join(" · ");
}

// What a seat shows in the lobby: free, a person's name, or a bot (with its level).
function seatLabel(seat) {
  if (!seat.occupied) return _("free");
  if (!seat.bot) return seat.name;
  return seat.name + " · " + _("Bot · {level}", { level: botLevelName(seat.bot_level) });
}

function drawSeatPicker(info) {
  // Prefer a free seat; a bot's seat is offered too, but taken only when chosen or no other.
  const first = freeSeats(info)[0] ?? joinableSeats(info)[0];
  fill(
    $("#seat-picker"),
    ...info.seats.map((seat, i) =>
      h(
        "label",
        { class: `seat-choice${takeable(seat) ? "" : " taken"}${seat.bot ? " bot" : ""}` },
        h("input", {
          type: "radio",
          name: "seat",
          value: i,
          disabled: !takeable(seat),
          checked: i === first,
          dataset: { testid: `seat-choice-${i}` },
        }),
        h("span", {}, seatNumber(i)),
        h(
          "small",
          {},
          seat.bot
            ? _("{name}, bot ({level}): take over", { name: seat.name, level: botLevelName(seat.bot_level) })
            : seatLabel(seat),
        ),
      ),
    ),
  );
}

// The creator (who holds the host cookie) may put a bot into every empty seat.
function drawBotSeats(info) {
  const free = freeSeats(info);
  const box = $("#host-bots");
  box.hidden = !info.host || !free.length;
  if (box.hidden) return;
  fill(
    $("#bot-seats"),
    ...free.map((i) =>
      h(
        "li",
        { dataset: { testid: `bot-seat-${i}` } },
        h("b", {}, seatNumber(i)),
        h(
          "select",
          {
            "name": `level-${i}`,
            "aria-label": _("Level for seat {n}", { n: i + 1 }),
            "dataset": { testid: `bot-level-${i}` },
          },
          ...BOT_LEVELS.map((level) =>
            h("option", { value: level, selected: level === DEFAULT_BOT_LEVEL }, botLevelName(level)),
          ),
        ),
        h(
          "button",
          { type: "button", dataset: { testid: `add-bot-${i}` }, onclick: (event) => addBot(i, event.target) },
          _("Add bot"),
        ),
      ),
    ),
  );
}

async function addBot(seat, button) {
  const level = $(`#bot-seats select[name="level-${seat}"]`)?.value ?? DEFAULT_BOT_LEVEL;
  button.disabled = true;
  const response = await fetch(`${api}/bots`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, level }),
  }).catch(() => null);
  if (!response?.ok) {
    toast(response?.status === 409 ? _(SEAT_TAKEN) : _("The bot could not be seated. Try again."));
    button.disabled = false;
  }
  refreshLobby();
}

function drawSeatList(info) {
  fill(
    $("#seat-list"),
    ...info.seats.map((seat, i) =>
      h(
        "li",
        { class: seat.occupied ? "" : "free" },
        h("b", {}, seatNumber(i)),
        " ",
        seatLabel(seat),
        info.you === i ? " (" + _("you") + ")" : "",
      ),
    ),
  );
}

// What a refused seat request means to the person joining, by HTTP status.
const JOIN_ERRORS = {
  409: SEAT_TAKEN,
  422: N_("Please enter a name of 1 to 24 letters."),
  429: N_("Too many requests from your connection. Please wait a minute and try again."),
};
const JOIN_FAILED = N_("Could not take the seat. Please try again.");

async function join(event) {
  event.preventDefault();
  const form = event.target;
  const error = $(".form-error", form);
  const name = form.name.value.trim();
  const seat = form.seat?.value;
  error.hidden = true;
  const body = { name, ...(seat !== undefined && seat !== "" ? { seat: Number(seat) } : {}) };
  const response = await fetch(`${api}/seats`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    error.textContent = _(JOIN_ERRORS[response.status] ?? JOIN_FAILED);
    error.hidden = false;
    if (response.status === 409) refreshLobby();
    return;
  }
  const joined = await response.json();
  if (joined.rejoin_url) localStorage.setItem(rejoinKey, new URL(joined.rejoin_url, location.origin).href);
  ui.info = { ...ui.info, you: joined.seat };
  connect();
}

// ----- the live table -----

function connect() {
  ui.socket = new TableSocket(code, { onView, onError, onStatus, onRejected, onGone, onFull });
  ui.socket.open();
  $("#btn-me").hidden = !localStorage.getItem(rejoinKey);
  if (!hasGame(ui.view)) showLobby();
}

// Before the first deal the server sends a "waiting" view: the lobby stays up until then.
const hasGame = (view) => Boolean(view?.phase) && view.phase !== "waiting";

function onStatus(connected) {
  $("#banner").hidden = connected;
  document.body.classList.toggle("offline", !connected);
}

function onGone() {
  $("#banner").hidden = true;
  $("#board").hidden = true;
  $("#lobby").hidden = true;
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

function onError(message) {
  ui.pending = false;
  toast(
    Object.hasOwn(ERROR_TEXT, message.code)
      ? _(ERROR_TEXT[message.code])
      : _("That did not work: {message}", { message: message.message ?? message.code }),
  );
  if (ui.view) draw();
}

function onView(view, version) {
  const previous = ui.view;
  ui.view = view;
  // Exposed for people debugging a table and for the end-to-end tests: which view is on screen.
  document.body.dataset.version = version;
  ui.pending = false;
  if (!hasGame(view)) {
    showLobby();
    return;
  }
  if (!$("#lobby").hidden) {
    $("#lobby").hidden = true;
    clearTimeout(ui.lobbyTimer);
  }
  $("#board").hidden = false;
  $("#tools").hidden = false;
  if (!selecting(view.prompt) || view.prompt?.type !== previous?.prompt?.type) ui.selected.clear();
  noticeTrickWon(previous, view);
  draw();
  noticeTurn(previous, view);
  noticeHandOver(view);
}

function draw() {
  const view = ui.view;
  const focus = focusedControl();
  document.body.dataset.phase = view.phase;
  renderInfo(view);
  renderOthers(view);
  // Only the table's own trick flies off to its winner; the review dialog keeps it still.
  renderCenter(view, ui.showing, $("#trick"), Boolean(ui.showing));
  renderPrompt(view, ui);
  renderMe(view, ui);
  $("#status").textContent = statusText(view);
  $("#btn-last").disabled = !view.last_trick;
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

// A trick that has just been completed stays in the middle for a moment, its winner lit up.
function noticeTrickWon(previous, view) {
  if (view.trick?.length) {
    // The next trick has begun: its first card matters more than the last one's glory.
    clearTimeout(ui.showTimer);
    ui.showing = null;
    return;
  }
  const before = JSON.stringify(previous?.last_trick ?? null);
  if (!previous || !view.last_trick || before === JSON.stringify(view.last_trick)) return;
  ui.showing = view.last_trick;
  clearTimeout(ui.showTimer);
  ui.showTimer = setTimeout(() => {
    ui.showing = null;
    if (ui.view) renderCenter(ui.view);
  }, TRICK_SHOW_MS);
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

// After each hand the server deals the next one at once; the previous result stays in the view,
// so the summary is shown once per hand (remembered across reloads of this tab).
function noticeHandOver(view) {
  const key = view.game_over ? "over" : String(view.hand_number);
  if (!view.last_result && !view.game_over) return;
  if (sessionStorage.getItem(seenKey) === key) return;
  sessionStorage.setItem(seenKey, key);
  openSummary(view);
}

async function openSummary(view) {
  $("#toast").hidden = true;
  const dialog = $("#summary");
  const body = $(".dialog-body", dialog);
  fill(body, ...summaryContent(view, code));
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

// ----- header tools: last trick, score sheet, sound, personal link -----

function wireTools() {
  $("#join").addEventListener("submit", join);
  $("#spectate").addEventListener("click", () => connect());
  $("#copy-invite").addEventListener("click", (e) => copyField($("#invite-url"), e.target, _("Copied")));
  $("#copy-rejoin").addEventListener("click", (e) => copyField($("#rejoin-url"), e.target, _("Copied")));
  $("#btn-last").addEventListener("click", showLastTrick);
  $("#btn-sheet").addEventListener("click", showSheet);
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

function showLastTrick() {
  const view = ui.view;
  const last = view?.last_trick;
  if (!last) return;
  const body = $("#lasttrick .dialog-body");
  const trick = h("div", { class: "trick won" });
  fill(
    body,
    h("h2", {}, _("Last trick")),
    trick,
    h(
      "p",
      {},
      ngettext("{name} won it ({points} point).", "{name} won it ({points} points).", last.points, {
        name: seatName(view, last.winner),
        points: last.points,
      }),
    ),
  );
  renderCenter(view, last, trick);
  $("#lasttrick").showModal();
}

async function showSheet() {
  const body = $("#sheet .dialog-body");
  const slot = h("div", { class: "sheet-slot" }, _("Loading…"));
  fill(body, h("h2", {}, _("Score sheet")), slot, sheetLink(code));
  $("#sheet").showModal();
  if (ui.view) fillSheet(slot, ui.view);
}

start();
