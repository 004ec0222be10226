// "Look back": what everyone at the table has seen of the hand so far, in one dialog: the tricks
// already played (newest first, from the view's `tricks`) and the whole auction (`auction`).
// Until the next hand's first trick starts it also shows the hand before, as the history has it
// (`GET /api/tables/{code}/hands/{n}`: the same tricks and auction, all open).
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

// Finished hands as the history serves them (a finished hand never changes), by number.
const hands = new Map();

export async function finishedHand(code, number) {
  if (!hands.has(number)) {
    const url = `/api/tables/${encodeURIComponent(code)}/hands/${number}`;
    const load = async () => {
      const response = await fetch(url, { cache: "no-store" }).catch(() => null);
      return response?.ok ? response.json() : null;
    };
    // The hand is written with the change that ends it; a second ask covers a slow reader.
    const hand = (await load()) ?? (await new Promise((go) => setTimeout(go, 300)).then(load));
    if (!hand) return null;
    hands.set(number, hand);
  }
  return hands.get(number);
}

// The hand before, while the new one has no trick yet.
const previousNumber = (view) => {
  const n = view.hand_number ?? 1;
  return n > 1 && !view.game_over && !view.tricks?.length && !view.trick?.length ? n - 1 : null;
};

async function showLookBack(view) {
  const dialog = $("#lookback");
  const number = previousNumber(view);
  const before = number ? await finishedHand(state.code, number) : null;
  fill(
    $(".dialog-body", dialog),
    before ? previousHand(view, number, before) : null,
    h("h2", {}, _("Hand {n} so far", { n: view.hand_number ?? 1 })),
    before ? null : [h("h3", {}, _("Tricks")), tricksList(view)],
    h("h3", {}, _("Auction")),
    auctionList(view),
  );
  if (!dialog.open) dialog.showModal();
}

function previousHand(view, number, hand) {
  // The history's hand holds what the view holds: the same tricks and auction.
  const shown = { ...view, tricks: hand.tricks, auction: hand.auction };
  return h(
    "section",
    { class: "look-previous", dataset: { testid: "look-back-previous" } },
    h("h2", {}, _("Hand {n}", { n: number })),
    h("h3", {}, _("Tricks")),
    tricksList(shown),
    h("h3", {}, _("Auction")),
    auctionList(shown),
  );
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
