// The lobby: invite link, the seat picker for newcomers, who is already seated, and the host's
// bot seats (botseats.js). It is drawn from the table's views, which the server pushes over the
// table's socket (opened as a spectator until you take a seat) on every join, so a new player
// shows at once, also while your own seat request is on its way.
import { drawBotSeats } from "./botseats.js";
import { $, fill, h } from "./dom.js";
import { JOIN_FAILED, SEAT_TAKEN } from "./errors.js";
import { N_, _, ngettext } from "./i18n.js";
import { botLevelName, seatNumber } from "./names.js";
import { variantOf } from "./rulebook.js";
import { beginJoin, chooseSeat, endJoin, loseSeat, state } from "./state.js";

// The seats as the lobby shows them: from the newest view when there is one, else from the
// table info fetched at start (`occupied`, `name`, `bot`, `bot_level` per seat).
export function lobbySeats(info, view) {
  if (!view?.seats) return info.seats;
  return view.seats.map((seat, index) => ({
    occupied: seat.name !== null && seat.name !== undefined,
    name: seat.name,
    bot: seat.bot,
    bot_level: seat.bot_level,
    opened: Boolean(info.seats?.[index]?.opened),
  }));
}

// A person may take a free seat or, unless the host said no, a bot's (the bot leaves from the
// next action on); a bot's seat the host opened for someone new in any case.
export const takeable = (seat) =>
  Boolean(seat) && (!seat.occupied || (seat.bot && (state.lobby.botsOpen || Boolean(seat.opened))));
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
  $("#invite-url").value = `${location.origin}/t/${state.code}`;
  drawShare(seated ? seats[you]?.name : null);
  $("#lobby-options").textContent = optionsText(info.options ?? {});
  drawPractice(info.options?.practice);
  $("#join").hidden = !canJoin;
  $("#waiting").hidden = canJoin;
  if (canJoin) drawSeatPicker(seats);
  // The host's free seats are listed once: below, each with its bot controls.
  else drawSeatList(info.host ? seats.map((seat) => (seat.occupied ? seat : null)) : seats, you);
  drawBotSeats(info, freeSeats(seats));
}

// A practice table (issue 39): where it branched from, and that it counts in no game.
function drawPractice(origin) {
  const note = $("#lobby-practice");
  note.hidden = !origin;
  if (!origin) return;
  const said = origin.step
    ? _("Practice on the deal of hand {hand} of another table, from step {step}: this one hand, counted in no game.", { hand: origin.hand, step: origin.step })
    : _("Practice on the deal of hand {hand} of another table, played again: this one hand, counted in no game.", { hand: origin.hand });
  const back = `/t/${encodeURIComponent(origin.code)}/hands/${origin.hand}?step=${origin.step}#replay`;
  fill(note, said, " ", h("a", { href: back, dataset: { testid: "lobby-practice-link" } }, _("Back to that hand")));
}

// The phone's share sheet for the invite, where the browser has one ("Copy" is always there),
// with a text that names who invites: "Join Anna's table at Mü Online".
function drawShare(name) {
  const share = $("#share-invite");
  share.hidden = typeof navigator.share !== "function";
  share.onclick = () => {
    const text = name
      ? _("Join {name}'s table at Mü Online", { name })
      : _("Join my table at Mü Online");
    navigator.share({ title: _("Mü Online"), text, url: $("#invite-url").value }).catch(() => null);
  };
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

// A seat the newcomer chose stays chosen while it can be taken. When someone else takes it first,
// the newcomer is told and picks again: it is never silently replaced by another seat (while
// their own request is on its way the seat may be going to them, so nothing is said then). Until
// they choose, the first free seat is preselected.
function drawSeatPicker(seats) {
  let chosen = state.lobby.chosen;
  if (chosen !== null && !takeable(seats[chosen]) && !state.joining) {
    loseSeat();
    chosen = null;
    showError(SEAT_TAKEN);
  }
  const preselected = state.lobby.lost ? null : (freeSeats(seats)[0] ?? indexes(seats, takeable)[0]);
  const checked = chosen ?? preselected;
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
          checked: i === checked,
          dataset: { testid: `seat-choice-${i}` },
          onchange: () => chooseSeat(i),
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

// `seats`: a null is a seat left out (listed elsewhere).
function drawSeatList(seats, you) {
  fill(
    $("#seat-list"),
    ...seats.map((seat, i) =>
      seat === null ? null : h(
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

function showError(text) {
  const error = $("#join .form-error");
  error.textContent = _(text);
  error.hidden = false;
}

// What a refused seat request means to the person joining, by HTTP status.
const JOIN_ERRORS = {
  409: SEAT_TAKEN,
  422: N_("Please enter a name of 1 to 24 letters."),
  429: N_("Too many requests from your connection. Please wait a minute and try again."),
};

// Takes the chosen seat. Returns the server's answer ({seat, token, rejoin_url}) or null after
// showing what went wrong. The views that arrive meanwhile are drawn (state.joining).
export async function takeSeat(form) {
  const error = $(".form-error", form);
  const name = form.name.value.trim();
  const picked = form.seat?.value;
  error.hidden = true;
  if (picked === undefined || picked === "") {
    showError(SEAT_TAKEN); // the seat they had chosen went to someone else
    return null;
  }
  beginJoin(Number(picked));
  const response = await fetch(`${state.api}/seats`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, seat: Number(picked) }),
  }).catch(() => null);
  const joined = response?.ok ? await response.json().catch(() => null) : null;
  endJoin(joined ? joined.seat : null);
  if (joined) return joined;
  showError(JOIN_ERRORS[response?.status] ?? JOIN_FAILED);
  return null;
}
