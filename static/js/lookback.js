// "Look back": what everyone at the table has seen of the hand so far, in one dialog: the tricks
// already played (newest first, from the view's `tricks`) and the whole auction (`auction`).
import { cardFace } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { seatName } from "./names.js";
import { state } from "./state.js";

// The feature (docs/client.md, "Features"): the header's "Look back" button.
export function lookBackFeature() {
  $("#btn-look").addEventListener("click", () => state.view && showLookBack(state.view));
  return { name: "lookback" };
}

function showLookBack(view) {
  const dialog = $("#lookback");
  fill(
    $(".dialog-body", dialog),
    h("h2", {}, _("Hand {n} so far", { n: view.hand_number ?? 1 })),
    h("h3", {}, _("Tricks")),
    tricksList(view),
    h("h3", {}, _("Auction")),
    auctionList(view),
  );
  dialog.showModal();
}

function tricksList(view) {
  const tricks = view.tricks ?? [];
  if (!tricks.length) return h("p", { class: "muted" }, _("No trick has been played in this hand yet."));
  const numbered = tricks.map((trick, i) => [i + 1, trick]).reverse();
  return h(
    "ol",
    { class: "look-tricks", dataset: { testid: "look-back-tricks" } },
    ...numbered.map(([n, trick]) =>
      h(
        "li",
        { value: n, dataset: { testid: `look-back-trick-${n}` } },
        h(
          "p",
          {},
          h("b", {}, _("Trick {n}", { n })),
          " · ",
          ngettext("{name} won it ({points} point).", "{name} won it ({points} points).", trick.points, {
            name: seatName(view, trick.winner),
            points: trick.points,
          }),
        ),
        h(
          "div",
          { class: "look-cards" },
          ...trick.cards.map((play) =>
            h(
              "figure",
              { class: `look-play${play.seat === trick.winner ? " winner" : ""}` },
              cardFace(play.card, { tag: "span", small: true, ranking: view.trump_ranking }),
              h("figcaption", {}, seatName(view, play.seat)),
            ),
          ),
        ),
      ),
    ),
  );
}

function auctionList(view) {
  const auction = view.auction ?? [];
  if (!auction.length) return h("p", { class: "muted" }, _("Nobody has placed cards yet"));
  return h(
    "ol",
    { class: "look-auction", dataset: { testid: "look-back-auction" } },
    ...auction.map((entry) =>
      h(
        "li",
        {},
        entry.type === "pass"
          ? h("span", { class: "muted" }, _("{name} passed", { name: seatName(view, entry.seat) }))
          : [
              h(
                "span",
                {},
                _("{name} placed {n}", { name: seatName(view, entry.seat), n: entry.cards.length }),
              ),
              h(
                "span",
                { class: "look-cards" },
                ...entry.cards.map((card) =>
                  cardFace(card, { tag: "span", small: true, ranking: view.trump_ranking }),
                ),
              ),
            ],
      ),
    ),
  );
}
