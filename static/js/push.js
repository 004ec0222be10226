// "Notify me" on the table page: a seated player subscribes this browser to Web Push for
// their seat (the server pushes their turn while the page is closed, the game's end and
// "play again"); a second click turns it off again.
import { $, toast } from "./dom.js";
import { _, lang } from "./i18n.js";
import { isSeated } from "./state.js";

// The feature (docs/client.md, "Features"): the button follows every view.
export function pushFeature() {
  return { name: "push", render: ({ code, api, view }) => offerPush(code, api, isSeated(view)) };
}

const supported = () =>
  "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

// The VAPID key comes base64url; PushManager wants its bytes.
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function currentSubscription() {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

function label(button, on) {
  button.textContent = on ? _("Notifications on") : _("Notify me");
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

async function turnOn(api) {
  if ((await Notification.requestPermission()) !== "granted") {
    toast(_("Notifications are blocked for this site in the browser's settings."));
    return false;
  }
  const { public_key: key } = await (await fetch("/api/push/key")).json();
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ||
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(key),
    }));
  const response = await fetch(`${api}/push`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...subscription.toJSON(), lang }),
  });
  if (!response.ok) throw new Error(`push subscription refused: ${response.status}`);
  toast(_("You will be notified when it is your turn, also with this page closed."));
  return true;
}

async function turnOff(api, storeKey) {
  const subscription = await currentSubscription();
  if (subscription) {
    await fetch(`${api}/push`, {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ endpoint: subscription.endpoint }),
    });
  }
  localStorage.removeItem(storeKey);
  toast(_("Notifications for this table are off."));
}

// Shows the button while this browser holds a seat here.
function offerPush(code, api, seated) {
  const button = $("#btn-notify");
  if (!button) return;
  button.hidden = !seated || !supported();
  if (button.hidden || button.dataset.ready) return;
  button.dataset.ready = "1";
  const storeKey = `mu_push_${code}`;
  label(button, Boolean(localStorage.getItem(storeKey)));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (localStorage.getItem(storeKey)) {
        await turnOff(api, storeKey);
        label(button, false);
      } else if (await turnOn(api)) {
        localStorage.setItem(storeKey, "1");
        label(button, true);
      }
    } catch {
      toast(_("Notifications could not be turned on in this browser."));
    } finally {
      button.disabled = false;
    }
  });
}
