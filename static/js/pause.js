// Pause by consent, holidays and the table's say on a friend who dropped out (docs/protocol.md,
// `pause_ask`, the view's `pause`). At a live table "Pause" (under the hand) asks everyone
// present; they answer in the bar above the prompt; once all agreed the table is paused (nobody
// can act, bots and takeover clocks stand still) until anyone resumes. At a correspondence table
// a player sets "away until" (a holiday): their reminders wait, and everyone sees until when. At a
// table that asks the people present when someone drops out, the bar asks them: a bot now, or
// wait. The server decides everything; this only shows it and sends the answers.
//
// While paused the felt's status line and your prompt say so, your cards cannot be played, the
// focus goes to "Resume" (and back to your hand once resumed), and every pause event is told:
// in the live log (log.js asks `pauseStory`), to the screen reader (announce.js), and a refusal
// or a resume as a toast.
import { announce } from "./announce.js";
import { $, dialogOpen, fill, h, toast } from "./dom.js";
import { handLog } from "./events.js";
import { _, lang } from "./i18n.js";
import { seatName, seatNames } from "./names.js";
import { isSeated, state } from "./state.js";

// This feature's slice of the state (state.js): `state.pause`.
const slice = state.pause;

// The feature (docs/client.md, "Features"). `page`: {send(message) -> whether it went out}.
export function pauseFeature(page) {
  $("#btn-pause").addEventListener("click", () => send(page, { type: "pause_ask" }));
  $("#pause").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-send]");
    if (button) send(page, JSON.parse(button.dataset.send));
  });
  $("#pause").addEventListener("submit", (event) => {
    event.preventDefault();
    const day = event.target.elements.until.value; // yyyy-mm-dd: away until that day begins
    const until = day ? new Date(`${day}T00:00`).getTime() / 1000 : NaN;
    if (Number.isFinite(until)) send(page, { type: "holiday", until });
  });
  return { name: "pause", render: pauseView };
}

function send(page, message) {
  if (!page.send(message)) toast(_("Not connected right now."));
}

const live = () => (state.info?.options?.pace ?? "live") === "live";
const now = () => Date.now() / 1000;
const who = (view, seat) => seatName(view, seat);
const names = seatNames;
const day = (until) =>
  new Date(until * 1000).toLocaleDateString(lang, { weekday: "short", day: "numeric", month: "long" });
const button = (label, message, attrs = {}) =>
  h("button", { type: "button", dataset: { send: JSON.stringify(message) }, ...attrs }, label);

function pauseView({ view }) {
  const bar = $("#pause");
  const pause = view?.pause ?? null;
  const playing = Boolean(view) && view.status === "playing";
  const seated = isSeated(view);
  const request = pause?.request && pause.request.deadline > now() ? pause.request : null;
  $("#btn-pause").hidden = !(seated && playing && live()) || Boolean(pause?.paused) || Boolean(request);
  $("#board")?.classList.toggle("is-paused", Boolean(pause?.paused));
  const parts = view
    ? [pausedPart(view, pause, seated), requestPart(view, request, seated), ...dropoutParts(view, pause, seated)]
    : [];
  if (view && !live() && view.status !== "over") parts.push(holidayPart(view, pause, seated));
  const focused = bar.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
  fill(bar, parts);
  bar.hidden = !bar.firstChild;
  if (focused) $(`[data-testid="${focused}"]`, bar)?.focus(); // redrawn: the same button again
  if (view) noteStory(view);
  moveFocus(Boolean(pause?.paused));
  tickWhile(request);
}

// Where the keyboard goes when the table pauses or resumes, if its place went away with the
// buttons (or was nowhere): to "Resume" while paused, back to your hand or prompt after.
function moveFocus(paused) {
  const before = slice.paused;
  slice.paused = paused;
  if (before === null || before === paused || dialogOpen()) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected || active.closest("[hidden]");
  if (!lost) return;
  const target = paused
    ? $("[data-testid=pause-resume]")
    : $('#me button.card[data-legal="true"]') || $("#prompt button:not(:disabled)") || $("#me button.card");
  target?.focus();
}

function pausedPart(view, pause, seated) {
  if (!pause?.paused) return null;
  return h(
    "div",
    { class: "pause-line paused", dataset: { testid: "pause-paused" } },
    h("strong", {}, _("Paused")),
    h("span", {}, _("Agreed by {names}. Nobody can play until someone resumes.", { names: names(view, pause.by) })),
    seated ? button(_("Resume"), { type: "resume" }, { class: "primary", "data-testid": "pause-resume" }) : null,
  );
}

function requestPart(view, request, seated) {
  if (!request) return null;
  const mine = seated && request.waiting.includes(view.seat);
  const left = Math.max(0, Math.round(request.deadline - now()));
  return h(
    "div",
    { class: "pause-line", dataset: { testid: "pause-request" } },
    h("span", {}, _("{name} asks to pause.", { name: who(view, request.seat) })),
    h("span", { class: "muted" }, _("Agreed: {names}.", { names: names(view, request.agreed) })),
    request.waiting.length
      ? h("span", { class: "muted" }, _("Waiting for {names} ({s} s).", { names: names(view, request.waiting), s: left }))
      : null,
    mine ? button(_("Play on"), { type: "pause_answer", agree: false }, { class: "ghost", "data-testid": "pause-refuse" }) : null,
    mine ? button(_("Pause"), { type: "pause_answer", agree: true }, { class: "primary", "data-testid": "pause-agree" }) : null,
  );
}

function dropoutParts(view, pause, seated) {
  return (pause?.dropouts ?? []).map((dropout) => {
    const name = who(view, dropout.seat);
    const voted = (choice) => (dropout[choice].length ? names(view, dropout[choice]) : "–");
    const canVote = seated && view.seats[view.seat]?.connected && dropout.seat !== view.seat;
    const decided = {
      bot: _("A bot plays for {name} until they are back.", { name }),
      wait: _("The table waits for {name}: they continue where they left.", { name }),
    }[dropout.decided];
    return h(
      "div",
      { class: "pause-line", dataset: { testid: "dropout", seat: dropout.seat } },
      h("span", {}, decided ?? _("{name} dropped out. A bot now, or wait for them?", { name })),
      h("span", { class: "muted" }, _("Bot now: {bot}. Wait: {wait}.", { bot: voted("bot"), wait: voted("wait") })),
      canVote && !decided
        ? [
            button(_("Wait"), { type: "dropout_vote", seat: dropout.seat, choice: "wait" }, { class: "ghost", "data-testid": "dropout-wait" }),
            button(_("Bot now"), { type: "dropout_vote", seat: dropout.seat, choice: "bot" }, { class: "primary", "data-testid": "dropout-bot" }),
          ]
        : null,
    );
  });
}

function holidayPart(view, pause, seated) {
  const away = (pause?.holidays ?? []).filter(([, until]) => until > now());
  const lines = away.map(([seat, until]) =>
    h(
      "span",
      { dataset: { testid: "holiday" } },
      seat === view.seat
        ? _("You are away until {day}: no reminders meanwhile.", { day: day(until) })
        : _("{name} is away until {day}.", { name: who(view, seat), day: day(until) }),
    ),
  );
  const mine = away.some(([seat]) => seat === view.seat);
  let form = null;
  if (seated && mine) form = button(_("I'm back"), { type: "holiday", until: null }, { class: "ghost", "data-testid": "holiday-end" });
  else if (seated) form = holidayForm();
  return lines.length || form ? h("div", { class: "pause-line holidays" }, lines, form) : null;
}

function holidayForm() {
  const iso = (days) => new Date(Date.now() + days * 86400_000).toISOString().slice(0, 10);
  return h(
    "details",
    { class: "holiday", dataset: { testid: "holiday-details" } },
    h("summary", {}, _("Going away?")),
    h(
      "form",
      { class: "holiday-form", dataset: { testid: "holiday-form" } },
      h(
        "label",
        {},
        _("Away until"),
        " ",
        h("input", { type: "date", name: "until", min: iso(1), max: iso(60), required: true, "data-testid": "holiday-until" }),
      ),
      h("button", { type: "submit", class: "ghost", "data-testid": "holiday-set" }, _("No reminders until then")),
    ),
  );
}

// ----- the story: each pause event once, in words, where in the hand it happened -----

// The pause events of the view's hand so far, for the live log: [{hand, at, text}], `at` being
// how many of the hand's events (events.handLog) came before it. Told here as they come: what
// happened before this page came is not news (but a table paused then says so).
export function pauseStory(view) {
  noteStory(view);
  return slice.story.filter((entry) => entry.hand === view.hand_number);
}

function noteStory(view) {
  if (view === slice.noted) return;
  const first = slice.noted === null;
  slice.noted = view;
  const pause = view.pause ?? null;
  const told = (text) => text && tell(view, text, !first);
  const key = pause?.last ? JSON.stringify(pause.last) : null;
  if (key !== slice.last) {
    slice.last = key;
    if (!first && pause?.last) {
      told(markText(view, pause.last));
      toastMark(view, pause.last);
    }
  }
  if (first && pause?.paused) told(pausedText(view, pause));
  const decided = new Map();
  for (const dropout of pause?.dropouts ?? []) {
    if (!dropout.decided) continue;
    decided.set(dropout.seat, dropout.decided);
    if (first || slice.decided.get(dropout.seat) === dropout.decided) continue;
    told(decidedText(view, dropout));
  }
  slice.decided = decided;
}

function tell(view, text, news) {
  slice.story = slice.story.filter((entry) => entry.hand === view.hand_number);
  slice.story.push({ hand: view.hand_number, at: handLog(view).length, text });
  if (news) announce(text);
}

const pausedText = (view, pause) =>
  _("The table is paused (agreed: {names}).", { names: names(view, pause.by) });

function markText(view, last) {
  const name = who(view, last.seat);
  switch (last.event) {
    case "ask":
      return _("{name} asks to pause.", { name });
    case "agree":
      return _("{name} agreed to pause.", { name });
    case "refuse":
      return _("{name} wants to play on: no pause.", { name });
    case "paused":
      return pausedText(view, { by: last.by ?? [last.seat] });
    case "resume":
      return _("{name} resumed the game.", { name });
    case "holiday":
      return last.until
        ? _("{name} is away until {day}.", { name, day: day(last.until) })
        : _("{name} is back.", { name });
    case "back":
      return _("{name} is back.", { name: who(view, last.about) });
    default:
      return null; // a single vote: the decision is told
  }
}

function decidedText(view, dropout) {
  const name = who(view, dropout.seat);
  return dropout.decided === "bot"
    ? _("A bot plays for {name} until they are back.", { name })
    : _("The table waits for {name}: they continue where they left.", { name });
}

// A request refused, a pause ended: also a toast, to everyone.
function toastMark(view, last) {
  const name = who(view, last.seat);
  if (last.event === "refuse") toast(_("{name} wants to play on: no pause.", { name }), 5000);
  else if (last.event === "resume") toast(_("{name} resumed the game.", { name }), 5000);
}

// The request's countdown is redrawn every second while it runs.
function tickWhile(request) {
  if (!request || slice.ticker) return;
  slice.ticker = setInterval(() => {
    const open = state.view?.pause?.request;
    if (!open || open.deadline <= now()) {
      clearInterval(slice.ticker);
      slice.ticker = 0;
    }
    pauseView(state);
  }, 1000);
}
