// Dudab Buba: the columns as pictures, the Dudab's open request on its column, your hand (pick a
// card and the columns that take it light up), the round and running totals. Every move offered
// is one of the legal actions the server sent, so nothing illegal is offered.
"use strict";

(function () {
  let selected = null;
  let pendingColumn = null; // a Dudab's column, waiting for its request

  const TASKS = {
    jungle: "place the Jungle card", baby: "place the Baby card",
    trim: "give up cards to the own pile until five remain", discard_down: "discard down to two cards",
  };

  function actionText(action) {
    const { describe } = window.DudabCards;
    switch (action.type) {
      case "draw": return action.own ? `Draw, giving up the ${describe(action.own)}` : "Draw a card";
      case "reveal": return "Take the Shaman penalty";
      case "jungle": return `Put the Jungle on column ${action.column + 1}`;
      case "baby": return `Put the Baby on column ${action.column + 1}`;
      case "trim": return `Give up ${action.cards.map(describe).join(", ")}`;
      case "discard_down": return `${action.cards.map(describe).join(", ")} to ${action.to === "own" ? "your own pile" : "the discard pile"}`;
      default: return action.type;
    }
  }

  function lastPlay(view) {
    return [...view.history].reverse().find((e) => e.type === "play" || e.type === "round") || null;
  }

  function columnsView(h, view, plays, act, redraw) {
    const { tile, requestBadge } = window.DudabCards;
    const last = lastPlay(view);
    const targets = selected ? plays.filter((a) => a.card === selected) : [];
    return h("div", { class: "dudab-columns" }, view.columns.map((column, i) => {
      const here = targets.filter((a) => a.column === i);
      const node = h("div", { class: `dudab-column${here.length ? " droppable" : ""}${view.request && view.request.column === i ? " binding" : ""}`,
        "data-column": i },
      h("div", { class: "column-head" }, `Column ${i + 1}`, column.hidden ? h("span", { class: "muted" }, ` · ${column.hidden} under a Baby`) : null),
      h("div", { class: "column-cards" }, column.cards.map((id, at) => tile(h, id, {},
        `${at === column.jungle_at ? "sideways" : ""}${last && last.type === "play" && last.column === i && at === column.cards.length - 1 ? " last-play" : ""}`))),
      column.request ? h("div", { class: "column-request" }, "Dudab asks for ", requestBadge(h, column.request)) : null);
      if (here.length) {
        node.tabIndex = 0;
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", `Play the ${window.DudabCards.describe(selected)} on column ${i + 1}`);
        const go = () => choose(here, act, redraw);
        node.addEventListener("click", go);
        node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
      }
      return node;
    }));
  }

  // A number card or Shaman plays at once; a Dudab asks for its request first.
  function choose(options, act, redraw) {
    if (options.length === 1 && !options[0].request) { selected = null; pendingColumn = null; act(options[0]); return; }
    pendingColumn = options[0].column;
    redraw();
    focusFirst(document.getElementById("game-area"), ".request-choice");
  }

  // After a card or a column is picked, the keyboard goes on to the next choice.
  function focusFirst(area, selector) {
    const target = area && area.querySelector(selector);
    if (target) target.focus();
  }

  function scoresTable(h, view, name) {
    const rounds = view.round_scores || [];
    return h("table", { class: "list dudab-scores" },
      h("caption", { class: "muted" }, `Round ${view.round} of ${view.rounds} · fewest points wins`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Own pile"),
        rounds.map((_, r) => h("th", { scope: "col" }, `Round ${r + 1}`)), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, view.hand_counts.map((count, n) => h("tr", { class: (view.to_act || []).includes(n) ? "to-act" : n === view.seat ? "me" : "" },
        h("th", { scope: "row" }, name(n)), h("td", {}, count), h("td", {}, view.own_counts[n]),
        rounds.map((scores) => h("td", {}, scores[n])), h("td", {}, h("strong", {}, view.totals[n]))))));
  }

  function render(area, view, ctx) {
    const { h, act, seat } = ctx;
    const legal = ctx.legal || [];
    const { tile, requestBadge, describe } = window.DudabCards;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const redraw = ctx.redraw || (() => { area.replaceChildren(); render(area, view, ctx); });
    const actions = legal || [];
    const plays = actions.filter((a) => a.type === "play");
    if (selected && (!view.hand || !view.hand.includes(selected) || !plays.some((a) => a.card === selected))) { selected = null; pendingColumn = null; }

    const task = view.tasks && view.tasks[0];
    area.append(h("p", { class: "table-status" },
      h("span", { class: "chip" }, `Round ${view.round} of ${view.rounds}`),
      h("span", { class: "chip" }, `${view.deck_count} cards to draw`),
      view.discard_top ? h("span", { class: "chip" }, `Discard pile: ${view.discard_count}, top ${describe(view.discard_top)}`) : null,
      (view.to_act || []).length ? h("span", { class: "chip strong" }, `${name(view.to_act[0])} to ${task ? TASKS[task.kind] : "play"}`) : null));
    if (view.request) {
      area.append(h("p", { class: "request-banner", id: "dudab-request" }, h("strong", {}, "Open request: "),
        `the Dudab on column ${view.request.column + 1} asks everyone for `, requestBadge(h, view.request.request)));
    }
    if (view.shaman_pending) area.append(h("p", { class: "request-banner shaman" }, h("strong", {}, "A Shaman was played: "),
      `${name(view.to_act[0])} must answer with a Shaman or a Dudab, or take the penalty.`));
    if (task && task.card) area.append(h("p", { class: "request-banner" }, `${name(task.seat)} drew `, tile(h, task.card, {}, "small"), ` and must ${TASKS[task.kind]}.`));

    area.append(columnsView(h, view, plays, act, redraw));
    area.append(scoresTable(h, view, name));
    if (seat == null || !view.hand) return;

    const dock = h("div", { class: "dock" });
    const prompt = selected ? `Now pick a lit column for the ${describe(selected)}` : plays.length ? "Pick a card to play, or choose below" : actions.length ? "Choose your move" : "Wait for your turn";
    dock.append(h("p", { class: "dock-prompt", "aria-live": "polite" }, prompt));
    dock.append(h("div", { class: `hand${actions.length ? "" : " waiting"}`, id: "my-hand", role: "group", "aria-label": "Your hand" }, view.hand.map((id) => {
      const playable = plays.some((a) => a.card === id);
      return tile(h, id, {
        onclick: () => { selected = selected === id ? null : id; pendingColumn = null; redraw(); focusFirst(area, "#dudab-choices [data-action=play]"); },
        "aria-pressed": selected === id ? "true" : "false", disabled: !playable,
      });
    })));
    if (view.own && view.own.length) {
      dock.append(h("details", { class: "own-pile" }, h("summary", {}, `Your own pile: ${view.own.length} card${view.own.length === 1 ? "" : "s"}`),
        h("div", { class: "hand small" }, view.own.map((id) => tile(h, id, {}, "small")))));
    }
    const buttons = [];
    if (selected && pendingColumn != null) {
      for (const action of plays.filter((a) => a.card === selected && a.column === pendingColumn)) {
        buttons.push(h("button", { class: "button secondary request-choice", type: "button", "data-action": "play",
          "data-choice": JSON.stringify(action.request), onclick: () => { selected = null; pendingColumn = null; act(action); } },
        "Ask for ", requestBadge(h, action.request)));
      }
    } else if (selected) {
      const columns = [...new Set(plays.filter((a) => a.card === selected).map((a) => a.column))];
      for (const column of columns) {
        const options = plays.filter((a) => a.card === selected && a.column === column);
        buttons.push(h("button", { class: "button", type: "button", "data-action": "play", "data-column": column,
          onclick: () => choose(options, act, redraw) }, `Play on column ${column + 1}`));
      }
    }
    for (const action of actions.filter((a) => a.type !== "play").slice(0, 30)) {
      buttons.push(h("button", { class: "button secondary", type: "button", "data-action": action.type,
        "data-choice": JSON.stringify(action), onclick: () => { selected = null; act(action); } }, actionText(action)));
    }
    if (buttons.length) dock.append(h("div", { class: "controls", id: "dudab-choices" }, buttons));
    area.append(dock);
  }

  function describeEvent(event, name) {
    const { describe, requestText } = window.DudabCards;
    const cards = (list) => list.map(describe).join(", ");
    switch (event.type) {
      case "round": return `Round ${event.round}: ${name(event.starter)} starts; the columns open with ${cards(event.columns)}`;
      case "play": return `${name(event.seat)} plays the ${describe(event.card)} on column ${event.column + 1}` +
        (event.request ? `, asking for ${requestText(event.request)}` : "") +
        (event.collected ? ` and collects ${event.collected} card${event.collected === 1 ? "" : "s"}` : "");
      case "draw": return `${name(event.seat)} draws${event.forced ? " up" : ""}${event.special ? ` a ${describe(event.special)}` : ""}` +
        `${event.shown ? ` after showing ${cards(event.shown)}` : ""}`;
      case "reveal": return `${name(event.seat)} takes the Shaman penalty: ${cards(event.revealed)} turned up, draws ${event.draws}`;
      case "jungle": return `${name(event.seat)} puts the Jungle on column ${event.column + 1}`;
      case "jungle_discarded": return `${name(event.seat)} discards a Jungle: no column is free`;
      case "baby": return `${name(event.seat)} puts the Baby on column ${event.column + 1}${event.each_draws ? `; everyone else draws ${event.each_draws}` : ""}`;
      case "trim": return `${name(event.seat)} puts ${event.count} card${event.count === 1 ? "" : "s"} on the own pile`;
      case "discard_down": return `${name(event.seat)} discards ${event.cards ? cards(event.cards) : `${event.count} cards to the own pile`}`;
      case "round_end": return `Round ${event.round} scores: ${event.scores.map((score, n) => `${name(n)} ${score}`).join(", ")}`;
      default: return event.seat != null ? `${name(event.seat)}: ${event.type}` : event.type;
    }
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dudab = { render, describe: describeEvent, scoreName: "total" };
})();
