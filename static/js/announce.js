// The announcer: two ARIA live regions that say each event of the table in one short sentence
// (polite), and "your turn" with what to do (assertive). It compares the view it saw last with
// the newest one (events.js), so a view that brings nothing new says nothing. It also says the
// trump order as a sentence (speech.js).
import { $, h } from "./dom.js";
import { decisionKey, newEvents } from "./events.js";
import { eventSentence, trumpSentence, turnSentence } from "./speech.js";
import { state } from "./state.js";

// This feature's slice: `state.announce` = {seen (the view last compared), decision (the
// decision last announced, events.decisionKey)}.
const slice = state.announce;
const KEEP = 40; // sentences kept in the polite region (older ones are dropped)

let polite = null;
let urgent = null;

function regions() {
  if (polite) return;
  polite = h("div", {
    "id": "announcer",
    "class": "sr-only",
    "aria-live": "polite",
    "dataset": { testid: "announcer" },
  });
  urgent = h("div", {
    "id": "announcer-turn",
    "class": "sr-only",
    "aria-live": "assertive",
    "dataset": { testid: "announcer-turn" },
  });
  document.body.append(polite, urgent);
}

// Says one sentence now: `urgent` only for "your turn" and a refused command.
export function announce(text, { urgent: loud = false } = {}) {
  if (!text) return;
  regions();
  if (loud) {
    // A new node each time, so the same words twice are said twice.
    urgent.replaceChildren(h("p", {}, text));
    return;
  }
  polite.append(h("p", {}, text));
  while (polite.childElementCount > KEEP) polite.firstElementChild.remove();
}

export function announceFeature() {
  regions();
  return { name: "announce", render };
}

function render({ view, screen }) {
  if (view && screen === "board") label(view);
  if (!view || view === slice.seen) return;
  const before = slice.seen;
  slice.seen = view;
  for (const event of newEvents(before, view)) announce(eventSentence(view, event));
  const decision = decisionKey(view);
  if (decision && decision !== slice.decision) announce(turnSentence(view), { urgent: true });
  slice.decision = decision;
}

// The trump ranking says itself as a sentence (its pictures and arrows are hidden from it).
function label(view) {
  const ranking = $("#ranking");
  const sentence = trumpSentence(view);
  if (!ranking) return;
  ranking.querySelector("[data-testid=trump-sentence]")?.remove();
  if (!sentence) return;
  for (const part of ranking.children) part.setAttribute("aria-hidden", "true");
  ranking.append(h("p", { class: "sr-only", dataset: { testid: "trump-sentence" } }, sentence));
}
