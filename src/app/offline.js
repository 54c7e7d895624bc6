// Offline play: the service worker registered once the page has loaded
// (it then fetches the bundle in the background, never before the page's
// own needs), and a notice shown while the browser has no connection.
(function () {
  if ("serviceWorker" in navigator) {
    addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () {});
    });
  }
  function show() {
    var notice = document.getElementById("sans-connexion");
    if (notice) notice.hidden = navigator.onLine;
  }
  addEventListener("online", show);
  addEventListener("offline", show);
  addEventListener("DOMContentLoaded", show);
})();
