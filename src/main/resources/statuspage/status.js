// Keeps an open status page current: every minute, and whenever the tab becomes visible again, it
// fetches the page and swaps in the new content. Without JavaScript the footer's reload link does
// the same by hand. Loaded from our own origin, so the page's CSP needs no 'unsafe-inline'.
(function () {
  'use strict';
  var INTERVAL_MS = 60000;
  var timer = null;

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, INTERVAL_MS);
  }

  function refresh() {
    fetch(window.location.href, { cache: 'no-cache', headers: { Accept: 'text/html' } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error('status ' + response.status);
        }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('main');
        var main = document.querySelector('main');
        if (fresh && main && fresh.innerHTML !== main.innerHTML) {
          main.innerHTML = fresh.innerHTML;
        }
      })
      .catch(function () {
        // Offline or the server is busy: keep what is shown and try again at the next tick.
      })
      .then(schedule);
  }

  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible') {
      refresh();
    }
  });
  var note = document.getElementById('refresh-note');
  if (note) {
    // The page's own words, in its language (the server writes them beside the note).
    note.textContent = note.getAttribute('data-live') || note.textContent;
  }
  schedule();
})();
