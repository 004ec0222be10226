// The table's WebSocket: sends actions with the version they were taken on, keeps the line
// alive with pings, and reconnects by itself with a growing pause after the socket drops.

const PING_MS = 20000;
const RETRY_MS = [300, 1000, 2000, 4000, 8000];
const POLICY_VIOLATION = 1008; // the server closes with this for a bad seat token
const UNKNOWN_TABLE = 4404; // ... and with this for an invite code that names no table

export class TableSocket {
  constructor(code, { onView, onError, onStatus, onRejected, onGone }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(code)}`;
    this.handlers = { onView, onError, onStatus, onRejected, onGone };
    this.version = null;
    this.attempt = 0;
    this.ws = null;
    this.pinger = 0;
    this.stopped = false;
  }

  open() {
    this.stopped = false;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.handlers.onStatus(true);
      this.pinger = setInterval(() => this.#send({ type: "ping" }), PING_MS);
    };
    ws.onmessage = (event) => this.#receive(event.data);
    ws.onclose = (event) => this.#closed(ws, event);
  }

  // Actions always carry the version of the view they were chosen on, so a move made on an
  // outdated screen is refused by the server instead of landing somewhere unexpected.
  act(action) {
    if (this.version === null) return false;
    return this.#send({ type: "action", version: this.version, action });
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
    this.handlers.onStatus(false);
    const pause = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    setTimeout(() => this.open(), pause);
  }
}
