// Every page of a logged-in player: a challenge sent to them shows in the header at once
// (the header's list is redrawn from /challenges/), a challenger hears when it is declined, and
// a player whose next tournament game has started is taken to it, and a tournament's entrants
// hear when it is cancelled.
// A lobby page has its own socket for it (lobby.js), which shows a notice through DubiumNotice.
"use strict";

(function () {
  // A sentence at the top of the page, announced to screen readers, like the server's messages;
  // `link` ({ href, text }) ends it with a link.
  window.DubiumNotice = function (text, link) {
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
    list.append(item);
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

  // A new game of the player's has started (a tournament seats each round the moment the last
  // one ends, and its clock runs at once): they are taken to its table, unless they are playing
  // at another, where a notice links to it instead.
  function goToNewMatch(message) {
    if (location.pathname === message.url) return;
    if (window.DubiumTable && window.DubiumTable.playing()) {
      const which = message.about ? `Your game in ${message.about}` : "Your next game";
      window.DubiumNotice(`${which} has started: `, { href: message.url, text: "go to its table" });
    } else {
      location.href = message.url;
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/notices/`);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "challenge") redraw();
      else if (message.type === "challenge_declined") window.DubiumNotice(message.text);
      else if (message.type === "notice") window.DubiumNotice(message.text, message.link);
      else if (message.type === "match_found") goToNewMatch(message);
    });
    socket.addEventListener("close", (event) => { if (event.code !== 4401) setTimeout(connect, 2000); });
  }
  connect();
})();
