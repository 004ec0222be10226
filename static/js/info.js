// The lines around the felt: the hand and trick number, the team goal and the trump ranking
// above it, who is to act below the trick, and the winners at the end.
import { rankingParts, trumpChip } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { roleName, seatName, seatNames } from "./names.js";

export function renderInfo(view) {
  const hand = _("Hand {n}", { n: view.hand_number ?? 1 });
  const trick = view.trick_number ? _("trick {n}", { n: view.trick_number }) : "";
  $("#hand-no").textContent = trick ? `${hand} · ${trick}` : hand;
  const goal = view.team_goal;
  $("#goal").textContent = goal
    ? ngettext("Team goal: {goal} point (bid {bid})", "Team goal: {goal} points (bid {bid})", goal, {
        goal,
        bid: view.bid,
      })
    : "";
  const ranking = $("#ranking");
  const names = { chief: roleName(view, "chief"), vice: roleName(view, "vice") };
  const parts = rankingParts(view.trumps, names, view.trump_ranking);
  fill(
    ranking,
    ...(parts.length ? [h("span", { class: "muted" }, _("Trumps:"))] : []),
    ...parts.flatMap((part, i) => [
      i ? h("span", { "class": "gt", "role": "img", "aria-label": _("ranks over") }, "›") : null,
      h(
        "span",
        { class: "rank" },
        h("b", {}, part.label),
        " ",
        part.kind ? trumpChip(part.kind) : null,
        " ",
        h("small", { class: part.kind ? "order" : null }, part.text),
      ),
    ]),
  );
}

export function winnersText(view) {
  const winners = view.winners ?? [];
  const names = winners.map((seat) => seatName(view, seat)).join(", ");
  // TRANSLATORS: the plural follows the number of winners.
  return ngettext("Winner: {names}", "Winners: {names}", winners.length, { names });
}

// One sentence saying who is to act, shown under the trick (or why nobody does).
export function statusText(view) {
  if (view.game_over) return winnersText(view);
  // Paused by consent (pause.js): nobody acts until someone resumes.
  if (view.pause?.paused) return _("Paused — agreed by {names}", { names: seatNames(view, view.pause.by) });
  const seat = view.to_move;
  if (seat === null || seat === undefined) return "";
  const mine = seat === view.seat;
  const name = seatName(view, seat);
  // The one to move dropped out and the table decides, or waits for them (pause.js).
  const dropout = view.pause?.dropouts?.find((each) => each.seat === seat);
  if (dropout && !dropout.decided) return _("{name} dropped out: the table decides how to go on…", { name });
  if (dropout?.decided === "wait") return _("Waiting for {name} to come back…", { name });
  const chief = roleName(view, "chief");
  switch (view.phase) {
    case "auction":
      return mine ? _("Your turn: place cards or pass") : _("{name} is bidding…", { name });
    case "discard":
      return mine
        ? ngettext("Your turn: discard {n} card", "Your turn: discard {n} cards", view.prompt.count)
        : _("{name} ({role}) takes the kitty and discards…", { name, role: chief });
    case "vice_trump":
    case "chief_trump": {
      const role = view.phase === "vice_trump" ? roleName(view, "vice") : chief;
      return mine
        ? _("Your turn: name your trump ({role})", { role })
        : _("{name} ({role}) names a trump…", { name, role });
    }
    case "partner":
      return mine
        ? _("Your turn: choose a partner")
        : _("{name} ({role}) chooses a partner…", { name, role: chief });
    case "play":
      return mine ? _("Your turn: play a card") : _("{name} plays…", { name });
    default:
      return "";
  }
}

