// Drawing cards and naming trumps. The client decides neither legality nor trump membership:
// it shows the prompt's choices and groups the hand by the engine's published trump ranking.
import { h } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";
import { CARD_FACE } from "./protocol.js";
import { RULES, trumpKind } from "./rulebook.js";

const COLOUR_NAME = {
  red: N_("red"),
  yellow: N_("yellow"),
  green: N_("green"),
  blue: N_("blue"),
  purple: N_("purple"),
};

// A trump kind is a colour, a number or no trump: the engine's catalog says which.
export const isNumberTrump = (kind) => Boolean(kind) && trumpKind(kind).number !== null;
const trumpColour = (kind) => (kind ? trumpKind(kind).colour : null);
// A trump that makes cards trumps: a colour or a number (not "no trump", not none yet).
export const isNamedTrump = (kind) => Boolean(trumpColour(kind)) || isNumberTrump(kind);

// The engine publishes the trumps once both are settled (`view.trump_ranking`: groups of equal
// rank, strongest first), so the client never works out which cards are trumps. This turns the
// groups into card id → strength (higher is stronger); null before the trumps are settled.
const strengths = new WeakMap();

export function trumpStrength(ranking) {
  if (!ranking) return null;
  if (!strengths.has(ranking)) {
    const strength = new Map();
    ranking.forEach((group, i) => group.ids.forEach((id) => strength.set(id, ranking.length - i)));
    strengths.set(ranking, strength);
  }
  return strengths.get(ranking);
}

// Colour by colour, low to high; once trumps are settled they form one group at the right end,
// weakest to strongest, so the best card is always the last one.
export function sortHand(cards, ranking) {
  const strength = trumpStrength(ranking);
  const key = (card) => {
    const trump = strength?.get(card.id) ?? 0;
    return [trump ? 1 : 0, trump, trump ? 0 : RULES.colours.indexOf(card.color), card.number, card.id];
  };
  return [...cards].sort((a, b) => compareKeys(key(a), key(b)));
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

export const colourName = (colour) => _(COLOUR_NAME[colour] ?? colour);

// "green", "7s" or "no trump", in the page's language.
export function trumpName(kind) {
  if (!kind) return "–";
  const { colour, number } = trumpKind(kind);
  if (colour) return colourName(colour);
  // TRANSLATORS: a number trump, {n} is the card number: "the 7s".
  if (number !== null) return _("{n}s", { n: number });
  return _("no trump");
}

export const cardName = (card) =>
  ngettext("{colour} {number}, {n} point", "{colour} {number}, {n} points", card.points, {
    colour: colourName(card.color),
    number: card.number,
  });

// The face as SVG, from the one drawing of a card (app/web/cardface.py, which the history's
// pages use too): the number large in two corners, the colour's symbol, one triangle per card
// point, a gold corner on a trump. The colours come from the card's class (mu.css). Built once
// per kind of face and copied: a table draws dozens of cards at every change.
const faces = new Map();

function faceMarkup(card, trump) {
  const key = `${card.color}:${card.number}:${card.points}:${trump ? 1 : 0}`;
  let markup = faces.get(key);
  if (markup === undefined) {
    const pts = Array.from({ length: Number(card.points) || 0 }, (_unused, i) =>
      CARD_FACE.point.replace("{x}", String(CARD_FACE.point_start + i * CARD_FACE.point_step)),
    ).join("");
    markup = CARD_FACE.face.replaceAll("{n}", String(Number(card.number)))
      .replace("{sym}", CARD_FACE.symbols[card.color] ?? "")
      .replace("{pts}", pts)
      .replace("{corner}", trump ? CARD_FACE.corner : "");
    faces.set(key, markup);
  }
  return markup;
}

// One card: a button (or a picture, `tag: "span"`) named for screen readers, its face drawn by
// `faceMarkup`. `ranking` (the view's trump_ranking) marks trumps.
export function cardFace(card, { tag = "button", small = false, ranking = null } = {}) {
  const tier = trumpStrength(ranking)?.has(card.id);
  const el = h(tag, {
    "class": `card c-${card.color}${small ? " small" : ""}${tier ? " trump" : ""}`,
    "dataset": { cardId: card.id },
    "aria-label": cardName(card) + (tier ? ", " + _("trump") : ""),
    // A face that is no button is a picture with a name, for screen readers.
    "role": tag === "button" ? null : "img",
    "type": tag === "button" ? "button" : null,
  });
  el.innerHTML = faceMarkup(card, tier);
  return el;
}

// Small colour marker used in texts ("green ◆ over red ●").
export function trumpChip(kind) {
  const colour = trumpColour(kind);
  return h(
    "span",
    { class: `tchip${colour ? ` c-${colour}` : ""}` },
    colour ? h("span", { "class": "sym", "aria-hidden": "true" }) : null,
    trumpName(kind),
  );
}

// How the trumps rank, strongest first, as short parts for the info bar. `names` labels the two
// trump holders (Chief/Vice, or Crown/Shield in the revised edition); whether a double trump
// exists comes from the engine's ranking.
export function rankingParts(trumps, names, ranking) {
  const { chief, vice } = trumps ?? {};
  const chiefKind = isNamedTrump(chief) ? chief : null;
  const viceKind = isNamedTrump(vice) ? vice : null;
  if (!chiefKind && !viceKind) return [];
  const parts = [];
  if (ranking?.some((group) => group.tier === "double")) {
    const [number, colour] = isNumberTrump(viceKind) ? [viceKind, chiefKind] : [chiefKind, viceKind];
    parts.push({
      label: _("Double"),
      text: _("{colour} {n} beats all", { colour: colourName(colour), n: number }),
    });
  }
  if (chiefKind) parts.push({ label: names.chief, kind: chiefKind, text: orderText(chiefKind) });
  if (viceKind) parts.push({ label: names.vice, kind: viceKind, text: orderText(viceKind) });
  return parts;
}

const orderText = (kind) => (isNumberTrump(kind) ? _("(equal: first played wins)") : _("(9 high … 0 low)"));
