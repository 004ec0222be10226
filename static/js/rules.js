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
// The same, short, as column heads under "Bonus by trump" (the table must fit a phone).
const CLASS_HEAD = {
  colour: N_("colour"),
  one_or_seven: N_("1s, 7s"),
  number: N_("number"),
  none: N_("none"),
};
const UNVERIFIED = N_(
  "Unverified: the revised rulebook does not print these values; they are this site's assumption.",
);

export function rulesCard(rules) {
  if (!rules?.goals) return null;
  const unverified = new Set(rules.unverified ?? []);
  const mark = (part) =>
    unverified.has(part) ? h("sup", { class: "unverified", title: _(UNVERIFIED) }, "*") : null;
  // One row per bid, so that even twelve bids fit a phone: bid, team goal, then (classic) the
  // bonus for each trump class.
  const classes = rules.bonus ? CLASSES : [];
  // Classic: "Bonus by trump" heads the four bonus columns in a row of its own above them.
  const head = [
    classes.length
      ? h(
          "tr",
          {},
          h("td", { colspan: 2 }),
          h("th", { scope: "colgroup", colspan: classes.length }, _("Bonus by trump"), mark("bonus")),
        )
      : null,
    h(
      "tr",
      {},
      h("th", { scope: "col" }, _("Bid")),
      h("th", { scope: "col" }, _("Team goal"), mark("goals")),
      ...classes.map((cls) => h("th", { scope: "col", title: _(CLASS_NAME[cls]) }, _(CLASS_HEAD[cls]))),
    ),
  ];
  const rows = rules.goals.map((goal, i) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, String(i + 1)),
      h("td", {}, String(goal)),
      ...classes.map((cls) => h("td", {}, String(rules.bonus[cls][i]))),
    ),
  );
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
    h("table", {}, h("thead", {}, ...head), h("tbody", {}, ...rows)),
    rules.trump_bonus ? revisedBonuses(rules, mark) : null,
    unverified.size
      ? h("p", { class: "muted", dataset: { testid: "rules-unverified" } }, "* ", _(UNVERIFIED))
      : null,
  );
}

function revisedBonuses(rules, mark) {
  const tokens = CLASSES.map((cls) => _(CLASS_NAME[cls]) + " " + rules.trump_bonus[cls]).join(" · ");
  return h(
    "p",
    {},
    _(
      "The winning team scores its leader's bid × {crown} (Crown) or × {shield} (Shield), plus the trump token:",
      {
        crown: rules.multipliers.crown,
        shield: rules.multipliers.shield,
      },
    ),
    h("br"),
    _("Trump tokens"),
    mark("trump_bonus"),
    ": ",
    tokens,
  );
}
