// The table page's state, in one place. Every module reads `state`; the page's own changes go
// through the functions below, and each feature (talk, away, undo, again, announce, host, keys)
// keeps its part in its own slice here and changes only that slice. Nothing else in the scripts
// holds page state.

export const state = {
  code: "", // the table's invite code
  api: "", // /api/tables/{code}
  info: null, // GET /api/tables/{code}, once at start (`you` is updated when a seat is taken)
  view: null, // the newest view from the socket
  version: null, // its table version: actions and hints are sent with it
  socket: null, // the TableSocket in use (a new one after taking a seat)
  screen: "loading", // "lobby", "full" (every seat held by a person), "board" or "loading"
  watching: false, // a visitor who chose to watch rather than take a seat
  joining: false, // a seat request is in flight
  // The seat picker: the seat the newcomer chose themselves (null: none yet, the first free
  // one is preselected), and whether a chosen seat was taken by someone else (they pick again).
  lobby: { chosen: null, lost: false, botsOpen: true },
  selected: new Set(), // card ids picked for a bid or a discard
  pending: false, // an action is on its way: the controls stay locked until the answer
  hint: null, // the latest beginner hint ({version, action, value, runner_up, worlds})
  hintPending: false,
  // A just-won trick kept in the middle for a moment, then sliding to its winner (felt.js);
  // `queue`: tricks completed meanwhile, shown next; `after`: what waits until they have been
  // seen (the hand's summary).
  trick: { showing: null, collecting: false, showTimer: 0, collectTimer: 0, onFelt: new Set(), queue: [], after: [] },
  talk: { lines: [], seen: 0, bubbles: new Map(), muted: new Set() },
  // Drop-outs and your own line (away.js): the countdown's ticker, the socket whose changes it
  // hears, whether that line is lost.
  away: { ticker: 0, socket: null, lost: false },
  undo: { request: null, timer: 0 },
  // Pause by consent, holidays, drop-out votes (pause.js): the view last noted, its newest
  // marker and decided votes (seat → "bot"/"wait"), the story told (the live log's lines), whether
  // the table was paused when last drawn (null: not drawn yet), the request's countdown.
  pause: { noted: null, last: null, decided: new Map(), story: [], paused: null, ticker: 0 },
  again: { next: null, busy: false, declined: false },
  // The announcer (announce.js): the view last compared, the decision last announced.
  announce: { seen: null, decision: null },
  // The host's dialog (host.js): the host event last shown, whether this page asked for the host
  // cookie, whether "Delete" was pressed once (the second press deletes), the removal being
  // confirmed, what the people list was last drawn from.
  host: { shownEvent: null, claimed: false, deleteArmed: false, confirming: null, drawn: null },
  // Keyboard play (keys.js): the decision last given the focus (events.decisionKey).
  keys: { focused: null },
};

export const isSeated = (view) => view?.seat !== null && view?.seat !== undefined;
// Before the first deal the server sends a "waiting" view: the lobby stays up until then.
export const hasGame = (view) => Boolean(view?.phase) && view.phase !== "waiting";
// Your seat, from the newest view or (before the first) the table info; null: not seated.
export const yourSeat = () => (state.view ? state.view.seat : state.info?.you) ?? null;

export function openPage(code) {
  state.code = code;
  state.api = `/api/tables/${encodeURIComponent(code)}`;
}

export function setInfo(info) {
  state.info = info;
  state.lobby.botsOpen = info.options?.newcomers_take_bots !== false;
}

// A new socket: its first view brings the version.
export function setSocket(socket) {
  state.socket = socket;
  state.version = null;
}

// A view from the socket; returns the one it replaces. An action's answer has arrived.
export function applyView(view, version) {
  const previous = state.view;
  state.view = view;
  state.version = version;
  state.pending = false;
  return previous;
}

// Returns the screen shown before.
export function setScreen(screen) {
  const before = state.screen;
  state.screen = screen;
  return before;
}

export function watch() {
  state.watching = true;
}

// ----- taking a seat -----

export function chooseSeat(seat) {
  state.lobby.chosen = seat;
  state.lobby.lost = false;
}

// The chosen seat went to someone else: nothing is chosen until the newcomer picks again.
export function loseSeat() {
  state.lobby.chosen = null;
  state.lobby.lost = true;
}

export function beginJoin(seat) {
  state.joining = true;
  chooseSeat(seat);
}

// `seat`: the seat taken, or null when the request was refused.
export function endJoin(seat) {
  state.joining = false;
  if (seat !== null) state.info = { ...state.info, you: seat };
}

// ----- the table -----

export function setPending(pending) {
  state.pending = pending;
}

export function toggleSelected(id) {
  if (state.selected.has(id)) state.selected.delete(id);
  else state.selected.add(id);
}

export function clearSelected() {
  state.selected.clear();
}

export function setHintPending(pending) {
  state.hintPending = pending;
}

export function setHint(hint) {
  state.hint = hint;
  state.hintPending = false;
}
