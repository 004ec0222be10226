// End-of-hand summary (from the view's last_result), the running score sheet (from the server's
// score-sheet endpoint) and the end-of-game winners.
import { winnersText } from "./info.js";
import { roleName, seatName } from "./names.js";
import { trumpName } from "./cards.js";
import { h } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";
import { variantOf } from "./rulebook.js";

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const seatsOf = (view) => Array.from({ length: view.players }, (_, i) => i);
const WINNING_TEAM = { crown: N_("The Crown's team wins."), shield: N_("The Shield's team wins.") };

// The headline of a played hand, from the reader's side: their own team, or the leading team
// (the Chief's, or the Crown's in the revised edition) seen from the other side or by a
// spectator. The goal's numbers: "41 of 32".
const TEAM_MADE = {
  chief: N_("The Chief's team made it: {points} of {goal}"),
  crown: N_("The Crown's team made it: {points} of {goal}"),
};
const TEAM_SHORT = {
  chief: N_("The Chief's team fell short: {points} of {goal}"),
  crown: N_("The Crown's team fell short: {points} of {goal}"),
};
const TEAM_SHORT_YOU_WIN = {
  chief: N_("The Chief's team fell short – you win"),
  crown: N_("The Shield's team wins – you too"),
};

export function headline(view, r) {
  const vars = { points: r.team_points, goal: r.team_goal };
  const seat = view.seat;
  const role = view.roles?.chief === "crown" ? "crown" : "chief";
  const team = r.team ?? [];
  if (seat !== null && seat !== undefined && team.includes(seat)) {
    if (team.length === 1)
      return r.success ? _("You made it: {points} of {goal}", vars) : _("You fell short: {points} of {goal}", vars);
    return r.success
      ? _("Your team made it: {points} of {goal}", vars)
      : _("Your team fell short: {points} of {goal}", vars);
  }
  if (r.success) return _(TEAM_MADE[role], vars);
  const opponent = seat !== null && seat !== undefined && (r.opponents ?? []).includes(seat);
  // Where a failed team pays no penalty (the revised edition), only a Shield's team wins.
  const youWin = opponent && (variantOf(r.variant)?.penalties === false ? r.winning_team === "shield" : true);
  return youWin ? _(TEAM_SHORT_YOU_WIN[role], vars) : _(TEAM_SHORT[role], vars);
}

// The game's end, from the reader's side: who won.
export function gameHeadline(view) {
  const winners = view.winners ?? [];
  const mine = winners.includes(view.seat);
  const others = winners.filter((seat) => seat !== view.seat).map((seat) => seatName(view, seat));
  if (mine && !others.length) return _("You win the game!");
  if (mine) return _("You and {names} win the game!", { names: others.join(", ") });
  if (!winners.length) return _("Game over");
  return ngettext("{names} wins the game!", "{names} win the game!", winners.length, { names: others.join(", ") });
}

export async function fetchSheet(code) {
  const response = await fetch(`/api/tables/${encodeURIComponent(code)}/scoresheet`);
  return response.ok ? response.json() : null;
}

// Sentences about one finished hand, in the order it happened.
export function story(view, r) {
  const name = (seat) => (seat === null || seat === undefined ? _("nobody") : seatName(view, seat));
  if (r.kind === "all_passed") return [_("Everybody passed: nobody scores.")];
  if (r.kind === "stalemate")
    return [
      ngettext(
        "Stalemate at {n} card: {name} tied last and pays.",
        "Stalemate at {n} cards: {name} tied last and pays.",
        r.bid,
        { name: name(r.provocateur) },
      ),
    ];
  if (r.kind === "redeal") return [_("Nobody displayed a card: the cards are dealt again.")];
  const roles = { chief_role: roleName(view, "chief"), vice_role: roleName(view, "vice") };
  const noVice = r.vice === null || r.vice === undefined;
  const lines = [
    noVice
      ? ngettext(
          "{chief} was {chief_role} with {n} card; nobody was {vice_role}.",
          "{chief} was {chief_role} with {n} cards; nobody was {vice_role}.",
          r.bid,
          { chief: name(r.chief), ...roles },
        )
      : ngettext(
          "{chief} was {chief_role} with {n} card; {vice_role}: {vice}.",
          "{chief} was {chief_role} with {n} cards; {vice_role}: {vice}.",
          r.bid,
          { chief: name(r.chief), vice: name(r.vice), ...roles },
        ),
    noVice
      ? _("Trump: {chief} ({chief_role}).", { chief: trumpName(r.chief_trump), ...roles })
      : _("Trumps: {chief} ({chief_role}) over {vice} ({vice_role}).", {
          chief: trumpName(r.chief_trump),
          vice: trumpName(r.vice_trump),
          ...roles,
        }),
    r.partner === null || r.partner === undefined
      ? _("{chief} played alone.", { chief: name(r.chief) })
      : _("Team: {chief} and {partner}.", { chief: name(r.chief), partner: name(r.partner) }),
  ];
  lines.push(goalLine(r));
  // Where a failed team pays no penalty (the revised edition), the other team wins instead.
  if (variantOf(r.variant)?.penalties === false) {
    const team = WINNING_TEAM[r.winning_team];
    lines.push(team ? _(team) : _("Without a Shield nobody gets a bonus."));
  }
  return lines;
}

// Whether the team met its goal; the plural follows the points the team took.
export function goalLine(r) {
  const points = r.team_points;
  const vars = { points, goal: r.team_goal };
  if (r.success)
    return ngettext(
      "Goal met: the team took {points} point, {goal} were needed.",
      "Goal met: the team took {points} points, {goal} were needed.",
      points,
      vars,
    );
  if (!r.shortfall)
    return ngettext(
      "Goal missed: the team took {points} point, {goal} were needed.",
      "Goal missed: the team took {points} points, {goal} were needed.",
      points,
      vars,
    );
  const short = ngettext("{n} bid level short", "{n} bid levels short", r.shortfall);
  return ngettext(
    "Goal missed: the team took {points} point, {goal} were needed ({short}).",
    "Goal missed: the team took {points} points, {goal} were needed ({short}).",
    points,
    { ...vars, short },
  );
}

// A name in a score table: long ones end in "…" on a phone (the title has them whole).
const nameCell = (view, seat) =>
  h("span", { class: "nm", title: seatName(view, seat) }, seatName(view, seat));

// The hand's scores per player; with `total` also the running total after it.
function resultTable(view, r, total = true) {
  const at = (list, seat) => list?.[seat] ?? 0;
  const heads = [_("Player"), _("Cards"), _("Bonus"), _("Hand"), total ? _("Total") : null];
  return h(
    "table",
    { class: "scores" },
    h("thead", {}, h("tr", {}, ...heads.filter(Boolean).map((label) => h("th", { scope: "col" }, label)))),
    h(
      "tbody",
      {},
      ...seatsOf(view).map((seat) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, nameCell(view, seat)),
          h("td", {}, String(at(r.card_points, seat))),
          h("td", {}, signed(at(r.bonus, seat))),
          h("td", {}, signed(at(r.total, seat))),
          total
            ? h("td", { dataset: { testid: `summary-total-${seat}` } }, String(view.totals?.[seat] ?? 0))
            : null,
        ),
      ),
    ),
  );
}

// The final standings: best total first, equal totals share a rank, the winners (as the server
// names them) highlighted.
function standings(view) {
  const total = (seat) => view.totals?.[seat] ?? 0;
  const order = seatsOf(view).sort((a, b) => total(b) - total(a) || a - b);
  const rank = (seat) => 1 + order.filter((other) => total(other) > total(seat)).length;
  return h(
    "table",
    { class: "scores standings", dataset: { testid: "standings" } },
    h(
      "thead",
      {},
      h("tr", {}, ...[_("Rank"), _("Player"), _("Total")].map((l) => h("th", { scope: "col" }, l))),
    ),
    h(
      "tbody",
      {},
      ...order.map((seat) => {
        const won = view.winners?.includes(seat);
        return h(
          "tr",
          { class: won ? "winner" : "", dataset: { testid: `standing-${seat}` } },
          h("td", {}, String(rank(seat))),
          h(
            "th",
            { scope: "row" },
            seatName(view, seat),
            won ? [" ", h("span", { class: "badge b-leader" }, _("winner"))] : null,
          ),
          h("td", { dataset: { testid: `summary-total-${seat}` } }, String(total(seat))),
        );
      }),
    ),
  );
}

function winnersLine(view) {
  return h("p", { class: "winners", dataset: { testid: "winners" } }, winnersText(view));
}

function handStory(view, r, total) {
  return [
    h("ul", { class: "story" }, ...story(view, r).map((line) => h("li", {}, line))),
    h("div", { class: "sheet-scroll" }, resultTable(view, r, total)),
  ];
}

// The end-of-hand summary, or at the end of the game the final standings, the last hand and
// the score sheet.
export function summaryContent(view, code) {
  const r = view.last_result;
  const sheet = [
    h("h3", {}, _("Score sheet")),
    h("div", { class: "sheet-slot", dataset: { testid: "sheet-slot" } }, _("Loading…")),
    sheetLink(code),
  ];
  if (view.game_over)
    return [
      h("p", { class: "kicker" }, _("Game over")),
      h("h2", { dataset: { testid: "summary-headline" } }, gameHeadline(view)),
      winnersLine(view),
      h("h3", {}, _("Final standings")),
      standings(view),
      r ? h("h3", {}, _("The last hand (hand {n})", { n: view.hand_number ?? 1 })) : null,
      r ? handStory(view, r, false) : null,
      r ? reviewLink(code, view.hand_number ?? 1) : null,
      ...sheet,
    ];
  const finished = (view.hand_number ?? 2) - 1;
  const over = _("Hand {n} is over", { n: finished });
  const played = r?.kind === "played" && r.team_goal !== null && r.team_goal !== undefined;
  return [
    played ? h("p", { class: "kicker" }, over) : null,
    h("h2", { dataset: { testid: "summary-headline" } }, played ? headline(view, r) : over),
    r ? handStory(view, r, true) : null,
    r ? reviewLink(code, finished) : null,
    ...sheet,
  ];
}

// The search bot's review of the hand just played (it is computed in the background; the
// hand's page shows its progress until it is done).
const reviewLink = (code, n) =>
  h(
    "p",
    { class: "review-link" },
    h(
      "a",
      { href: `/t/${encodeURIComponent(code)}/hands/${n}#review`, dataset: { testid: "review-link" } },
      _("What could have been played better? The review of hand {n}", { n }),
    ),
  );

export const sheetLink = (code) =>
  h("p", {}, h("a", { href: `/t/${encodeURIComponent(code)}/sheet` }, _("Full score sheet and history")));

function cellNote(row) {
  if (row.kind === "all_passed") return _("all passed");
  if (row.kind === "stalemate") return _("stalemate {bid}", { bid: row.bid });
  if (row.kind === "redeal") return _("redeal");
  return `${row.bid} · ${trumpName(row.chief_trump)}`;
}

// A player who took beginner hints in a hand: marked, so nobody is fooled by the score.
const hintMark = (hand, seat) =>
  h(
    "abbr",
    { class: "hint-mark", title: _("took beginner hints in this hand"), dataset: { testid: `sheet-hint-${hand}-${seat}` } },
    // TRANSLATORS: the score sheet's mark of a hand played with beginner hints ("Tipp": T).
    _("H"),
  );

// The running sheet: one row per hand (score this hand, running total underneath).
export function sheetTable(view, sheet) {
  if (!sheet?.rows?.length) return h("p", { class: "muted" }, _("No hand finished yet."));
  const seats = seatsOf(view);
  return h(
    "div",
    { class: "sheet-scroll" },
    h(
      "table",
      { class: "scores sheet", dataset: { players: seats.length } },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, "#"),
          h("th", {}, _("Bid")),
          ...seats.map((s) => h("th", { scope: "col" }, nameCell(view, s))),
        ),
      ),
      h(
        "tbody",
        {},
        ...sheet.rows.map((row, i) =>
          h(
            "tr",
            {},
            h("th", {}, String(row.hand)),
            h("td", {}, cellNote(row)),
            ...seats.map((s) =>
              h(
                "td",
                {},
                h("span", {}, signed(row.score?.[s] ?? 0)),
                sheet.hints?.[i]?.includes(s) ? hintMark(row.hand, s) : null,
                h("small", {}, String(row.totals?.[s] ?? 0)),
              ),
            ),
          ),
        ),
      ),
      h(
        "tfoot",
        {},
        h(
          "tr",
          {},
          h("th", { colspan: 2 }, _("Total")),
          ...seats.map((s) =>
            h("td", { dataset: { testid: `sheet-total-${s}` } }, String(sheet.totals?.[s] ?? 0)),
          ),
        ),
      ),
    ),
  );
}
