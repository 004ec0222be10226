// What happened between two views, as a list of events (no words: speech.js says them). Pure
// functions of the views only, so the announcer is deduplicated by construction: a hand's story is
// rebuilt from each view (`handLog`), and only what the new view's story adds to the old one's is
// new. A view that changes nothing in the story (a seat connecting, a redraw) yields nothing.
//
// Events: {type: "hand", n} | {type: "bid", seat, cards} | {type: "pass", seat}
//   | {type: "roles", chief, vice, bid} | {type: "discard", seat, count}
//   | {type: "trump", role: "vice"|"chief", kind} | {type: "partner", chief, seat}
//   | {type: "play", seat, card} | {type: "trick", winner, points}
//   | {type: "result", result} | {type: "game_over", winners}

const given = (value) => value !== null && value !== undefined;
const playing = (view) => Boolean(view?.phase) && view.phase !== "waiting";

// The hand so far, in the order it happened, from one view.
export function handLog(view) {
  if (!playing(view)) return [];
  const log = [];
  for (const entry of view.auction ?? []) {
    if (entry.type === "pass") log.push({ type: "pass", seat: entry.seat });
    else log.push({ type: "bid", seat: entry.seat, cards: entry.cards });
  }
  if (view.phase === "auction") return log;
  if (given(view.chief)) {
    log.push({ type: "roles", chief: view.chief, vice: view.vice ?? null, bid: view.bid });
  }
  const discards = view.discards;
  if (discards && given(discards.seat) && discards.count > 0) {
    log.push({ type: "discard", seat: discards.seat, count: discards.count });
  }
  for (const role of ["vice", "chief"]) {
    const kind = view.trumps?.[role];
    if (given(kind)) log.push({ type: "trump", role, kind });
  }
  if (given(view.partner)) log.push({ type: "partner", chief: view.chief, seat: view.partner });
  for (const trick of view.tricks ?? []) {
    for (const play of trick.cards) log.push({ type: "play", seat: play.seat, card: play.card });
    log.push({ type: "trick", winner: trick.winner, points: trick.points });
  }
  for (const play of view.trick ?? []) log.push({ type: "play", seat: play.seat, card: play.card });
  return log;
}

const key = (event) => JSON.stringify(event);

// The events a new view brings, compared with the one before. The first view of a page says
// nothing (the player asks "Where are we?"); a new hand starts with the last one's result.
export function newEvents(before, after) {
  if (!playing(after) || !before) return [];
  const events = [];
  if (!playing(before) || before.hand_number !== after.hand_number) {
    if (playing(before) && after.last_result) events.push({ type: "result", result: after.last_result });
    events.push({ type: "hand", n: after.hand_number ?? 1 });
    events.push(...handLog(after));
  } else {
    const old = handLog(before).map(key);
    const now = handLog(after);
    let same = 0;
    while (same < old.length && same < now.length && old[same] === key(now[same])) same++;
    events.push(...now.slice(same));
  }
  if (after.game_over && !before.game_over) {
    const result = after.result ?? after.last_result;
    if (result) events.push({ type: "result", result });
    events.push({ type: "game_over", winners: after.winners ?? [] });
  }
  return events;
}

// Not while the table is paused (pause.js): the decision comes again, with the focus and "your
// turn", once someone resumes.
export const myTurn = (view) =>
  Boolean(view?.prompt) &&
  given(view.seat) &&
  view.to_move === view.seat &&
  !view.game_over &&
  !view.pause?.paused;

// Where the hand stands, as one key: it changes with every step of the story and every new
// prompt, so "your turn" is said (and the focus moved) once per decision.
export const decisionKey = (view) =>
  myTurn(view) ? `${view.hand_number}:${view.prompt.type}:${handLog(view).length}` : null;
