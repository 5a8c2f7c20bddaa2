// The replay viewer: steps through the action log with /api/matches/<id>/replay/<step>/,
// drawn by the same game renderer as the live table (arrow keys step).
"use strict";

(function () {
  const root = document.getElementById("replay");
  const matchId = root.dataset.match;
  const steps = Number(root.dataset.steps);
  const renderer = window.DubiumGames[root.dataset.game];
  const names = JSON.parse(document.getElementById("replay-names").textContent);
  const seatPicker = document.getElementById("replay-seat");  // only for a player of the match
  const name = (n) => names[n] || `Seat ${n + 1}`;
  // `?step=N` opens the replay at that step (a bot's failure report links to the move it failed).
  const startAt = Number.parseInt(new URLSearchParams(window.location.search).get("step"), 10);
  let step = Number.isInteger(startAt) ? Math.max(0, Math.min(steps, startAt)) : steps;

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value == null || value === false) continue;
      if (key === "class") node.className = value; else if (!key.startsWith("on")) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) if (child != null && child !== false) node.append(child instanceof Node ? child : String(child));
    return node;
  }

  // Stepping quickly (a held arrow key) asks for frames faster than they come, and the answers may
  // come in any order: only the last one asked for is drawn, never an earlier step under its number.
  let asked = 0;

  async function show() {
    const seat = seatPicker ? seatPicker.value : "";
    const ask = ++asked;
    const response = await fetch(`/api/matches/${matchId}/replay/${step}/${seat === "" ? "" : `?seat=${seat}`}`);
    const frame = await response.json();
    if (ask !== asked) return;
    if (!response.ok) { document.getElementById("game-area").textContent = frame.message; return; }
    document.getElementById("replay-step").textContent = step;
    for (const button of root.querySelectorAll("[data-step]")) {
      button.disabled = moves[button.dataset.step]() === step;
    }
    const area = document.getElementById("game-area");
    area.replaceChildren();
    const seatNumber = seat === "" ? null : Number(seat);
    const seats = names.map((player, n) => ({ seat: n, player }));
    // The last step is the end, the game's own or a forfeit's (the last mark says whose).
    const last = frame.gone[frame.gone.length - 1];
    const finished = step === steps;
    const endedBy = finished && last && !frame.view.is_over ? `${name(last.seat)} ${last.why}` : null;
    // Once a player has resigned or left, the board names their seat the computer's (as the table
    // does), from the step after the one they left after: that step's own moves were still theirs.
    const computer = new Set(finished ? [] : frame.gone.filter((mark) => mark.at <= frame.new_from).map((mark) => mark.seat));
    const boardName = (n) => (computer.has(n) ? `${name(n)} (computer)` : name(n));
    renderer.render(area, frame.view, {
      act: () => {}, h, seats, seat: seatNumber, toAct: [], legal: [], name: boardName, replay: true,
      newFrom: frame.new_from, finished, endedBy,
    });
    const describe = renderer.describe || ((event) => JSON.stringify(event));
    const lines = DubiumHistory.lines(h, { events: frame.view.history || [], describe, name, gone: frame.gone });
    const list = document.getElementById("history");
    list.replaceChildren(...lines);
    list.scrollTop = list.scrollHeight;  // the step's own entries are the last
  }

  const moves = { first: () => 0, back: () => Math.max(0, step - 1), next: () => Math.min(steps, step + 1), last: () => steps };
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-step]");
    if (!button) return;
    step = moves[button.dataset.step]();
    show();
  });
  const keys = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", (event) => {
    if (!(event.key in keys) || event.target.closest("select, input, textarea")) return;
    event.preventDefault();
    step = moves[keys[event.key]]();
    show();
  });
  if (seatPicker) seatPicker.addEventListener("change", show);
  show();
})();
