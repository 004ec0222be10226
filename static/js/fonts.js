// The typeface on the table page (static/css/fonts.css; every other page links it in its head).
// A phone's first second goes to the table's script and first view: the font's 25 KB shared the
// line with them and made the hand come later (issue 38, point 8), so the page asks for the font
// once it is usable (table.js), and on a later visit at once (early.js), when it is in the cache.
const SEEN = "mu-fonts";

export function loadFonts() {
  const meta = document.querySelector('meta[name="mu-fonts"]');
  if (!meta || document.getElementById("mu-fonts")) return;
  const link = Object.assign(document.createElement("link"), { id: "mu-fonts", rel: "stylesheet", href: meta.content });
  document.head.append(link);
  try {
    localStorage.setItem(SEEN, "1");
  } catch {
    // Storage refused (private mode): the next visit asks for the font late again.
  }
}

export function fontsSeen() {
  try {
    return localStorage.getItem(SEEN) === "1";
  } catch {
    return false;
  }
}
