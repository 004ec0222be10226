// Keyboard play: the arrow keys move through your cards (Home/End to the ends), Enter or Space
// acts on the focused card or button, a few single keys do the table's common actions, and the
// focus goes where the next decision is, once per decision, never while you are choosing. The
// keys are listed in the help dialog. No shortcut fires while you type (chat, command line) or
// while a dialog is open.
import { $, dialogOpen, h } from "./dom.js";
import { N_, _ } from "./i18n.js";
import { decisionKey } from "./events.js";
import { state } from "./state.js";

// Key → what it does; the help dialog lists them in this order.
const SHORTCUTS = [
  { keys: ["p"], label: N_("Pass in the auction"), run: () => press("#prompt [data-testid=pass]") },
  {
    keys: ["b"],
    label: N_("Place or discard the selected cards"),
    run: () => press("#prompt [data-testid=place]") || press("#prompt [data-testid=discard]"),
  },
  { keys: ["h"], label: N_("Go to your cards"), run: () => focusDecision(true) },
  { keys: ["u"], label: N_("Take back your last move"), run: () => press("#btn-undo") },
  { keys: ["s"], label: N_("Score sheet"), run: () => press("#btn-sheet") },
  { keys: ["l"], label: N_("Look back at this hand's tricks"), run: () => press("#btn-look") },
  { keys: ["m"], label: N_("Messages (table talk)"), run: () => press("#btn-chat") || focusChat() },
  {
    keys: ["w"],
    label: N_("Where are we? (a summary read aloud)"),
    run: () => press("[data-testid=sr-where]"),
  },
  { keys: ["c", "/"], label: N_("Command line (screen-reader mode)"), run: () => focusCommandLine() },
  { keys: ["?"], label: N_("This help"), run: () => press("#btn-help") },
];
const BY_KEY = new Map(SHORTCUTS.flatMap((shortcut) => shortcut.keys.map((key) => [key, shortcut])));
const DIGITS = /^[1-9]$/;

const visible = (el) => Boolean(el) && !el.hidden && !el.closest("[hidden]") && !el.disabled;

// Clicks a button if it is there to click; whether it was.
// The log and chat docked beside the board (log.js): M goes to the message field.
function focusChat() {
  const input = $("#chat-input");
  if (!visible(input)) return false;
  input.focus();
  return true;
}

function press(selector) {
  const button = $(selector);
  if (!visible(button)) return false;
  button.click();
  return true;
}

function focusCommandLine() {
  const input = $("[data-testid=sr-command]");
  if (!visible(input)) return false;
  input.focus();
  return true;
}

const typing = (el) =>
  Boolean(el) &&
  (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) &&
  el.type !== "checkbox";

export function keysFeature() {
  document.addEventListener("keydown", onKey);
  addHelp();
  return { name: "keys", render };
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (state.screen !== "board" || typing(event.target) || dialogOpen()) return;
  if (moveInHand(event)) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (DIGITS.test(key)) {
    // 1-9: the prompt's options (trumps, partners) in their order.
    const option = document.querySelectorAll("#prompt button.option")[Number(key) - 1];
    if (visible(option)) {
      event.preventDefault();
      option.focus();
      option.click();
    }
    return;
  }
  const shortcut = BY_KEY.get(key);
  if (shortcut && shortcut.run() !== false) event.preventDefault();
}

// Arrow keys between your cards (display and hand), Home and End to the first and the last.
function moveInHand(event) {
  const card = event.target.closest?.("#me button.card");
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
  if (!card || (step === undefined && event.key !== "Home" && event.key !== "End")) return false;
  const cards = [...document.querySelectorAll("#me button.card")];
  let index = cards.indexOf(card);
  if (event.key === "Home") index = 0;
  else if (event.key === "End") index = cards.length - 1;
  else index = (index + step + cards.length) % cards.length;
  cards[index]?.focus();
  event.preventDefault();
  return true;
}

// This feature's slice of the state: `state.keys` = {focused (the decision last given the
// focus, events.decisionKey)}: the focus moves once per decision.
const slice = state.keys;

function render({ view, screen }) {
  if (screen !== "board" || !view) return;
  const decision = decisionKey(view);
  if (decision && decision !== slice.focused) focusDecision(false);
  slice.focused = decision;
}

// Where the next decision is: the first usable card, or the prompt's first button; in
// screen-reader mode the command line. Left alone while the player types or reads a dialog.
function focusDecision(asked) {
  const active = document.activeElement;
  if (!asked && (typing(active) || dialogOpen())) return false;
  if (!asked && focusCommandLine()) return true;
  const type = $("#prompt")?.dataset.promptType;
  const target =
    (type === "trump" || type === "partner" ? $("#prompt button.option:not(:disabled)") : null) ||
    $('#me button.card[data-legal="true"]') ||
    $("#prompt button:not(:disabled)") ||
    $("#me button.card");
  if (!target) return false;
  target.focus({ preventScroll: !asked });
  return true;
}

function addHelp() {
  const body = $("#help .dialog-body");
  if (!body) return;
  const keyName = (key) => (key === "/" ? "/" : key.toUpperCase());
  body.append(
    h(
      "section",
      { class: "keys-help", dataset: { testid: "keys-help" } },
      h("h3", {}, _("Playing with the keyboard")),
      h(
        "p",
        {},
        _(
          "Tab reaches every button. In your hand the arrow keys move from card to card; Enter or Space plays or selects the card. When it is your turn the focus goes to your cards or to the choices.",
        ),
      ),
      h(
        "dl",
        { class: "keys-list" },
        ...SHORTCUTS.flatMap((shortcut) => [
          h("dt", {}, ...shortcut.keys.map((key, i) => [i ? " " : null, h("kbd", {}, keyName(key))])),
          h("dd", {}, _(shortcut.label)),
        ]),
        h("dt", {}, h("kbd", {}, "1"), "–", h("kbd", {}, "9")),
        h("dd", {}, _("Choose a trump or a partner by its place in the list")),
      ),
      h("p", { class: "muted" }, _("The keys do nothing while you type a message or a command.")),
    ),
  );
}
