// Your own cards: the ones face up in front of you (placed in the auction) and your hand. Your
// seat itself sits at the bottom of the table (seats.js). Which card may be used comes only from
// the server's prompt; a card that may not says why.
import { cardFace, colourName, sortHand } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";

export function renderHand(view, ui) {
  const me = $("#me");
  if (view.seat === null || view.seat === undefined) {
    fill(me);
    return;
  }
  const prompt = view.prompt;
  const display = sortHand(view.displays?.[view.seat] ?? [], view.trump_ranking);
  const hand = sortHand(view.hand ?? [], view.trump_ranking);
  // On wider screens your cards share one row and shrink with their number (mu.css); the
  // "On display" label takes about two cards' room.
  me.style.setProperty("--cards", String(hand.length + (display.length ? display.length + 2 : 0)));
  fill(
    me,
    display.length
      ? h(
          "div",
          { class: "my-display" },
          h("span", { class: "label" }, _("On display")),
          h("div", { class: "cards" }, ...display.map((c) => myCard(view, c, prompt, ui, "display"))),
        )
      : null,
    h(
      "div",
      {
        "class": "hand",
        "role": "group",
        "aria-label": _("Your hand"),
        "tabindex": "-1", // where the focus goes once your last card is played (board.js)
        "dataset": { testid: "hand" },
      },
      ...hand.map((c) => myCard(view, c, prompt, ui, "hand")),
    ),
  );
}

function myCard(view, card, prompt, ui, place) {
  const el = cardFace(card, { ranking: view.trump_ranking });
  const { legal, reason } = cardState(view, card, prompt, ui, place);
  el.dataset.legal = String(legal);
  el.dataset.place = place;
  el.setAttribute("aria-disabled", String(!legal));
  if (reason) el.title = reason;
  // "green 7, 2 points, playable" / "…, not playable: you must follow yellow".
  if (prompt?.type === "play" && view.to_move === view.seat) {
    const name = el.getAttribute("aria-label");
    const why = reason ? ": " + reason.charAt(0).toLowerCase() + reason.slice(1) : "";
    el.setAttribute("aria-label", name + ", " + (legal ? _("playable") : _("not playable") + why));
  }
  if (selecting(prompt) && ui.selected.has(card.id)) {
    el.classList.add("selected");
    el.setAttribute("aria-pressed", "true");
  }
  if (prompt?.type === "play" && !legal) el.classList.add("dim");
  // While discarding, the Crown sees which cards just came from the kitty.
  if (prompt?.type === "discard" && view.kitty?.cards?.some((k) => k.id === card.id))
    el.classList.add("kitty");
  el.addEventListener("click", () => (legal ? ui.onCard(card, place) : reason && ui.onReason(reason, card, place)));
  return el;
}

// Whether a card of yours can be used right now, and if not, why (from the prompt only).
function cardState(view, card, prompt, ui, place) {
  if (ui.pending) return { legal: false, reason: "" };
  // Paused by consent (pause.js): no card plays until someone resumes.
  if (view.pause?.paused) return { legal: false, reason: _("The table is paused. Resume it to play on.") };
  if (!prompt || view.to_move !== view.seat) return { legal: false, reason: _("Wait for your turn") };
  if (prompt.type === "bid") {
    if (place !== "hand") return { legal: false, reason: _("Bids come from your hand") };
    const full = ui.selected.size >= prompt.max_cards && !ui.selected.has(card.id);
    const most = ngettext("You may place only {n} card", "You may place up to {n} cards", prompt.max_cards);
    return full ? { legal: false, reason: most } : { legal: true, reason: "" };
  }
  if (prompt.type === "discard") {
    const full = ui.selected.size >= prompt.count && !ui.selected.has(card.id);
    const allowed = place === "hand" && prompt.cards.includes(card.id) && !full;
    return allowed
      ? { legal: true, reason: "" }
      : {
          legal: false,
          reason: ngettext("Discard exactly {n} card", "Discard exactly {n} cards", prompt.count),
        };
  }
  if (prompt.type !== "play") return { legal: false, reason: _("Make your choice above first") };
  if (prompt.cards.includes(card.id)) return { legal: true, reason: "" };
  const follow = prompt.must_follow;
  if (follow === "trump") return { legal: false, reason: _("You must play a trump") };
  if (follow) return { legal: false, reason: _("You must follow {colour}", { colour: colourName(follow) }) };
  return { legal: false, reason: _("This card cannot be played now") };
}

// Prompts answered by selecting several cards of the hand first.
export const selecting = (prompt) => prompt?.type === "bid" || prompt?.type === "discard";

