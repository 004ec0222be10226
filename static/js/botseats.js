// The creator's bot seats in the lobby: a bot (at a chosen level) into an empty seat, or into
// every empty seat at once. The seat shows through the socket's next view.
import { $, fill, h, toast } from "./dom.js";
import { _ } from "./i18n.js";
import { SEAT_TAKEN } from "./errors.js";
import { botLevelName, seatNumber } from "./names.js";
import { RULES } from "./rulebook.js";
import { state } from "./state.js";

// The creator (who holds the host cookie) may put a bot into every empty seat.
export function drawBotSeats(info, free) {
  const box = $("#host-bots");
  box.hidden = !info.host || !free.length;
  if (box.hidden) {
    refocusAfter = null;
    return;
  }
  for (const hint of box.querySelectorAll("[data-bots-open]")) hint.hidden = hint.dataset.botsOpen !== String(state.lobby.botsOpen);
  // A redraw keeps the levels already chosen.
  const levels = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.name, s.value]));
  fill(
    $("#fill-bots-row"),
    free.length > 1
      ? h(
          "button",
          { type: "button", class: "primary", dataset: { testid: "fill-bots" }, onclick: (event) => fillWithBots(free, event.target) },
          _("Fill every empty seat with a bot"),
        )
      : null,
  );
  fill(
    $("#bot-seats"),
    ...free.map((i) =>
      h(
        "li",
        { dataset: { testid: `bot-seat-${i}` } },
        h("b", {}, seatNumber(i)),
        h("span", { class: "muted" }, _("free")),
        h(
          "select",
          {
            "name": `level-${i}`,
            "aria-label": _("Level for seat {n}", { n: i + 1 }),
            "dataset": { testid: `bot-level-${i}` },
          },
          ...RULES.bot_levels.map((level) =>
            h(
              "option",
              { value: level, selected: level === (levels[`level-${i}`] ?? RULES.bot_level) },
              botLevelName(level),
            ),
          ),
        ),
        h(
          "button",
          {
            type: "button",
            dataset: { testid: `add-bot-${i}` },
            onclick: (event) => {
              refocusAfter = i;
              addBot(i, event.target);
            },
          },
          _("Add bot"),
        ),
      ),
    ),
  );
  refocus(free);
}

// The seat whose "Add bot" was pressed: once the bot sits there its row is gone, and the focus
// moves on to the next empty seat's "Add bot" (or the first) instead of falling to the page.
let refocusAfter = null;

function refocus(free) {
  if (refocusAfter === null || free.includes(refocusAfter)) return;
  const next = free.find((seat) => seat > refocusAfter) ?? free[0];
  refocusAfter = null;
  const lost = !document.activeElement || document.activeElement === document.body;
  if (lost && next !== undefined) $(`[data-testid="add-bot-${next}"]`)?.focus();
}

// One tap for the host: a bot (at the level chosen beside it) into every empty seat.
async function fillWithBots(seats, button) {
  button.disabled = true;
  for (const seat of seats) {
    const add = $(`[data-testid="add-bot-${seat}"]`);
    if (add && !add.disabled) await addBot(seat, add);
  }
}

// The seat appears through the socket's next view; only a failure needs saying here.
async function addBot(seat, button) {
  const level = $(`#bot-seats select[name="level-${seat}"]`)?.value ?? RULES.bot_level;
  button.disabled = true;
  const response = await fetch(`${state.api}/bots`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, level }),
  }).catch(() => null);
  if (!response?.ok) {
    toast(response?.status === 409 ? _(SEAT_TAKEN) : _("The bot could not be seated. Try again."));
    button.disabled = false;
    if (refocusAfter === seat) refocusAfter = null;
  }
}

