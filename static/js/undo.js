// Undo by consent: the player who made the last move may ask to take it back ("Take back"
// under the hand, while `view.undoable_by` is their seat); the other players are asked, with a
// countdown, to allow it. The server decides (docs/protocol.md, `undo_ask`, `undo`).
import { seatName } from "./board.js";
import { $, fill, h, toast } from "./dom.js";
import { _ } from "./i18n.js";

const state = { view: null, send: null, request: null, timer: 0 };

export function startUndo({ send }) {
  state.send = send;
  $("#btn-undo").addEventListener("click", ask);
  $("#undo").addEventListener("cancel", (event) => {
    // Escape means no, as the button does.
    event.preventDefault();
    answer(false);
  });
}

export function undoView(view) {
  state.view = view;
  const mine = view.seat !== null && view.seat !== undefined && view.undoable_by === view.seat;
  $("#btn-undo").hidden = !mine || Boolean(view.game_over);
  $("#btn-undo").disabled = Boolean(state.request);
}

function ask() {
  if (!state.send({ type: "undo_ask" })) toast(_("Not connected right now."));
}

function answer(allow) {
  const request = state.request;
  if (!request) return;
  state.send({ type: "undo_answer", version: request.version, allow });
  closeDialog();
  if (allow) toast(_("Thanks. Waiting for the others…"));
}

const who = (seat) => (state.view ? seatName(state.view, seat) : "");

export function onUndo(message) {
  const view = state.view;
  const me = view?.seat;
  if (message.state === "asked") {
    state.request = message;
    if (message.seat === me) toast(_("Asking the others to let you take back your move…"), 5000);
    else if (message.waiting.includes(me)) openDialog(message);
  } else {
    state.request = null;
    closeDialog();
    toast(resultText(message), 5000);
  }
  if (view) undoView(view);
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
  clearInterval(state.timer);
  state.timer = setInterval(() => tick(message), 500);
}

function tick(message) {
  const left = Math.max(0, Math.round(message.deadline - Date.now() / 1000));
  const line = $("#undo [data-testid=undo-countdown]");
  if (line) line.textContent = _("{s} s left to answer", { s: left });
}

function closeDialog() {
  clearInterval(state.timer);
  const dialog = $("#undo");
  if (dialog.open) dialog.close();
}

export function wireUndoButtons() {
  $("#undo-allow").addEventListener("click", () => answer(true));
  $("#undo-refuse").addEventListener("click", () => answer(false));
}
