// The seats around the table (you at the bottom; spectators see seat 0 there): presence, name,
// bot, roles, cards, bids or tricks, the running total, the cards placed in the auction, and
// whatever the features draw into the seat's corner (`seatExtra`); and a seat in one line, its
// label for screen readers (speech.js says it too).
import { cardFace } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { botLevelName, roleName, seatName } from "./names.js";

export const count = (value) => (Array.isArray(value) ? value.length : (value ?? 0));

// During the revised auction the Crown and Shield change hands live (`crown`, `shield`).
export const holder = (view, role) => view[role] ?? view[role === "chief" ? "crown" : "shield"] ?? null;

// Who sits where, seen from the bottom seat (you; spectators see seat 0 there): the others
// clockwise from the bottom seat's left, as at a real table: up the left side, along the top,
// down the right side. Two others sit at the top corners; from three on, one on each side.
export function places(view) {
  const n = view.players ?? view.seats?.length ?? 0;
  const bottom = view.seat ?? 0;
  const others = Array.from({ length: Math.max(n - 1, 0) }, (_, i) => (bottom + 1 + i) % n);
  const side = others.length >= 3 ? 1 : 0;
  return {
    bottom,
    left: others.slice(0, side),
    top: others.slice(side, others.length - side),
    right: side ? others.slice(-side) : [],
  };
}

// A seat in one line: "Ben, Chief, 12 cards, 3 tricks, 14 points, to move".
export function seatSentence(view, seat) {
  const parts = [seatName(view, seat)];
  if (seat === view.seat) parts.push(_("you"));
  if (holder(view, "chief") === seat) parts.push(roleName(view, "chief"));
  if (holder(view, "vice") === seat) parts.push(roleName(view, "vice"));
  if (view.partner === seat) parts.push(_("Partner"));
  const cards = count(view.hand_counts?.[seat]) + (view.displays?.[seat] ?? []).length;
  parts.push(ngettext("{n} card", "{n} cards", cards));
  if (view.phase === "auction") parts.push(_("bid {n}", { n: count(view.bids?.[seat]) }));
  else parts.push(ngettext("{n} trick", "{n} tricks", count(view.tricks_won?.[seat])));
  parts.push(ngettext("{n} point", "{n} points", view.totals?.[seat] ?? 0));
  if (view.to_move === seat && !view.game_over) parts.push(_("to move"));
  return parts.join(", ");
}

function roles(view, seat) {
  const list = [];
  if (holder(view, "chief") === seat) list.push(["chief", roleName(view, "chief")]);
  if (holder(view, "vice") === seat) list.push(["vice", roleName(view, "vice")]);
  if (view.partner === seat) list.push(["partner", _("Partner")]);
  if (view.dealer === seat) list.push(["dealer", _("Dealer")]);
  if (view.game_over && view.winners?.includes(seat)) list.push(["leader", _("winner")]);
  // Where the roles change hands live during the auction (the view names a Crown), its badge
  // already says who leads.
  const live = view.crown !== null && view.crown !== undefined;
  if (view.phase === "auction" && !live && view.auction_leader === seat) list.push(["leader", _("Leads")]);
  return list.map(([kind, label]) => h("span", { class: `badge b-${kind}` }, label));
}

function seatPanel(view, seat, place, extra) {
  const info = view.seats?.[seat] ?? {};
  const mine = seat === view.seat;
  const connected = info.bot || info.connected !== false;
  const turn = view.to_move === seat && !view.game_over;
  const display = view.displays?.[seat] ?? [];
  const cards = count(view.hand_counts?.[seat]) + display.length;
  const you = mine ? " (" + _("you") + ")" : "";
  const extras = extra(seat);
  return h(
    "section",
    {
      "class": `seat at-${place}${turn ? " turn" : ""}${connected ? "" : " away"}${mine ? " mine" : ""}`,
      // Name, role, cards left, tricks and points, in one line for screen readers.
      "aria-label": seatSentence(view, seat),
      "aria-current": turn ? "true" : null,
      "dataset": { seat, testid: `seat-${seat}` },
    },
    h(
      "div",
      { class: "who" },
      h("span", {
        "class": "presence",
        "role": "img",
        "aria-label": connected ? _("connected") : _("not connected"),
        "title": connected ? _("connected") : _("not connected"),
      }),
      h("b", { class: "name" }, seatName(view, seat) + you),
      turn ? h("span", { class: "turnmark" }, _("to move")) : null,
    ),
    h(
      "div",
      { class: "stats" },
      // "Bot · Normal"; where a seat is narrow (the sides on a phone) the level is in its title.
      info.bot
        ? h(
            "span",
            { class: "badge b-bot", title: info.bot_level ? botLevelName(info.bot_level) : null },
            _("Bot"),
            info.bot_level ? h("span", { class: "level" }, " · " + botLevelName(info.bot_level)) : null,
          )
        : null,
      info.bot_playing
        ? h(
            "span",
            {
              class: "badge b-standin",
              title: _("Away: a bot plays for them until they come back"),
              dataset: { testid: `bot-playing-${seat}` },
            },
            _("bot playing"),
          )
        : null,
      ...roles(view, seat),
    ),
    h(
      "div",
      { class: "stats counts" },
      h("span", { title: _("cards in hand and on display") }, ngettext("{n} card", "{n} cards", cards)),
      view.phase === "auction"
        ? h(
            "span",
            { class: "bidcount", dataset: { testid: `bid-count-${seat}` } },
            _("bid {n}", { n: count(view.bids?.[seat]) }),
          )
        : h("span", {}, ngettext("{n} trick", "{n} tricks", count(view.tricks_won?.[seat]))),
      // The game's running total, not this hand's: said so, beside this hand's tricks.
      h(
        "span",
        { class: "total", title: _("Points in this game so far") },
        _("Total {n}", { n: view.totals?.[seat] ?? 0 }),
      ),
    ),
    // The cards placed in the auction lie face up in front of their owner until played
    // (your own are buttons in your hand area instead).
    mine || !display.length
      ? null
      : h(
          "div",
          { "class": "display", "role": "group", "aria-label": _("On display") },
          ...display.map((c) => cardFace(c, { tag: "span", small: true, ranking: view.trump_ranking })),
        ),
    extras.some(Boolean) ? h("div", { class: "seat-extras" }, ...extras) : null,
  );
}

// Every seat in its place around the table; the bottom one is yours (spectators: seat 0).
// `extra(seat)`: the features' nodes (or nulls) for the seat's corner.
export function renderRing(view, extra) {
  const at = places(view);
  const panels = (seats, place) => seats.map((seat) => seatPanel(view, seat, place, extra));
  $("#ring").dataset.seats = String(view.players);
  fill($("#ring-top"), panels(at.top, "top"));
  fill($("#ring-left"), panels(at.left, "left"));
  fill($("#ring-right"), panels(at.right, "right"));
  fill($("#ring-bottom"), seatPanel(view, at.bottom, "bottom", extra));
}

