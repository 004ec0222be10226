// A lesson (issue 27): the table's board drawn from the lesson API's views. The server rebuilds
// the hand for every step from the lesson's script with the engine; this page keeps only the
// step index (localStorage, so a learner can leave and resume) and the cards selected for a bid.
// The intended move is highlighted; any other move goes to the server, whose engine says why it
// is refused, and the coach's panel shows that sentence.
import { clickCard, drawBoard } from "./board.js";
import { promptControls } from "./controls.js";
import { $, fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { noticeTrickWon, renderFelt } from "./felt.js";
import { wirePractice } from "./lessonpractice.js";
import { seatName } from "./names.js";
import { sheetTable } from "./summary.js";
import * as store from "./state.js";
import { state } from "./state.js";

const lesson = $("#app").dataset.lesson;
const progressKey = `mu_lesson_${lesson}`;
const api = (index) => `/api/lessons/${encodeURIComponent(lesson)}/steps/${index}`;
const lesson_ = { step: null, busy: false };

// Where each step's `target` is on the page.
const TARGETS = {
  hand: "#me",
  prompt: "#prompt",
  seats: "#ring",
  ranking: "#ranking",
  goal: "#goal",
  trick: "#felt",
  sheet: "#lesson-sheet",
  kitty: "#me",
};
// "seat:1" points at that seat.
const targetOf = (step) =>
  step.target.startsWith("seat:")
    ? `#ring [data-seat="${Number(step.target.slice(5))}"]`
    : (TARGETS[step.target] ?? "#board");

const controls = promptControls(attempt, { onCard, onReason });

async function load(index, { focus = false } = {}) {
  const response = await fetch(api(index), { cache: "no-store" });
  if (!response.ok) {
    if (index !== 0) return load(0, { focus });
    return;
  }
  const step = await response.json();
  const previous = state.view;
  lesson_.step = step;
  localStorage.setItem(progressKey, String(index));
  store.applyView(step.view, index);
  store.clearSelected();
  // A trick completed by the scripted moves stays on the felt for a moment, as at the table.
  if (previous && step.index === (lesson_.shown ?? -1) + 1)
    noticeTrickWon(previous, step.view, () => renderFelt(state.view));
  lesson_.shown = step.index;
  document.body.dataset.step = step.id;
  document.body.dataset.stepIndex = String(step.index);
  showCoach(step);
  draw();
  pointAt(step, focus);
}

function showCoach(step) {
  $("#coach-lesson").textContent = step.title;
  $("#coach-progress").textContent = step.progress;
  $("#coach-text").textContent = step.text;
  const why = $("#coach-why");
  why.hidden = true;
  why.textContent = "";
  delete why.dataset.code;
  $("#coach-back").disabled = step.index === 0;
  $("#coach-show").hidden = !step.move;
  $("#coach-next").hidden = Boolean(step.move) || step.last;
  $("#coach-end").hidden = !step.last;
  // A step that only explains has one call to action, Next: the table's own controls rest.
  for (const region of [$("#prompt"), $("#me")]) region.inert = !step.move;
  const sheet = $("#lesson-sheet");
  sheet.hidden = !step.sheet;
  if (step.sheet)
    fill($("#lesson-sheet-body"), sheetTable(step.view, step.sheet), breakdown(step.view, step.sheet));
}

// The hand's score seat by seat, as the coach's text explains it: card points, the bonus (or
// penalty), the score.
function breakdown(view, sheet) {
  const row = sheet.rows?.at(-1);
  if (row?.kind !== "played" || !row.card_points) return null;
  const line = (label, values, testid) =>
    h(
      "tr",
      { dataset: { testid } },
      h("th", { scope: "row" }, label),
      ...values.map((v) => h("td", {}, String(v))),
    );
  return h(
    "table",
    { class: "scores lesson-breakdown", dataset: { testid: "lesson-breakdown" } },
    h("caption", {}, _("How this hand scored")),
    h(
      "thead",
      {},
      h("tr", {}, h("td"), ...row.score.map((_v, s) => h("th", { scope: "col" }, seatName(view, s)))),
    ),
    h(
      "tbody",
      {},
      line(_("Card points"), row.card_points, "breakdown-points"),
      line(_("Bonus"), row.bonus, "breakdown-bonus"),
      line(_("Score"), row.score, "breakdown-score"),
    ),
  );
}

function draw() {
  drawBoard(controls, () => []);
  highlight(lesson_.step);
}

// The element the step talks about gets a frame; the intended move's controls glow.
function highlight(step) {
  for (const el of document.querySelectorAll(".lesson-target, .lesson-move")) {
    el.classList.remove("lesson-target", "lesson-move");
  }
  if (!step) return;
  $(targetOf(step))?.classList.add("lesson-target");
  for (const el of moveControls(step.move)) el.classList.add("lesson-move");
}

function moveControls(move) {
  if (!move) return [];
  const cards = (ids) => ids.map((id) => $(`#me [data-card-id="${id}"]`)).filter(Boolean);
  if (move.type === "bid" || move.type === "discard") {
    const missing = move.cards.filter((id) => !state.selected.has(id));
    const button = $(`#prompt [data-testid="${move.type === "bid" ? "place" : "discard"}"]`);
    const extra = [...state.selected].some((id) => !move.cards.includes(id));
    return missing.length || extra ? cards(missing) : [button].filter(Boolean);
  }
  if (move.type === "play") return cards([move.card]);
  const testid = { pass: "pass", trump: `trump-${move.trump}`, partner: `partner-${move.seat}` }[move.type];
  return [$(`#prompt [data-testid="${testid}"]`)].filter(Boolean);
}

function pointAt(step, focus) {
  const target = $(targetOf(step));
  if (target) showBoth($("#coach"), [target, $(".lesson-move")].filter(Boolean));
  if (!focus) return;
  // The first glowing control in the page's order (Tab goes on from there), else Next; already
  // in view, so the focus does not scroll the explanation away.
  const control = $(".lesson-move") ?? ($("#coach-next").hidden ? null : $("#coach-next"));
  (control ?? $("#coach-text")).focus?.({ preventScroll: true });
}

// The step's explanation and what it points at, both on screen: the smallest scroll that shows
// the coach's text and the target together, or, where they cannot both fit, the target just
// under the explanation's text (the buttons may go, the words stay).
function showBoth(coach, targets) {
  const text = $("#coach-text").getBoundingClientRect();
  const boxes = targets.map((target) => target.getBoundingClientRect());
  const top = Math.min(coach.getBoundingClientRect().top, ...boxes.map((box) => box.top)) + scrollY;
  const bottom = Math.max(text.bottom, ...boxes.map((box) => box.bottom)) + scrollY;
  const view = { top: scrollY, bottom: scrollY + innerHeight };
  if (top >= view.top && bottom <= view.bottom) return;
  const fits = bottom - top <= innerHeight;
  const y = fits ? (top < view.top ? top : bottom - innerHeight) : text.top + scrollY - 4;
  scrollTo({ top: Math.max(0, y), behavior: "instant" });
}

function onCard(card, place) {
  // On to the next glowing card, or to Place: Enter, Enter, Enter plays a bid by keyboard.
  if (clickCard(card, place, attempt, draw)) $(".lesson-move")?.focus();
}

// A card the board dims or will not add: the engine says why (it is the lesson's point).
function onReason(reason, card, place) {
  const prompt = state.view?.prompt;
  if (card && prompt?.type === "play") attempt({ type: "play", card: card.id });
  else if (card && prompt?.type === "bid" && place === "hand")
    attempt({ type: "bid", cards: [...state.selected, card.id] });
  else explain(reason, "");
}

function explain(text, code) {
  const why = $("#coach-why");
  why.textContent = text;
  why.dataset.code = code;
  why.hidden = false;
}

async function attempt(action) {
  const step = lesson_.step;
  if (!step || lesson_.busy) return;
  lesson_.busy = true;
  try {
    const response = await fetch(api(step.index), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action }),
    });
    const answer = await response.json();
    if (answer.ok) await load(step.index + 1, { focus: true });
    else {
      store.clearSelected();
      draw();
      explain(answer.why, answer.code);
    }
  } finally {
    lesson_.busy = false;
  }
}

function wire() {
  $("#coach-next").addEventListener("click", () => load(lesson_.step.index + 1, { focus: true }));
  $("#coach-back").addEventListener("click", () => load(Math.max(lesson_.step.index - 1, 0), { focus: true }));
  $("#coach-show").addEventListener("click", () => lesson_.step?.move && attempt(lesson_.step.move));
  $("#coach-restart").addEventListener("click", () => load(0, { focus: true }));
  // The practice table plays the lesson's rules.
  wirePractice($("#practice"), $("#practice-error"), () => state.view?.variant);
}

wire();
load(Number(localStorage.getItem(progressKey) ?? 0) || 0);
