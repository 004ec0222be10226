// The host's table (issue 28): the host's dialog (remove a person, hand the host role over,
// close the table to newcomers or spectators, send the spectators away, open the table display,
// delete a finished table's history), what everyone is told of it (`view.host_event`), and the
// pages of those it keeps out (CLOSE.REMOVED, TABLE_CLOSED, TABLE_DELETED; a visitor at a
// closed table).
// The server decides everything (app/host, docs/protocol.md "The host's table").
import { $, fill, h, toast } from "./dom.js";
import { errorText } from "./errors.js";
import { N_, _ } from "./i18n.js";
import { CLOSE } from "./protocol.js";
import { isSeated, state } from "./state.js";

// This feature's slice of the state: `state.host` = {shownEvent (the host event last shown),
// claimed (this page asked for the host cookie), deleteArmed ("Delete" pressed once)}.
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
  $("#host-dialog").addEventListener("close", () => disarmDelete());
  return { name: "host", render };
}

// Close codes after which the page shows only a notice and the home page (table.js asks).
export const HOST_CLOSES = {
  [CLOSE.REMOVED]: () => shutOut("#removed"),
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
  fill(
    $("#host-people"),
    people.length
      ? people.map((seat) => personRow(seat))
      : h("li", { class: "muted" }, _("Nobody else sits at the table.")),
  );
  $("#host-delete-row").hidden = !view.game_over;
}

function personRow(seat) {
  const label = _("Seat {n}: {name}", { n: seat.index + 1, name: seat.name });
  return h(
    "li",
    { class: "host-person", dataset: { testid: `host-person-${seat.index}` } },
    h("span", {}, label),
    h("span", { class: "row" },
      button(_("Give the seat to a bot"), `host-remove-bot-${seat.index}`, () =>
        post("remove", { seat: seat.index, to: "bot" })),
      button(_("Open the seat for someone new"), `host-remove-open-${seat.index}`, () =>
        post("remove", { seat: seat.index, to: "open" })),
      button(_("Make host"), `host-handover-${seat.index}`, () =>
        post("handover", { seat: seat.index }, () => {
          state.info.host = false;
          $("#host-dialog").close();
        })),
    ),
  );
}

const button = (label, testid, onclick) =>
  h("button", { type: "button", class: "ghost", dataset: { testid }, onclick }, label);

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
