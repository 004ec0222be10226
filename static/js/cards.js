// Drawing cards and naming trumps. The client never decides legality; the helpers below only
// group and describe cards (which ones are trumps, how trumps rank) for the player's eyes.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const COLOURS = ["red", "yellow", "green", "blue", "purple"];

export const isNumberTrump = (kind) => /^[0-9]$/.test(kind ?? "");

// A card belongs to a trump kind when it has that colour or that number.
export function matches(card, kind) {
  if (!kind || kind === "none") return false;
  return isNumberTrump(kind) ? card.number === Number(kind) : card.color === kind;
}

// 3 = double trump, 2 = chief trump, 1 = vice trump, 0 = plain card.
export function trumpTier(card, trumps) {
  const chief = matches(card, trumps?.chief);
  const vice = matches(card, trumps?.vice);
  if (chief && vice) return 3;
  return chief ? 2 : vice ? 1 : 0;
}

// Colour by colour, low to high; once trumps are known they form one group at the right end,
// weakest to strongest, so the best card is always the last one.
export function sortHand(cards, trumps) {
  const key = (card) => {
    const tier = trumpTier(card, trumps);
    return [
      tier,
      tier ? 0 : COLOURS.indexOf(card.color),
      tier ? trumpRank(card, tier, trumps) : card.number,
      card.id,
    ];
  };
  return [...cards].sort((a, b) => compareKeys(key(a), key(b)));
}

function trumpRank(card, tier, trumps) {
  const kind = tier === 2 ? trumps.chief : trumps.vice;
  return tier !== 3 && !isNumberTrump(kind) ? card.number : 0;
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

export const colourName = (colour) => t(`colour.${colour}`);

// "green", "7s" or "no trump", in the page's language.
export function trumpName(kind) {
  if (!kind) return "–";
  if (kind === "none") return t("trump.none");
  return isNumberTrump(kind) ? t("trump.number", { n: kind }) : colourName(kind);
}

export const cardName = (card) =>
  t("card.name", { colour: colourName(card.color), n: card.number, points: card.points });

// One card face: number, the colour's own symbol, and 0-2 point triangles as on the real cards.
export function cardFace(card, { tag = "button", small = false, trumps = null } = {}) {
  const tier = trumpTier(card, trumps);
  const el = h(
    tag,
    {
      "class": `card c-${card.color}${small ? " small" : ""}${tier ? " trump" : ""}`,
      "dataset": { cardId: card.id },
      "aria-label": cardName(card) + (tier ? `, ${t("card.trump")}` : ""),
      "type": tag === "button" ? "button" : null,
    },
    h("span", { class: "num" }, String(card.number)),
    h("span", { "class": "sym", "aria-hidden": "true" }),
    h(
      "span",
      { "class": "pts", "aria-hidden": "true" },
      ...Array.from({ length: card.points }, () => h("i")),
    ),
  );
  return el;
}

// Small colour marker used in texts ("green ◆ over red ●").
export function trumpChip(kind) {
  const colour = kind && !isNumberTrump(kind) && kind !== "none" ? kind : null;
  return h(
    "span",
    { class: `tchip${colour ? ` c-${colour}` : ""}` },
    colour ? h("span", { "class": "sym", "aria-hidden": "true" }) : null,
    trumpName(kind),
  );
}

// How the trumps rank, strongest first, as short parts for the info bar. `names` labels the two
// trump holders (Chief/Vice, or Crown/Shield in the revised edition).
export function rankingParts(trumps, names) {
  const { chief, vice } = trumps ?? {};
  const chiefKind = chief && chief !== "none" ? chief : null;
  const viceKind = vice && vice !== "none" ? vice : null;
  if (!chiefKind && !viceKind) return [];
  const parts = [];
  if (chiefKind && viceKind && isNumberTrump(chiefKind) !== isNumberTrump(viceKind)) {
    const colour = isNumberTrump(vice) ? chiefKind : vice;
    const number = isNumberTrump(vice) ? vice : chiefKind;
    parts.push({
      label: t("rank.double"),
      text: t("rank.double_card", { colour: colourName(colour), n: number }),
    });
  }
  if (chiefKind) parts.push({ label: names.chief, kind: chiefKind, text: orderText(chiefKind) });
  if (vice && vice !== "none") parts.push({ label: names.vice, kind: vice, text: orderText(vice) });
  return parts;
}

const orderText = (kind) => (isNumberTrump(kind) ? t("rank.equal") : t("rank.high_low"));
