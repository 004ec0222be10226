// Screen-reader mode: a setting kept in this browser (localStorage `mu_sr`), switched on by
// `?sr=1` in the address (and off by `?sr=0`) or in the help dialog. It adds, above your cards,
// "Where are we?" (a text summary of the table, also read aloud) and a command line as at
// lichess (`play g7`, `bid y5 y6`, `pass`, `trump red`, `partner 2`; commands.js reads them
// against the prompt and says why one is not legal). The announcer (announce.js) speaks in both
// modes; this mode adds the summary and the commands.
import { announce } from "./announce.js";
import { commandHelp, readCommand } from "./commands.js";
import { $, dialogOpen, fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { handSentence, whereSentences } from "./speech.js";
import { isSeated, state } from "./state.js";

const KEY = "mu_sr";

function initialSetting() {
  const asked = new URLSearchParams(location.search).get("sr");
  if (asked === "1" || asked === "0") store(asked === "1");
  return localStorage.getItem(KEY) === "1";
}

function store(on) {
  try {
    if (on) localStorage.setItem(KEY, "1");
    else localStorage.removeItem(KEY);
  } catch {
    // Private mode without storage: the setting lasts as long as the page.
  }
}

export function srModeFeature(page) {
  let on = initialSetting();
  const output = h("div", { class: "sr-output", dataset: { testid: "sr-output" } });
  const input = h("input", {
    "id": "sr-command",
    "autocomplete": "off",
    "spellcheck": "false",
    "dataset": { testid: "sr-command" },
    "aria-describedby": "sr-command-help",
  });
  const panel = h(
    "section",
    {
      "id": "sr-panel",
      "class": "sr-panel",
      "aria-labelledby": "sr-title",
      "dataset": { testid: "sr-panel" },
    },
    h("h2", { id: "sr-title", class: "sr-title" }, _("Screen-reader mode")),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        { type: "button", dataset: { testid: "sr-where" }, onclick: () => where() },
        _("Where are we?"),
      ),
      h("button", { type: "button", class: "ghost", onclick: () => yourHand() }, _("My cards")),
    ),
    h(
      "form",
      {
        class: "sr-command-form",
        dataset: { testid: "sr-command-form" },
        onsubmit: (event) => submit(event),
      },
      h("label", { for: "sr-command" }, _("Command")),
      input,
      h("button", { type: "submit", class: "primary" }, _("Do it")),
    ),
    h(
      "p",
      { id: "sr-command-help", class: "muted" },
      _("For example: play g7, bid y5 y6, pass, trump red, partner 2. Type help for all commands."),
    ),
    output,
  );
  panel.hidden = !on;
  $("#prompt").before(panel);
  addSwitch();

  function show(lines, { urgent = false, speak = true } = {}) {
    fill(output, ...lines.map((line) => h("p", {}, line)));
    if (speak) announce(lines.join(" "), { urgent });
  }

  function where() {
    if (state.view) show(whereSentences(state.view));
    // The W key works in both modes: without the panel the summary is only read aloud.
  }

  function yourHand() {
    const view = state.view;
    if (!isSeated(view)) return show([_("You are watching: only players make moves.")]);
    const cards = [...(view.displays?.[view.seat] ?? []), ...(view.hand ?? [])];
    const usable = new Set(
      view.prompt?.type === "play" && view.to_move === view.seat ? view.prompt.cards : [],
    );
    show([handSentence(view, cards, usable)]);
  }

  function submit(event) {
    event.preventDefault();
    const text = input.value;
    const read = readCommand(text, state.view);
    if (read.error) return show([read.error], { urgent: true });
    input.value = "";
    if (read.local === "where") return where();
    if (read.local === "hand") return yourHand();
    if (read.local === "help") return show(commandHelp());
    if (read.local === "undo") {
      const undo = $("#btn-undo");
      if (undo.hidden || undo.disabled)
        return show([_("There is nothing you can take back now.")], { urgent: true });
      undo.click();
      return show([_("You asked to take your move back.")]);
    }
    if (state.pending) return show([_("Wait a moment: your last move is on its way.")], { urgent: true });
    if (!page.act(read.action))
      return show([_("Not connected right now. Your move was not sent.")], { urgent: true });
    fill(output);
  }

  function addSwitch() {
    const box = h("input", { type: "checkbox", id: "sr-switch", dataset: { testid: "sr-switch" } });
    box.checked = on;
    box.addEventListener("change", () => {
      on = box.checked;
      store(on);
      panel.hidden = !on;
    });
    $("#help .dialog-body")?.append(
      h(
        "section",
        { class: "keys-help" },
        h("h3", {}, _("Screen readers")),
        h(
          "p",
          {},
          _(
            "Everything that happens at the table is read aloud as it happens. Screen-reader mode adds a summary on demand and a command line: type a command and press Enter.",
          ),
        ),
        h("p", { class: "check" }, box, " ", h("label", { for: "sr-switch" }, _("Screen-reader mode"))),
        h("ul", {}, ...commandHelp().map((line) => h("li", {}, line))),
      ),
    );
  }

  // Outside the mode W still reads the summary aloud.
  document.addEventListener("keydown", (event) => {
    if (on || event.key.toLowerCase() !== "w" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (
      state.screen !== "board" ||
      dialogOpen() ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)
    )
      return;
    if (state.view) announce(whereSentences(state.view).join(" "));
  });

  return { name: "srmode" };
}
