// What a screen reader says: one short sentence per event (events.js), "your turn" with what to
// do, the trump order as a sentence, and the "Where are we?" summary (with each seat in one
// line: seats.js). In the page's language, through the client catalog like every other text.
import { colourName, rankingParts, trumpName } from "./cards.js";
import { _, ngettext } from "./i18n.js";
import { statusText, winnersText } from "./info.js";
import { roleName, seatName } from "./names.js";
import { count, seatSentence } from "./seats.js";
import { goalLine, story } from "./summary.js";

// "blue 3": a card as it is said in a sentence (the card's own label adds its points).
export const cardShort = (card) =>
  _("{colour} {number}", { colour: colourName(card.color), number: card.number });
const cardList = (cards) => cards.map(cardShort).join(", ");

export function eventSentence(view, event) {
  const name = (seat) => seatName(view, seat);
  switch (event.type) {
    case "hand":
      return _("Hand {n}: the cards are dealt.", { n: event.n });
    case "bid":
      return ngettext(
        "{name} places {n} card: {cards}",
        "{name} places {n} cards: {cards}",
        event.cards.length,
        {
          name: name(event.seat),
          cards: cardList(event.cards),
        },
      );
    case "pass":
      return _("{name} passes", { name: name(event.seat) });
    case "roles": {
      const vars = {
        chief: name(event.chief),
        chief_role: roleName(view, "chief"),
        vice_role: roleName(view, "vice"),
      };
      if (event.vice === null)
        return ngettext(
          "{chief} is {chief_role} with {n} card, nobody is {vice_role}",
          "{chief} is {chief_role} with {n} cards, nobody is {vice_role}",
          event.bid ?? 0,
          vars,
        );
      return ngettext(
        "{chief} is {chief_role} with {n} card, {vice} is {vice_role}",
        "{chief} is {chief_role} with {n} cards, {vice} is {vice_role}",
        event.bid ?? 0,
        { ...vars, vice: name(event.vice) },
      );
    }
    case "discard":
      return ngettext(
        "{name} takes the kitty and discards {n} card",
        "{name} takes the kitty and discards {n} cards",
        event.count,
        { name: name(event.seat) },
      );
    case "trump":
      // TRANSLATORS: "Chief's trump: red", "Vice's trump: the 7s".
      return _("{role}'s trump: {trump}", { role: roleName(view, event.role), trump: trumpName(event.kind) });
    case "partner":
      return _("{chief} chooses {partner} as partner", {
        chief: name(event.chief),
        partner: name(event.seat),
      });
    case "play":
      return _("{name} plays {card}", { name: name(event.seat), card: cardShort(event.card) });
    case "trick":
      return ngettext("{name} wins the trick, {n} point", "{name} wins the trick, {n} points", event.points, {
        name: name(event.winner),
      });
    case "result":
      return resultSentence(view, event.result);
    case "game_over":
      return _("Game over.") + " " + winnersText(view);
    default:
      return "";
  }
}

function resultSentence(view, result) {
  const first = result.kind === "played" ? goalLine(result) : (story(view, result)[0] ?? "");
  const scores = (result.total ?? [])
    .map((points, seat) => _("{name} {points}", { name: seatName(view, seat), points }))
    .join(", ");
  const line = scores ? _("Points this hand: {scores}.", { scores }) : "";
  return [_("The hand is over."), first, line].filter(Boolean).join(" ");
}

// "Your turn: play a card; you must follow red", with the choices where there are a few.
export function turnSentence(view) {
  const prompt = view.prompt;
  const head = statusText(view);
  if (prompt.type === "play") {
    if (prompt.must_follow === "trump") return head + "; " + _("you must play a trump");
    if (prompt.must_follow)
      return head + "; " + _("you must follow {colour}", { colour: colourName(prompt.must_follow) });
    return head;
  }
  if (prompt.type === "trump") {
    return head + ". " + _("Choices: {list}", { list: prompt.options.map(trumpName).join(", ") });
  }
  if (prompt.type === "partner") {
    const list = prompt.options.map((seat) => seatName(view, seat)).join(", ");
    return head + ". " + _("Choices: {list}", { list });
  }
  if (prompt.type === "bid" && prompt.max_cards)
    return (
      head + ". " + ngettext("You may place {n} card", "You may place up to {n} cards", prompt.max_cards)
    );
  return head;
}

// "Trumps, strongest first: Double: red 1 beats all; then Chief: the 1s (equal: first played
// wins); then Vice: red (9 high … 0 low)."
export function trumpSentence(view) {
  const names = { chief: roleName(view, "chief"), vice: roleName(view, "vice") };
  const parts = rankingParts(view.trumps, names, view.trump_ranking);
  if (!parts.length) return "";
  const list = parts
    .map((part) => `${part.label}: ${part.kind ? trumpName(part.kind) + " " : ""}${part.text}`)
    .join("; ");
  return _("Trumps, strongest first: {list}.", { list });
}

// "Where are we?": phase and whose turn, the trick so far, the trumps, the score.
export function whereSentences(view) {
  const lines = [];
  const hand = _("Hand {n}", { n: view.hand_number ?? 1 });
  lines.push(view.trick_number ? hand + ", " + _("trick {n}", { n: view.trick_number }) + "." : hand + ".");
  const status = statusText(view);
  if (status) lines.push(status + ".");
  if (view.phase === "auction") {
    const leader = view.auction_leader;
    lines.push(
      leader === null || leader === undefined
        ? ((view.bids ?? []).some((bid) => count(bid) > 0)
            ? _("Nobody leads the auction alone yet")
            : _("Nobody has placed cards yet")) + "."
        : _("{name} leads the auction with {n}", {
            name: seatName(view, leader),
            n: count(view.bids?.[leader]),
          }) + ".",
    );
  }
  if (view.phase === "play") {
    const plays = (view.trick ?? []).map((p) =>
      _("{name} plays {card}", { name: seatName(view, p.seat), card: cardShort(p.card) }),
    );
    lines.push(
      plays.length
        ? _("On the table: {plays}.", { plays: plays.join(", ") })
        : _("No card on the table yet."),
    );
  }
  const trumps = trumpSentence(view);
  if (trumps) lines.push(trumps);
  if (view.team_goal)
    lines.push(
      ngettext(
        "Team goal: {goal} point (bid {bid})",
        "Team goal: {goal} points (bid {bid})",
        view.team_goal,
        { goal: view.team_goal, bid: view.bid },
      ) + ".",
    );
  const seats = Array.from({ length: view.players ?? 0 }, (_x, seat) => seatSentence(view, seat));
  lines.push(...seats.map((line) => line + "."));
  return lines;
}

// Your cards in words, the usable ones marked: what the "hand" command says.
export function handSentence(view, cards, usable) {
  if (!cards.length) return _("You have no cards.");
  const list = cards
    .map((card) => cardShort(card) + (usable.has(card.id) ? " (" + _("playable") + ")" : ""))
    .join(", ");
  return ngettext("Your {n} card: {list}", "Your {n} cards: {list}", cards.length, { list });
}
