// The practice table at the end of a lesson: one click opens a table for four with beginner
// hints, takes seat 0 under the learner's name and seats three bots (the lobby's own API).
const json = (body) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

export async function openPractice(name, variant) {
  const created = await fetch("/api/tables", json({ players: 4, variant, hints: true }));
  if (!created.ok) return null;
  const { invite_code: code } = await created.json();
  const api = `/api/tables/${encodeURIComponent(code)}`;
  const seated = await fetch(`${api}/seats`, json({ name, seat: 0 }));
  if (!seated.ok) return null;
  for (const seat of [1, 2, 3]) {
    const bot = await fetch(`${api}/bots`, json({ seat, level: "heuristic" }));
    if (!bot.ok) return null;
  }
  return `/t/${encodeURIComponent(code)}`;
}

// `variant()`: the rules the practice table plays (the lesson's).
export function wirePractice(form, error, variant) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    error.hidden = true;
    const url = await openPractice(form.elements.name.value.trim(), variant()).catch(() => null);
    if (url) location.assign(url);
    else {
      error.hidden = false;
      button.disabled = false;
    }
  });
}
