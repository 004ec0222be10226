// The rules card in the help dialog: this table's goal and bonus numbers, exactly as the engine
// states them in the table info (`rules`), with the values the rulebook does not print marked
// as unverified. Nothing here is computed: the client only lays the numbers out.

import { h } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";

// The trump classes the engine scores differently, in the order the card lists them.
const CLASS_NAME = {
  colour: N_("Colour trump"),
  one_or_seven: N_("1s or 7s"),
  number: N_("Other number"),
  none: N_("No trump"),
};
const CLASSES = Object.keys(CLASS_NAME);
const UNVERIFIED = N_("Unverified: the revised rulebook does not print these values; they are this site's assumption.");

export function rulesCard(rules) {
  if (!rules?.goals) return null;
  const unverified = new Set(rules.unverified ?? []);
  const mark = (part) => (unverified.has(part) ? h("sup", { class: "unverified", title: _(UNVERIFIED) }, "*") : null);
  const bids = rules.goals.map((_, i) => i + 1);
  const row = (label, values, part) => h("tr", {}, h("th", { scope: "row" }, label, mark(part)), ...values.map((v) => h("td", {}, String(v))));
  const rows = [row(_("Team goal"), rules.goals, "goals")];
  if (rules.bonus) for (const cls of CLASSES) rows.push(row(_(CLASS_NAME[cls]), rules.bonus[cls], "bonus"));
  return h(
    "section",
    { class: "rules-card", dataset: { testid: "rules-card" } },
    h(
      "h3",
      {},
      ngettext(
        "The numbers of this table (team goal out of {points} point)",
        "The numbers of this table (team goal out of {points} points)",
        rules.points,
        { points: rules.points },
      ),
    ),
    h("div", { class: "scroll" }, h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, _("Bid")), ...bids.map((b) => h("th", {}, String(b))))), h("tbody", {}, ...rows))),
    rules.trump_bonus ? revisedBonuses(rules, mark) : null,
    unverified.size ? h("p", { class: "muted", dataset: { testid: "rules-unverified" } }, "* ", _(UNVERIFIED)) : null,
  );
}

function revisedBonuses(rules, mark) {
  const tokens = CLASSES.map((cls) => _(CLASS_NAME[cls]) + " " + rules.trump_bonus[cls]).join(" · ");
  return h(
    "p",
    {},
    _("The winning team scores its leader's bid × {crown} (Crown) or × {shield} (Shield), plus the trump token:", {
      crown: rules.multipliers.crown,
      shield: rules.multipliers.shield,
    }),
    h("br"),
    _("Trump tokens"),
    mark("trump_bonus"),
    ": ",
    tokens,
  );
}
