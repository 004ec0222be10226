// Registers the service worker (static/sw.js, served at /sw.js): offline page, cached static
// files, and push notifications. Browsers without service workers simply go without.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
