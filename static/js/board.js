// Draws the table from one view: the other players around the top, the trick in the middle,
// the prompt (what you may do now) and your own display and hand at the bottom.
// Legality comes only from the server's prompt; this module just shows it.
import { cardFace, colourName, rankingParts, sortHand, trumpChip, trumpName } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { t } from "./i18n.js";

export const seatName = (view, seat) => view.seats?.[seat]?.name || t("seat.number", { n: seat + 1 });

const count = (value) => (Array.isArray(value) ? value.length : (value ?? 0));

// The two leading roles are Chief/Vice in the classic game and Crown/Shield in the revised
// edition; the view's `roles` says which, and the same seats sit in `chief`/`vice`.
const roleKey = (view, role) => view.roles?.[role] ?? role;
export const roleName = (view, role) => t(`role.${roleKey(view, role)}`);
export const roleThe = (view, role) => t(`role.the_${roleKey(view, role)}`);

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
  if (view.partner === seat) list.push(["partner", t("role.partner")]);
  if (view.dealer === seat) list.push(["dealer", t("role.dealer")]);
  // The revised edition's live Crown badge already says who leads the auction.
  const crown = view.roles?.chief === "crown";
  if (view.phase === "auction" && !crown && view.auction_leader === seat)
    list.push(["leader", t("role.leader")]);
  return list.map(([kind, label]) => h("span", { class: `badge b-${kind}` }, label));
}

function seatPanel(view, seat, { mine = false } = {}) {
  const info = view.seats?.[seat] ?? {};
  const connected = info.bot || info.connected !== false;
  const turn = view.to_move === seat;
  const display = view.displays?.[seat] ?? [];
  const bidCount = count(view.bids?.[seat]);
  return h(
    "div",
    {
      class: `seat${turn ? " turn" : ""}${connected ? "" : " away"}${mine ? " mine" : ""}`,
      dataset: { seat, testid: `seat-${seat}` },
    },
    h(
      "div",
      { class: "who" },
      h("span", { class: "presence", title: connected ? t("presence.on") : t("presence.off") }),
      h("b", { class: "name" }, seatName(view, seat) + (mine ? ` (${t("seat.you")})` : "")),
    ),
    h(
      "div",
      { class: "stats" },
      info.bot
        ? h(
            "span",
            { class: "badge b-bot" },
            info.bot_level ? t("bot.badge", { level: t(`bot.level.${info.bot_level}`) }) : t("role.bot"),
          )
        : null,
      info.bot_playing
        ? h(
            "span",
            { class: "badge b-standin", title: t("bot.playing_title"), dataset: { testid: `bot-playing-${seat}` } },
            t("bot.playing"),
          )
        : null,
      ...roles(view, seat),
      h(
        "span",
        { title: t("stats.cards_title") },
        t("stats.cards", { n: count(view.hand_counts?.[seat]) + display.length }),
      ),
      view.phase === "auction"
        ? h(
            "span",
            { class: "bidcount", dataset: { testid: `bid-count-${seat}` } },
            t("stats.bid", { n: bidCount }),
          )
        : h("span", {}, t("stats.tricks", { n: count(view.tricks_won?.[seat]) })),
      h("span", { class: "total" }, t("stats.total", { n: view.totals?.[seat] ?? 0 })),
      turn ? h("span", { class: "turnmark" }, t("stats.turn")) : null,
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
  const trick = view.trick_number ? ` · ${t("info.trick", { n: view.trick_number })}` : "";
  $("#hand-no").textContent = t("info.hand", { n: view.hand_number ?? 1 }) + trick;
  $("#goal").textContent = view.team_goal ? t("info.goal", { goal: view.team_goal, bid: view.bid }) : "";
  const ranking = $("#ranking");
  const names = { chief: roleName(view, "chief"), vice: roleName(view, "vice") };
  const parts = rankingParts(view.trumps, names, view.trump_ranking);
  fill(
    ranking,
    ...(parts.length ? [h("span", { class: "muted" }, t("rank.title"))] : []),
    ...parts.flatMap((part, i) => [
      i ? h("span", { "class": "gt", "aria-label": t("rank.over") }, "›") : null,
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
        ? t("auction.no_leader")
        : t("auction.leader", { name: seatName(view, leader), n: count(view.bids?.[leader]) }),
    ),
    h(
      "ol",
      {},
      ...recent.map((entry) =>
        h(
          "li",
          {},
          entry.type === "pass"
            ? t("auction.passed", { name: seatName(view, entry.seat) })
            : t("auction.placed", { name: seatName(view, entry.seat), n: entry.cards.length }),
        ),
      ),
    ),
  );
}

// One sentence saying who is to act, shown under the trick.
export function statusText(view) {
  if (view.game_over) {
    const names = (view.winners ?? []).map((seat) => seatName(view, seat)).join(", ");
    return t(view.winners?.length > 1 ? "summary.winners" : "summary.winner", { names });
  }
  const seat = view.to_move;
  if (seat === null || seat === undefined) return "";
  const mine = seat === view.seat;
  const name = seatName(view, seat);
  const [key, role] =
    {
      auction: ["bid"],
      discard: ["discard", "chief"],
      vice_trump: ["trump", "vice"],
      chief_trump: ["trump", "chief"],
      partner: ["partner", "chief"],
      play: ["play"],
    }[view.phase] ?? [];
  if (!key) return "";
  const n = view.prompt?.count ?? 3;
  return t(`status.${mine ? "you" : "other"}_${key}`, { name, n, role: role ? roleName(view, role) : "" });
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
          h("span", { class: "label" }, t("me.display")),
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
  if (!prompt || view.to_move !== view.seat) return { legal: false, reason: t("reason.wait") };
  if (prompt.type === "bid") {
    if (place !== "hand") return { legal: false, reason: t("reason.bid_from_hand") };
    const full = ui.selected.size >= prompt.max_cards && !ui.selected.has(card.id);
    return full
      ? { legal: false, reason: t("reason.max_cards", { n: prompt.max_cards }) }
      : { legal: true, reason: "" };
  }
  if (prompt.type === "discard") {
    const full = ui.selected.size >= prompt.count && !ui.selected.has(card.id);
    const allowed = place === "hand" && prompt.cards.includes(card.id) && !full;
    return allowed
      ? { legal: true, reason: "" }
      : { legal: false, reason: t("reason.discard_count", { n: prompt.count }) };
  }
  if (prompt.type !== "play") return { legal: false, reason: t("reason.choose_first") };
  if (prompt.cards.includes(card.id)) return { legal: true, reason: "" };
  const follow = prompt.must_follow;
  if (follow === "trump") return { legal: false, reason: t("reason.follow_trump") };
  if (follow) return { legal: false, reason: t("reason.follow_colour", { colour: colourName(follow) }) };
  return { legal: false, reason: t("reason.not_allowed") };
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
      prompt.max_cards ? t("bid.title", { n: prompt.max_cards }) : t("bid.title_none"),
    ),
    prompt.max_cards ? h("p", { class: "muted" }, t("bid.help")) : null,
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
        n ? t("bid.place", { n }) : t("bid.select"),
      ),
      prompt.can_pass
        ? h(
            "button",
            { type: "button", disabled: ui.pending, dataset: { testid: "pass" }, onclick: () => ui.onPass() },
            t("bid.pass"),
          )
        : null,
    ),
  ];
}

function discardControls(view, prompt, ui) {
  const n = prompt.count;
  const ready = ui.selected.size === n;
  return [
    h("p", { class: "prompt-title" }, t("discard.title", { n })),
    h("p", { class: "muted" }, t("discard.help")),
    h(
      "button",
      {
        class: "primary",
        type: "button",
        disabled: !ready || ui.pending,
        dataset: { testid: "discard" },
        onclick: () => ui.onDiscard(),
      },
      ready ? t("discard.button", { n }) : t("discard.select", { n }),
    ),
  ];
}

function trumpControls(view, prompt, ui) {
  const chief = prompt.role === "chief";
  const vice = view.trumps?.vice;
  const named = { chief: roleThe(view, "chief"), vice: roleThe(view, "vice"), vice_trump: trumpName(vice) };
  const help = !chief
    ? t("trump.help_vice", named)
    : vice && vice !== "none"
      ? t("trump.help_chief", named)
      : t("trump.help_chief_alone");
  return [
    h("p", { class: "prompt-title" }, t("trump.title", { role: roleName(view, prompt.role) })),
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
    if (!chief) return t("trump.explain_none_first", named);
    return viceNamed ? t("trump.explain_none_vice", named) : t("trump.explain_none");
  }
  const what = /^[0-9]$/.test(option)
    ? t("trump.explain_number", { n: option })
    : t("trump.explain_colour", { colour: colourName(option) });
  return viceNamed
    ? `${what} ${t("trump.explain_over", { chief: trumpName(option), vice: trumpName(viceTrump) })}`
    : what;
}

function partnerControls(view, prompt, ui) {
  return [
    h("p", { class: "prompt-title" }, t("partner.title")),
    h("p", { class: "muted" }, t("partner.help", { goal: view.team_goal ?? "?" })),
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
