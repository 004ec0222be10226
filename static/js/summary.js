// End-of-hand summary (from the view's last_result), the running score sheet (from the server's
// score-sheet endpoint) and the end-of-game winners.
import { roleName, seatName } from "./board.js";
import { trumpName } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const seatsOf = (view) => Array.from({ length: view.players }, (_, i) => i);
const WINNING_TEAM = { crown: "summary.crown_wins", shield: "summary.shield_wins" };

export async function fetchSheet(code) {
  const response = await fetch(`/api/tables/${encodeURIComponent(code)}/scoresheet`);
  return response.ok ? response.json() : null;
}

// Sentences about one finished hand, in the order it happened.
function story(view, r) {
  const name = (seat) => (seat === null || seat === undefined ? t("summary.nobody") : seatName(view, seat));
  if (r.kind === "all_passed") return [t("summary.all_passed")];
  if (r.kind === "stalemate") return [t("summary.stalemate", { n: r.bid, name: name(r.provocateur) })];
  if (r.kind === "redeal") return [t("summary.redeal")];
  const roles = { chief_role: roleName(view, "chief"), vice_role: roleName(view, "vice") };
  const lines = [
    t("summary.auction", { chief: name(r.chief), n: r.bid, vice: name(r.vice), ...roles }),
    t("summary.trumps", {
      chief: trumpName(r.chief_trump),
      vice: r.vice_trump ? trumpName(r.vice_trump) : "–",
      ...roles,
    }),
    r.partner === null || r.partner === undefined
      ? t("summary.team_alone", { chief: name(r.chief) })
      : t("summary.team", { chief: name(r.chief), partner: name(r.partner) }),
  ];
  const goal = { points: r.team_points, goal: r.team_goal, n: r.shortfall };
  lines.push(
    r.success ? t("summary.made", goal) : t(r.shortfall ? "summary.missed" : "summary.missed_plain", goal),
  );
  // The revised edition names the winning team instead of a penalty.
  if (r.variant === "revised") lines.push(t(WINNING_TEAM[r.winning_team] ?? "summary.nobody_wins"));
  return lines;
}

function resultTable(view, r) {
  const at = (list, seat) => list?.[seat] ?? 0;
  return h(
    "table",
    { class: "scores" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ...["summary.player", "summary.card_points", "summary.bonus", "summary.hand", "summary.total"].map(
          (k) => h("th", {}, t(k)),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      ...seatsOf(view).map((seat) =>
        h(
          "tr",
          { class: view.winners?.includes(seat) ? "winner" : "" },
          h("th", {}, seatName(view, seat)),
          h("td", {}, String(at(r.card_points, seat))),
          h("td", {}, signed(at(r.bonus, seat))),
          h("td", {}, signed(at(r.total, seat))),
          h("td", { dataset: { testid: `summary-total-${seat}` } }, String(view.totals?.[seat] ?? 0)),
        ),
      ),
    ),
  );
}

function winnersLine(view) {
  const names = (view.winners ?? []).map((seat) => seatName(view, seat)).join(", ");
  return h(
    "p",
    { class: "winners", dataset: { testid: "winners" } },
    t(view.winners?.length > 1 ? "summary.winners" : "summary.winner", { names }),
  );
}

export function summaryContent(view, code) {
  const r = view.last_result;
  const title = view.game_over
    ? t("summary.game_over")
    : t("summary.title", { n: (view.hand_number ?? 2) - 1 });
  return [
    h("h2", {}, title),
    view.game_over ? winnersLine(view) : null,
    r ? h("ul", { class: "story" }, ...story(view, r).map((line) => h("li", {}, line))) : null,
    r ? h("div", { class: "sheet-scroll" }, resultTable(view, r)) : null,
    h("h3", {}, t("sheet.title")),
    h("div", { class: "sheet-slot", dataset: { testid: "sheet-slot" } }, t("sheet.loading")),
    sheetLink(code),
  ];
}

export const sheetLink = (code) =>
  h("p", {}, h("a", { href: `/t/${encodeURIComponent(code)}/sheet` }, t("sheet.history")));

function cellNote(row) {
  if (row.kind === "all_passed") return t("sheet.all_passed");
  if (row.kind === "stalemate") return t("sheet.stalemate", { bid: row.bid });
  if (row.kind === "redeal") return t("sheet.redeal");
  return `${row.bid} · ${trumpName(row.chief_trump)}`;
}

// The running sheet: one row per hand (score this hand, running total underneath).
export function sheetTable(view, sheet) {
  if (!sheet?.rows?.length) return h("p", { class: "muted" }, t("sheet.empty"));
  const seats = seatsOf(view);
  return h(
    "div",
    { class: "sheet-scroll" },
    h(
      "table",
      { class: "scores sheet" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, "#"),
          h("th", {}, t("sheet.bid")),
          ...seats.map((s) => h("th", {}, seatName(view, s))),
        ),
      ),
      h(
        "tbody",
        {},
        ...sheet.rows.map((row) =>
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
          h("th", { colspan: 2 }, t("summary.total")),
          ...seats.map((s) =>
            h("td", { dataset: { testid: `sheet-total-${s}` } }, String(sheet.totals?.[s] ?? 0)),
          ),
        ),
      ),
    ),
  );
}
