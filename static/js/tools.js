// The table page's buttons outside the board's regions: joining or watching from the lobby, the
// header tools (score sheet, sound, personal link, help), the invite and personal-link copy
// buttons, and the summary dialog (a hand's end, the game's end, "Final standings" on the felt).
import { $, copyField, fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { isMuted, setMuted, unlockAudioOnGesture } from "./sound.js";
import { isSeated, state } from "./state.js";
import { fetchSheet, sheetLink, sheetTable, summaryContent } from "./summary.js";

// Links stored before the token moved out of the path (/t/CODE/rejoin/TOKEN) in the new form.
const rejoinLink = (stored) => stored?.replace(/\/rejoin\/([^/?#]+)$/, "#rejoin=$1") ?? "";

// `join(event)`: the join form's submit; `watch()`: "Just watch" / "Watch the game".
export function wireTools({ join, watch }) {
  unlockAudioOnGesture();
  $("#join").addEventListener("submit", join);
  $("#spectate").addEventListener("click", watch);
  $("#watch").addEventListener("click", watch);
  $("#copy-invite").addEventListener("click", (e) => copyField($("#invite-url"), e.target, _("Copied")));
  $("#copy-rejoin").addEventListener("click", (e) => copyField($("#rejoin-url"), e.target, _("Copied")));
  $("#btn-sheet").addEventListener("click", showSheet);
  $("#btn-standings").addEventListener("click", () => state.view && openSummary(state.view));
  $("#btn-help").addEventListener("click", () => $("#help").showModal());
  $("#btn-rules").addEventListener("click", () => $("#help").showModal());
  $("#btn-me").addEventListener("click", () => {
    $("#rejoin-url").value = rejoinLink(localStorage.getItem(`mu_rejoin_${state.code}`));
    $("#mylink").showModal();
  });
  wireSound();
}

function wireSound() {
  const sound = $("#btn-sound");
  sound.title = _("A soft sound when it is your turn");
  const label = () => {
    // A switch: its name stays "Sound", whether it is on is aria-pressed (and said in its text).
    sound.textContent = isMuted() ? _("♪ Sound off") : _("♪ Sound on");
    sound.setAttribute("aria-label", _("Sound"));
    sound.setAttribute("aria-pressed", String(!isMuted()));
  };
  sound.addEventListener("click", () => {
    setMuted(!isMuted());
    label();
  });
  label();
}

export function openSummary(view) {
  $("#toast").hidden = true;
  const dialog = $("#summary");
  const body = $(".dialog-body", dialog);
  fill(body, ...summaryContent(view, state.code));
  dialog.dataset.kind = view.game_over ? "game-end" : "hand";
  const close = $("[data-testid=summary-close]", dialog);
  close.textContent = view.game_over ? _("Close") : _("Continue");
  // At the game's end "Play again" (again.js) is the one primary action of a seated player.
  const again = view.game_over && isSeated(view);
  close.classList.toggle("primary", !again);
  close.classList.toggle("ghost", again);
  if (!dialog.open) dialog.showModal();
  if (again) $("[data-testid=play-again]", dialog)?.focus();
  fillSheet($(".sheet-slot", body), view);
}

async function fillSheet(slot, view) {
  const sheet = await fetchSheet(state.code).catch(() => null);
  fill(slot, sheet ? sheetTable(view, sheet) : _("The score sheet could not be loaded."));
}

async function showSheet() {
  const body = $("#sheet .dialog-body");
  const slot = h("div", { class: "sheet-slot" }, _("Loading…"));
  fill(body, h("h2", {}, _("Score sheet")), slot, sheetLink(state.code));
  $("#sheet").showModal();
  if (state.view) fillSheet(slot, state.view);
}
