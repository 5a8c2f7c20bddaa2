// An arena's page: the leaderboard (with the visitor's own line) is fetched again every few seconds,
// so points, streaks and who is playing move while the page is open. When the visitor's next game
// starts, the page says so with a link to its table but stays (the player's table page is the one
// that moves on to it: notices.js), so the standings stay in reach in a second tab.
"use strict";

(function () {
  const live = document.getElementById("arena-live");
  if (!live || live.hasAttribute("data-final")) return;
  const every = Number(live.dataset.refreshMs) || 3000;
  const shownTable = () => {
    const link = document.querySelector("#arena-board [data-my-table]");
    return link ? link.getAttribute("href") : null;
  };
  let told = shownTable();  // the game the page showed as it opened needs no notice

  async function refresh() {
    try {
      const response = await fetch(live.dataset.refresh, { headers: { Accept: "text/html" } });
      if (response.ok) {
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("arena-board");
        const shown = document.getElementById("arena-board");
        if (fresh && shown) shown.replaceWith(fresh);
        const table = shownTable();
        if (table && table !== told && window.DubiumNotice) {
          told = table;
          window.DubiumNotice("Your game has started: ", { href: table, text: "go to it" }, "next-game");
        }
      }
    } catch (error) {
      // The server is restarting or the network dropped: the next turn tries again.
    }
    setTimeout(refresh, every);
  }
  setTimeout(refresh, every);
})();
