// Every page of a logged-in player: a challenge sent to them shows in the header at once
// (the header's list is redrawn from /challenges/), a challenger hears when it is declined, and
// a player whose next tournament game has started is taken to it, and a tournament's entrants
// hear when it is cancelled.
// A lobby page has its own socket for it (lobby.js), which shows a notice through DubiumNotice.
"use strict";

(function () {
  // A sentence at the top of the page, announced to screen readers, like the server's messages;
  // `link` ({ href, text }) ends it with a link; a notice of a `kind` replaces the last of its kind.
  window.DubiumNotice = function (text, link, kind) {
    const main = document.getElementById("main");
    let list = main.querySelector(".messages");
    if (!list) {
      const box = Object.assign(document.createElement("div"), { role: "status" });
      list = Object.assign(document.createElement("ul"), { className: "messages" });
      box.append(list);
      main.prepend(box);
    }
    const item = Object.assign(document.createElement("li"), { textContent: text });
    if (link) item.append(Object.assign(document.createElement("a"), { href: link.href, textContent: link.text }));
    if (kind) {
      item.dataset.kind = kind;
      for (const old of list.querySelectorAll(`li[data-kind="${kind}"]`)) old.remove();
    }
    list.append(item);
  };

  window.DubiumNotice.clear = function (kind) {
    for (const old of document.querySelectorAll(`.messages li[data-kind="${kind}"]`)) old.remove();
  };

  // The account holds too many sockets (closed with 4429 and the server's reason, in words):
  // this page's live updates wait, and say so until a socket of the page opens again.
  window.DubiumNotice.tooManySockets = function (reason) {
    window.DubiumNotice(`${reason} Live updates on this page resume within half a minute.`, null, "sockets");
  };

  // A server notice (`{id, text, link}`), shown once however many pages and tabs it reaches: a
  // page whose socket opens is sent the last minutes' notices again, in case it was loading.
  window.DubiumNotice.once = function (message) {
    const seen = JSON.parse(localStorage.getItem("dubium-notices-seen") || "[]");
    if (seen.includes(message.id)) return false;
    localStorage.setItem("dubium-notices-seen", JSON.stringify([...seen.slice(-20), message.id]));
    window.DubiumNotice(message.text, message.link);
    return true;
  };

  // Has the visitor typed or chosen something in a form on this page (that leaving would lose)?
  // Only their own input counts, not a value a page's script set.
  let typed = false;
  document.addEventListener("input", (event) => { if (event.isTrusted && event.target.closest("form")) typed = true; });
  document.addEventListener("submit", () => { typed = false; });
  window.DubiumNotice.typing = () => typed;

  // A new game of the player's, in the words the reminder below uses: "Round 2 of Winter Swiss:
  // your game has started".
  window.DubiumNotice.startedWords = (message) =>
    message.about ? `${message.about}: your game has started` : "Your next game has started";

  // A game of the player's under way elsewhere, told as the page's socket opens: where it is.
  function remind(message) {
    const line = document.getElementById("occasion-next");
    const saidHere = line && !line.hidden && line.querySelector(`a[href="${message.url}"]`);
    if (location.pathname !== message.url && !saidHere) {
      window.DubiumNotice(`${message.about}: your game is on, `, { href: message.url, text: "go to its table" }, "next-game");
    }
  }

  // A `match_found` a page's socket heard: live, a new game of the player's, which `act` (the
  // page's way of moving on to it) is given once; or a reminder, sent as the socket opens, of a
  // game under way. On the socket's first opening a reminder only says where the game is (it
  // started before the page opened). Opened again (`reopened`: its web server restarted, the
  // network dropped), a game the page has not heard of started while the socket was down, and
  // its live message went to nobody: the page acts on it as it would have then (a tester's arena
  // table stayed put with a link, and its player was counted absent from the game).
  const actedOn = new Set();
  const remindedOf = new Set();
  window.DubiumNotice.matchFound = function (message, reopened, act) {
    if (actedOn.has(message.url)) return;
    if (message.reminder && (!reopened || remindedOf.has(message.url))) {
      remindedOf.add(message.url);
      remind(message);
      return;
    }
    actedOn.add(message.url);
    act(message);
  };
  if (document.getElementById("lobby")) return;

  async function redraw() {
    const response = await fetch(`/challenges/?next=${encodeURIComponent(location.pathname + location.search)}`);
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("challenges");
    const shown = document.getElementById("challenges");
    if (shown && fresh) shown.replaceWith(fresh);
    else if (shown) shown.remove();
    else if (fresh) document.querySelector(".site-header").append(fresh);
  }

  // A table's lines about its event (where the player stands in it, and what it holds next for
  // them: "The tournament seats your next game when this round ends") are drawn by the server:
  // drawn again when the event tells them something (a new round, a bye, its end) and when the
  // game here ends (table.js), so they never contradict the notice above them or a change made
  // meanwhile on another page (a pause). The table hears of it ("occasion-redrawn") to redraw its seats.
  async function redrawOccasion() {
    const ids = ["occasion-next", "occasion-line"].filter((id) => document.getElementById(id));
    if (!ids.length) return;
    const response = await fetch(location.pathname);
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const id of ids) {
      const shown = document.getElementById(id);
      const fresh = page.getElementById(id);
      if (!shown || !fresh) continue;
      if (id === "occasion-next") fresh.hidden = shown.hidden;  // the table's script shows it once the game here ends
      shown.replaceWith(fresh);
    }
    document.dispatchEvent(new Event("occasion-redrawn"));
  }
  window.DubiumNotice.redrawOccasion = redrawOccasion;

  const LOOK_BACK_SECONDS = 5;
  // Through DubiumGo (site.js), which waits for a restarting server; typing meanwhile keeps the
  // player here, with a link.
  function goTo(url) {
    if (window.DubiumGo.leaving()) return;  // e.g. a Dobble series' choice of the next mini-game, sent
    window.DubiumGo(url, "your next game opens", () => {
      if (!typed) return true;
      window.DubiumNotice("Your next game has started, ", { href: url, text: "go to its table" }, "next-game");
      return false;
    });
  }

  // A page kept open beside the table (an arena's standings) opens a new game itself only when no
  // page of this browser shows a table of the player's: that page moves on to it, and the standings
  // keep their tab. The table pages answer over a channel the browser keeps between its tabs.
  const tabs = "BroadcastChannel" in window ? new BroadcastChannel("dubium-tables") : null;
  if (tabs) {
    tabs.addEventListener("message", (event) => {
      if (event.data === "at a table?" && window.DubiumTable && window.DubiumTable.seated()) tabs.postMessage("at a table");
    });
  }
  function aTableIsOpen() {
    return new Promise((answer) => {
      if (!tabs) { answer(false); return; }
      const heard = (event) => { if (event.data === "at a table") done(true); };
      const done = (open) => { tabs.removeEventListener("message", heard); clearTimeout(timer); answer(open); };
      const timer = setTimeout(() => done(false), 500);
      tabs.addEventListener("message", heard);
      tabs.postMessage("at a table?");
    });
  }
  window.DubiumNotice.openUnlessAtATable = async function (url, words) {  // true: on its way there
    if (typed || await aTableIsOpen()) {  // typing into a form, or a table elsewhere moves on: a link
      window.DubiumNotice(words, { href: url, text: "go to it" }, "next-game");
      return false;
    }
    goTo(url);
    return true;
  };

  // A new game of the player's has started (a tournament seats each round the moment the last
  // one ends, and its clock runs at once): they are taken to its table, unless they are typing
  // into a form (the table's chat too), where a notice links to it instead. At a table of theirs
  // whose game has ended they have a few seconds to see how first; at one still in play, once it ends.
  function goToNewMatch(message) {
    if (location.pathname === message.url) return;
    const started = window.DubiumNotice.startedWords(message);
    const link = { href: message.url, text: "go to its table" };
    const table = window.DubiumTable;
    if (table && table.playing()) {
      window.DubiumNotice(`${started}, `, link, "next-game");
      // Once the game here ends (its last push may come after this message), on to the new one.
      const waiting = setInterval(() => {
        if (!table.playing()) { clearInterval(waiting); goToNewMatch(message); }
      }, 500);
    } else if (window.DubiumNotice.typing()) {
      window.DubiumNotice(`${started}, `, link, "next-game");  // a link, no move
    } else if (document.querySelector("[data-stays-on-new-game]")) {
      window.DubiumNotice.openUnlessAtATable(message.url, `${started}: `);
    } else if (table && table.seated()) {
      window.DubiumNotice(`${started}, taking you there in ${LOOK_BACK_SECONDS} seconds, or `, link, "next-game");
      // Typing meanwhile (a "gg" in the chat) keeps them here: the notice's link stays.
      setTimeout(() => {
        if (window.DubiumNotice.typing()) window.DubiumNotice(`${started}, `, link, "next-game");
        else goTo(message.url);
      }, LOOK_BACK_SECONDS * 1000);
    } else {
      goTo(message.url);
    }
  }


  // A sign-in that ends under an open page (signed out elsewhere, a new password, a stolen
  // session cut off) closes its sockets with 4001; reopened, this one is a visitor's (4401), and
  // the page says so rather than quietly turning into a visitor's. Reopened signed in (the
  // password was changed here), nothing is said.
  let signInEnded = false;

  const newMatch = (message) => { goToNewMatch(message); redrawOccasion(); };
  let opened = 0;  // how often the socket opened: after the first, it was down for a while

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/notices/`);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "challenge" || message.type === "challenge_cancelled") redraw();
      else if (message.type === "challenge_declined") window.DubiumNotice(message.text);
      else if (message.type === "notice") { if (window.DubiumNotice.once(message)) redrawOccasion(); }
      else if (message.type === "match_found") window.DubiumNotice.matchFound(message, opened > 1, newMatch);
    });
    // 4401: a visitor, or a retired token; 4429: too many sockets of this account, wait longer
    // (a table says so itself).
    socket.addEventListener("open", () => {
      opened += 1;
      setTimeout(() => { if (socket.readyState === WebSocket.OPEN) window.DubiumNotice.clear("sockets"); }, 1000);
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4001) signInEnded = true;
      if (event.code === 4401 && signInEnded) {
        const next = encodeURIComponent(location.pathname + location.search);
        window.DubiumNotice("You are signed out here: signed out elsewhere, or the password was changed. ",
          { href: `/accounts/login/?next=${next}`, text: "Sign in again" }, "signed-out");
      }
      if (event.code === 4429 && !window.DubiumTable) window.DubiumNotice.tooManySockets(event.reason);
      if (event.code !== 4401) setTimeout(connect, event.code === 4429 ? 30000 : 2000);
    });
  }
  connect();
})();
