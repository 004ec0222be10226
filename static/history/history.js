// History pages: a print button, and replay stepping without page reloads.
// Everything works without this script (the step links and the seat form are plain GETs); the
// script only fetches the same server-rendered replay fragment (?partial=1) and swaps it in.
"use strict";

(() => {
  const printButton = document.querySelector(".print-button");
  if (printButton) {
    printButton.hidden = false;
    printButton.addEventListener("click", () => window.print());
  }

  // The review runs in the background: while it does, fetch its section again every few
  // seconds (the server renders it; ?review=1 returns the section alone).
  const REVIEW_POLL_MS = 3000;
  async function pollReview() {
    const section = document.getElementById("review");
    if (!section || !["pending", "running"].includes(section.dataset.status)) return;
    try {
      const response = await fetch(`${location.pathname}?review=1`, {
        headers: { Accept: "text/html" },
      });
      if (response.ok) {
        const holder = document.createElement("div");
        holder.innerHTML = (await response.text()).trim();
        const fresh = holder.querySelector("#review");
        if (fresh) {
          section.replaceWith(fresh);
          showPractice(fresh);
        }
      }
    } catch {
      // offline for a moment: try again at the next tick
    }
    setTimeout(pollReview, REVIEW_POLL_MS);
  }
  setTimeout(pollReview, REVIEW_POLL_MS);

  // "Play on from here" and "Play this deal again" (issue 39): open a practice table on this
  // hand at the button's step, then go there (take a seat, seat bots or send the link).
  const showPractice = (root) => {
    for (const button of root.querySelectorAll("[data-practice-url]")) button.hidden = false;
  };
  showPractice(document);
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-practice-url]");
    if (!button || button.disabled) return;
    const error = button.parentElement.querySelector(".h-practice-error");
    button.disabled = true;
    error.hidden = true;
    try {
      const response = await fetch(button.dataset.practiceUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ step: Number(button.dataset.practiceStep) }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const created = await response.json();
      location.href = `/t/${encodeURIComponent(created.invite_code)}`;
    } catch {
      error.textContent = button.dataset.failed;
      error.hidden = false;
      button.disabled = false;
    }
  });

  const replay = () => document.getElementById("replay");
  if (!replay()) return;

  let pending = null;

  async function show(step, seat, focusTestId) {
    const params = new URLSearchParams({ step: String(step), seat });
    pending?.abort();
    pending = new AbortController();
    replay().classList.add("loading");
    try {
      const response = await fetch(`${location.pathname}?${params}&partial=1`, {
        signal: pending.signal,
        headers: { Accept: "text/html" },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const html = await response.text();
      const holder = document.createElement("div");
      holder.innerHTML = html.trim();
      const fresh = holder.querySelector("#replay");
      replay().replaceWith(fresh);
      showPractice(fresh);
      history.replaceState(null, "", `${location.pathname}?${params}#replay`);
      // Keep keyboard users where they were: the same control, if it is still active.
      const again = focusTestId && fresh.querySelector(`[data-testid="${focusTestId}"]`);
      if (again) again.focus();
    } catch (error) {
      if (error.name === "AbortError") return;
      // Fall back to a normal page load, which works without the script.
      location.href = `${location.pathname}?${params}#replay`;
    }
  }

  const current = () => ({
    step: Number(replay().dataset.step),
    steps: Number(replay().dataset.steps),
    seat: replay().dataset.seat,
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest("#replay [data-step-link]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    show(Number(link.dataset.stepLink), current().seat, link.dataset.testid);
  });

  document.addEventListener("change", (event) => {
    if (!event.target.matches("#replay select[name=seat]")) return;
    show(current().step, event.target.value, "perspective");
  });

  document.addEventListener("submit", (event) => {
    if (!event.target.closest("#replay")) return;
    event.preventDefault();
    show(current().step, event.target.elements.seat.value);
  });

  // Arrow keys step through the hand (not while a form control has the focus).
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey) return;
    const { step, steps, seat } = current();
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: steps };
    if (!(event.key in moves)) return;
    const to = moves[event.key];
    if (to < 0 || to > steps || to === step) return;
    event.preventDefault();
    show(to, seat);
  });
})();
