// Draws the table from one view: the other players around the top, the trick in the middle,
// the prompt (what you may do now) and your own display and hand at the bottom.
// Legality comes only from the server's prompt; this module just shows it.
import { cardFace, colourName, rankingParts, sortHand, trumpChip, trumpName } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";

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

// The viewer sits at the bottom; the others follow clockwise from the left neighbour.
function othersInOrder(view) {
  const me = view.seat ?? -1;
  const first = me < 0 ? 0 : me + 1;
  return Array.from({ length: view.players }, (_, i) => (first + i) % view.players).filter((s) => s !== me);
}

function roles(view, seat) {
  const list = [];
  if (holder(view, "chief") === seat) list.push(["chief", roleName(view, "chief")]);
  if (holder(view, "vice") === seat) list.push(["vice", roleName(view, "vice")]);
  if (view.partner === seat) list.push(["partner", _("Partner")]);
  if (view.dealer === seat) list.push(["dealer", _("Dealer")]);
  // The revised edition's live Crown badge already says who leads the auction.
  const crown = view.roles?.chief === "crown";
  if (view.phase === "auction" && !crown && view.auction_leader === seat)
    list.push(["leader", _("Leads")]);
  return list.map(([kind, label]) => h("span", { class: `badge b-${kind}` }, label));
}

function seatPanel(view, seat, { mine = false } = {}) {
  const info = view.seats?.[seat] ?? {};
  const connected = info.bot || info.connected !== false;
  const turn = view.to_move === seat;
  const display = view.displays?.[seat] ?? [];
  const bidCount = count(view.bids?.[seat]);
  const cards = count(view.hand_counts?.[seat]) + display.length;
  const you = mine ? " (" + _("you") + ")" : "";
  return h(
    "div",
    {
      class: `seat${turn ? " turn" : ""}${connected ? "" : " away"}${mine ? " mine" : ""}`,
      dataset: { seat, testid: `seat-${seat}` },
    },
    h(
      "div",
      { class: "who" },
      h("span", { class: "presence", title: connected ? _("connected") : _("not connected") }),
      h("b", { class: "name" }, seatName(view, seat) + you),
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
      h("span", { title: _("cards in hand and on display") }, ngettext("{n} card", "{n} cards", cards)),
      view.phase === "auction"
        ? h(
            "span",
            { class: "bidcount", dataset: { testid: `bid-count-${seat}` } },
            _("bid {n}", { n: bidCount }),
          )
        : h("span", {}, ngettext("{n} trick", "{n} tricks", count(view.tricks_won?.[seat]))),
      h("span", { class: "total" }, ngettext("{n} point", "{n} points", view.totals?.[seat] ?? 0)),
      turn ? h("span", { class: "turnmark" }, _("to move")) : null,
    ),
    mine
      ? null
      : h(
          "div",
          { class: "display" },
          ...display.map((c) => cardFace(c, { tag: "span", small: true, ranking: view.trump_ranking })),
        ),
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
      i ? h("span", { "class": "gt", "aria-label": _("ranks over") }, "›") : null,
      h(
        "span",
        { class: "rank" },
        h("b", {}, part.label),
        " ",
        part.kind ? trumpChip(part.kind) : null,
        " ",
        h("small", {}, part.text),
      ),
    ]),
  );
}

export function renderOthers(view) {
  fill($("#others"), ...othersInOrder(view).map((seat) => seatPanel(view, seat)));
}

// The cards in the middle: the trick being played, or during the auction what has happened.
export function renderCenter(view, shownTrick = null, box = $("#trick"), collect = false) {
  box.classList.toggle("won", Boolean(shownTrick));
  box.classList.toggle("collect", collect);
  if (shownTrick) {
    fill(box, ...shownTrick.cards.map((p) => trickCard(view, p, p.seat === shownTrick.winner)));
    box.dataset.winner = shownTrick.winner;
    return;
  }
  delete box.dataset.winner;
  if (view.phase === "auction") {
    fill(box, auctionLog(view));
    return;
  }
  fill(box, ...(view.trick ?? []).map((p) => trickCard(view, p, false)));
}

function trickCard(view, play, winner) {
  return h(
    "figure",
    { class: `played${winner ? " winner" : ""}`, dataset: { seat: play.seat } },
    cardFace(play.card, { tag: "span", ranking: view.trump_ranking }),
    h("figcaption", {}, seatName(view, play.seat)),
  );
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
        ? ngettext("Your turn: discard {n} card", "Your turn: discard {n} cards", view.prompt?.count ?? 3)
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

// Your own seat: your panel, the face-up cards in front of you and your hand.
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
    seatPanel(view, view.seat, { mine: true }),
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
      { class: "hand", dataset: { testid: "hand" } },
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
  const viceNamed = chief && viceTrump && viceTrump !== "none";
  if (option === "none") {
    if (!chief) return _("No trump from you; {chief} may still name one.", named);
    return viceNamed
      ? _("Only {vice_trump} counts, the trump {vice} named.", named)
      : _("No trumps at all: the highest card of the led colour wins.");
  }
  const what = /^[0-9]$/.test(option)
    ? _("All {n}s become trumps, equal in rank.", { n: option })
    : _("All {colour} cards become trumps, 9 high.", { colour: colourName(option) });
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
