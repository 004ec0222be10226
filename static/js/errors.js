// What the server's refusal codes (static/js/protocol.js: ERROR_CODES, REFUSAL_CODES; and the
// seat answers' codes) mean to the player. tests/app/test_protocol_js.py checks that every code
// the server can send has a text here.
import { N_, _ } from "./i18n.js";

const NOT_UNDERSTOOD = N_("The move was not understood.");
export const SEAT_TAKEN = N_("That seat was just taken. Pick another one.");
export const JOIN_FAILED = N_("Could not take the seat. Please try again.");

const ERROR_TEXT = {
  // The protocol's own (ErrorCode).
  bad_json: NOT_UNDERSTOOD,
  bad_message: NOT_UNDERSTOOD,
  too_large: N_("The message was too large."),
  spectator: N_("Spectators can only watch."),
  stale_version: N_("The table changed just before your move. Here is the current state."),
  unavailable: N_("The server could not save your move just now. Please try again in a moment."),
  rate_limited: N_("Too many messages at once. Please wait a moment."),
  hints_off: N_("This table plays without hints."),
  chat_empty: N_("Write something first."),
  chat_too_long: N_("That is too long for the chat: at most 200 characters."),
  chat_too_fast: N_("You are talking a lot: please wait a few seconds."),
  undo_pending: N_("Another request to take back a move is being decided."),
  no_undo_request: N_("That request is over already."),
  seat_taken: SEAT_TAKEN,
  table_full: JOIN_FAILED,
  no_such_seat: JOIN_FAILED,
  // The host's table (app/host).
  not_host: N_("Only the table's host can do that."),
  table_closed: N_("The host has closed this table to newcomers."),
  seat_empty: N_("Nobody sits in that seat."),
  seat_is_bot: N_("A bot sits there: use the bot controls."),
  remove_self: N_("You cannot remove yourself."),
  not_a_person: N_("Only a seated person can become the host."),
  not_finished: N_("Only a finished or abandoned table can be deleted."),
  table_deleted: N_("The host deleted this table."),
  // Pause by consent, holidays, drop-out votes (pause.js).
  paused: N_("The table is paused. Resume it to play on."),
  not_paused: N_("The table is not paused."),
  no_pause_request: N_("That request to pause is over already."),
  pause_not_here: N_("This table cannot pause now."),
  bad_holiday: N_("Pick a date in the next 60 days."),
  no_dropout_vote: N_("That question is over already."),
  // The rules' (engine.IllegalAction) and the table's (not started, nothing to undo).
  not_your_turn: N_("It is not your turn."),
  wrong_phase: N_("That is not possible at this moment."),
  too_many_cards: N_("Too many cards for this bid."),
  no_cards: N_("Select at least one card."),
  must_follow_suit: N_("You must follow the led suit."),
  card_not_yours: N_("That card is not yours."),
  trump_not_allowed: N_("That trump is not allowed."),
  partner_not_allowed: N_("You cannot choose that partner."),
  bad_action: NOT_UNDERSTOOD,
  hand_over: N_("The hand is already over."),
  discard_not_allowed: N_("Those cards cannot be discarded."),
  not_started: N_("The game starts when every seat is taken."),
  nothing_to_undo: N_("That move can no longer be taken back."),
};

// Refusals of talk and undo requests: a move in flight is not affected by them.
const ASIDE = new Set([
  "chat_empty",
  "chat_too_long",
  "chat_too_fast",
  "undo_pending",
  "no_undo_request",
  "nothing_to_undo",
  "not_paused",
  "no_pause_request",
  "pause_not_here",
  "bad_holiday",
  "no_dropout_vote",
]);
export const aboutMoves = (code) => !ASIDE.has(code);

export function errorText(message) {
  return Object.hasOwn(ERROR_TEXT, message.code)
    ? _(ERROR_TEXT[message.code])
    : _("That did not work: {message}", { message: message.message ?? message.code });
}
