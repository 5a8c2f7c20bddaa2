// An arena's page: the leaderboard (with the visitor's own line) is fetched again every few seconds,
// so points, streaks and who is playing move while the page is open. When the visitor's next game
// starts, the page takes them to it (the first game at the arena's start, say), unless a table page
// of theirs is open in another tab: that one moves on to it, and this one keeps the standings with a
// link (notices.js).
"use strict";

(function () {
  const live = document.getElementById("arena-live");
  if (!live || live.hasAttribute("data-final")) return;
  const every = Number(live.dataset.refreshMs) || 3000;
  const shownTable = () => {
    const link = document.querySelector("#arena-board [data-my-table]");
    return link ? link.getAttribute("href") : null;
  };
  let told = shownTable();
  const status = document.getElementById("arena-board").dataset.status;
  // A page already on its way elsewhere (the join form sent, which lands on the new table itself)
  // is neither sent on nor reloaded: that would cut the form's answer off (site.js DubiumGo.leaving).
  const leaving = () => window.DubiumGo.leaving();
  // A player who comes back to the page while a game of theirs is under way (its clock runs whether
  // they come or not) is taken to it as to a new one, unless a table of theirs is open in another tab
  // (the page keeps its "go to table" link): a tester was left on the standings for over 90 s.
  if (told && window.DubiumNotice) window.DubiumNotice.openUnlessAtATable(told, "Your game is waiting: ");

  async function refresh() {
    if (leaving()) return;
    try {
      const response = await fetch(live.dataset.refresh, { headers: { Accept: "text/html" } });
      if (response.ok) {
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("arena-board");
        const shown = document.getElementById("arena-board");
        if (fresh && shown) shown.replaceWith(fresh);
        const table = shownTable();
        let moved = false;
        if (table && table !== told && window.DubiumNotice) {
          told = table;
          moved = await window.DubiumNotice.openUnlessAtATable(table, "Your game has started: ");
        }
        // The arena started or ended: the buttons above the leaderboard (join, leave, pause) change with it.
        if (moved || leaving()) return;
        if (fresh && fresh.dataset.status !== status) {
          window.DubiumGo(null, "the arena's page shows it");  // waits for a restarting server (site.js)
          return;
        }
      }
    } catch (error) {
      // The server is restarting or the network dropped: the next turn tries again.
    }
    setTimeout(refresh, every);
  }
  setTimeout(refresh, every);
})();
