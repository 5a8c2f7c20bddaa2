// The table page: one websocket to /ws/match/<id>/, the shared parts (seats, clocks, history,
// chat, result) drawn here, the game area drawn by static/js/games/<slug>.js.
// Every "state" message is the whole picture except the history: after a change it carries only
// the latest entries (from history_start), which are merged here into the ones kept, so the game
// renderers always get the whole history. A (re)connect or a sync sends everything again.
// Real-time tables also answer the server's pings, which measure each seat's network delay.
"use strict";

(function () {
  const root = document.getElementById("table");
  if (!root) return;
  const matchId = Number(root.dataset.match);
  const slug = root.dataset.game;
  const renderer = window.DubiumGames && window.DubiumGames[slug];
  const el = (id) => document.getElementById(id);
  let socket = null;
  let latest = null;
  let retryMs = 500;
  let clockTimer = null;
  let pendingClaim = null;
  let wasMyMove = false;
  const baseTitle = document.title;
  let history = null;  // every history entry seen so far
  const byClock = new Set();  // indices of the entries the clock made (a seat's time ran out), as told
  const delays = {};  // real-time games: each seat's measured one-way delay (games/matches/fairness.py)

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== false && value != null) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child == null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/match/${matchId}/`);
    setStatus("Connecting…");
    socket.addEventListener("open", () => { retryMs = 500; setStatus(""); });
    socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (event.code === 4404) { setStatus("This match does not exist."); return; }
      if (event.code === 4429) {  // too many sockets of this account: the server says how many
        setStatus(`${event.reason} Live updates on this page resume within half a minute.`);
        setTimeout(connect, 30000);
        return;
      }
      setStatus("Connection lost — reconnecting…");
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 8000);
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // What the event offers only before the player's first move (an arena's berserk) goes once the
  // table has moved on from a move they sent (a refused one brings an error instead, and it stays).
  let movedFrom = null;
  function act(action) {
    if (!latest) return;
    if (action.type === "claim") pendingClaim = { action, seq: latest.seq };
    movedFrom = latest.seq;
    send({ type: "action", action, seq: latest.seq });
  }

  function receive(message) {
    if (message.type === "state") {
      if (!mergeHistory(message)) { send({ type: "sync" }); return; }
      if (movedFrom !== null && message.seq > movedFrom) {
        for (const node of document.querySelectorAll("[data-until-first-move]")) node.remove();
      }
      // The game here has just ended: the event's lines (points, place, what comes next) are drawn again.
      const ended = latest && latest.status !== "finished" && message.status === "finished";
      latest = message;
      draw(message);
      if (message.rematch) showRematch(message.rematch);  // asked before this page's socket opened
      if (ended && window.DubiumNotice && window.DubiumNotice.redrawOccasion) window.DubiumNotice.redrawOccasion();
      if (pendingClaim && pendingClaim.stale) retryClaim(message);
    }
    else if (message.type === "seats" && latest && message.seq === latest.seq) {
      // Who is at the table changed, nothing else: the seats and clocks of the state drawn.
      latest.seats = message.seats;
      latest.clocks = message.clocks;
      drawSeats(latest);
      drawClocks(latest);
    }
    else if (message.type === "error") { movedFrom = null; showError(message); }
    else if (message.type === "chat") addChat(message);
    else if (message.type === "rated" && latest) { latest.rating_changes = message.changes; drawResult(latest); }
    else if (message.type === "rematch") showRematch(message);
    else if (message.type === "ping") send({ type: "pong", id: message.id });
    else if (message.type === "delay") { delays[message.seat] = message.ms; drawDelays(); }
  }

  // False when the message starts past the entries kept (a push was lost): ask for everything.
  function mergeHistory(message) {
    if (!message.view || !message.view.history) return true;
    if (message.history_start == null) history = message.view.history.slice();
    else if (history === null || message.history_start > history.length) return false;
    else {
      history = history.slice(0, message.history_start).concat(message.view.history);
      message.view.history = history.slice();
    }
    for (const index of message.clock_moves || []) byClock.add(index);
    return true;
  }

  // A claim refused as stale lost its race to a right claim. It is sent once more, on the state
  // that moved the cards (waited for if it has not arrived yet), if the symbol it named is
  // still right there; true when it was.
  function retryClaim(state) {
    const claim = pendingClaim;
    pendingClaim = null;
    if (!(renderer && renderer.stillValid && renderer.stillValid(state.view, claim.action))) return false;
    send({ type: "action", action: claim.action, seq: state.seq });
    return true;
  }

  // A player's connection, said in words on their presence dot: the delay itself only matters to the server.
  function drawDelays() {
    for (const node of document.querySelectorAll("[data-delay-seat]")) {
      const ms = delays[node.dataset.delaySeat];
      const speed = ms == null ? "" : ms < 60 ? "fast" : ms < 150 ? "fair" : "slow";
      node.title = node.dataset.presence + (speed && `, connection: ${speed}`);
    }
  }

  function showRematch(message) {
    // The player whose click started it is sent there by the form's answer.
    if (message.url) {
      if (!rematchSent) window.DubiumGo(message.url, "the rematch opens", () => !rematchSent);
      return;
    }
    const status = el("rematch-status");
    if (!status) return;
    status.textContent = `${message.asked_by.join(", ")} asked for a rematch.`;
    status.hidden = false;
    const asked = message.asked_by.includes(status.closest("form").dataset.player);
    el("rematch").textContent = asked ? "Waiting for the others to accept" : "Accept the rematch";
    el("rematch").disabled = asked;
  }

  let rematchSent = false;
  document.addEventListener("submit", (event) => { if (event.target.closest("[data-when-finished]")) rematchSent = true; });

  // A question the event asks once the game here is over (a Dobble series' loser chooses the next
  // mini-game) counts its seconds down. notices.js draws its line again, so each tick looks anew.
  setInterval(() => {
    for (const node of document.querySelectorAll("[data-seconds-left]")) {
      if (!node.dataset.endsAt) node.dataset.endsAt = Date.now() + Number(node.dataset.secondsLeft) * 1000;
      const left = Math.max(0, Math.round((Number(node.dataset.endsAt) - Date.now()) / 1000));
      node.textContent = left ? `${left} second${left === 1 ? "" : "s"} left` : "Time is up";
    }
  }, 1000);

  function showError(message) {
    if (message.code === "stale" && pendingClaim) {
      if (latest.seq <= pendingClaim.seq) { pendingClaim.stale = true; return; }
      if (retryClaim(latest)) return;
    }
    // Another move got in first: the server's answer speaks of move numbers (bots read it), so
    // the player gets the table as it now is, and a sentence.
    if (message.code === "stale") {
      send({ type: "sync" });
      message = { message: "Someone moved just before you: here is the table as it is now. Choose again." };
    }
    const box = el("table-error");
    box.textContent = message.message;
    box.hidden = false;
    clearTimeout(showError.timer);
    showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  function setStatus(text) {
    const status = el("table-status");
    status.textContent = text;
    status.hidden = !text;
  }

  function draw(message) {
    drawSeats(message);
    drawArea(message);
    drawClocks(message);
    drawHistory(message);
    drawResult(message);
    el("table-actions").hidden = message.status !== "open";
    if (message.status === "open") drawOpenTable(message);
    // Resign is for a player still in the game: not once they resigned (or forfeited) and the others play on.
    const mine = message.seats.find((s) => s.seat === message.seat);
    const playing = message.status === "running" && !(mine && mine.forfeited);
    for (const node of document.querySelectorAll("[data-while-running]")) node.hidden = !playing;
    drawMySeatGone(message, mine);
    for (const node of document.querySelectorAll("[data-when-finished]")) node.hidden = message.status !== "finished";
    signalTurn(message);
    askSoundOnce(message);
  }

  // A player out of the game while the others play on is told so on their own page: the cards or
  // dice of their seat keep changing, moved by the computer.
  function drawMySeatGone(message, mine) {
    const note = el("my-seat-gone");
    const why = message.status === "running" && mine ? mine.gone : null;
    note.hidden = !why;
    if (!why) return;
    const how = {
      resigned: "You resigned",
      "timed out": "You were counted out: your clock ran out too many times in a row",
      left: "You left the game",
      "did not come": "You did not come in time",
    }[why];
    note.textContent = `${how}: you have lost this game. The computer plays your seat so the others can finish; you may watch.`;
  }

  // A waiting table's buttons follow its seats as they fill and empty: the host starts it once it is
  // full, and nobody can take a seat or add a bot to a full one.
  function drawOpenTable(message) {
    const full = message.seats.length >= Number(root.dataset.players);
    const start = root.querySelector('[data-api$="/start/"]');
    if (start) { start.disabled = !full; start.title = full ? "" : "The table starts once every seat is taken."; }
    for (const node of root.querySelectorAll('[data-api$="/join/"], [data-api-form$="/bots/"]')) node.hidden = full;
  }

  // The game area is redrawn whole on every message (and when a renderer asks, e.g. after a
  // card is selected or a staged reveal ends); keyboard focus is put back on the same control.
  function drawArea(message) {
    const area = el("game-area");
    const focus = rememberFocus(area);
    area.replaceChildren();
    if (message.view && renderer) {
      renderer.render(area, message.view, {
        act, h, seats: message.seats, seat: message.seat, toAct: message.to_act, legal: message.legal,
        startsInMs: message.starts_in_ms || 0,
        finished: message.status === "finished",
        // The viewer resigned or forfeited while the others play on: their hand is shown, never offered.
        out: message.seats.some((s) => s.seat === message.seat && s.forfeited),
        endedBy: endedBy(message),
        name: (n) => boardName(message, n),
        redraw: () => { if (latest === message) drawArea(message); },
      });
    } else if (message.status === "open") {
      const missing = Number(root.dataset.players) - message.seats.length;
      const host = "host" in root.dataset;  // this page's viewer
      const waiting = `Waiting for ${missing} more player${missing === 1 ? "" : "s"}`;
      area.append(h("p", { class: "muted" }, missing > 0
        ? `${waiting} before ${host ? "you" : "the host"} can begin.`
        : host ? "Every seat is taken: begin when you are ready." : "Every seat is taken: the host begins when ready."));
    }
    closableReveal(area);
    if (!(renderer && renderer.keepsFocus)) restoreFocus(area, focus);  // Dobble puts it back itself
  }

  // A staged reveal (a doubt's dice or cards, a round's end) lies over the table for a few
  // seconds, over the new round's hands too: a player who has read it closes it (its button or
  // Escape), and the redraws that follow leave it closed.
  let closedReveal = null;
  let seenReveal = null;
  function closableReveal(area) {
    const reveal = area.querySelector(".reveal.staged");
    if (!reveal) return;
    const shown = reveal.textContent;
    if (closedReveal === shown) { reveal.remove(); return; }
    if (seenReveal !== shown) { seenReveal = shown; bringIntoView(area, reveal); }
    reveal.append(h("button", { class: "button small secondary reveal-close", type: "button", "data-key": "escape",
      "aria-keyshortcuts": "Escape", onclick: () => {
        closedReveal = shown;
        reveal.remove();
        (area.querySelector("button:not([disabled]), select") || area).focus();  // not dropped on the page
      } }, "Close (Esc)"));
  }

  // A new reveal is scrolled to once: with the whole table in view (the controls too, where it
  // fits the screen), or else with its verdict clear of the hand pinned to a phone's foot.
  function bringIntoView(area, reveal) {
    const dock = area.querySelector(".dock");
    const pinned = dock && getComputedStyle(dock).position === "sticky" ? dock.offsetHeight : 0;
    reveal.style.scrollMarginBottom = `${pinned + 8}px`;
    const fits = area.getBoundingClientRect().height <= window.innerHeight;
    (fits ? area : reveal).scrollIntoView({ block: "nearest" });
  }

  const FOCUS_KEYS = ["id", "data-card", "data-action", "data-column", "data-row", "data-choice", "data-key"];
  const CONTROLS = "button, select, [tabindex='0']";

  // The last focus was on the table: a control a renderer removed leaves it on <body>, which
  // still counts as the table's (a click elsewhere on the page does not).
  let focusOnTable = false;
  document.addEventListener("focusin", (event) => { focusOnTable = el("game-area").contains(event.target); });
  document.addEventListener("pointerdown", (event) => { if (!el("game-area").contains(event.target)) focusOnTable = false; });

  let parked = null;  // the control the player last used, while the table holds the focus

  function rememberFocus(area) {
    const node = document.activeElement;
    // No control was left last time (the table holds it while others play): the one last used, or the first.
    if (node === area || ((!node || node === document.body) && focusOnTable)) return parked || { selector: null, index: 0 };
    if (!node || !area.contains(node)) return null;
    const selector = node.tagName.toLowerCase() + FOCUS_KEYS.filter((key) => node.hasAttribute(key))
      .map((key) => `[${key}="${CSS.escape(node.getAttribute(key))}"]`).join("");
    return { selector, index: [...area.querySelectorAll(selector)].indexOf(node) };
  }

  const focusable = (node) => node && !node.disabled && node.tabIndex >= 0 && !node.closest("[hidden]");

  // The same control if it still takes the keyboard, else the first that does, else the table
  // itself (never <body>), so the next redraw can hand it to the next decision's first control.
  function restoreFocus(area, saved) {
    const active = document.activeElement;
    if (!saved || (active !== area && area.contains(active))) return;
    const same = saved.selector ? area.querySelectorAll(saved.selector) : [];
    let target = same[Math.min(saved.index, same.length - 1)];
    if (!focusable(target)) {
      const first = [...area.querySelectorAll(CONTROLS)].find(focusable);
      if (!first && saved.selector) parked = saved;
      target = first || area;
    }
    if (target !== area) parked = null;
    target.focus({ preventScroll: true });
  }

  // Your move: the tab title says so, and a short chime plays if the player switched sound on.
  function signalTurn(message) {
    const myMove = message.status === "running" && message.seat != null && message.to_act.includes(message.seat);
    document.title = myMove ? `(Your move) ${baseTitle}` : baseTitle;
    if (myMove && !wasMyMove) chime();
    wasMyMove = myMove;
  }

  const SOUND_KEY = "dubium.turnSound";
  const ASKED_KEY = "dubium.turnSoundAsked";
  let askingHere = false;  // this page put the question: it stays until answered or the game ends
  let audio = null;

  function soundOn() {
    try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (error) { return false; }
  }

  function chime() {
    if (!soundOn() || !window.AudioContext) return;
    audio = audio || new AudioContext();
    const start = audio.currentTime + 0.02;
    [660, 990].forEach((frequency, n) => {
      const at = start + n * 0.13;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.3);
    });
  }

  function setSound(on) {
    try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (error) { return; }
    if (on) {
      audio = audio || (window.AudioContext ? new AudioContext() : null);
      if (audio) audio.resume();
    }
    showSoundToggle();
  }

  const toggle = h("button", { type: "button", class: "button secondary small sound-toggle", id: "sound-toggle",
    title: "A short chime when it is your move", onclick: () => setSound(!soundOn()) });
  function showSoundToggle() {
    toggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    toggle.textContent = soundOn() ? "Turn sound: on" : "Turn sound: off";
  }

  // A player's first game on this browser asks once, in the toggle's place, whether to chime on
  // their move; the answer is kept (the toggle changes it later), and so is the asking itself: a
  // question left unanswered is not asked again at another table (the sound stays off, the toggle
  // is there). The same table reloaded (as it does once its start is accepted) still asks.
  const ask = h("p", { class: "sound-ask", id: "sound-ask", hidden: true }, "Chime on your move? ",
    h("button", { type: "button", class: "button small", id: "sound-yes", onclick: () => answerSound(true) }, "Yes"),
    h("button", { type: "button", class: "button small secondary", id: "sound-no", onclick: () => answerSound(false) }, "No"));
  function answerSound(on) {
    askingHere = false;
    setSound(on);
    ask.hidden = true;
    toggle.hidden = false;
  }

  function askSoundOnce(message) {
    if (!askingHere) {
      let asked = true;
      try {
        const askedAt = localStorage.getItem(ASKED_KEY);  // the table that asked: it asks again when reloaded
        asked = localStorage.getItem(SOUND_KEY) !== null || (askedAt !== null && askedAt !== String(matchId));
      } catch (error) { asked = true; }
      askingHere = !asked && message.status === "running" && message.seat != null;
      if (askingHere) {
        try { localStorage.setItem(ASKED_KEY, String(matchId)); } catch (error) { /* kept by this page only */ }
      }
    }
    const show = askingHere && message.status === "running";
    ask.hidden = !show;
    toggle.hidden = show;
  }

  function playerName(seats, number) {
    const seat = seats.find((s) => s.seat === number);
    return seat ? seat.player : `Seat ${number + 1}`;
  }

  // On the board, while the others play on, a seat given up is the computer's (its own player
  // is told so above the board).
  function boardName(message, number) {
    const seat = message.seats.find((s) => s.seat === number);
    const name = playerName(message.seats, number);
    return message.status === "running" && seat && seat.gone && number !== message.seat ? `${name} (computer)` : name;
  }

  // A person who never opened the table made none of their seat's moves: the clock and then the
  // computer did, and the history says so. Once the match is over its result says who never came
  // (opening the finished table is not coming to the game).
  function absent(message, number) {
    if (message.result) return (message.result.absent || []).includes(number);
    const seat = message.seats.find((s) => s.seat === number);
    return Boolean(seat && !seat.bot && !seat.came);
  }

  function drawSeats(message) {
    const list = el("seats");
    list.replaceChildren(...message.seats.map((s) => h("li", {
      class: ["seat", message.to_act.includes(s.seat) ? "to-act" : "", s.seat === message.seat ? "me" : "",
              s.forfeited ? "forfeited" : ""].join(" "),
      "data-seat": s.seat,
    },
      h("span", { class: "seat-name" }, s.player, s.bot ? h("span", { class: "badge" }, "bot") : null),
      // What the event says of this seat (an arena's "berserk": its player halved their clock).
      seatNote(s.seat) ? h("span", { class: "badge seat-event-note" }, seatNote(s.seat)) : null,
      // Out of the game while the others play on: the computer makes this seat's moves from now on.
      s.forfeited && message.status === "running"
        ? h("span", { class: "seat-note" }, `${s.gone} · the computer plays on`)
        : null,
      // Away: on their turn their clock keeps their own time and this counts down to the computer's
      // move for them (the end of their grace to come back, or their clock, whichever is first),
      // or to their forfeit once the computer has moved for them enough (clocks.leaving).
      away(message, s)
        ? h("span", { class: "seat-note away-note" }, "away",
            message.clocks.away_ms_left[s.seat] != null
              ? [message.clocks.leaving.includes(s.seat) ? " · forfeits in " : " · the computer moves for them in ",
                h("span", { "data-away-seat": s.seat })] : null)
        : null,
      // Connected but the clock has moved for them twice in a row: this timeout counts them out.
      s.connected && message.status === "running" && message.clocks.leaving.includes(s.seat)
        ? h("span", { class: "seat-note idle-note" }, "no move of their own lately · forfeits when this clock runs out")
        : null,
      h("span", { class: s.connected ? "dot online" : "dot offline", title: presence(s), "data-presence": presence(s),
        "data-delay-seat": s.seat }),
      message.to_act.includes(s.seat) ? h("span", { class: "turn", "aria-label": "to play" }, "▶") : null,
      h("span", { class: "clock", "data-clock-seat": s.seat }),
    )));
    drawDelays();
  }

  function seatNote(number) {
    const note = document.querySelector(`#occasion-line [data-seat-note="${number}"]`);
    return note ? note.textContent : "";
  }
  document.addEventListener("occasion-redrawn", () => { if (latest) drawSeats(latest); });

  function presence(s) {
    return s.connected ? "connected" : s.forfeited ? "out of the game" : "away";
  }

  function away(message, s) {
    return message.status === "running" && !s.connected && !s.forfeited && !s.bot;
  }

  function drawClocks(message) {
    clearInterval(clockTimer);
    const received = Date.now();
    const { ms_left: clockLeft, away_ms_left: awayLeft, bank_ms: banks, window_ms_left: windowLeft } = message.clocks;
    const remaining = (left) => (left == null ? null : Math.max(0, left - (Date.now() - received)));
    // A seat whose limit is the game's answer window (I Doubt It's doubt window) shows its own
    // clock, not the window's: the game area counts the window down beside its question.
    const ownLeft = (seat) => {
      const left = clockLeft[seat];
      return left != null && windowLeft != null && Math.abs(left - windowLeft) < 50 ? null : left;
    };
    const tick = () => {
      for (const node of document.querySelectorAll("[data-window-left]")) {
        const left = remaining(windowLeft);
        node.textContent = left == null ? "" : ` (${formatMs(left)} left)`;
      }
      for (const node of document.querySelectorAll("[data-clock-seat]")) {
        const seat = node.dataset.clockSeat;
        const left = remaining(ownLeft(seat));
        const ms = left != null ? left : banks[seat];
        node.textContent = ms == null ? "" : formatMs(ms);
        node.classList.toggle("low", left != null && left < 10000);
      }
      drawBigClock(message, remaining, ownLeft);
      for (const node of document.querySelectorAll("[data-away-seat]")) {
        const seat = node.dataset.awaySeat;
        const limits = [remaining(awayLeft[seat]), remaining(clockLeft[seat])].filter((ms) => ms != null);
        node.textContent = formatMs(Math.min(...limits));
      }
    };
    tick();
    if (Object.keys(clockLeft).length || Object.keys(awayLeft).length || windowLeft != null) {
      clockTimer = setInterval(tick, 250);
    }
  }

  // The clock that matters now, large beside the table: the player's own while it is their move,
  // else the clock of the seat to act. Under LOW_TIME_MS it turns red and says so in words.
  const LOW_TIME_MS = 10000;
  function drawBigClock(message, remaining, ownLeft) {
    const box = el("big-clock");
    const running = message.status === "running" ? message.to_act : [];
    const seat = running.includes(message.seat) && ownLeft(message.seat) != null ? message.seat
      : running.find((n) => ownLeft(n) != null);
    const left = seat == null ? null : remaining(ownLeft(seat));
    box.hidden = left == null;
    if (left == null) return;
    const low = left < LOW_TIME_MS;
    const whose = seat === message.seat ? "Your time" : `${playerName(message.seats, seat)}'s time`;
    box.classList.toggle("low", low);
    box.classList.toggle("mine", seat === message.seat);
    box.replaceChildren(...[h("span", { class: "big-clock-who" }, whose),
      h("span", { class: "big-clock-time" }, formatMs(left)),
      low ? h("span", { class: "big-clock-warning" }, seat === message.seat ? "Low time: move now" : "Low time") : null,
    ].filter(Boolean));  // replaceChildren writes a null as the text "null"
  }

  function formatMs(ms) {
    const seconds = Math.ceil(ms / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  function drawHistory(message) {
    const list = el("history");
    const events = (message.view && message.view.history) || [];
    const describe = (renderer && renderer.describe) || ((event) => JSON.stringify(event));
    const first = Math.max(0, events.length - 60);
    // Where a player resigned or left: seats[].gone_at, stored at the forfeit.
    const gone = message.seats.filter((s) => s.gone && s.gone_at != null)
      .map((s) => ({ seat: s.seat, why: s.gone, words: s.gone_words, at: s.gone_at }));
    const lines = DubiumHistory.lines(h, {
      events, first, describe, gone,
      name: (n) => playerName(message.seats, n),
      absent: (n) => absent(message, n),
      note: (index) => (byClock.has(index) && !(renderer && renderer.seatless && renderer.seatless(events[index]))
        ? h("span", { class: "muted" }, " (no move in time: the computer's)") : null),
    });
    if (first > 0) {
      const where = message.status === "finished" ? "the replay has every move" : "the replay will have every move";
      lines.unshift(h("li", { class: "muted history-earlier" }, `${first} earlier entr${first === 1 ? "y" : "ies"} not shown: ${where}.`));
    }
    list.replaceChildren(...lines);
    list.scrollTop = list.scrollHeight;
  }

  // The result takes the top of the table the moment the match ends, in view on a phone too.
  function drawResult(message) {
    const box = el("result");
    if (message.status === "aborted" && message.view) {  // stopped under way, by a tournament's organizer
      box.hidden = false;
      box.replaceChildren(h("h2", {}, "Stopped"),
        h("p", {}, "The event's organizer stopped this game with no result: it is not rated, and it counts in the event only as the organizer corrects it (the event's page says how)."));
      return;
    }
    if (!message.result) { box.hidden = true; return; }
    const appearing = box.hidden;
    box.hidden = false;
    // replaceChildren writes a null as the text "null": only nodes go in.
    const headline = resultHeadline(message);
    box.classList.toggle("won", headline.mood === "won");
    box.classList.toggle("lost", headline.mood === "lost");
    box.replaceChildren(...[
      h("h2", { id: "result-headline" }, headline.text),
      h("ol", {}, message.result.ranking.map((group) => h("li", {},
        group.map((n) => playerName(message.seats, n)).join(" = "),
        group.some((n) => message.result.scores && message.result.scores[n] != null)
          ? ` — ${(renderer && renderer.scoreName) || "score"} ${group.map((n) => message.result.scores[n]).join(", ")}` : null,
        group.map((n) => leftNote(message, n)),
        group.map((n) => ratingText(message, n))))),
      absenceNote(message),
      message.not_rated ? h("p", { id: "not-rated", class: "muted" }, `Not rated: ${message.not_rated}.`) : null,
      h("a", { href: `/match/${matchId}/replay/`, class: "button" }, "Watch the replay"),
    ].filter(Boolean));
    if (appearing) box.scrollIntoView({ block: "nearest" });
  }

  // The result in one line, for the player it concerns: "You won", "You lost" (two seats) or their
  // place ("You placed 2nd of 4"); a spectator reads who won.
  function resultHeadline(message) {
    const ranking = message.result.ranking;
    const names = (group) => group.map((n) => playerName(message.seats, n)).join(" and ");
    const mine = ranking.findIndex((group) => group.includes(message.seat));
    if (message.seat == null || mine < 0) {
      const first = ranking[0] || [];
      return { text: `Result: ${names(first)} ${first.length > 1 ? "shared first place" : "won"}`, mood: "" };
    }
    const place = 1 + ranking.slice(0, mine).reduce((sum, group) => sum + group.length, 0);
    const shared = ranking[mine].length > 1;
    if (place === 1) return shared ? { text: "You shared first place", mood: "won" } : { text: "You won", mood: "won" };
    if (message.seats.length === 2) return { text: "You lost", mood: "lost" };
    return { text: `You placed ${ordinal(place)} of ${message.seats.length}${shared ? " (shared)" : ""}`, mood: "lost" };
  }

  function ordinal(n) {
    const tens = n % 100;
    const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return `${n}${suffix}`;
  }

  // Why a finished match ended before its game did ("bob left"), for the board to say instead of
  // its last round: the forfeits left one player (the latest forfeit comes first in the result).
  function endedBy(message) {
    const gone = (message.result && message.result.forfeited) || [];
    if (message.status !== "finished" || !gone.length || message.seats.length - gone.length > 1) return null;
    return `${playerName(message.seats, gone[0])} ${whyGone(message, gone[0])}`;
  }

  // The result's note on a seat whose player is out of it (forfeited, or played by the clock to
  // the end without ever coming): one who never came is not rated where the others are.
  function leftNote(message, seat) {
    const why = whyGone(message, seat);
    if (!why) return idleNote(message, seat);
    const unrated = why === "did not come" && (message.rating_changes || []).length > 0;
    return ` (${why}${unrated ? ": not rated" : ""})`;
  }

  // A seat whose player came but made no move of their own (the clock made every one: the result's
  // "idle") is ranked last by the match, and an event counts it a forfeit: said beside the name, in
  // words (it was only a tooltip's).
  function idleNote(message, seat) {
    if (!(message.result.idle || []).includes(seat)) return null;
    const event = document.getElementById("occasion");
    return ` (no move of their own: ${event ? "counted as a forfeit" : "ranked last"})`;
  }

  // "resigned", "timed out", "left" or "did not come", as the server words it (Seat.why_gone); null while playing.
  function whyGone(message, number) {
    const seat = message.seats.find((s) => s.seat === number);
    return seat ? seat.gone : null;
  }

  // What happened to a seat whose player never came, in a sentence under the result.
  function absenceNote(message) {
    const away = message.result.absent || [];
    if (!away.length) return null;
    const names = away.map((n) => playerName(message.seats, n)).join(" and ");
    return h("p", { id: "absence-note", class: "muted" },
      `${names} never came to the table: every move of the seat was the clock's or the computer's.`);
  }

  function ratingText(message, seat) {
    const change = (message.rating_changes || []).find((c) => c.seat === seat);
    if (!change) return null;
    // "?" as on every page: a provisional rating, explained where the pointer rests (ratings/_provisional.html)
    const provisional = change.provisional
      ? h("abbr", { class: "provisional", title: "provisional: not yet established, so not on the leaderboard" }, "?")
      : "";
    return h("span", { class: change.delta >= 0 ? "rating-up" : "rating-down" },
      ` ${change.before} → ${change.after}`, provisional, ` (${change.delta >= 0 ? "+" : ""}${change.delta})`);
  }

  function addChat(message) {
    const list = el("chat-log");
    list.append(h("li", {}, h("b", {}, message.player), ": ", message.text));
    list.scrollTop = list.scrollHeight;
  }

  const chatForm = el("chat-form");
  if (chatForm) {
    chatForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = chatForm.querySelector("input");
      if (input.value.trim()) send({ type: "chat", text: input.value });
      input.value = "";
    });
  }

  // Keyboard: a game's main buttons carry data-key (shown on the button); pressing that key
  // presses the button, unless the focused field would use the key itself: text typed, a
  // number's digits, a list's jump to the option it starts (Dudo's dice count is a list of
  // numbers, so B still bids from it).
  function fieldTakes(target, key) {
    if (target.closest("textarea, [contenteditable]")) return true;
    const select = target.closest("select");
    if (select) return [...select.options].some((option) => option.text.trim().toLowerCase().startsWith(key));
    const input = target.closest("input");
    if (!input) return false;
    if (input.type === "number") return /^[0-9e.+-]$/.test(key);
    return !["checkbox", "radio", "button", "submit", "range"].includes(input.type);
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || fieldTakes(event.target, event.key.toLowerCase())) return;
    const button = el("game-area").querySelector(`button[data-key="${CSS.escape(event.key.toLowerCase())}"]:not([disabled])`);
    if (button) { event.preventDefault(); button.click(); }
  });

  // A browser starts sound suspended until the page is touched: resume it on the first touch.
  document.addEventListener("pointerdown", () => { if (audio) audio.resume(); }, { once: true });
  showSoundToggle();
  document.querySelector(".table-head").append(toggle, ask);
  el("game-area").tabIndex = -1;

  // Is this page's viewer playing here now (notices.js leaves such a page alone)?
  const playing = () => Boolean(latest && latest.status === "running" && latest.seat != null &&
    !latest.seats.some((s) => s.seat === latest.seat && s.forfeited));
  // Has this page's viewer a seat here (a game of theirs, maybe just ended)?
  const seated = () => Boolean(latest && latest.seat != null);
  window.DubiumTable = { h, act, playing, seated };
  connect();
})();
