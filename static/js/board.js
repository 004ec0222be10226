// Draws the table from one view: the players sitting around the table (you at the bottom), the
// trick in the middle in front of whoever played each card, the prompt (what you may do now) and
// your own display and hand below. Legality comes only from the server's prompt; this module
// just shows it.
import { cardFace, colourName, isNamedTrump, rankingParts, sortHand, trumpChip, trumpName } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";
import { trumpKind } from "./rulebook.js";

export const seatNumber = (seat) => _("Seat {n}", { n: seat + 1 });
export const seatName = (view, seat) => view.seats?.[seat]?.name || seatNumber(seat);

const count = (value) => (Array.isArray(value) ? value.length : (value ?? 0));

// The two leading roles are Chief/Vice in the classic game and Crown/Shield in the revised
// edition; the view's `roles` says which, and the same seats sit in `chief`/`vice`.
const ROLE_NAME = { chief: N_("Chief"), vice: N_("Vice"), crown: N_("Crown"), shield: N_("Shield") };
const ROLE_THE = {
  chief: N_("the chief"),
  vice: N_("the vice"),
  crown: N_("the Crown"),
  shield: N_("the Shield"),
};
const roleKey = (view, role) => view.roles?.[role] ?? role;
export const roleName = (view, role) => _(ROLE_NAME[roleKey(view, role)] ?? role);
export const roleThe = (view, role) => _(ROLE_THE[roleKey(view, role)] ?? role);

const BOT_LEVEL_NAME = { random: N_("Easy"), heuristic: N_("Normal"), search: N_("Strong") };
export const botLevelName = (level) => _(BOT_LEVEL_NAME[level] ?? level);

// During the revised auction the Crown and Shield change hands live (`crown`, `shield`).
const holder = (view, role) => view[role] ?? view[role === "chief" ? "crown" : "shield"] ?? null;

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

// Other features add to every seat here (a chat bubble, an "away" countdown): functions
// (view, seat) → a node or null, drawn into the seat's corner on every redraw.
export const seatExtras = [];

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

function seatPanel(view, seat, place) {
  const info = view.seats?.[seat] ?? {};
  const mine = seat === view.seat;
  const connected = info.bot || info.connected !== false;
  const turn = view.to_move === seat && !view.game_over;
  const display = view.displays?.[seat] ?? [];
  const cards = count(view.hand_counts?.[seat]) + display.length;
  const you = mine ? " (" + _("you") + ")" : "";
  const extras = seatExtras.map((extra) => extra(view, seat));
  return h(
    "section",
    {
      "class": `seat at-${place}${turn ? " turn" : ""}${connected ? "" : " away"}${mine ? " mine" : ""}`,
      "aria-label": seatName(view, seat),
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
      info.bot
        ? h(
            "span",
            { class: "badge b-bot" },
            info.bot_level ? _("Bot · {level}", { level: botLevelName(info.bot_level) }) : _("Bot"),
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
      h("span", { class: "total" }, ngettext("{n} point", "{n} points", view.totals?.[seat] ?? 0)),
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

export function renderInfo(view) {
  const hand = _("Hand {n}", { n: view.hand_number ?? 1 });
  const trick = view.trick_number ? _("trick {n}", { n: view.trick_number }) : "";
  $("#hand-no").textContent = trick ? `${hand} · ${trick}` : hand;
  const goal = view.team_goal;
  $("#goal").textContent = goal
    ? ngettext("Team goal: {goal} point (bid {bid})", "Team goal: {goal} points (bid {bid})", goal, {
        goal,
        bid: view.bid,
      })
    : "";
  const ranking = $("#ranking");
  const names = { chief: roleName(view, "chief"), vice: roleName(view, "vice") };
  const parts = rankingParts(view.trumps, names, view.trump_ranking);
  fill(
    ranking,
    ...(parts.length ? [h("span", { class: "muted" }, _("Trumps:"))] : []),
    ...parts.flatMap((part, i) => [
      i ? h("span", { "class": "gt", "role": "img", "aria-label": _("ranks over") }, "›") : null,
      h(
        "span",
        { class: "rank" },
        h("b", {}, part.label),
        " ",
        part.kind ? trumpChip(part.kind) : null,
        " ",
        h("small", { class: part.kind ? "order" : null }, part.text),
      ),
    ]),
  );
}

// Every seat in its place around the table; the bottom one is yours (spectators: seat 0).
export function renderRing(view) {
  const at = places(view);
  const panels = (seats, place) => seats.map((seat) => seatPanel(view, seat, place));
  $("#ring").dataset.seats = String(view.players);
  fill($("#ring-top"), panels(at.top, "top"));
  fill($("#ring-left"), panels(at.left, "left"));
  fill($("#ring-right"), panels(at.right, "right"));
  fill($("#ring-bottom"), seatPanel(view, at.bottom, "bottom"));
}

// Card ids on the felt at the last drawing: a card not among them has just been played and
// slides in from its player's side.
let onFelt = new Set();

// The middle of the table: during the auction what has happened, during the play each card in
// front of whoever played it (a just-won trick, `shownTrick`, stays a moment with its winner
// lit), and a marked empty place in front of the player to move.
export function renderFelt(view, shownTrick = null) {
  const box = $("#trick");
  box.classList.toggle("won", Boolean(shownTrick));
  box.classList.remove("collect");
  if (shownTrick) box.dataset.winner = shownTrick.winner;
  else delete box.dataset.winner;
  const plays = shownTrick ? shownTrick.cards : (view.trick ?? []);
  if (!plays.length && view.phase !== "play") {
    fill(box, view.phase === "auction" ? auctionLog(view) : null);
    onFelt = new Set();
    return;
  }
  const bySeat = new Map(plays.map((p) => [p.seat, p]));
  const waiting = !shownTrick && view.phase === "play" ? view.to_move : null;
  const spot = (seat, place) => {
    const play = bySeat.get(seat);
    if (play) return trickCard(view, play, place, shownTrick?.winner === seat, !onFelt.has(play.card.id));
    return h("div", { class: `spot at-${place}${seat === waiting ? " waiting" : ""}`, dataset: { seat } });
  };
  const at = places(view);
  fill(
    box,
    h("div", { class: "t-top" }, ...at.top.map((seat) => spot(seat, "top"))),
    at.left.length ? h("div", { class: "t-left" }, ...at.left.map((seat) => spot(seat, "left"))) : null,
    at.right.length ? h("div", { class: "t-right" }, ...at.right.map((seat) => spot(seat, "right"))) : null,
    h("div", { class: "t-bottom" }, spot(at.bottom, "bottom")),
  );
  onFelt = new Set(plays.map((p) => p.card.id));
}

function trickCard(view, play, place, winner, arriving) {
  return h(
    "figure",
    {
      class: `spot played at-${place}${winner ? " winner" : ""}${arriving ? " arrive" : ""}`,
      dataset: { seat: play.seat },
    },
    cardFace(play.card, { tag: "span", ranking: view.trump_ranking }),
    h("figcaption", {}, seatName(view, play.seat)),
  );
}

// A won trick gathers up and moves to its winner's seat (nothing moves for people who asked
// their system for reduced motion: the trick simply goes when the next one starts).
export function collectTrick() {
  const box = $("#trick");
  const winner = box.dataset.winner;
  const seat = winner === undefined ? null : $(`#ring .seat[data-seat="${winner}"]`);
  if (!seat || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const target = seat.getBoundingClientRect();
  for (const card of box.querySelectorAll(".played")) {
    const from = card.getBoundingClientRect();
    card.style.setProperty("--dx", `${target.left + target.width / 2 - (from.left + from.width / 2)}px`);
    card.style.setProperty("--dy", `${target.top + target.height / 2 - (from.top + from.height / 2)}px`);
  }
  box.classList.add("collect");
}

function auctionLog(view) {
  const leader = view.auction_leader;
  const recent = (view.auction ?? []).slice(-view.players);
  return h(
    "div",
    { class: "auction-log", dataset: { testid: "auction-log" } },
    h(
      "p",
      { class: "lead" },
      leader === null || leader === undefined
        ? _("Nobody has placed cards yet")
        : _("{name} leads the auction with {n}", {
            name: seatName(view, leader),
            n: count(view.bids?.[leader]),
          }),
    ),
    h(
      "ol",
      {},
      ...recent.map((entry) =>
        h(
          "li",
          {},
          entry.type === "pass"
            ? _("{name} passed", { name: seatName(view, entry.seat) })
            : _("{name} placed {n}", { name: seatName(view, entry.seat), n: entry.cards.length }),
        ),
      ),
    ),
  );
}

export function winnersText(view) {
  const winners = view.winners ?? [];
  const names = winners.map((seat) => seatName(view, seat)).join(", ");
  // TRANSLATORS: the plural follows the number of winners.
  return ngettext("Winner: {names}", "Winners: {names}", winners.length, { names });
}

// One sentence saying who is to act, shown under the trick.
export function statusText(view) {
  if (view.game_over) return winnersText(view);
  const seat = view.to_move;
  if (seat === null || seat === undefined) return "";
  const mine = seat === view.seat;
  const name = seatName(view, seat);
  const chief = roleName(view, "chief");
  switch (view.phase) {
    case "auction":
      return mine ? _("Your turn: place cards or pass") : _("{name} is bidding…", { name });
    case "discard":
      return mine
        ? ngettext("Your turn: discard {n} card", "Your turn: discard {n} cards", view.prompt.count)
        : _("{name} ({role}) takes the kitty and discards…", { name, role: chief });
    case "vice_trump":
    case "chief_trump": {
      const role = view.phase === "vice_trump" ? roleName(view, "vice") : chief;
      return mine
        ? _("Your turn: name your trump ({role})", { role })
        : _("{name} ({role}) names a trump…", { name, role });
    }
    case "partner":
      return mine
        ? _("Your turn: choose a partner")
        : _("{name} ({role}) chooses a partner…", { name, role: chief });
    case "play":
      return mine ? _("Your turn: play a card") : _("{name} plays…", { name });
    default:
      return "";
  }
}

// Your own cards: the ones face up in front of you (placed in the auction) and your hand. Your
// seat itself sits at the bottom of the table (renderRing).
export function renderMe(view, ui) {
  const me = $("#me");
  if (view.seat === null || view.seat === undefined) {
    fill(me);
    return;
  }
  const prompt = view.prompt;
  const display = sortHand(view.displays?.[view.seat] ?? [], view.trump_ranking);
  const hand = sortHand(view.hand ?? [], view.trump_ranking);
  fill(
    me,
    display.length
      ? h(
          "div",
          { class: "my-display" },
          h("span", { class: "label" }, _("On display")),
          h("div", { class: "cards" }, ...display.map((c) => myCard(view, c, prompt, ui, "display"))),
        )
      : null,
    h(
      "div",
      { "class": "hand", "role": "group", "aria-label": _("Your hand"), "dataset": { testid: "hand" } },
      ...hand.map((c) => myCard(view, c, prompt, ui, "hand")),
    ),
  );
}

function myCard(view, card, prompt, ui, place) {
  const el = cardFace(card, { ranking: view.trump_ranking });
  const { legal, reason } = cardState(view, card, prompt, ui, place);
  el.dataset.legal = String(legal);
  el.dataset.place = place;
  el.setAttribute("aria-disabled", String(!legal));
  if (reason) {
    el.title = reason;
    if (prompt?.type === "play") el.setAttribute("aria-label", `${el.getAttribute("aria-label")}. ${reason}`);
  }
  if (selecting(prompt) && ui.selected.has(card.id)) {
    el.classList.add("selected");
    el.setAttribute("aria-pressed", "true");
  }
  if (prompt?.type === "play" && !legal) el.classList.add("dim");
  // While discarding, the Crown sees which cards just came from the kitty.
  if (prompt?.type === "discard" && view.kitty?.cards?.some((k) => k.id === card.id))
    el.classList.add("kitty");
  el.addEventListener("click", () => (legal ? ui.onCard(card, place) : reason && ui.onReason(reason)));
  return el;
}

// Whether a card of yours can be used right now, and if not, why (from the prompt only).
function cardState(view, card, prompt, ui, place) {
  if (ui.pending) return { legal: false, reason: "" };
  if (!prompt || view.to_move !== view.seat) return { legal: false, reason: _("Wait for your turn") };
  if (prompt.type === "bid") {
    if (place !== "hand") return { legal: false, reason: _("Bids come from your hand") };
    const full = ui.selected.size >= prompt.max_cards && !ui.selected.has(card.id);
    const most = ngettext("You may place only {n} card", "You may place up to {n} cards", prompt.max_cards);
    return full ? { legal: false, reason: most } : { legal: true, reason: "" };
  }
  if (prompt.type === "discard") {
    const full = ui.selected.size >= prompt.count && !ui.selected.has(card.id);
    const allowed = place === "hand" && prompt.cards.includes(card.id) && !full;
    return allowed
      ? { legal: true, reason: "" }
      : {
          legal: false,
          reason: ngettext("Discard exactly {n} card", "Discard exactly {n} cards", prompt.count),
        };
  }
  if (prompt.type !== "play") return { legal: false, reason: _("Make your choice above first") };
  if (prompt.cards.includes(card.id)) return { legal: true, reason: "" };
  const follow = prompt.must_follow;
  if (follow === "trump") return { legal: false, reason: _("You must play a trump") };
  if (follow) return { legal: false, reason: _("You must follow {colour}", { colour: colourName(follow) }) };
  return { legal: false, reason: _("This card cannot be played now") };
}

// Prompts answered by selecting several cards of the hand first.
export const selecting = (prompt) => prompt?.type === "bid" || prompt?.type === "discard";

// The controls for the current prompt: bid/pass, discard, trump options, partner options.
export function renderPrompt(view, ui) {
  const box = $("#prompt");
  const prompt = view.to_move === view.seat ? view.prompt : null;
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
    prompt.max_cards ? h("p", { class: "muted" }, _("Tap cards from your hand to select them.")) : null,
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
