// Every page: on a narrow screen the header's links fold behind a Menu button (site.css hides
// them while it says aria-expanded="false"). Without this script the button stays hidden and
// the links stay shown.
"use strict";

// Times on the pages are shown in the browser's own zone: the server reads it from this cookie
// (dubium/timezones.py). Set when missing or changed, so the next page is in it.
(function () {
  const zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  const cookie = `tz=${zone}`;  // zone names ("Europe/Paris", "Etc/GMT+5") are valid cookie text as they are
  if (!document.cookie.split("; ").includes(cookie)) {
    document.cookie = `${cookie}; path=/; max-age=31536000; samesite=lax`;
  }
})();

(function () {
  const toggle = document.querySelector(".nav-toggle");
  if (!toggle) return;
  toggle.hidden = false;
  toggle.addEventListener("click", () => {
    toggle.setAttribute("aria-expanded", String(toggle.getAttribute("aria-expanded") !== "true"));
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") {
      toggle.setAttribute("aria-expanded", "false");
      toggle.focus();
    }
  });
})();

// A printable page (the round sheet): its Print button, shown only when this script runs.
(function () {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
})();

// A page that moves on by itself (a new game found, a page reloaded as its event changes) first
// asks the server for the page it goes to: a web server restarting (a crash, a deploy) answers
// nothing for a second or more, and a browser sent there then shows its own error page, which
// never tries again (a tester's player stayed on it while the clock played her next game). Until
// an answer comes, the page says so in words and asks again, a little later each time; then it
// goes, unless `wanted()` says by then that it should not (the player began typing, or the page is
// already leaving). `url`: where to go, or null to reload this page.
(function () {
  const RETRY_MS = [500, 1000, 2000, 3000];  // then every 3 s: a restart takes one to a few seconds
  let leaving = false;
  window.addEventListener("beforeunload", () => { leaving = true; });

  function say(text) {  // notices.js's line when the page has it (a signed-in player's), else one of its own
    if (window.DubiumNotice) { window.DubiumNotice(text, null, "restarting"); return; }
    let line = document.getElementById("restarting");
    if (!line) {
      line = Object.assign(document.createElement("p"), { id: "restarting", role: "status" });
      document.getElementById("main").prepend(line);
    }
    line.textContent = text;
  }

  function unsay() {
    if (window.DubiumNotice) window.DubiumNotice.clear("restarting");
    else if (document.getElementById("restarting")) document.getElementById("restarting").remove();
  }

  async function answers(url) {
    try {
      const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      return response.status < 502;  // a proxy's 502-504 speaks for a server that is down
    } catch (error) {
      return false;  // no answer at all: the server is restarting, or the network dropped
    }
  }

  // One move at a time: two callers hearing of the same game (the table's look at the result, the
  // notices' socket) would otherwise race, the first one's navigation cutting the second's asking off.
  let going = false;
  window.DubiumGo = async function (url, words, wanted = () => true) {
    if (going) return;
    going = true;
    for (let tries = 0; !(await answers(url || location.href)); tries += 1) {
      say(`The site is restarting: ${words} as soon as it answers.`);
      await new Promise((wake) => setTimeout(wake, RETRY_MS[Math.min(tries, RETRY_MS.length - 1)]));
    }
    if (leaving || !wanted()) { unsay(); going = false; return; }
    if (url) location.href = url;
    else location.reload();
  };
  // A page already on its way elsewhere (a form the browser sends, a link followed) is taking the
  // player on: the scripts that move a page by themselves ask here first, so as not to cut it off.
  window.DubiumGo.leaving = () => leaving;
})();
