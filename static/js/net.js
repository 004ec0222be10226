// The table's WebSocket: sends actions with the version they were taken on, keeps the line
// alive with pings, and reconnects by itself with a growing pause after the socket drops.

const PING_MS = 20000;
// A socket that has heard nothing (not even a pong) for this long is dead even if the browser
// has not noticed yet, as happens after a phone sleeps or a network switch.
const SILENCE_MS = 2.5 * PING_MS;
// Short pauses: a friend waiting at the table should not wait long after the network returns.
const RETRY_MS = [250, 500, 1000, 2000, 3000];
const POLICY_VIOLATION = 1008; // the server closes with this for a bad seat token
const UNKNOWN_TABLE = 4404; // ... and with this for an invite code that names no table
const SPECTATORS_FULL = 4503; // ... and with this when the table has all the spectators it takes

export class TableSocket {
  constructor(code, { onView, onError, onStatus, onRejected, onGone, onFull, onHint, onTalk }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(code)}`;
    this.handlers = { onView, onError, onStatus, onRejected, onGone, onFull, onHint, onTalk };
    this.version = null;
    this.attempt = 0;
    this.ws = null;
    this.pinger = 0;
    this.retry = 0;
    this.heard = 0;
    this.stopped = false;
    // Back online or back in the tab: try at once instead of waiting out the pause.
    addEventListener("online", () => this.#retryNow());
    document.addEventListener("visibilitychange", () => document.hidden || this.#retryNow());
  }

  open() {
    this.stopped = false;
    this.retry = 0;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.heard = Date.now();
      this.handlers.onStatus(true);
      this.pinger = setInterval(() => this.#keepAlive(ws), PING_MS);
    };
    ws.onmessage = (event) => {
      this.heard = Date.now();
      this.#receive(event.data);
    };
    ws.onclose = (event) => this.#closed(ws, event);
  }

  // Actions always carry the version of the view they were chosen on, so a move made on an
  // outdated screen is refused by the server instead of landing somewhere unexpected.
  act(action) {
    if (this.version === null) return false;
    return this.#send({ type: "action", version: this.version, action });
  }

  // Beginner hints: ask for the search bot's move on the version on screen (answered "hint").
  hint() {
    if (this.version === null) return false;
    return this.#send({ type: "hint", version: this.version });
  }

  // Talk and other messages that carry no version (chat, reactions).
  send(message) {
    return this.#send(message);
  }

  // "I'm back": try to reconnect now instead of waiting out the pause.
  reconnectNow() {
    this.#retryNow();
  }

  close() {
    this.stopped = true;
    this.ws?.close();
  }

  #send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  #receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === "view") {
      this.version = message.version;
      this.handlers.onView(message.view, message.version);
    } else if (message.type === "error") {
      this.handlers.onError(message);
    } else if (message.type === "hint") {
      this.handlers.onHint?.(message);
    } else if (message.type !== "pong") {
      this.handlers.onTalk?.(message);
    }
  }

  #closed(ws, event) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    if (this.stopped) return;
    if (event.code === POLICY_VIOLATION) {
      this.handlers.onRejected(event.reason);
      return;
    }
    if (event.code === UNKNOWN_TABLE) {
      this.handlers.onGone();
      return;
    }
    if (event.code === SPECTATORS_FULL) {
      this.handlers.onFull();
      return;
    }
    this.handlers.onStatus(false);
    const pause = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.retry = setTimeout(() => this.open(), pause);
  }

  #keepAlive(ws) {
    if (Date.now() - this.heard < SILENCE_MS) {
      this.#send({ type: "ping" });
      return;
    }
    ws.onclose = null;
    ws.close();
    this.#closed(ws, { code: 1006 });
  }

  #retryNow() {
    if (this.stopped || !this.retry) return;
    clearTimeout(this.retry);
    this.retry = 0;
    this.open();
  }
}
