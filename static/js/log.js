// The live log beside the felt (issue 38, point 4): the hand's story in short lines (bids,
// roles, trumps, partner, each trick's winner and points; events.js rebuilds it from the view,
// speech.js words it) above the table talk (talk.js), in the one "Log and chat" panel.
// The pause events (asked, agreed or refused, paused, resumed, holidays, a drop-out vote's
// decision) come from pause.js, each where in the hand it happened.
// From LOG_WIDE up the panel is docked as a column beside the board and always in view; on a
// narrower screen it is the dialog the talkbar's button opens, one tap away.
import { $, h, refill } from "./dom.js";
import { handLog } from "./events.js";
import { _ } from "./i18n.js";
import { pauseStory } from "./pause.js";
import { eventSentence } from "./speech.js";

// Where a column fits beside the board (mu.css docks `.log-docked` at the same width).
const LOG_WIDE = "(min-width: 1100px)";

// The card by card plays are on the felt and in Look back: the log keeps the hand's turns.
const LOGGED = new Set(["bid", "pass", "roles", "discard", "trump", "partner", "trick"]);

// The feature (docs/client.md, "Features").
export function logFeature(page) {
  const wide = matchMedia(LOG_WIDE);
  const dock = () => dockPanel(wide.matches && !$("#board").hidden);
  wide.addEventListener("change", () => {
    dock();
    page.redraw(); // the chat's lines are drawn while the panel is open
  });
  return {
    name: "log",
    render: ({ view }) => {
      dock();
      if (view) drawLog(view);
    },
  };
}

// Docked: open in place (not modal), its close button hidden, the talkbar's button not needed.
// The `open` attribute rather than show(): showing would move the keyboard's focus into it.
function dockPanel(docked) {
  const panel = $("#chat");
  if (docked === panel.classList.contains("log-docked")) {
    if (docked && !panel.open) panel.setAttribute("open", ""); // closed by something else
    return;
  }
  if (panel.open) panel.close();
  panel.classList.toggle("log-docked", docked);
  $("#btn-chat").hidden = docked;
  if (docked) panel.setAttribute("open", "");
}

// The log follows the hand (shows its newest line) unless the reader scrolled back in it.
let following = true;

function drawLog(view) {
  const list = $("#log-lines");
  if (!list) return;
  if (!list.dataset.watched) {
    list.dataset.watched = "1";
    list.addEventListener("scroll", () => {
      if (list.clientHeight) following = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    });
  }
  const lines = [];
  if ((view.hand_number ?? 1) > 1 && view.last_result && !view.game_over) {
    lines.push(line(eventSentence(view, { type: "result", result: view.last_result }), "result"));
  }
  const story = pauseStory(view);
  let told = 0;
  const tellUpTo = (at) => {
    for (; told < story.length && story[told].at <= at; told++) lines.push(line(story[told].text, "pause"));
  };
  let trick = 0;
  handLog(view).forEach((event, index) => {
    tellUpTo(index);
    if (!LOGGED.has(event.type)) return;
    if (event.type === "trick") trick += 1;
    const text = eventSentence(view, event);
    lines.push(line(event.type === "trick" ? _("Trick {n}: {text}", { n: trick, text }) : text, event.type));
  });
  tellUpTo(Infinity);
  $("#log-title").textContent = view.hand_number ? _("Hand {n}", { n: view.hand_number }) : _("This hand");
  // Most views add no line (a card played within a trick, a presence change): the list stays,
  // and is not laid out at once to find its end, only kept there when the next frame is.
  const changed = refill(list, JSON.stringify(lines), () =>
    lines.length
      ? lines.map(([text, kind]) => h("li", { class: `log-${kind}`, dataset: { testid: "log-line" } }, text))
      : h("li", { class: "muted" }, _("Nothing has happened in this hand yet.")),
  );
  if (!following) return;
  // A new line: at the end at once, before the scroll event reads where the reader is.
  if (changed) list.scrollTop = list.scrollHeight;
  // Once laid out again (the panel may only now be docked, the chat below it may have grown).
  if (!scrolling) {
    scrolling = true;
    requestAnimationFrame(() => {
      scrolling = false;
      list.scrollTop = list.scrollHeight;
    });
  }
}

// Whether a scroll to the newest line waits for the next frame.
let scrolling = false;

// A line of the log as [text, kind] (its class): what the list is drawn from.
const line = (text, kind) => [text, kind];
