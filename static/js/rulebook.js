// The rules' vocabulary and numbers, as the engine states them (GET /api/rules: variants with
// their titles in the page's language, player counts, game-length limits, colours, what each
// trump kind is, bot levels). The scripts type no rule of their own: they look it up here.
import { lang } from "./i18n.js";

async function load() {
  try {
    const response = await fetch(`/api/rules?lang=${encodeURIComponent(lang)}`);
    if (response.ok) return await response.json();
  } catch {
    // Offline: the page still draws what the views say; names fall back to the raw words.
  }
  return { variants: [], colours: [], trump_kinds: [], bot_levels: [] };
}

export const RULES = await load();

const kinds = new Map(RULES.trump_kinds.map((info) => [info.kind, info]));

// What a trump kind (a colour, a number or none) is: { kind, colour, number }; colour and number are
// null for no trump.
export const trumpKind = (kind) => kinds.get(kind) ?? { kind, colour: null, number: null };

export const variantOf = (name) => RULES.variants.find((variant) => variant.name === name) ?? null;
