// Play again: at the end of the game the players may open the next game with the same players,
// seats and rules. The first to ask opens it (the server makes sure it happens once); every
// page at the table then hears where it is, and each player's page asks for its own seat there
// (a new seat token for this browser only) and goes over. A player may say no: a bot plays in
// their seat instead. Spectators may follow to watch.
import { $, fill, h, toast } from "./dom.js";
import { _ } from "./i18n.js";
import { isSeated, state } from "./state.js";

// This feature's slice of the state: `state.again` = {next (the next game's invite code, once
// someone opened it), busy (a request on its way), declined (you said no thanks)}.
const again = state.again;

// The feature (docs/client.md, "Features"): the slot is drawn with every view.
export function againFeature() {
  return { name: "again", onMessage: { next_table: onNextTable }, render: drawSlot };
}

function onNextTable(message) {
  again.next = message.code;
  drawSlot();
  const dialog = $("#summary");
  if (state.view?.game_over && !dialog.open && !again.declined) {
    // The game-end dialog may have been closed: bring the offer back to everyone.
    $("#btn-standings")?.click();
  }
}

function drawSlot() {
  const slot = $("#play-again-slot");
  if (!slot) return;
  if (!state.view?.game_over) {
    fill(slot);
    return;
  }
  if (!isSeated(state.view)) {
    fill(
      slot,
      again.next
        ? h("a", { href: `/t/${encodeURIComponent(again.next)}`, dataset: { testid: "watch-next" } }, _("Watch the next game"))
        : null,
    );
    return;
  }
  if (again.declined) {
    fill(slot, h("span", { class: "muted" }, _("A bot plays your seat in the next game.")));
    return;
  }
  const go = h(
    "button",
    { type: "button", class: "primary", disabled: again.busy, dataset: { testid: "play-again" }, onclick: () => playAgain(false) },
    again.next ? _("Join the next game") : _("Play again"),
  );
  const no = again.next
    ? h(
        "button",
        { type: "button", class: "ghost", disabled: again.busy, dataset: { testid: "decline-again" }, onclick: () => playAgain(true) },
        _("No thanks"),
      )
    : null;
  fill(
    slot,
    again.next ? h("p", { class: "again-note" }, _("The next game is open: same players, seats and rules.")) : null,
    h("span", { class: "row again-buttons" }, go, no),
  );
}

async function playAgain(decline) {
  if (again.busy) return;
  again.busy = true;
  drawSlot();
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(state.code)}/again`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ decline }),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok && decline) {
      again.declined = true;
      return;
    }
    if (response.ok) {
      await takeSeat(answer);
      return;
    }
    // This browser took its seat there already (another tab): just go over.
    if (answer.detail?.code === "seat_taken" && again.next) {
      location.assign(`/t/${encodeURIComponent(again.next)}`);
      return;
    }
    toast(_("The next game could not be opened. Please try again."));
  } catch {
    toast(_("Not connected right now."));
  } finally {
    again.busy = false;
    drawSlot();
  }
}

// The new seat token becomes this browser's seat cookie for the new table (as a personal link
// would), and the personal link is kept for "My link"; then the page moves over.
async function takeSeat(answer) {
  const next = answer.invite_code;
  const redeemed = await fetch(`/api/tables/${encodeURIComponent(next)}/rejoin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: answer.token }),
  });
  if (!redeemed.ok) throw new Error("rejoin");
  localStorage.setItem(`mu_rejoin_${next}`, `${location.origin}/t/${next}#rejoin=${answer.token}`);
  location.assign(`/t/${encodeURIComponent(next)}`);
}
