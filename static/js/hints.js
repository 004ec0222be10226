// Beginner hints (tables opened with the "beginner hints" option): on your turn a button asks
// the server's search bot for a move; the answer names the move with a one-line reason. The
// server stores every hint it gives, and the score sheets mark the hand (nobody is fooled).
import { cardName, trumpName } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { seatName } from "./names.js";
import { isSeated, setHint, setHintPending, state } from "./state.js";

// The feature (docs/client.md, "Features"). `page`: {send(message) -> whether it went out,
// redraw() (the table)}. The hint and whether one is being asked are the state's (`hint`,
// `hintPending`).
export function hintsFeature(page) {
  const onHint = (message) => {
    setHint(message);
    page.redraw();
  };
  return { name: "hints", onMessage: { hint: onHint }, render: (current) => renderHint(page, current) };
}

// Ask for the search bot's move on the version on screen (answered with a `hint` message).
function askHint(page) {
  if (state.hintPending || state.version === null) return;
  if (!page.send({ type: "hint", version: state.version })) return;
  setHintPending(true);
  page.redraw();
}

const oneDecimal = (value) => (Math.round(value * 10) / 10).toLocaleString(document.documentElement.lang || "en");

// A card of the hint, looked up in your own hand or display (the only cards a hint names).
function cardOf(view, id) {
  const mine = [...(view.hand ?? []), ...(view.displays?.[view.seat] ?? [])];
  return mine.find((card) => card.id === id);
}

function cardsText(view, ids) {
  return ids.map((id) => {
    const card = cardOf(view, id);
    return card ? cardName(card) : String(id);
  }).join("; ");
}

// The suggested action in words: "show green 7, 2 points", "pass", "name the 7s", ...
export function actionText(view, action) {
  switch (action.type) {
    case "pass":
      return _("pass");
    case "bid":
      return _("show {cards}", { cards: cardsText(view, action.cards) });
    case "discard":
      return _("discard {cards}", { cards: cardsText(view, action.cards) });
    case "trump":
      return _("name {trump} as trump", { trump: trumpName(action.trump) });
    case "partner":
      return _("choose {name} as partner", { name: seatName(view, action.seat) });
    default:
      return _("play {card}", { card: cardsText(view, [action.card]) });
  }
}

// The hint and its one-line reason (expected scores from the bot's sampled deals).
export function hintText(view, hint) {
  const what = actionText(view, hint.action);
  if (!hint.runner_up) return _("Hint: {what}. There is no real alternative.", { what });
  // Built first: Babel's extraction does not see a call inside another marked call.
  const deals = ngettext("{n} sampled deal", "{n} sampled deals", hint.worlds);
  return _("Hint: {what}. On average it scores {value} over {deals}; the next best choice, {other}, scores {other_value}.", {
    what,
    value: oneDecimal(hint.value),
    deals,
    other: actionText(view, hint.runner_up.action),
    other_value: oneDecimal(hint.runner_up.value),
  });
}

// The cards the hint names, marked in your hand and display (the mark goes with the move: the
// next version's hint is null).
function markCards(hint) {
  const action = hint?.action;
  const ids = action?.cards ?? (action?.card !== undefined ? [action.card] : []);
  for (const el of document.querySelectorAll("#me button.card")) {
    const named = ids.includes(Number(el.dataset.cardId));
    el.classList.toggle("hinted", named);
    if (named) el.setAttribute("aria-description", _("suggested by the hint"));
    else el.removeAttribute("aria-description");
  }
}

// The hint box under the prompt: shown on your turn at a table with hints.
function renderHint(page, { view, info, hint: latest, hintPending, version }) {
  const box = $("#hint");
  const myTurn = Boolean(info?.options?.hints) && isSeated(view) && view.to_move === view.seat && Boolean(view.prompt);
  box.hidden = !myTurn;
  const hint = myTurn && latest && latest.version === version ? latest : null;
  markCards(hint);
  if (!myTurn) {
    fill(box);
    return;
  }
  fill(
    box,
    h(
      "button",
      { type: "button", class: "hint-button", disabled: hintPending || Boolean(hint), dataset: { testid: "hint-button" }, onclick: () => askHint(page) },
      hintPending ? _("Thinking…") : _("Hint"),
    ),
    hint ? h("p", { class: "hint-text", dataset: { testid: "hint-text" }, role: "status" }, hintText(view, hint)) : null,
  );
}
