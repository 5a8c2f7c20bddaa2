// The live lobby: open tables, queue sizes and players online pushed over /ws/lobby/<game>/;
// a ranked match found for you opens its table.
"use strict";

(function () {
  const root = document.getElementById("lobby");
  if (!root) return;
  const game = root.dataset.game;
  const user = root.dataset.user;  // empty for a signed-out visitor
  const { h } = { h: (tag, text, attrs = {}) => Object.assign(document.createElement(tag), { textContent: text }, attrs) };

  function drawTables(tables) {
    const body = document.getElementById("open-tables");
    if (!tables.length) {
      const cell = h("td", "No open tables: start one.", { className: "muted", colSpan: 5 });
      body.replaceChildren(h("tr", "")); body.firstChild.append(cell);
      return;
    }
    body.replaceChildren(...tables.map((t) => {
      const row = document.createElement("tr");
      row.append(h("td", t.seats.map((s) => s.player).join(", ")), h("td", t.host || "—"), h("td", `${t.seats.length}/${t.players}`),
        h("td", `${t.ranked ? "ranked" : "casual"} · ${t.clock_label}`), h("td", ""));
      row.lastChild.append(...tableLinks(t));
      return row;
    }));
  }

  // Your own table, or a seat to take (api.js joins and goes there), or a table to watch.
  function tableLinks(t) {
    const table = `/match/${t.id}/`;
    if (user && t.seats.some((s) => s.player === user)) return [h("a", "Your table", { href: table })];
    if (!user || t.seats.length >= t.players) return [h("a", "Watch", { href: table })];
    const join = h("button", "Join", { className: "button small" });
    join.dataset.api = `/api/matches/${t.id}/join/`;
    join.dataset.then = "go";
    return [join, " ", h("a", "Watch", { href: table })];
  }

  let submitting = false;
  document.addEventListener("submit", () => { submitting = true; });

  // A form on its way (the pairing that completed this table) brings its own redirect; a
  // form half filled in is not thrown away: a notice links to the table instead.
  function goToNewMatch(message) {
    if (window.DubiumNotice.typing()) {
      window.DubiumNotice(`${window.DubiumNotice.startedWords(message)}, `, { href: message.url, text: "go to its table" }, "next-game");
    } else if (!submitting) {
      window.DubiumGo(message.url, "your next game opens", () => !submitting && !window.DubiumNotice.typing());
    }
  }

  let opened = 0;  // how often the socket opened: after the first, it was down for a while (notices.js)

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/${game}/`);
    socket.addEventListener("open", () => { opened += 1; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "lobby") {
        if (window.DubiumNotice) window.DubiumNotice.clear("sockets");  // notices.js is for signed-in pages
        drawTables(message.tables);
        document.getElementById("lobby-online").textContent = message.online;
        document.getElementById("lobby-playing").textContent = message.playing;
        const queueSizes = document.getElementById("queue-sizes");  // signed-in visitors only
        if (queueSizes) {
          const sizes = Object.entries(message.queues).map(([size, n]) => `${n} for ${size}`).join(", ");
          queueSizes.textContent = sizes || "nobody";
        }
      } else if (message.type === "match_found") {
        window.DubiumNotice.matchFound(message, opened > 1, goToNewMatch);
      } else if (message.type === "challenge" || message.type === "challenge_cancelled") {
        window.DubiumGo(null, "this page shows the challenge");  // the page lists the challenges waiting for you
      } else if (message.type === "challenge_declined") {
        window.DubiumNotice(message.text);
        // Your challenge is no longer waiting: its line with Cancel goes.
        for (const line of document.querySelectorAll(`#challenges-sent li[data-to="${CSS.escape(message.by)}"]`)) line.remove();
      } else if (message.type === "notice") {
        window.DubiumNotice.once(message);
      }
    });
    // 4429: too many sockets of this account, wait longer (and say so until the lobby speaks again).
    socket.addEventListener("close", (event) => {
      if (event.code === 4429 && window.DubiumNotice) window.DubiumNotice.tooManySockets(event.reason);
      if (event.code !== 4404) setTimeout(connect, event.code === 4429 ? 30000 : 2000);
    });
  }

  const waiting = document.getElementById("queue-waiting");
  if (waiting) {
    const since = new Date(waiting.dataset.since).getTime();
    const timer = document.getElementById("queue-timer");
    setInterval(() => {
      const seconds = Math.max(0, Math.floor((Date.now() - since) / 1000));
      timer.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    }, 500);
  }
  connect();
})();
