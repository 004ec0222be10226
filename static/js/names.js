// How the table's people and roles are called: seat numbers and names, the leading roles
// (Chief/Vice, or Crown/Shield in the revised edition), bot levels.
import { N_, _, lang } from "./i18n.js";

export const seatNumber = (seat) => _("Seat {n}", { n: seat + 1 });
export const seatName = (view, seat) => view.seats?.[seat]?.name || seatNumber(seat);
// "Anna, Ben and Cleo" ("Anna, Ben und Cleo"): several seats' names in the page's language.
export const seatNames = (view, seats) =>
  new Intl.ListFormat(lang, { type: "conjunction" }).format(seats.map((seat) => seatName(view, seat)));

// The two leading roles are Chief/Vice in the classic game and Crown/Shield in the revised
// edition; the view's `roles` says which, and the same seats sit in `chief`/`vice`.
const ROLE_NAME = { chief: N_("Chief"), vice: N_("Vice"), crown: N_("Crown"), shield: N_("Shield") };
const ROLE_THE = {
  chief: N_("the chief"),
  vice: N_("the vice"),
  crown: N_("the Crown"),
  shield: N_("the Shield"),
};
const roleKey = (view, role) => view.roles?.[role] ?? role;
export const roleName = (view, role) => _(ROLE_NAME[roleKey(view, role)] ?? role);
export const roleThe = (view, role) => _(ROLE_THE[roleKey(view, role)] ?? role);

const BOT_LEVEL_NAME = {
  random: N_("Easy"),
  heuristic: N_("Normal"),
  search: N_("Strong"),
  expert: N_("Expert"),
};
export const botLevelName = (level) => _(BOT_LEVEL_NAME[level] ?? level);

