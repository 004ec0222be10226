// The controls for the current prompt: bid or pass, discard, trump options, partner options.
// The server's prompt lists what may be done; this module only shows it.
import { colourName, isNamedTrump, trumpChip, trumpName } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { roleName, roleThe, seatName } from "./names.js";
import { trumpKind } from "./rulebook.js";

export function renderPrompt(view, ui) {
  const box = $("#prompt");
  const prompt = view.to_move === view.seat ? view.prompt : null;
  if (prompt && view.pause?.paused) {
    // Paused by consent (pause.js): the choice waits; the bar above says who may resume.
    box.dataset.promptType = "paused";
    box.hidden = false;
    const title = _("Paused: your turn waits until someone resumes.");
    fill(box, h("p", { class: "prompt-title", dataset: { testid: "prompt-paused" } }, title));
    return;
  }
  box.dataset.promptType = prompt?.type ?? "";
  box.hidden = !prompt || prompt.type === "play";
  if (box.hidden) {
    fill(box);
    return;
  }
  const build = {
    bid: bidControls,
    discard: discardControls,
    trump: trumpControls,
    partner: partnerControls,
  }[prompt.type];
  fill(box, ...(build ? build(view, prompt, ui) : []));
}

function bidControls(view, prompt, ui) {
  const n = ui.selected.size;
  return [
    h(
      "p",
      { class: "prompt-title" },
      prompt.max_cards
        ? ngettext("You may place {n} card", "You may place up to {n} cards", prompt.max_cards)
        : _("You cannot place more cards now: pass"),
    ),
    prompt.max_cards ? h("p", { class: "muted" }, chooseCards()) : null,
    h(
      "div",
      { class: "row" },
      h(
        "button",
        {
          class: "primary",
          type: "button",
          disabled: n === 0 || ui.pending,
          dataset: { testid: "place" },
          onclick: () => ui.onBid(),
        },
        n ? _("Place {n}", { n }) : _("Select cards"),
      ),
      prompt.can_pass
        ? h(
            "button",
            { type: "button", disabled: ui.pending, dataset: { testid: "pass" }, onclick: () => ui.onPass() },
            _("Pass"),
          )
        : null,
    ),
  ];
}

// How to choose: "click" with a mouse or touchpad, "tap" on a touch screen.
function chooseCards() {
  return matchMedia("(pointer: fine)").matches
    ? _("Click cards in your hand to select them.")
    : _("Tap cards from your hand to select them.");
}

function discardControls(view, prompt, ui) {
  const n = prompt.count;
  const ready = ui.selected.size === n;
  return [
    h(
      "p",
      { class: "prompt-title" },
      ngettext("You took the kitty: discard {n} card", "You took the kitty: discard {n} cards", n),
    ),
    h(
      "p",
      { class: "muted" },
      _("They go face down onto your tricks and count for you. Dashed outline: a card from the kitty."),
    ),
    h(
      "button",
      {
        class: "primary",
        type: "button",
        disabled: !ready || ui.pending,
        dataset: { testid: "discard" },
        onclick: () => ui.onDiscard(),
      },
      ready ? _("Discard {n}", { n }) : ngettext("Select {n} card", "Select {n} cards", n),
    ),
  ];
}

function trumpControls(view, prompt, ui) {
  const chief = prompt.role === "chief";
  const vice = view.trumps?.vice;
  const named = { chief: roleThe(view, "chief"), vice: roleThe(view, "vice"), vice_trump: trumpName(vice) };
  const help = !chief
    ? _(
        "Choose a colour or a number from the cards you displayed. The trump {chief} names will rank above yours.",
        named,
      )
    : vice && vice !== "none"
      ? _(
          "Your trump will rank above {vice_trump}, the trump {vice} named. You may also play without a trump of your own: the higher the risk, the higher the bonus.",
          named,
        )
      : _("Choose a colour or a number from your displayed cards, or play without trumps.");
  return [
    h("p", { class: "prompt-title" }, _("As {role}, name your trump", { role: roleName(view, prompt.role) })),
    h("p", { class: "muted" }, help),
    h(
      "div",
      { class: "options" },
      ...prompt.options.map((option) =>
        h(
          "button",
          {
            type: "button",
            class: "option",
            disabled: ui.pending,
            dataset: { testid: `trump-${option}`, option },
            onclick: () => ui.onTrump(option),
          },
          trumpChip(option),
          h("small", {}, trumpExplanation(option, chief, vice, named)),
        ),
      ),
    ),
  ];
}

function trumpExplanation(option, chief, viceTrump, named) {
  const viceNamed = chief && isNamedTrump(viceTrump);
  const { colour, number } = trumpKind(option);
  if (colour === null && number === null) {
    if (!chief) return _("No trump from you; {chief} may still name one.", named);
    return viceNamed
      ? _("Only {vice_trump} counts, the trump {vice} named.", named)
      : _("No trumps at all: the highest card of the led colour wins.");
  }
  const what =
    number !== null
      ? _("All {n}s become trumps, equal in rank.", { n: number })
      : _("All {colour} cards become trumps, 9 high.", { colour: colourName(colour) });
  if (!viceNamed) return what;
  const over = _("{chief} over {vice}.", { chief: trumpName(option), vice: trumpName(viceTrump) });
  return `${what} ${over}`;
}

function partnerControls(view, prompt, ui) {
  const goal = view.team_goal ?? "?";
  return [
    h("p", { class: "prompt-title" }, _("Choose your partner")),
    h(
      "p",
      { class: "muted" },
      ngettext("Together you need {goal} card point.", "Together you need {goal} card points.", goal, {
        goal,
      }),
    ),
    h(
      "div",
      { class: "options" },
      ...prompt.options.map((seat) =>
        h(
          "button",
          {
            type: "button",
            class: "option",
            disabled: ui.pending,
            dataset: { testid: `partner-${seat}` },
            onclick: () => ui.onPartner(seat),
          },
          seatName(view, seat),
        ),
      ),
    ),
  ];
}
