// Talk at the table: the chat (kept with the table; the server sends the recent lines on
// connecting and each new one as it is said) and one-tap reactions, both shown for a moment as a
// bubble at the speaker's seat. Everything said is shown with textContent, never as markup.
// Muting a player is this browser's choice, kept in localStorage per table.
import { announce } from "./announce.js";
import { $, fill, h, refill, toast } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";
import { seatName } from "./names.js";
import { CHAT_MAX_CHARS, REACTIONS } from "./protocol.js";
import { state } from "./state.js";

// How each reaction the server knows (protocol.js) looks: its face and its name.
const LOOK = {
  thumbs_up: ["👍", N_("Thumbs up")],
  wow: ["😮", N_("Wow")],
  laugh: ["😂", N_("Ha ha")],
  oops: ["🙈", N_("Oops")],
  well_played: [N_("Well played"), N_("Well played")],
};
const REACTION = Object.fromEntries(REACTIONS.map((key) => [key, { face: LOOK[key][0], label: LOOK[key][1] }]));
const BUBBLE_MS = { line: 6000, reaction: 3500 };

// This feature's slice of the state: `state.talk` = {lines (oldest first, by id), seen (the
// newest line id read: the chat open, or said by you), bubbles (seat -> {kind, text, until}),
// muted (seats)}.
const talk = state.talk;

const muteKey = () => `mu_muted_${state.code}`;

// The feature (docs/client.md, "Features"). `page`: {send(message) -> whether it went out,
// redrawSeats()}.
export function talkFeature(page) {
  try {
    talk.muted = new Set(JSON.parse(localStorage.getItem(muteKey()) ?? "[]"));
  } catch {
    talk.muted = new Set();
  }
  wire(page);
  return {
    name: "talk",
    onMessage: { chat: (message) => onChat(page, message), reaction: (message) => onReaction(page, message) },
    render: (current) => talkView(page, current),
    seatExtra: bubbleAt,
  };
}

function wire(page) {
  $("#btn-chat").addEventListener("click", () => openChat(page));
  $("#chat-form").addEventListener("submit", (event) => say(page, event));
  const input = $("#chat-input");
  input.maxLength = CHAT_MAX_CHARS;
  input.addEventListener("input", () => {
    $("#chat-count").textContent = `${input.value.length}/${CHAT_MAX_CHARS}`;
  });
  fill(
    $("#reactions"),
    ...Object.entries(REACTION).map(([key, { face, label }]) =>
      h(
        "button",
        {
          "type": "button",
          "class": `react${key === "well_played" ? " react-words" : ""}`,
          "aria-label": _(label),
          "title": _(label),
          "dataset": { testid: `react-${key}` },
          "onclick": () => react(page, key),
        },
        key === "well_played" ? _(face) : face,
      ),
    ),
  );
  $("#chat").addEventListener("close", () => markRead());
}

// Drawn with every view: who sits where (names, whether you may talk).
function talkView(page, { view }) {
  const seated = view.seat !== null && view.seat !== undefined;
  $("#reactions").hidden = !seated;
  $("#chat-form").hidden = !seated;
  $("#chat-spectator").hidden = seated;
  if ($("#chat").open) drawChat(page);
}

function onChat(page, message) {
  const known = new Set(talk.lines.map((line) => line.id));
  const fresh = message.lines.filter((line) => !known.has(line.id));
  if (!fresh.length) return;
  talk.lines = [...talk.lines, ...fresh].sort((a, b) => a.id - b.id).slice(-200);
  if (message.recent) {
    // The recent lines on (re)connecting: already said, nothing to pop up.
    talk.seen = Math.max(talk.seen, talk.lines.at(-1).id);
  } else {
    for (const line of fresh) {
      if (line.seat === state.view?.seat) talk.seen = Math.max(talk.seen, line.id);
      else if (!talk.muted.has(line.seat)) {
        bubble(page, line.seat, "line", line.text);
        announce(_("{name} says: {text}", { name: seatName(state.view ?? {}, line.seat), text: line.text }));
      }
    }
  }
  if ($("#chat").open) {
    drawChat(page);
    markRead();
  }
  drawUnread();
}

function onReaction(page, message) {
  if (talk.muted.has(message.seat)) return;
  const reaction = REACTION[message.reaction];
  if (!reaction) return;
  bubble(page, message.seat, "reaction", message.reaction === "well_played" ? _(reaction.face) : reaction.face);
  const label = _(reaction.label);
  announce(
    _("{name} reacts: {reaction}", { name: seatName(state.view ?? {}, message.seat), reaction: label }),
  );
}

function bubble(page, seat, kind, text) {
  const until = Date.now() + BUBBLE_MS[kind];
  talk.bubbles.set(seat, { kind, text, until });
  page.redrawSeats();
  setTimeout(() => {
    if (talk.bubbles.get(seat)?.until === until) {
      talk.bubbles.delete(seat);
      page.redrawSeats();
    }
  }, BUBBLE_MS[kind]);
}

// A seat's bubble, drawn into the seat's corner (seatExtra).
function bubbleAt({ view }, seat) {
  const said = talk.bubbles.get(seat);
  if (!said || said.until < Date.now()) return null;
  return h(
    "span",
    {
      "class": `bubble bubble-${said.kind}`,
      "role": "status",
      "aria-label": _("{name} says: {text}", { name: seatName(view, seat), text: said.text }),
      "dataset": { testid: `bubble-${seat}` },
    },
    said.text,
  );
}

function react(page, key) {
  if (!page.send({ type: "react", reaction: key })) toast(_("Not connected right now."));
}

function say(page, event) {
  event.preventDefault();
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (!page.send({ type: "chat", text })) {
    toast(_("Not connected right now."));
    return;
  }
  input.value = "";
  $("#chat-count").textContent = `0/${CHAT_MAX_CHARS}`;
}

function openChat(page) {
  drawChat(page);
  const dialog = $("#chat");
  if (!dialog.open) dialog.showModal();
  markRead();
  const list = $("#chat-lines");
  list.scrollTop = list.scrollHeight;
}

function markRead() {
  const newest = talk.lines.at(-1);
  if (newest) talk.seen = Math.max(talk.seen, newest.id);
  drawUnread();
}

function unread() {
  return talk.lines.filter((line) => line.id > talk.seen && !talk.muted.has(line.seat)).length;
}

function drawUnread() {
  const n = unread();
  const button = $("#btn-chat");
  button.textContent = n ? _("Messages ({n})", { n }) : _("Messages");
  button.setAttribute("aria-label", n ? ngettext("Messages: {n} new", "Messages: {n} new", n) : _("Messages"));
  button.classList.toggle("unread", n > 0);
}

function drawChat(page) {
  const view = state.view;
  const list = $("#chat-lines");
  const shown = talk.lines.filter((line) => !talk.muted.has(line.seat));
  const rows = shown.map((line) => [line.id, line.seat === view?.seat, view ? seatName(view, line.seat) : "", line.text]);
  // A view that changes neither the lines nor the switches (every move, on a laptop where the
  // panel is always open) leaves them alone, unmeasured.
  let atBottom = false;
  const drawn = refill(list, JSON.stringify(rows), () => {
    atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    return shown.length
      ? shown.map((line, index) => {
          const [, mine, name] = rows[index];
          return h(
            "li",
            { class: mine ? "mine" : null, dataset: { testid: "chat-line" } },
            h("time", { datetime: line.at }, clock(line.at)),
            " ",
            h("b", {}, name),
            " ",
            h("span", { class: "chat-text" }, line.text),
          );
        })
      : h("li", { class: "muted" }, _("Nothing said yet."));
  });
  if (drawn && atBottom) list.scrollTop = list.scrollHeight;
  drawMutes(page);
}

function clock(at) {
  const time = new Date(at);
  return Number.isNaN(time.getTime()) ? "" : time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// One switch per other person at the table: muted players' lines and reactions are not shown.
function drawMutes(page) {
  const view = state.view;
  const others = (view?.seats ?? [])
    .map((info, seat) => ({ info, seat }))
    .filter(({ info, seat }) => info?.name && !info.bot && seat !== view.seat);
  $("#chat-mutes").hidden = !others.length;
  const key = JSON.stringify(others.map(({ seat }) => [seat, seatName(view, seat), talk.muted.has(seat)]));
  refill($("#chat-mute-list"), key, () =>
    others.map(({ seat }) =>
      h(
        "label",
        { class: "mute" },
        h("input", {
          type: "checkbox",
          checked: talk.muted.has(seat),
          dataset: { testid: `mute-${seat}` },
          onchange: (event) => setMuted(page, seat, event.target.checked),
        }),
        " ",
        seatName(view, seat),
      ),
    ),
  );
}

function setMuted(page, seat, muted) {
  if (muted) talk.muted.add(seat);
  else talk.muted.delete(seat);
  localStorage.setItem(muteKey(), JSON.stringify([...talk.muted]));
  talk.bubbles.delete(seat);
  drawChat(page);
  drawUnread();
  page.redrawSeats();
}
