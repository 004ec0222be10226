// Tiny DOM helpers shared by the pages: element building and a transient message line.

// h("button", {class: "x", dataset: {cardId: 3}, onclick: fn}, "text", childNode)
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  el.append(...children.flat().filter(present));
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

// A dialog the reader is in (the log docked beside the board, log.js, is open but is no dialog
// in their way): shortcuts and focus moves wait while one is open.
export const dialogOpen = () => Boolean($("dialog[open]:not(.log-docked)"));

const present = (c) => c !== null && c !== undefined && c !== false;

// Replaces an element's children, skipping the nulls left by optional parts.
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter(present));
  return el;
}

// `fill(el, build())` unless `key` (a string: what the children are drawn from) is the one
// they were last drawn from: a view that changes nothing there leaves the elements alone (no
// style or layout pass for them, a focused one keeps the focus). True when it filled.
const drawnFrom = new WeakMap();
export function refill(el, key, build) {
  if (key !== null && drawnFrom.get(el) === key && el.firstChild) return false;
  drawnFrom.set(el, key);
  fill(el, build());
  return true;
}

let toastTimer = 0;

// Shows a short message (errors, reasons for a dimmed card) without blocking the table.
export function toast(text, ms = 3500) {
  const box = $("#toast");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), ms);
}

// Copies a text field's value; falls back to selecting it where the clipboard API is missing
// (plain http on a LAN address is not a secure context).
export async function copyField(input, button, doneLabel) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = doneLabel;
  setTimeout(() => (button.textContent = label), 1500);
}
