// The table's socket, opened as soon as this small script is in (issue 38, point 8). The table's
// own script is large and still on its way; a seated player's first view comes over the socket,
// so the handshake and the view travel beside that script instead of after it. net.js's
// TableSocket takes this socket over when it first opens (takeEarlySocket); what the socket said
// until then waits here, in order. A personal link (#rejoin=…) is redeemed before any socket
// opens (the seat cookie it sets changes whom the socket is for), so then none is opened here.
// And the typeface, when an earlier visit has it in the cache (static/js/fonts.js); and the
// service worker, as on every page (one script here instead of two on a first visit).
import { fontsSeen, loadFonts } from "./fonts.js";
import "./pwa.js";

if (fontsSeen()) loadFonts();
const table = location.pathname.match(/^\/t\/([^/]+)$/);
const first = globalThis.muEarlySocket === undefined; // false once the table script runs
if (table && first && !new URLSearchParams(location.hash.slice(1)).has("rejoin")) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const early = { url: `${scheme}://${location.host}/ws/${table[1]}`, opened: false, frames: [], closed: null };
  early.ws = new WebSocket(early.url);
  early.ws.onopen = () => (early.opened = true);
  early.ws.onmessage = (event) => early.frames.push(event);
  early.ws.onclose = (event) => (early.closed = event);
  globalThis.muEarlySocket = early;
}
