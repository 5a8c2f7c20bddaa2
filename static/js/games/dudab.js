// Dudab Buba: the columns as pictures, the Dudab's open request on its column, your hand (pick a
// card and the columns that take it light up; pick the cards to give up by tapping them), the
// discard pile's top card, the round and running totals, and each round's end staged on the table
// (every hand and own pile face up with its points) for a few seconds. Every move offered is one
// of the legal actions the server sent, so nothing illegal is offered.
"use strict";

(function () {
  const ROUND_END_MS = 6000;
  let selected = null;
  let pendingColumn = null; // a Dudab's column, waiting for its request
  let picked = []; // hand positions chosen to give up (trim, discard down)
  let pickedFor = null; // the hand and task they were chosen for
  let seenRoundEnd = null; // index in the history of the last round end already staged
  let roundEndUntil = 0;

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
      default: return action.type;
    }
  }

  function lastPlay(view) {
    return [...view.history].reverse().find((e) => e.type === "play" || e.type === "round") || null;
  }

  // `places`: where a drawn Jungle or Baby may go; those columns light up as for a picked card.
  function columnsView(h, view, plays, places, act, redraw) {
    const { tile, requestBadge } = window.DudabCards;
    const last = lastPlay(view);
    const targets = selected ? plays.filter((a) => a.card === selected) : [];
    return h("div", { class: "dudab-columns" }, view.columns.map((column, i) => {
      const here = targets.filter((a) => a.column === i);
      const place = places.find((a) => a.column === i);
      const node = h("div", { class: `dudab-column${here.length || place ? " droppable" : ""}${view.request && view.request.column === i ? " binding" : ""}`,
        "data-column": i },
      h("div", { class: "column-head" }, `Column ${i + 1}`, column.hidden ? h("span", { class: "muted" }, ` · ${column.hidden} under a Baby`) : null),
      h("div", { class: "column-cards" }, column.cards.map((id, at) => tile(h, id, {},
        `${at === column.jungle_at ? "sideways" : ""}${last && last.type === "play" && last.column === i && at === column.cards.length - 1 ? " last-play" : ""}`))),
      column.request ? h("div", { class: "column-request" }, "Dudab asks for ", requestBadge(h, column.request)) : null);
      // A lit column takes a tap; keyboards and screen readers use the "Play on column" buttons below.
      if (place) node.addEventListener("click", () => { selected = null; act(place); });
      else if (here.length) node.addEventListener("click", () => choose(here, act, redraw));
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

  // The last round end, staged when it is new (or, on a fresh page, when the next round has only just
  // been dealt); at the end of the game it stays.
  let latestRedraw = () => {};

  function stagedRoundEnd(view, redraw) {
    latestRedraw = redraw;
    const index = view.history.map((e) => e.type).lastIndexOf("round_end");
    if (index < 0) return null;
    if (index !== seenRoundEnd) {
      const fresh = view.history.slice(index + 1).every((e) => e.type === "round");
      if (seenRoundEnd !== null || fresh) roundEndUntil = Date.now() + ROUND_END_MS;
      seenRoundEnd = index;
      setTimeout(() => latestRedraw(), ROUND_END_MS + 50); // the table as it is then, not as it was
    }
    return Date.now() < roundEndUntil || view.is_over ? view.history[index] : null;
  }

  function roundEndPanel(h, event, view, name) {
    const { tile } = window.DudabCards;
    const cards = (ids, label) => ids.length ? h("span", { class: "round-end-cards" }, h("span", { class: "muted" }, label),
      h("span", { class: "hand small" }, ids.map((id) => tile(h, id, {}, "small")))) : null;
    const before = view.round_scores.slice(0, event.round);
    return h("section", { class: "reveal staged round-end", id: "dudab-round-end", "aria-live": "assertive" },
      h("p", { class: "reveal-title" }, `Round ${event.round} is over: hands and own piles score (fewest points wins)`),
      h("div", { class: "round-end-rows" }, event.scores.map((score, n) => h("div", { class: "round-end-row", "data-seat": n },
        h("span", { class: "cup-name" }, name(n)),
        cards(event.hands[n], "Hand"), cards(event.own[n], "Own pile"),
        event.hands[n].length + event.own[n].length ? null : h("span", { class: "muted" }, "no cards"),
        h("span", { class: "round-end-points" }, h("strong", {}, `${score} point${score === 1 ? "" : "s"}`),
          ` · total ${before.reduce((sum, scores) => sum + scores[n], 0)}`)))));
  }

  // "This round": what your own hand and pile would score if the round ended now; the others' stay
  // hidden until the round's end, as their cards do.
  // Once the game is over only the rounds and the totals count: the hand and own pile columns go,
  // and the table fits a phone (with many rounds it scrolls inside its box, never the page).
  function scoresTable(h, view, name, finished) {
    const rounds = view.round_scores || [];
    const over = view.is_over || finished;
    const now = (n) => n === view.seat && view.round_points != null
      ? `${view.round_points} point${view.round_points === 1 ? "" : "s"}`
      : h("span", { class: "muted", title: "Hidden until the round ends" }, "hidden");
    return h("div", { class: "dudab-scores-box" }, h("table", { class: "list dudab-scores", id: "dudab-scores" },
      h("caption", { class: "muted" }, `Round ${view.round} of ${view.rounds} · fewest points wins`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"),
        over ? null : [h("th", { scope: "col" }, "Hand"), h("th", { scope: "col" }, "Own pile"), h("th", { scope: "col" }, "This round")],
        rounds.map((_, r) => h("th", { scope: "col" }, `Round ${r + 1}`)), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, view.hand_counts.map((count, n) => h("tr", { class: !over && (view.to_act || []).includes(n) ? "to-act" : n === view.seat ? "me" : "" },
        h("th", { scope: "row" }, name(n)),
        over ? null : [h("td", {}, count), h("td", {}, view.own_counts[n]), h("td", { class: "round-now" }, now(n))],
        rounds.map((scores) => h("td", {}, scores[n])), h("td", {}, h("strong", {}, view.totals[n])))))));
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
    area.append(h("div", { class: "dudab-piles" },
      h("p", { class: "table-status" },
        h("span", { class: "chip" }, `Round ${view.round} of ${view.rounds}`),
        h("span", { class: "chip" }, `${view.deck_count} cards to draw`),
        ctx.finished ? h("span", { class: "chip strong" }, `The game is over${ctx.endedBy ? `: ${ctx.endedBy}` : ""}`)
          : (view.to_act || []).length ? h("span", { class: "chip strong" }, `${name(view.to_act[0])} to ${task ? TASKS[task.kind] : "play"}`) : null),
      view.discard_top ? h("div", { class: "dudab-discard", id: "dudab-discard" },
        h("span", { class: "muted" }, `Discard pile · ${view.discard_count}`), tile(h, view.discard_top, {}, "small")) : null));
    const roundEnd = stagedRoundEnd(view, redraw);
    if (roundEnd) area.append(roundEndPanel(h, roundEnd, view, name));
    if (view.request) {
      area.append(h("p", { class: "request-banner", id: "dudab-request" }, h("strong", {}, "Open request: "),
        `the Dudab on column ${view.request.column + 1} asks everyone for `, requestBadge(h, view.request.request)));
    }
    if (view.shaman_pending) area.append(h("p", { class: "request-banner shaman" }, h("strong", {}, "A Shaman was played: "),
      `${name(view.to_act[0])} must answer with a Shaman or a Dudab, or take the penalty.`));
    if (task && task.card) area.append(h("p", { class: "request-banner" }, `${name(task.seat)} drew `, tile(h, task.card, {}, "small"), ` and must ${TASKS[task.kind]}.`));

    const places = actions.filter((a) => (a.type === "jungle" || a.type === "baby") && a.column != null);
    area.append(columnsView(h, view, plays, places, act, redraw));
    area.append(scoresTable(h, view, name, ctx.finished));
    if (seat == null || !view.hand || ctx.finished) return;  // a finished game has no hand to play

    const dock = h("div", { class: "dock" });
    const giveUps = actions.filter((a) => a.type === "trim" || a.type === "discard_down");
    const need = giveUps.length ? giveUps[0].cards.length : 0;
    const pickKey = `${giveUps.length ? giveUps[0].type : ""}:${view.hand.join()}`;
    if (pickedFor !== pickKey) { picked = []; pickedFor = pickKey; }
    const prompt = ctx.replay || ctx.out ? "" : need ? giveUpPrompt(giveUps[0].type, need)
      : selected && pendingColumn != null ? `What does your Dudab on column ${pendingColumn + 1} ask for?`
      : selected ? `Now pick a lit column for the ${describe(selected)}` : plays.length ? "Pick a card to play, or choose below" : actions.length ? "Choose your move" : "Wait for your turn";
    dock.append(h("p", { class: "dock-prompt", "aria-live": "polite" }, prompt));
    dock.append(h("div", { class: `hand${actions.length ? "" : " waiting"}`, id: "my-hand", role: "group", "aria-label": "Your hand" }, view.hand.map((id, at) => {
      if (ctx.out) return tile(h, id, {});  // out of the game (resigned): the hand is pictures, not buttons
      if (need) {
        const on = picked.includes(at);
        return tile(h, id, {
          "data-at": at, "aria-pressed": on ? "true" : "false",
          onclick: () => { picked = on ? picked.filter((p) => p !== at) : [...picked, at].slice(-need); redraw(); },
        });
      }
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
        h("span", { class: "visually-hidden" }, "Ask for "), requestBadge(h, action.request)));
      }
    } else if (selected) {
      const columns = [...new Set(plays.filter((a) => a.card === selected).map((a) => a.column))];
      for (const column of columns) {
        const options = plays.filter((a) => a.card === selected && a.column === column);
        buttons.push(h("button", { class: "button", type: "button", "data-action": "play", "data-column": column,
          onclick: () => choose(options, act, redraw) }, `Play on column ${column + 1}`));
      }
    }
    if (need) buttons.push(...giveUpButtons(h, giveUps, view.hand, act));
    for (const action of actions.filter((a) => a.type !== "play" && !giveUps.includes(a)).slice(0, 30)) {
      buttons.push(h("button", { class: "button secondary", type: "button", "data-action": action.type,
        "data-choice": JSON.stringify(action), onclick: () => { selected = null; act(action); } }, actionText(action)));
    }
    if (buttons.length) dock.append(h("div", { class: `controls${pendingColumn != null ? " dudab-requests" : ""}`, id: "dudab-choices" }, buttons));
    area.append(dock);
  }

  function giveUpPrompt(type, need) {
    const cards = `${need} card${need === 1 ? "" : "s"}`;
    return type === "trim" ? `Tap ${cards} to put on your own pile: a hand holds five at most`
      : `Tap ${cards} to give up: you keep two`;
  }

  // Confirm buttons for the picked cards, each the legal action with exactly those cards.
  function giveUpButtons(h, giveUps, hand, act) {
    const chosen = picked.map((at) => hand[at]).sort().join();
    const find = (to) => giveUps.find((a) => (a.to || null) === to && [...a.cards].sort().join() === chosen);
    const targets = giveUps[0].type === "trim" ? [[null, "Put them on my own pile"]]
      : [["discard", "Discard them"], ["own", "Put them on my own pile"]];
    return targets.map(([to, label]) => {
      const action = picked.length === giveUps[0].cards.length ? find(to) : null;
      return h("button", { class: "button", type: "button", "data-action": giveUps[0].type, "data-to": to || "own",
        disabled: !action, onclick: () => { picked = []; act(action); } }, label);
    });
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
