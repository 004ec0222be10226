// The host's table (issue 28): the host's dialog (remove a person, hand the host role over,
// close the table to newcomers or spectators, send the spectators away, open the table display,
// delete a finished table's history), what everyone is told of it (`view.host_event`), and the
// pages of those it keeps out (CLOSE.REMOVED, TABLE_CLOSED, TABLE_DELETED; a visitor at a
// closed table). Removing a person asks first (issue 38.6), and the removed person is told
// whether the invite link seats them again.
// The server decides everything (app/host, docs/protocol.md "The host's table").
import { $, fill, h, toast } from "./dom.js";
import { errorText } from "./errors.js";
import { N_, _ } from "./i18n.js";
import { takeable } from "./lobby.js";
import { CLOSE } from "./protocol.js";
import { isSeated, state } from "./state.js";

// This feature's slice of the state: `state.host` = {shownEvent (the host event last shown),
// claimed (this page asked for the host cookie), deleteArmed ("Delete" pressed once),
// confirming (the removal the host is asked to confirm: {seat, to, name}, or null), drawn (what
// the people list was last drawn from: it is drawn again only when that changes)}.
const host = state.host;

const NOTICE_MS = 6 * 1000;
const api = (path) => `${state.api}/host/${path}`;

export function hostFeature(_page) {
  $("#btn-host").addEventListener("click", () => openDialog());
  $("#host-close-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    post("close", { newcomers: form.newcomers.checked, spectators: form.spectators.checked });
  });
  $("#host-spectators").addEventListener("click", () => post("spectators"));
  $("#host-delete").addEventListener("click", () => armDelete());
  $("#host-delete-confirm").addEventListener("click", () => deleteTable());
  $("#host-dialog").addEventListener("close", () => {
    disarmDelete();
    host.confirming = null;
  });
  // Escape cancels a removal being confirmed, and only then closes the dialog.
  $("#host-dialog").addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !host.confirming) return;
    event.preventDefault();
    cancelRemoval();
  });
  $("#host-dialog").addEventListener("cancel", (event) => {
    if (host.confirming) event.preventDefault();
  });
  return { name: "host", render };
}

// Close codes after which the page shows only a notice and the home page (table.js asks).
export const HOST_CLOSES = {
  [CLOSE.REMOVED]: () => {
    const wasSeated = isSeated(state.view); // else a spectator the host sent away
    shutOut("#removed");
    if (wasSeated) tellWayBack();
  },
  [CLOSE.TABLE_CLOSED]: () => shutOut("#closed"),
  [CLOSE.TABLE_DELETED]: () => shutOut("#deleted"),
};

function shutOut(section) {
  for (const id of ["#loading", "#board", "#lobby", "#full", "#tools", "#missing", "#closed"]) {
    $(id).hidden = true;
  }
  document.querySelectorAll("dialog[open]").forEach((dialog) => dialog.close());
  localStorage.removeItem(`mu_rejoin_${state.code}`);
  $(section).hidden = false;
  $(section).querySelector("h1")?.focus();
}

function render({ view, info }) {
  if (!view) return;
  claimOnce(view);
  $("#btn-host").hidden = !info?.host;
  // A visitor at a table closed to newcomers is told so, and offered only the home page.
  if (!isSeated(view) && view.closed_to_newcomers && state.screen === "lobby") {
    $("#lobby").hidden = true;
    $("#closed").hidden = false;
  } else if (state.screen !== "lobby" || !view.closed_to_newcomers) {
    $("#closed").hidden = true;
  }
  noticeEvent(view);
  if ($("#host-dialog").open) drawDialog(view);
}

// The person the host role was handed to: their seat cookie is the host token; this browser
// gets the host cookie too (POST …/host/claim), once per page and after each handover.
async function claimOnce(view) {
  const handedToMe = view.host_event?.event === "handover" && view.host_event.seat === view.seat;
  if (!isSeated(view) || state.info?.host || (host.claimed && !handedToMe)) return;
  host.claimed = true;
  const response = await fetch(api("claim"), { method: "POST" }).catch(() => null);
  if (response?.ok && (await response.json()).host) {
    state.info.host = true;
    $("#btn-host").hidden = false;
  }
}

const EVENT_TEXT = {
  remove_bot: N_("{by} gave {name}'s seat to a bot."),
  remove_open: N_("{by} opened {name}'s seat for someone new; a bot plays it until then."),
  handover: N_("{by} made {name} the host."),
  close_both: N_("{by} closed the table to newcomers and spectators."),
  close_newcomers: N_("{by} closed the table to newcomers."),
  close_spectators: N_("{by} closed the table to spectators."),
  close_none: N_("{by} opened the table again."),
  spectators: N_("{by} sent the spectators away."),
};

export function eventText(event) {
  let key = event.event;
  if (key === "remove") key = `remove_${event.to}`;
  if (key === "close") {
    key = event.newcomers && event.spectators ? "close_both"
      : event.newcomers ? "close_newcomers"
      : event.spectators ? "close_spectators"
      : "close_none";
  }
  const text = EVENT_TEXT[key];
  if (!text) return "";
  const by = event.by ?? _("The host");
  return _(text, { by, name: event.name ?? "" });
}

function noticeEvent(view) {
  const event = view.host_event;
  const key = event ? JSON.stringify(event) : "";
  if (key === host.shownEvent) return;
  const news = host.shownEvent !== null; // else it happened before this page opened
  host.shownEvent = key;
  const text = event ? eventText(event) : "";
  $("#host-note").textContent = text;
  $("#host-note").hidden = !text;
  if (news && text) toast(text, NOTICE_MS);
}

function openDialog() {
  drawDialog(state.view);
  $("#host-dialog").showModal();
}

function drawDialog(view) {
  if (!view) return;
  const form = $("#host-close-form");
  form.newcomers.checked = Boolean(view.closed_to_newcomers);
  form.spectators.checked = Boolean(view.closed_to_spectators);
  const people = view.seats
    .map((seat, index) => ({ ...seat, index }))
    .filter((seat) => seat.name && !seat.bot && seat.index !== view.seat);
  const asked = host.confirming;
  if (asked && !people.some((seat) => seat.index === asked.seat && seat.name === asked.name)) {
    host.confirming = null; // they left, or were removed by then
  }
  // Drawn again only when it changes: a view during a confirmation keeps the focus where it is.
  const who = people.map((seat) => [seat.index, seat.name]);
  const drawn = JSON.stringify([who, host.confirming, view.closed_to_newcomers]);
  if (drawn !== host.drawn) {
    host.drawn = drawn;
    fill(
      $("#host-people"),
      people.length
        ? people.map((seat) => personRow(seat, view))
        : h("li", { class: "muted" }, _("Nobody else sits at the table.")),
    );
  }
  $("#host-delete-row").hidden = !view.game_over;
}

// A person's row: the two ways to remove them look different (the permanent one as a
// destructive action), and each first asks, below the buttons (a second tap on the same spot
// does not confirm), naming the person and what happens.
function personRow(seat, view) {
  const label = _("Seat {n}: {name}", { n: seat.index + 1, name: seat.name });
  const asked = host.confirming?.seat === seat.index ? host.confirming : null;
  return h(
    "li",
    { class: "host-person", dataset: { testid: `host-person-${seat.index}` } },
    h("span", {}, label),
    h("span", { class: "row" },
      button(_("Open the seat for someone new"), `host-remove-open-${seat.index}`, () =>
        askRemoval(seat, "open"), "host-remove-open"),
      button(_("Give the seat to a bot"), `host-remove-bot-${seat.index}`, () =>
        askRemoval(seat, "bot"), "host-remove-bot"),
      button(_("Make host"), `host-handover-${seat.index}`, () =>
        post("handover", { seat: seat.index }, () => {
          state.info.host = false;
          $("#host-dialog").close();
        })),
    ),
    asked ? confirmation(asked, view) : null,
  );
}

const REMOVAL_QUESTION = {
  bot: N_("Give {name}'s seat to a bot?"),
  open: N_("Open {name}'s seat for someone new?"),
};
const REMOVAL_TEXT = {
  bot: N_("{name}'s page closes and a bot plays their cards from now on."),
  open: N_(
    "{name}'s page closes. The seat is open for someone new through the invite link; a bot plays it until then.",
  ),
};

// Whether the removed person may sit down again through the invite link, as the server decides
// (app/room/seating.py): not at a table closed to newcomers; their old seat if it is opened, or
// if newcomers may take bots' seats.
function wayBackText({ to, name }, view) {
  if (view.closed_to_newcomers) {
    return _("The table is closed to newcomers: {name} cannot come back.", { name });
  }
  if (to === "open" || state.lobby.botsOpen) {
    return _("{name} may take the seat again through the invite link.", { name });
  }
  return _(
    "{name} cannot take this seat back: at this table newcomers may not take a bot's seat.",
    { name },
  );
}

function confirmation(asked, view) {
  const id = `host-confirm-${asked.seat}`;
  return h(
    "div",
    {
      class: "host-confirm",
      role: "group",
      "aria-labelledby": `${id}-q`,
      "aria-describedby": `${id}-text`,
      dataset: { testid: id },
    },
    h("p", { id: `${id}-q`, class: "host-confirm-q" },
      _(REMOVAL_QUESTION[asked.to], { name: asked.name })),
    h("p", { id: `${id}-text` },
      _(REMOVAL_TEXT[asked.to], { name: asked.name }), " ", wayBackText(asked, view)),
    h("span", { class: "row" },
      button(_("Remove {name}", { name: asked.name }), `host-confirm-yes-${asked.seat}`, () =>
        confirmRemoval(), "danger"),
      button(_("Cancel"), `host-confirm-cancel-${asked.seat}`, () => cancelRemoval()),
    ),
  );
}

function askRemoval(seat, to) {
  host.confirming = { seat: seat.index, to, name: seat.name };
  drawDialog(state.view);
  $(`[data-testid="host-confirm-cancel-${seat.index}"]`)?.focus();
}

function cancelRemoval() {
  const asked = host.confirming;
  if (!asked) return;
  host.confirming = null;
  drawDialog(state.view);
  $(`[data-testid="host-remove-${asked.to}-${asked.seat}"]`)?.focus();
}

async function confirmRemoval() {
  const asked = host.confirming;
  if (!asked) return;
  host.confirming = null;
  await post("remove", { seat: asked.seat, to: asked.to });
  drawDialog(state.view);
  if ($("#host-dialog").open) $("#host-title").focus();
}

const button = (label, testid, onclick, style = "ghost") =>
  h("button", { type: "button", class: style, dataset: { testid }, onclick }, label);

// The removed person: the table's info (which also drops their dead seat cookie) says whether
// a newcomer may sit down now; the page says so, with the invite link when they may.
async function tellWayBack() {
  const response = await fetch(state.api, { cache: "no-store" }).catch(() => null);
  if (!response?.ok) return;
  const info = await response.json();
  const may = !info.closed_to_newcomers && info.seats.some(takeable);
  $("#removed-way-back").textContent = may
    ? _("You may take a seat at this table again through the invite link.")
    : info.closed_to_newcomers
      ? _("The host closed the table to newcomers: you cannot come back through the invite link.")
      : _(
        "No seat is open to newcomers now: you cannot come back through the invite link unless the host opens one.",
      );
  const link = $("#removed-rejoin");
  link.href = `/t/${encodeURIComponent(state.code)}`;
  link.hidden = !may;
}

async function post(path, body = null, done = null) {
  const response = await fetch(api(path), {
    method: "POST",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  }).catch(() => null);
  if (!response) {
    toast(_("Not connected right now."));
    return false;
  }
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    toast(errorText(answer.detail ?? {}));
    return false;
  }
  if (response.status !== 204) {
    const event = await response.json();
    toast(eventText({ ...event.detail, event: event.event, by: event.by }), NOTICE_MS);
  }
  done?.();
  return true;
}

function armDelete() {
  host.deleteArmed = true;
  $("#host-delete-confirm-row").hidden = false;
  $("#host-delete-confirm").focus();
}

function disarmDelete() {
  host.deleteArmed = false;
  $("#host-delete-confirm-row").hidden = true;
}

async function deleteTable() {
  if (!host.deleteArmed) return;
  const response = await fetch(api("delete"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ confirm: true }),
  }).catch(() => null);
  if (response?.status === 204) {
    $("#host-dialog").close();
    shutOut("#deleted");
    return;
  }
  const answer = await response?.json().catch(() => ({}));
  toast(errorText(answer?.detail ?? {}));
}
