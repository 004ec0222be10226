// The table display (/t/{code}/display): a shared screen (TV, tablet) shows the felt large and
// follows the table live over the spectator socket (it counts as a spectator); the people play
// on their phones. No hand, no chat input, no controls: the board's region modules draw it.
import { $, fill } from "./dom.js";
import { renderFelt } from "./felt.js";
import { eventText } from "./host.js";
import { _ } from "./i18n.js";
import { renderInfo, statusText } from "./info.js";
import { TableSocket } from "./net.js";
import { CLOSE } from "./protocol.js";
import { renderRing } from "./seats.js";
import * as store from "./state.js";
import { hasGame, state } from "./state.js";

store.openPage($("#app").dataset.code);

const ENDED = {
  [CLOSE.UNKNOWN_TABLE]: () => _("This invite link does not lead to a table."),
  [CLOSE.SPECTATORS_FULL]: () => _("This table already has as many spectators as it allows. Please try again later."),
  [CLOSE.REMOVED]: () => _("The host sent the spectators away."),
  [CLOSE.TABLE_CLOSED]: () => _("The host has closed this table: nobody new can join or watch."),
  [CLOSE.TABLE_DELETED]: () => _("The host deleted this table."),
};

function draw(view) {
  document.body.dataset.phase = view.phase;
  document.body.dataset.version = String(state.version);
  if (hasGame(view)) {
    renderInfo(view);
    renderFelt(view);
  } else {
    fill($("#trick"));
    $("#hand-no").textContent = _("Waiting for players");
  }
  renderRing(view, () => []);
  $("#status").textContent = hasGame(view) ? statusText(view) : "";
  const note = view.host_event ? eventText(view.host_event) : "";
  $("#host-note").textContent = note;
  $("#host-note").hidden = !note;
}

const socket = new TableSocket(state.code, {
  onMessage: (message) => {
    if (message.type !== "view") return;
    store.applyView(message.view, message.version);
    draw(message.view);
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
