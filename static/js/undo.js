// Undo by consent: the player who made the last move may ask to take it back ("Take back"
// under the hand, while `view.undoable_by` is their seat); the other players are asked, with a
// countdown, to allow it. The server decides (docs/protocol.md, `undo_ask`, `undo`).
import { $, fill, h, toast } from "./dom.js";
import { _ } from "./i18n.js";
import { seatName } from "./names.js";
import { isSeated, state } from "./state.js";

// This feature's slice of the state: `state.undo` = {request (the pending `undo` message "asked",
// or null), timer (the dialog's countdown)}.
const undo = state.undo;

// The feature (docs/client.md, "Features"). `page`: {send(message) -> whether it went out}; undo
// messages carry the version of the view they are about.
export function undoFeature(page) {
  $("#btn-undo").addEventListener("click", () => ask(page));
  $("#undo").addEventListener("cancel", (event) => {
    // Escape means no, as the button does.
    event.preventDefault();
    answer(page, false);
  });
  $("#undo-allow").addEventListener("click", () => answer(page, true));
  $("#undo-refuse").addEventListener("click", () => answer(page, false));
  return { name: "undo", onMessage: { undo: onUndo }, render: undoView };
}

function undoView({ view }) {
  const mine = isSeated(view) && view.undoable_by === view.seat;
  $("#btn-undo").hidden = !mine || Boolean(view.game_over);
  $("#btn-undo").disabled = Boolean(undo.request);
}

function ask(page) {
  if (!page.send({ type: "undo_ask", version: state.version })) toast(_("Not connected right now."));
}

function answer(page, allow) {
  const request = undo.request;
  if (!request) return;
  page.send({ type: "undo_answer", version: request.version, allow });
  closeDialog();
  if (allow) toast(_("Thanks. Waiting for the others…"));
}

const who = (seat) => (state.view ? seatName(state.view, seat) : "");

function onUndo(message) {
  const view = state.view;
  const me = view?.seat;
  if (message.state === "asked") {
    undo.request = message;
    if (message.seat === me) toast(_("Asking the others to let you take back your move…"), 5000);
    else if (message.waiting.includes(me)) openDialog(message);
  } else {
    undo.request = null;
    closeDialog();
    toast(resultText(message), 5000);
  }
  if (view) undoView(state);
}

function resultText(message) {
  switch (message.state) {
    case "done":
      return _("{name} took back their last move.", { name: who(message.seat) });
    case "refused":
      return _("{name} said no: the move stands.", { name: who(message.by) });
    case "expired":
      return _("Not everyone answered in time: the move stands.");
    default:
      return _("The game went on: the move stands.");
  }
}

function openDialog(message) {
  const dialog = $("#undo");
  fill(
    $(".dialog-body", dialog),
    h("h2", {}, _("Take back a move?")),
    h("p", {}, _("{name} asks to take back their last move.", { name: who(message.seat) })),
    h("p", { class: "muted", dataset: { testid: "undo-countdown" } }),
  );
  tick(message);
  if (!dialog.open) dialog.showModal();
  clearInterval(undo.timer);
  undo.timer = setInterval(() => tick(message), 500);
}

function tick(message) {
  const left = Math.max(0, Math.round(message.deadline - Date.now() / 1000));
  const line = $("#undo [data-testid=undo-countdown]");
  if (line) line.textContent = _("{s} s left to answer", { s: left });
}

function closeDialog() {
  clearInterval(undo.timer);
  const dialog = $("#undo");
  if (dialog.open) dialog.close();
}
