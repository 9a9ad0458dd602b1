// Hindsight console. Served under a versioned name and cached for a year: change the name when changing it.
// Pages work without this file; it only adds what needs a script.
'use strict';

// A live sessions list: rows of sessions that start or change while the page is open arrive as server-sent events
// (rendered and escaped by the server) and are put at the top, replacing the row they update.
(function liveSessions() {
  const table = document.getElementById('sessions');
  if (!table || !table.dataset.live || !window.EventSource) {
    return;
  }
  const body = table.tBodies[0];
  const source = new EventSource(table.dataset.live);
  source.onmessage = (event) => {
    if (event.data === 'heartbeat') {
      table.dataset.listening = 'true'; // the stream is open
      return;
    }
    const template = document.createElement('template');
    template.innerHTML = event.data.trim();
    const row = template.content.firstElementChild;
    if (!row || !row.classList.contains('session-row')) {
      return;
    }
    for (const old of body.querySelectorAll('tr.session-row, tr.empty')) {
      if (old.classList.contains('empty') || old.dataset.sessionId === row.dataset.sessionId) {
        old.remove();
      }
    }
    row.classList.add('arrived');
    body.prepend(row);
  };
  source.onerror = () => {
    table.dataset.listening = 'false'; // EventSource reconnects by itself
  };
})();
