// The screen-reader mode's command line, as at lichess: `play g7`, `bid y5 y6`, `pass`,
// `trump red`, `partner 2`, `discard r1 b3`, `undo`, `where`, `hand`, `help`. A command is read
// against the view's prompt (what may be done now) before anything is sent, and a command that
// is not legal gets a clear reason; the server still has the last word.
//
// A move is typed in the engine's notation without the seat (docs/notation.md: "bid R5 R8",
// "trump 7", "partner 4", "play B7'"): its words, the colour letters, the cards' names and the
// mark of the second twin come from protocol.js (NOTATION, generated from engine/notation.py), in
// upper or lower case. Around them the command line takes what a person may type instead: a move's
// word in German or another English word, a colour's name in English or in the page's language
// ("green 7", "grün 7"), or the start of the page language's name where no other colour shares
// it ("ge5"); a card without the mark is either of two equal cards.
import { colourName, trumpName } from "./cards.js";
import { N_, _, ngettext } from "./i18n.js";
import { seatName } from "./names.js";
import { NOTATION } from "./protocol.js";
import { RULES } from "./rulebook.js";
import { cardShort } from "./speech.js";

const fold = (word) => word.toLocaleLowerCase().normalize("NFC");

// The other words a person may type for a move of the notation (NOTATION.moves), in English
// and German, and the command line's own commands.
const SYNONYMS = {
  play: ["spiel", "spiele", "spielen"],
  bid: ["place", "biete", "bieten", "lege", "legen"],
  pass: ["passe", "passen"],
  discard: ["drop", "ablegen", "drücke", "drücken"],
  trump: ["trumpf"],
  partner: ["partnerin"],
  undo: ["undo", "zurück"],
  where: ["where", "wo", "w"],
  hand: ["hand", "cards", "karten"],
  help: ["help", "hilfe", "?"],
};
const VERB = new Map([
  ...NOTATION.moves.map((word) => [word, word]),
  ...Object.entries(SYNONYMS).flatMap(([verb, words]) => words.map((w) => [w, verb])),
]);
const NO_TRUMP = new Set(["no", "kein", "keiner", "keinen", "ohne", fold(_("no trump"))]);
// A card as typed: a colour's word, its number, and the mark of the second twin (’ too).
const CARD = new RegExp(`([\\p{L}]+)\\s*(\\d+)([${NOTATION.twin_mark}’]?)`, "gu");
const ONE_CARD = new RegExp(`^${CARD.source}$`, "u");

// Each colour's letter (the notation's, as typed: lower case).
export function colourLetters() {
  return new Map(Object.entries(NOTATION.letters).map(([colour, letter]) => [colour, fold(letter)]));
}

// Every word that names a colour: the letter, the English name, the page language's name, and
// any start of that name no other colour's name shares ("ge" gelb, "gr" grün, "l" lila).
function colourAliases() {
  const aliases = new Map();
  for (const [colour, letter] of colourLetters()) {
    aliases.set(letter, colour);
    aliases.set(colour, colour);
    aliases.set(fold(colourName(colour)), colour);
  }
  const local = RULES.colours.map((colour) => [colour, fold(colourName(colour))]);
  for (const [colour, name] of local) {
    for (let size = 1; size < name.length; size++) {
      const start = name.slice(0, size);
      const shared = local.some(([other, word]) => other !== colour && word.startsWith(start));
      if (!shared && !aliases.has(start)) aliases.set(start, colour);
    }
  }
  return aliases;
}

// "g7 y5", "green 7", "grün7", "R7'": the cards named in a command's words, or {error}. Each is
// {colour, number, id, exact}: id is the card the notation's name means ("R7" the first red 7,
// "R7'" the second), exact when the twin's mark was typed.
export function parseCards(text) {
  const aliases = colourAliases();
  const cards = [];
  const rest = text.replace(CARD, (whole, word, number, mark) => {
    const colour = aliases.get(fold(word)) ?? null;
    const name = `${NOTATION.letters[colour]}${number}${mark ? NOTATION.twin_mark : ""}`;
    const id = NOTATION.cards.indexOf(name);
    cards.push({ colour, word, whole, number: Number(number), id, exact: Boolean(mark) });
    return " ";
  });
  const unknown = cards.find((card) => card.colour === null);
  if (unknown) return { error: _("I do not know the colour “{word}”.", { word: unknown.word }) };
  const noCard = cards.find((card) => card.id < 0);
  if (noCard) return { error: _("I do not understand “{text}”.", { text: noCard.whole.trim() }) };
  if (rest.trim()) return { error: _("I do not understand “{text}”.", { text: rest.trim() }) };
  return { cards };
}

const yourCards = (view) => [...(view.hand ?? []), ...(view.displays?.[view.seat] ?? [])];

// The card of yours a reference names, or {error}. A card typed with the twin's mark is that very
// card; without it, the two equal cards of the deck ("r7 r7") are one: a card already taken is
// skipped, and of equal cards one the move allows comes first, then the one the name means.
function findCard(view, ref, taken = [], allowed = null) {
  const named = (c) => (ref.exact ? c.id === ref.id : c.color === ref.colour && c.number === ref.number);
  const equal = yourCards(view).filter(named);
  const rank = (c) => (allowed === null || allowed.includes(c.id) ? 0 : 2) + (c.id === ref.id ? 0 : 1);
  const card = equal.filter((c) => !taken.includes(c.id)).sort((a, b) => rank(a) - rank(b))[0];
  if (card) return { card };
  const name = _("{colour} {number}", { colour: colourName(ref.colour), number: ref.number });
  if (equal.length)
    return { error: _("You named {card} more often than you have it.", { card: name }) };
  return { error: _("You do not have {card}.", { card: name }) };
}

function refusal(why) {
  return { error: why };
}

// The command read against the view: {action} to send, {local: "where"|"hand"|"help"|"undo"},
// or {error} saying why not.
export function readCommand(text, view) {
  const words = text.trim().split(/\s+/);
  const first = fold(words[0] ?? "");
  if (!first) return refusal(_("Type a command, for example: play g7. Type help for the list."));
  let verb = VERB.get(first);
  let rest = words.slice(1).join(" ");
  // A card on its own ("g7") means playing it.
  if (!verb && ONE_CARD.test(text.trim())) {
    verb = "play";
    rest = text.trim();
  }
  if (!verb) return refusal(_("Unknown command “{word}”. Type help for the list.", { word: words[0] }));
  if (["where", "hand", "help", "undo"].includes(verb)) return { local: verb };
  if (view?.seat === null || view?.seat === undefined)
    return refusal(_("You are watching: only players make moves."));
  const prompt = view.prompt;
  if (!prompt || view.to_move !== view.seat) {
    if (view.to_move === null || view.to_move === undefined) return refusal(_("Nobody is to move now."));
    return refusal(_("It is not your turn: {name} is to move.", { name: seatName(view, view.to_move) }));
  }
  return MOVES[verb](view, prompt, rest);
}

const MOVES = {
  play(view, prompt, rest) {
    if (prompt.type !== "play") return refusal(notNow(prompt));
    const parsed = parseCards(rest);
    if (parsed.error) return parsed;
    if (parsed.cards.length !== 1) return refusal(_("Name one card, for example: play g7"));
    const found = findCard(view, parsed.cards[0], [], prompt.cards);
    if (found.error) return found;
    if (!prompt.cards.includes(found.card.id)) {
      const why =
        prompt.must_follow === "trump"
          ? _("you must play a trump")
          : prompt.must_follow
            ? _("you must follow {colour}", { colour: colourName(prompt.must_follow) })
            : _("This card cannot be played now");
      return refusal(_("{card} is not playable: {why}.", { card: cardShort(found.card), why }));
    }
    return { action: { type: "play", card: found.card.id } };
  },
  bid(view, prompt, rest) {
    if (prompt.type !== "bid") return refusal(notNow(prompt));
    const parsed = parseCards(rest);
    if (parsed.error) return parsed;
    if (!parsed.cards.length) return refusal(_("Name the cards to place, for example: bid y5 y6"));
    if (parsed.cards.length > prompt.max_cards) {
      if (!prompt.max_cards) return refusal(_("You cannot place more cards now: pass"));
      return refusal(
        ngettext("You may place only {n} card", "You may place up to {n} cards", prompt.max_cards),
      );
    }
    const ids = [];
    const inHand = (view.hand ?? []).map((c) => c.id);
    for (const ref of parsed.cards) {
      const found = findCard(view, ref, ids, inHand);
      if (found.error) return found;
      if (!inHand.includes(found.card.id)) return refusal(_("Bids come from your hand"));
      ids.push(found.card.id);
    }
    return { action: { type: "bid", cards: ids } };
  },
  pass(view, prompt) {
    if (prompt.type !== "bid") return refusal(notNow(prompt));
    if (!prompt.can_pass) return refusal(_("You cannot pass now: place a card."));
    return { action: { type: "pass" } };
  },
  discard(view, prompt, rest) {
    if (prompt.type !== "discard") return refusal(notNow(prompt));
    const parsed = parseCards(rest);
    if (parsed.error) return parsed;
    const ids = [];
    for (const ref of parsed.cards) {
      const found = findCard(view, ref, ids, prompt.cards);
      if (found.error) return found;
      if (prompt.cards.includes(found.card.id)) ids.push(found.card.id);
    }
    if (ids.length !== prompt.count)
      return refusal(ngettext("Discard exactly {n} card", "Discard exactly {n} cards", prompt.count));
    return { action: { type: "discard", cards: ids } };
  },
  trump(view, prompt, rest) {
    if (prompt.type !== "trump") return refusal(notNow(prompt));
    const kind = trumpOf(rest);
    const choices = prompt.options.map(trumpName).join(", ");
    if (kind === null || !prompt.options.includes(kind))
      return refusal(_("You cannot name that trump. Choices: {list}", { list: choices }));
    return { action: { type: "trump", trump: kind } };
  },
  partner(view, prompt, rest) {
    if (prompt.type !== "partner") return refusal(notNow(prompt));
    const seat = seatOf(view, rest);
    const list = prompt.options.map((s) => seatName(view, s) + " (" + String(s + 1) + ")").join(", ");
    if (seat === null || !prompt.options.includes(seat))
      return refusal(_("You cannot choose that partner. Choices: {list}", { list }));
    return { action: { type: "partner", seat } };
  },
};

// A trump as typed: the notation's word, or a colour, a number or no trump in other words → the
// catalog's kind, or null.
function trumpOf(text) {
  const word = fold(text.trim());
  if (!word) return null;
  if (NOTATION.trumps.includes(word)) return word; // the notation's word: red, 7, none
  if (NO_TRUMP.has(word))
    return RULES.trump_kinds.find((k) => k.colour === null && k.number === null)?.kind ?? null;
  const number = word.match(/^(\d+)(s|er)?$/);
  if (number) return RULES.trump_kinds.find((k) => k.number === Number(number[1]))?.kind ?? null;
  const colour = colourAliases().get(word);
  return colour ? (RULES.trump_kinds.find((k) => k.colour === colour)?.kind ?? null) : null;
}

// A partner as typed: a seat number (as the page counts them, from 1) or the start of a name.
function seatOf(view, text) {
  const word = fold(text.trim());
  if (!word) return null;
  if (/^\d+$/.test(word)) return Number(word) - 1;
  const seats = Array.from({ length: view.players ?? 0 }, (_x, seat) => seat);
  const named = seats.filter((seat) => fold(seatName(view, seat)).startsWith(word));
  return named.length === 1 ? named[0] : null;
}

const NOT_NOW = {
  bid: N_("Not now: place cards or pass."),
  discard: N_("Not now: discard cards from the kitty first."),
  trump: N_("Not now: name your trump."),
  partner: N_("Not now: choose your partner."),
  play: N_("Not now: play a card."),
};
const notNow = (prompt) => (NOT_NOW[prompt.type] ? _(NOT_NOW[prompt.type]) : _("Not now."));

// The command list for the help (and the `help` command).
export function commandHelp() {
  const letters = [...colourLetters()]
    .map(([colour, letter]) => `${letter} = ${colourName(colour)}`)
    .join(", ");
  return [
    _("play g7: play a card (a card alone, g7, plays it too)"),
    _("bid y5 y6: place cards in the auction; pass: pass"),
    _("discard r1 b3: discard cards after taking the kitty"),
    _("trump red, trump 7, trump none: name your trump"),
    _("partner 2 or partner Ben: choose your partner"),
    _("undo: ask to take your move back; where: where are we; hand: your cards"),
    _("Colour letters: {letters}", { letters }),
  ];
}
