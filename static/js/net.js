// The table's WebSocket, as a transport only: sends messages, hands every frame it receives to
// `onMessage` (static/js/router.js says who handles which type), keeps the line alive with
// pings, reports whether it is connected, and reconnects by itself with a growing pause after
// the socket drops, unless `onClose(code)` says the close code ends it (static/js/protocol.js).

const PING_MS = 20000;
// A socket that has heard nothing (not even a pong) for this long is dead even if the browser
// has not noticed yet, as happens after a phone sleeps or a network switch.
const SILENCE_MS = 2.5 * PING_MS;
// Short pauses: a friend waiting at the table should not wait long after the network returns.
// Each pause is drawn from ±50 % around its step, so the sockets a restart closed do not all
// come back in the same instant.
const RETRY_MS = [250, 500, 1000, 2000, 3000];
const JITTER = 0.5;
const ABNORMAL_CLOSURE = 1006; // RFC 6455: the connection was lost without a close frame

export class TableSocket {
  // onMessage(message), onStatus(connected), onClose(code) -> true when no reconnect should follow
  constructor(code, { onMessage, onStatus, onClose }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(code)}`;
    this.handlers = { onMessage, onStatus, onClose };
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

  // Whether the message went out (false: not connected right now).
  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  // "I'm back": try to reconnect now instead of waiting out the pause.
  reconnectNow() {
    this.#retryNow();
  }

  close() {
    this.stopped = true;
    this.ws?.close();
  }

  #receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    this.handlers.onMessage(message);
  }

  #closed(ws, event) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    if (this.stopped || this.handlers.onClose(event.code)) return;
    this.handlers.onStatus(false);
    const step = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    const pause = step * (1 - JITTER + 2 * JITTER * Math.random());
    this.attempt += 1;
    this.retry = setTimeout(() => this.open(), pause);
  }

  #keepAlive(ws) {
    if (Date.now() - this.heard < SILENCE_MS) {
      this.send({ type: "ping" });
      return;
    }
    ws.onclose = null;
    ws.close();
    this.#closed(ws, { code: ABNORMAL_CLOSURE });
  }

  #retryNow() {
    if (this.stopped || !this.retry) return;
    clearTimeout(this.retry);
    this.retry = 0;
    this.open();
  }
}
