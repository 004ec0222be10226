// The table's WebSocket, as a transport only: sends messages, hands every frame it receives to
// `onMessage` (static/js/router.js says who handles which type), keeps the line alive with
// pings, reports whether it is connected, and reconnects by itself with a growing pause after
// the socket drops, unless `onClose(code)` says the close code ends it (static/js/protocol.js).
//
// A lost network is noticed quickly (issue 38): at once when the browser says it is offline,
// and within a few seconds when the line just goes quiet while the page listens closely (the
// table asks for that while this seat is to move or its move is on the way: `watchClosely`).

// How often the line is checked and pinged, and how long a silence (not even a pong) makes it
// dead even if the browser has not noticed, as happens after a phone sleeps or a network
// switch. Closely: a ping every 1.5 s, dead after 3.5 s without a word, so a loss is seen
// within 4 s; relaxed, a ping every 20 s and dead after 50 s, to spare the server.
const RELAXED = { check: 20000, ping: 20000, silence: 50000 };
const CLOSELY = { check: 250, ping: 1500, silence: 3500 };
// A handshake that has not finished in this long is given up and tried again (a dead network
// need not refuse a new socket: it may just never answer).
const CONNECT_MS = 5000;
// Short pauses: a friend waiting at the table should not wait long after the network returns.
// Each pause is drawn from ±50 % around its step, so the sockets a restart closed do not all
// come back in the same instant; the longest is under 4 s, so a network that comes back
// without telling the browser has the table current within about 5 s.
const RETRY_MS = [250, 500, 1000, 2000, 2500];
const JITTER = 0.5;
const ABNORMAL_CLOSURE = 1006; // RFC 6455: the connection was lost without a close frame

// The socket static/js/early.js opened for this address before this script was in: the page's
// first open takes it over; any later open, or another address, opens its own. From the moment
// this script runs, early.js is too late (false), should it run only now: the page may be
// trading a personal link for its seat cookie (the link already gone from the address bar),
// and a socket opened before that is done would be a spectator's.
globalThis.muEarlySocket ??= false;

function takeEarlySocket(url) {
  const early = globalThis.muEarlySocket;
  globalThis.muEarlySocket = false;
  if (!early) return null;
  if (early.url === url) return early;
  early.ws.close();
  return null;
}

// Besides `onStatus`, a "status" event ({detail: {connected}}) each time the line comes up or
// goes down, for whoever wants to hear of the change only (away.js says it aloud).
export class TableSocket extends EventTarget {
  // onMessage(message), onStatus(connected), onClose(code) -> true when no reconnect should follow
  constructor(code, { onMessage, onStatus, onClose }) {
    super();
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(code)}`;
    this.handlers = { onMessage, onStatus, onClose };
    this.attempt = 0;
    this.ws = null;
    this.connected = false;
    this.pinger = 0;
    this.handshake = 0; // the timer that gives up a handshake (CONNECT_MS)
    this.retry = 0;
    this.pace = RELAXED;
    this.heard = 0; // when the socket last said anything
    this.pinged = 0;
    this.paced = 0; // when the pace last changed: a silence is counted from then at the earliest
    this.stopped = false;
    // Offline by the browser's word: the line is lost now, not when the silence runs out.
    addEventListener("offline", () => this.#lose());
    // Back online or back in the tab: try at once instead of waiting out the pause.
    addEventListener("online", () => this.#online());
    document.addEventListener("visibilitychange", () => document.hidden || this.#retryNow());
  }

  open() {
    this.stopped = false;
    this.retry = 0;
    const early = takeEarlySocket(this.url);
    const ws = early?.ws ?? new WebSocket(this.url);
    this.ws = ws;
    this.handshake = setTimeout(() => ws.readyState === WebSocket.CONNECTING && this.#drop(ws), CONNECT_MS);
    ws.onopen = () => {
      clearTimeout(this.handshake);
      this.attempt = 0;
      this.heard = this.pinged = Date.now();
      this.#status(true);
      this.#beat(ws);
    };
    ws.onmessage = (event) => {
      this.heard = Date.now();
      this.#receive(event.data);
    };
    ws.onclose = (event) => this.#closed(ws, event);
    // The early socket's past, in the order it happened (the handlers above are set in the same
    // turn of the event loop, so nothing falls between).
    if (early?.opened) ws.onopen();
    early?.frames.forEach((event) => ws.onmessage(event));
    if (early?.closed) ws.onclose(early.closed);
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

  // Listen closely (`on`: this seat is to move, or its move is on the way) or at the relaxed
  // pace. Cheap to call on every redraw: only a change does anything.
  watchClosely(on) {
    const pace = on ? CLOSELY : RELAXED;
    if (pace === this.pace) return;
    this.pace = pace;
    this.paced = Date.now();
    if (this.ws?.readyState === WebSocket.OPEN) this.#beat(this.ws);
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

  #status(connected) {
    this.handlers.onStatus(connected);
    if (connected === this.connected) return;
    this.connected = connected;
    this.dispatchEvent(new CustomEvent("status", { detail: { connected } }));
  }

  #closed(ws, event) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    clearTimeout(this.handshake);
    if (this.stopped || this.handlers.onClose(event.code)) return;
    this.#status(false);
    const step = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    const pause = step * (1 - JITTER + 2 * JITTER * Math.random());
    this.attempt += 1;
    this.retry = setTimeout(() => this.open(), pause);
  }

  // The heartbeat at the current pace, its first check now (a ping, when one is due).
  #beat(ws) {
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.#keepAlive(ws), this.pace.check);
    this.#keepAlive(ws);
  }

  #keepAlive(ws) {
    const now = Date.now();
    if (now - Math.max(this.heard, this.paced) >= this.pace.silence) {
      this.#drop(ws);
      return;
    }
    if (now - this.pinged < this.pace.ping - this.pace.check / 2) return;
    this.pinged = now;
    this.send({ type: "ping" });
  }

  // The socket is given up as dead: closed on our side, and the reconnecting begins now.
  #drop(ws) {
    if (ws !== this.ws) return;
    ws.onclose = null;
    ws.close();
    this.#closed(ws, { code: ABNORMAL_CLOSURE });
  }

  #lose() {
    const ws = this.ws;
    if (this.stopped || !ws || ws.readyState > WebSocket.OPEN) return;
    this.#drop(ws);
  }

  // A handshake begun while offline will not finish: begin a new one.
  #online() {
    if (this.stopped) return;
    if (this.ws?.readyState === WebSocket.CONNECTING) this.#drop(this.ws);
    this.#retryNow();
  }

  #retryNow() {
    if (this.stopped || !this.retry) return;
    clearTimeout(this.retry);
    this.retry = 0;
    this.open();
  }
}
