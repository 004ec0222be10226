// Home page: open a new table and go to its lobby (where the invite link is shown).
import { $ } from "./dom.js";
import { t } from "./i18n.js";

const form = $("#new-table");

function showLengthField() {
  const length = form.length.value;
  for (const field of form.querySelectorAll("[data-length]")) field.hidden = field.dataset.length !== length;
}

async function create(event) {
  event.preventDefault();
  const error = $(".form-error", form);
  error.hidden = true;
  const body = { players: Number(form.players.value), variant: form.variant.value };
  if (form.length.value === "hands") body.hands = Number(form.hands.value);
  else body.target_score = Number(form.target_score.value);
  const button = $("button[type=submit]", form);
  button.disabled = true;
  try {
    const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(String(response.status));
    const table = await response.json();
    location.assign(`/t/${encodeURIComponent(table.invite_code)}`);
  } catch {
    error.textContent = t("error.create");
    error.hidden = false;
    button.disabled = false;
  }
}

form.addEventListener("change", showLengthField);
form.addEventListener("submit", create);
showLengthField();
