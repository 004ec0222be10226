// The lobby: invite link, the seat picker for newcomers, who is already seated, and the host's
// bot seats. It is drawn from the table's views, which the server pushes over the table's socket
// (opened as a spectator until you take a seat) on every join, so a new player shows at once.
import { botLevelName, seatNumber } from "./board.js";
import { $, fill, h, toast } from "./dom.js";
import { N_, _, ngettext } from "./i18n.js";
import { RULES, variantOf } from "./rulebook.js";

const SEAT_TAKEN = N_("That seat was just taken. Pick another one.");

// The seats as the lobby shows them: from the newest view when there is one, else from the
// table info fetched at start (`occupied`, `name`, `bot`, `bot_level` per seat).
export function lobbySeats(info, view) {
  if (!view?.seats) return info.seats;
  return view.seats.map((seat) => ({
    occupied: seat.name !== null && seat.name !== undefined,
    name: seat.name,
    bot: seat.bot,
    bot_level: seat.bot_level,
  }));
}

// A person may take a free seat or, unless the host said no, a bot's (the bot leaves from the
// next action on).
let botsOpen = true;
export const takeable = (seat) => !seat.occupied || (seat.bot && botsOpen);
export function lobbyOptions(options) {
  botsOpen = options?.newcomers_take_bots !== false;
}
const indexes = (seats, test) => seats.map((s, i) => (test(s) ? i : null)).filter((i) => i !== null);
const freeSeats = (seats) => indexes(seats, (s) => !s.occupied);

// Draws the lobby. `you` is your seat (null: not seated); `canJoin` shows the join form.
export function drawLobby({ info, seats, you, canJoin }) {
  const seated = you !== null && you !== undefined;
  $("#lobby-title").textContent = info.host
    ? _("Your table")
    : seated
      ? _("Waiting for the other players")
      : _("Join the table");
  $("#invite-url").value = `${location.origin}/t/${$("#app").dataset.code}`;
  $("#lobby-options").textContent = optionsText(info.options ?? {});
  $("#join").hidden = !canJoin;
  $("#waiting").hidden = canJoin;
  if (canJoin) drawSeatPicker(seats);
  else drawSeatList(seats, you);
  drawBotSeats(info, seats);
}

function optionsText(options) {
  return [
    options.players ? ngettext("{n} player", "{n} players", options.players) : null,
    variantOf(options.variant)?.title,
    options.hands
      ? ngettext("{n} hand", "{n} hands", options.hands)
      : options.target_score
        ? ngettext("to {n} point", "to {n} points", options.target_score)
        : null,
    options.hints ? _("beginner hints") : null,
    options.pace === "correspondence"
      ? ngettext("over days: {n} hour per move", "over days: {n} hours per move", options.move_hours)
      : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

// What a seat shows in the lobby: free, a person's name, or a bot (with its level).
function seatLabel(seat) {
  if (!seat.occupied) return _("free");
  if (!seat.bot) return seat.name;
  return seat.name + " · " + _("Bot · {level}", { level: botLevelName(seat.bot_level) });
}

function drawSeatPicker(seats) {
  // A redraw keeps the seat the newcomer picked, as long as it can still be taken.
  const picked = $("#seat-picker input:checked")?.value;
  const keep = picked !== undefined && seats[Number(picked)] && takeable(seats[Number(picked)]);
  // Prefer a free seat; a bot's seat is offered too, but taken only when chosen or no other.
  const first = keep ? Number(picked) : (freeSeats(seats)[0] ?? indexes(seats, takeable)[0]);
  fill(
    $("#seat-picker"),
    ...seats.map((seat, i) =>
      h(
        "label",
        { class: `seat-choice${takeable(seat) ? "" : " taken"}${seat.bot ? " bot" : ""}` },
        h("input", {
          type: "radio",
          name: "seat",
          value: i,
          disabled: !takeable(seat),
          checked: i === first,
          dataset: { testid: `seat-choice-${i}` },
        }),
        h("span", {}, seatNumber(i)),
        h(
          "small",
          {},
          seat.bot
            ? _("{name}, bot ({level}): take over", { name: seat.name, level: botLevelName(seat.bot_level) })
            : seatLabel(seat),
        ),
      ),
    ),
  );
}

function drawSeatList(seats, you) {
  fill(
    $("#seat-list"),
    ...seats.map((seat, i) =>
      h(
        "li",
        { class: seat.occupied ? "" : "free" },
        h("b", {}, seatNumber(i)),
        " ",
        seatLabel(seat),
        you === i ? " (" + _("you") + ")" : "",
      ),
    ),
  );
}

// The creator (who holds the host cookie) may put a bot into every empty seat.
function drawBotSeats(info, seats) {
  const free = freeSeats(seats);
  const box = $("#host-bots");
  box.hidden = !info.host || !free.length;
  if (box.hidden) return;
  for (const hint of box.querySelectorAll("[data-bots-open]")) hint.hidden = hint.dataset.botsOpen !== String(botsOpen);
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
            onclick: (event) => addBot(i, event.target),
          },
          _("Add bot"),
        ),
      ),
    ),
  );
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
  const response = await fetch(`${apiPath()}/bots`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, level }),
  }).catch(() => null);
  if (!response?.ok) {
    toast(response?.status === 409 ? _(SEAT_TAKEN) : _("The bot could not be seated. Try again."));
    button.disabled = false;
  }
}

const apiPath = () => `/api/tables/${encodeURIComponent($("#app").dataset.code)}`;

// Takes the chosen seat. Returns the server's answer ({seat, token, rejoin_url}) or null after
// showing what went wrong.
// What a refused seat request means to the person joining, by HTTP status.
const JOIN_ERRORS = {
  409: SEAT_TAKEN,
  422: N_("Please enter a name of 1 to 24 letters."),
  429: N_("Too many requests from your connection. Please wait a minute and try again."),
};
const JOIN_FAILED = N_("Could not take the seat. Please try again.");

export async function takeSeat(form) {
  const error = $(".form-error", form);
  const name = form.name.value.trim();
  const seat = form.seat?.value;
  error.hidden = true;
  const body = { name, ...(seat !== undefined && seat !== "" ? { seat: Number(seat) } : {}) };
  const response = await fetch(`${apiPath()}/seats`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).catch(() => null);
  if (response?.ok) return response.json();
  error.textContent = _(JOIN_ERRORS[response?.status] ?? JOIN_FAILED);
  error.hidden = false;
  return null;
}
