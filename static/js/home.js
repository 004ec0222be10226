// Home page: open a new table and go to its lobby (where the invite link is shown).
import { $ } from "./dom.js";
import { _ } from "./i18n.js";

const form = $("#new-table");

function showLengthField() {
  const ends = form.ends.value;
  for (const field of form.querySelectorAll("[data-ends]")) field.hidden = field.dataset.ends !== ends;
}

async function create(event) {
  event.preventDefault();
  const error = $(".form-error", form);
  error.hidden = true;
  const body = { players: Number(form.players.value), variant: form.variant.value };
  if (form.ends.value === "hands") body.hands = Number(form.hands.value);
  else body.target_score = Number(form.target_score.value);
  // Empty means never: the table waits for a player who dropped out.
  body.takeover_seconds = form.takeover.value ? Number(form.takeover.value) : null;
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

// Each rules variant has its own usual game length: classic to 200 points, revised 4 hands.
const USUAL_LENGTH = { classic: ["target", 200], revised: ["hands", 4] };

function variantChanged() {
  const [ends, value] = USUAL_LENGTH[form.variant.value] ?? USUAL_LENGTH.classic;
  form.ends.value = ends;
  form[ends === "target" ? "target_score" : "hands"].value = value;
}

form.variant.addEventListener("change", variantChanged);
form.addEventListener("change", showLengthField);
form.addEventListener("submit", create);
showLengthField();
