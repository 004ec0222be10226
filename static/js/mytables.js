// "Your tables" on the home page: the tables this browser sits at (its seat cookies, read by
// the server), those where it is your turn first, with how long the current turn has lasted.
// The tab title and the favicon (a badge drawn by the server: /favicon/{n}.svg) count your turns.
import { $, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";

const baseTitle = document.title;

export function waited(seconds) {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return ngettext("{n} minute", "{n} minutes", Math.max(minutes, 1));
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return ngettext("{n} hour", "{n} hours", hours);
  return ngettext("{n} day", "{n} days", Math.floor(hours / 24));
}

function others(table) {
  return table.names.filter((name, seat) => name && seat !== table.seat).join(", ");
}

function line(table) {
  let state;
  if (table.status === "over") state = _("game over");
  else if (table.status === "waiting") state = _("waiting for players");
  else if (table.your_turn)
    state =
      table.turn_seconds === null
        ? _("your turn")
        : _("your turn · the others have waited {time}", { time: waited(table.turn_seconds) });
  else state = _("the others' turn");
  const who = others(table) || _("nobody else yet");
  return h(
    "li",
    { class: table.your_turn ? "yours" : "", "data-testid": "your-table" },
    h("a", { href: table.url }, who),
    h("span", { class: "state" }, state),
  );
}

export async function showYourTables() {
  let mine;
  try {
    const response = await fetch("/api/me/tables");
    if (!response.ok) return;
    mine = await response.json();
  } catch {
    return;
  }
  if (!mine.tables.length) return;
  const list = $("#your-tables-list");
  list.replaceChildren(...mine.tables.map(line));
  $("#your-tables").hidden = false;
  document.title = mine.your_turn ? `(${mine.your_turn}) ${baseTitle}` : baseTitle;
  if (mine.your_turn) $("link[rel=icon]").href = `/favicon/${mine.your_turn}.svg`;
}
