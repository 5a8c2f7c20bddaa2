// An arena's page: the leaderboard (with the visitor's own line) is fetched again every few seconds,
// so points, streaks and who is playing move while the page is open. When the visitor's next game
// starts, the page takes them to its table (notices.js does too when its socket hears of it first),
// unless they are typing into a form.
"use strict";

(function () {
  const live = document.getElementById("arena-live");
  if (!live || live.hasAttribute("data-final")) return;
  const every = Number(live.dataset.refreshMs) || 3000;
  const shownTable = () => {
    const link = document.querySelector("#arena-board [data-my-table]");
    return link ? link.getAttribute("href") : null;
  };
  const atLoad = shownTable();
  // A page already on its way elsewhere (the join form sent, which lands on the new table itself)
  // is not sent there a second time: that would cut the form's answer off.
  let leaving = false;
  window.addEventListener("beforeunload", () => { leaving = true; });

  async function refresh() {
    if (leaving) return;
    try {
      const response = await fetch(live.dataset.refresh, { headers: { Accept: "text/html" } });
      if (response.ok) {
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("arena-board");
        const shown = document.getElementById("arena-board");
        if (fresh && shown) shown.replaceWith(fresh);
        const table = shownTable();
        const typing = window.DubiumNotice && window.DubiumNotice.typing && window.DubiumNotice.typing();
        if (table && table !== atLoad && !typing && !leaving) { location.href = table; return; }
      }
    } catch (error) {
      // The server is restarting or the network dropped: the next turn tries again.
    }
    setTimeout(refresh, every);
  }
  setTimeout(refresh, every);
})();
