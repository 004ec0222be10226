// Your own cards: the ones face up in front of you (placed in the auction) and your hand. Your
// seat itself sits at the bottom of the table (seats.js). Which card may be used comes only from
// the server's prompt; a card that may not says why.
import { cardFace, colourName, sortHand } from "./cards.js";
import { $, h, refill } from "./dom.js";
import { _, ngettext } from "./i18n.js";

// Which cards are drawn where. While that stays (another seat's move, your turn coming up, a
// card selected), the buttons stay the same elements and only their state changes: rebuilding
// them made every view cost a phone a style and layout pass of the whole page, and the card
// under your finger or your keyboard focus stays where it is.
const layoutKey = (view, display, hand) =>
  JSON.stringify([view.trump_ranking, display.map((c) => c.id), hand.map((c) => c.id)]);

// The controls the cards' click handlers call: the latest drawing's.
const drawn = { ui: null };

export function renderHand(view, ui) {
  const me = $("#me");
  drawn.ui = ui;
  if (view.seat === null || view.seat === undefined) {
    refill(me, null, () => []);
    return;
  }
  const display = sortHand(view.displays?.[view.seat] ?? [], view.trump_ranking);
  const hand = sortHand(view.hand ?? [], view.trump_ranking);
  refill(me, layoutKey(view, display, hand), () => drawCards(me, view, display, hand));
  for (const el of me.querySelectorAll("button.card")) cardStates.get(el)?.(view, ui);
}

function drawCards(me, view, display, hand) {
  // On wider screens your cards share one row and shrink with their number (mu.css); the
  // "On display" label takes about two cards' room.
  me.style.setProperty("--cards", String(hand.length + (display.length ? display.length + 2 : 0)));
  return [
    display.length
      ? h(
          "div",
          { class: "my-display" },
          h("span", { class: "label" }, _("On display")),
          h("div", { class: "cards" }, ...display.map((c) => myCard(view, c, "display"))),
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
      ...hand.map((c) => myCard(view, c, "hand")),
    ),
  ];
}

// Each card button's own update: what the prompt, the turn and the selection make of it.
const cardStates = new WeakMap();

function myCard(view, card, place) {
  const el = cardFace(card, { ranking: view.trump_ranking });
  const name = el.getAttribute("aria-label");
  el.dataset.place = place;
  let now = { legal: false, reason: "" };
  cardStates.set(el, (current, ui) => {
    const prompt = current.prompt;
    now = cardState(current, card, prompt, ui, place);
    const { legal, reason } = now;
    // "green 7, 2 points, playable" / "…, not playable: you must follow yellow".
    let label = name;
    if (prompt?.type === "play" && current.to_move === current.seat) {
      const why = reason ? ": " + reason.charAt(0).toLowerCase() + reason.slice(1) : "";
      label += ", " + (legal ? _("playable") : _("not playable") + why);
    }
    const selected = selecting(prompt) && ui.selected.has(card.id);
    attribute(el, "data-legal", String(legal));
    attribute(el, "aria-disabled", String(!legal));
    attribute(el, "title", reason || null);
    attribute(el, "aria-label", label);
    attribute(el, "aria-pressed", selected ? "true" : null);
    el.classList.toggle("selected", selected);
    el.classList.toggle("dim", prompt?.type === "play" && !legal);
    // While discarding, the Crown sees which cards just came from the kitty.
    const fromKitty = prompt?.type === "discard" && current.kitty?.cards?.some((k) => k.id === card.id);
    el.classList.toggle("kitty", Boolean(fromKitty));
  });
  el.addEventListener("click", () =>
    now.legal ? drawn.ui.onCard(card, place) : now.reason && drawn.ui.onReason(now.reason, card, place),
  );
  return el;
}

// Sets (or, for null, removes) an attribute only if that changes it: an unchanged card is not
// even looked at again by the page's styles.
function attribute(el, name, value) {
  if (el.getAttribute(name) === value) return;
  if (value === null) el.removeAttribute(name);
  else el.setAttribute(name, value);
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

