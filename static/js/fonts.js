// The typeface on the table page (static/css/fonts.css; every other page links it in its head).
// A phone's first second goes to the table's script and first view: the font's 25 KB shared the
// line with them and made the hand come later (issue 38, point 8). And a typeface that arrives
// after the page is usable reflows its text under the reader: a line wraps differently, a button
// moves up by a line, and a tap aimed at it lands beside it. So on a first visit the page keeps
// the system font and, once usable, only fetches the typeface's files for later (fetchFonts);
// on a later visit early.js applies the typeface at once (loadFonts), from the cache.
const SEEN = "mu-fonts";

function fontsMeta() {
  return document.querySelector('meta[name="mu-fonts"]');
}

function remember() {
  try {
    localStorage.setItem(SEEN, "1");
  } catch {
    // Storage refused (private mode): the next visit is a first visit again.
  }
}

export function loadFonts() {
  const meta = fontsMeta();
  if (!meta || document.getElementById("mu-fonts")) return;
  const link = Object.assign(document.createElement("link"), { id: "mu-fonts", rel: "stylesheet", href: meta.content });
  document.head.append(link);
}

// A file read to its end (so that the cache holds all of it); whether it came.
async function fetchWhole(url) {
  const response = await fetch(url, { priority: "low" });
  await response.arrayBuffer();
  return response.ok;
}

// The stylesheet's font files into the cache (the service worker keeps them too, where there is
// one), nothing applied: the stylesheet itself names them, so no list is kept twice.
export async function fetchFonts() {
  const meta = fontsMeta();
  if (!meta || document.getElementById("mu-fonts")) return;
  try {
    const css = await (await fetch(meta.content, { priority: "low" })).text();
    const base = new URL(meta.content, location.href);
    const files = [...css.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((m) => new URL(m[1], base).href);
    const fetched = await Promise.all(files.map((url) => fetchWhole(url)));
    if (fetched.every(Boolean)) remember();
  } catch {
    // Offline or refused: the next visit is a first visit again.
  }
}

export function fontsSeen() {
  try {
    return localStorage.getItem(SEEN) === "1";
  } catch {
    return false;
  }
}
