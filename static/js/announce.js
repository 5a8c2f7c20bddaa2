// Screen readers hear each new game event once: the table redraws its whole history on every
// message, so this watches the list and speaks only the lines that were not there before
// (into #game-announcer, a polite live region). On arrival the last few events are read.
"use strict";

(function () {
  const history = document.getElementById("history");
  const announcer = document.getElementById("game-announcer");
  if (!history || !announcer) return;
  let known = [];

  function lines() {
    return [...history.children].map((item) => item.textContent);
  }

  new MutationObserver(() => {
    const now = lines();
    // The list keeps the last 60 events: find where the known tail ends in the new list.
    let start = 0;
    for (let overlap = Math.min(known.length, now.length); overlap > 0; overlap -= 1) {
      if (known.slice(known.length - overlap).join("\n") === now.slice(0, overlap).join("\n")) { start = overlap; break; }
    }
    const added = now.slice(start);
    known = now;
    if (added.length) announcer.textContent = added.slice(-3).join(". ");
  }).observe(history, { childList: true });
})();
