// Home page: open a new table and go to its lobby (where the invite link is shown). Every default
// and bound is the form's own, rendered by the server (app/tables/options.py): none is typed here.
import { $ } from "./dom.js";
import { _ } from "./i18n.js";
import { showYourTables } from "./mytables.js";

const form = $("#new-table");

function showLengthField() {
  const ends = form.ends.value;
  for (const field of form.querySelectorAll("[data-ends]")) field.hidden = field.dataset.ends !== ends;
  // Live tables choose their takeover time; correspondence tables the hours per move.
  const pace = form.pace.value;
  for (const field of form.querySelectorAll("[data-pace]")) field.hidden = field.dataset.pace !== pace;
}

async function create(event) {
  event.preventDefault();
  const error = $(".form-error", form);
  error.hidden = true;
  const body = { players: Number(form.players.value), variant: form.variant.value };
  if (form.ends.value === "hands") body.hands = Number(form.hands.value);
  else body.target_score = Number(form.target_score.value);
  // If someone drops out: a bot after so many seconds, or "wait" (no bot), or "ask" (the table
  // decides then).
  const dropout = form.takeover.value;
  body.on_dropout = dropout === "wait" || dropout === "ask" ? dropout : "bot";
  if (body.on_dropout === "bot") body.takeover_seconds = Number(dropout);
  body.hints = form.hints.checked;
  body.pace = form.pace.value;
  // A pace's own options (their fields name it: data-pace) are sent with that pace only.
  const ofPace = (input) => input.closest("[data-pace]").dataset.pace === body.pace;
  if (ofPace(form.move_hours)) body.move_hours = Number(form.move_hours.value);
  if (ofPace(form.correspondence_bots)) body.correspondence_bots = form.correspondence_bots.checked;
  body.newcomers_take_bots = form.newcomers_take_bots.checked;
  const button = $("button[type=submit]", form);
  button.disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(String(response.status));
    const table = await response.json();
    location.assign(`/t/${encodeURIComponent(table.invite_code)}`);
  } catch (failure) {
    error.textContent =
      failure.message === "429"
        ? _("Too many requests from your connection. Please wait a minute and try again.")
        : _("The table could not be opened. Please try again.");
    error.hidden = false;
    button.disabled = false;
  }
}

// Each rules variant has its own usual game length, which the server wrote into its option
// (from the engine's rules catalog): a target score or a number of hands.
function variantChanged() {
  const usual = form.variant.selectedOptions[0].dataset;
  form.ends.value = usual.ends;
  form.hands.value = usual.hands;
  if (usual.ends === "target") form.target_score.value = usual.length;
  else form.hands.value = usual.length;
  showLengthField();
}

form.variant.addEventListener("change", variantChanged);
form.addEventListener("change", showLengthField);
form.addEventListener("submit", create);
showLengthField();
showYourTables();
