// Script strings go through the same gettext pipeline as the page templates. The English text is
// the message id: Babel extracts every _("…"), ngettext("…", "…", n) and N_("…") in static/js
// into app/web/translations/*/LC_MESSAGES/client.po, and the server turns one language's catalog
// into JSON at /i18n/<lang>.json (docs/client.md, "Translations"). The page's <html lang>, chosen
// by the server from ?lang=, the mu_lang cookie or Accept-Language, picks the catalog; the
// templates preload it, so it arrives together with the modules.

const ENGLISH = { lang: "en", messages: {} };

async function load(language) {
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(language)}.json`);
    if (response.ok) return await response.json();
  } catch {
    // Offline or refused: the English source texts still make a working page.
  }
  return ENGLISH;
}

const catalog = await load(document.documentElement.lang || ENGLISH.lang);

export const { lang } = catalog;
const messages = catalog.messages ?? {};
const plurals = new Intl.PluralRules(lang);
const sourcePlurals = new Intl.PluralRules(ENGLISH.lang);

// "{name} plays…" with {name: "Anna"} → "Anna plays…"; a placeholder without a value stays.
const format = (text, vars) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));

// _("Your turn: play a card"), _("{name} plays…", { name }). A text missing from the catalog
// comes back in English.
export function _(msgid, vars = {}) {
  const text = messages[msgid];
  return format(typeof text === "string" && text ? text : msgid, vars);
}

// ngettext("{n} card", "{n} cards", n): the catalog's form for n's CLDR plural category
// ("one", "other", …), {n} filled in; other placeholders come in `vars`.
export function ngettext(singular, plural, n, vars = {}) {
  const forms = messages[singular];
  const text = forms && typeof forms === "object" && (forms[plurals.select(n)] ?? forms.other);
  return format(text || (sourcePlurals.select(n) === "one" ? singular : plural), { n, ...vars });
}

// Marks a text for extraction where it is written (tables chosen by a code at run time); the
// caller translates it later with _(TABLE[code]).
export const N_ = (msgid) => msgid;
