// The rules card in the help dialog: this table's goal and bonus numbers, exactly as the engine
// states them in the table info (`rules`), with the values the rulebook does not print marked
// as unverified. Nothing here is computed: the client only lays the numbers out.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const CLASSES = ["colour", "one_or_seven", "number", "none"];

export function rulesCard(rules) {
  if (!rules?.goals) return null;
  const unverified = new Set(rules.unverified ?? []);
  const mark = (part) => (unverified.has(part) ? h("sup", { class: "unverified", title: t("rules.unverified") }, "*") : null);
  const bids = rules.goals.map((_, i) => i + 1);
  const row = (label, values, part) => h("tr", {}, h("th", { scope: "row" }, label, mark(part)), ...values.map((v) => h("td", {}, String(v))));
  const rows = [row(t("rules.goal"), rules.goals, "goals")];
  if (rules.bonus) for (const cls of CLASSES) rows.push(row(t(`rules.class.${cls}`), rules.bonus[cls], "bonus"));
  return h(
    "section",
    { class: "rules-card", dataset: { testid: "rules-card" } },
    h("h3", {}, t("rules.title", { points: rules.points })),
    h("div", { class: "scroll" }, h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("rules.bid")), ...bids.map((b) => h("th", {}, String(b))))), h("tbody", {}, ...rows))),
    rules.trump_bonus ? revisedBonuses(rules, mark) : null,
    unverified.size ? h("p", { class: "muted", dataset: { testid: "rules-unverified" } }, "* ", t("rules.unverified")) : null,
  );
}

function revisedBonuses(rules, mark) {
  const tokens = CLASSES.map((cls) => `${t(`rules.class.${cls}`)} ${rules.trump_bonus[cls]}`).join(" · ");
  return h(
    "p",
    {},
    t("rules.multipliers", { crown: rules.multipliers.crown, shield: rules.multipliers.shield }),
    h("br"),
    t("rules.tokens"),
    mark("trump_bonus"),
    ": ",
    tokens,
  );
}
