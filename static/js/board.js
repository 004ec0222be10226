// Draws the table from the state, one region per module: the seats around it (seats.js), the
// felt with the auction or the trick (felt.js), the lines around the felt (info.js), the prompt's
// controls (prompt.js) and your own cards (hand.js). Legality comes only from the server's
// prompt; these modules just show it.
import { $ } from "./dom.js";
import { collectTrick, renderFelt } from "./felt.js";
import { renderHand, selecting } from "./hand.js";
import { renderInfo, statusText } from "./info.js";
import { renderPrompt } from "./prompt.js";
import { renderRing } from "./seats.js";
import { state, toggleSelected } from "./state.js";

// `controls`: what the prompt's buttons and the cards call (onCard, onBid, onPass, onDiscard,
// onTrump, onPartner, onReason); `extra(seat)`: the features' nodes for a seat's corner.
export function drawBoard(controls, extra) {
  const view = state.view;
  const ui = { ...controls, selected: state.selected, pending: state.pending };
  const focus = focusedControl();
  document.body.dataset.phase = view.phase;
  renderInfo(view);
  renderRing(view, extra);
  renderFelt(view, state.trick.showing);
  if (state.trick.collecting) collectTrick();
  renderPrompt(view, ui);
  renderHand(view, ui);
  $("#status").textContent = statusText(view);
  $("#felt-tools").hidden = !view.game_over;
  restoreFocus(focus);
}

// A click on a playable card: `send` plays it when the prompt asks for a card; while bidding or
// discarding a card of the hand joins or leaves the selection and `redraw` shows it. True when
// the selection changed.
export function clickCard(card, place, send, redraw) {
  const prompt = state.view?.prompt;
  if (prompt?.type === "play") {
    send({ type: "play", card: card.id });
    return false;
  }
  if (!selecting(prompt) || place !== "hand") return false;
  toggleSelected(card.id);
  redraw();
  return true;
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
    $("#me button.card") ||
    $("#me .hand"); // your last card played: the (empty) hand, not the page's body
  // Focusing forces a style and layout pass at once: only when the focus has to move.
  if (target && target !== document.activeElement) target.focus();
}
