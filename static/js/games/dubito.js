// Dubito: every player's tableau of four rows, each with its rule and points; pick a card from
// your hand, and the rows that take it light up (click, Enter or drop it there).
"use strict";

(function () {
  const POINTS = [1, 2, 3, 4];
  const pts = (n) => `${n} ${n === 1 ? "pt" : "pts"}`;
  const points = (n) => `${n} point${n === 1 ? "" : "s"}`;
  let chosen = null;

  function rules(options) {
    const rising = options && options.ascending === "equal" ? "rising or equal ranks" : "rising ranks";
    return [rising, "one suit", `one suit, ${rising}`, "one rank"];
  }

  function lastPlay(view) {
    return [...view.history].reverse().find((e) => e.type === "play") || null;
  }

  function tableau(h, view, n, highlight) {
    const { card } = window.DubiumCards;
    const last = lastPlay(view);
    const names = rules(view.options);
    return h("div", { class: "tableau", "data-seat": n }, view.rows[n].map((cards, i) => {
      const number = i + 1;
      const isLast = last && last.seat === n && last.row === number;
      return h("div", { class: `dubito-row${highlight && highlight.includes(number) ? " droppable" : ""}`, "data-row": number },
        h("div", { class: "row-rule" }, h("strong", {}, `Row ${number} · ${pts(cards.length * POINTS[i])}`), h("span", {}, names[i]),
          h("span", { class: "row-points" }, `${pts(POINTS[i])} per card`)),
        h("div", { class: "row-cards" }, cards.length
          ? cards.map((code, at) => card(h, code, {}, at === cards.length - 1 && isLast ? "last-play" : ""))
          : h("span", { class: "row-empty" }, "any card starts it")));
    }));
  }

  function render(area, view, ctx) {
    const { h, act, seat } = ctx;
    const legal = ctx.legal || [];
    const { card, label } = window.DubiumCards;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const redraw = ctx.redraw || (() => { area.replaceChildren(); render(area, view, ctx); });
    const last = lastPlay(view);
    const toAct = ctx.finished ? [] : view.to_act || [];
    area.append(h("p", { class: "table-status" },
      h("span", { class: "chip" }, `${view.pile} cards to draw`),
      toAct.length ? h("span", { class: "chip strong" }, `${name(toAct[0])} to play`) : null,
      last ? h("span", { class: "chip last-play-chip" }, `Last: ${name(last.seat)} put the ${label(last.card)} on row ${last.row}`) : null));

    if (seat != null && view.hand) {
      const options = (c) => (legal || []).filter((a) => a.card === c).map((a) => a.row);
      if (chosen && !options(chosen).length) chosen = null;
      const mine = tableau(h, view, seat, chosen ? options(chosen) : null);
      // A replay prompts nobody; live, the "to play" chip above already names who is playing.
      const prompt = h("p", { class: "dock-prompt", id: "hand-prompt", "aria-live": "polite" }, ctx.replay ? ""
        : ctx.finished ? `The game is over${ctx.endedBy ? `: ${ctx.endedBy}` : ""}.`
        : ctx.out ? "" : chosen ? `Now pick a lit row for the ${label(chosen)}` : legal.length ? "Pick a card, then a row"
          : view.out.includes(seat) ? "You are out: no card of yours fits a row. Your points stand."
            : "Wait for your turn.");
      // A row that is not lit says why: the server's refusal names the rule the card breaks.
      for (const row of mine.querySelectorAll(".dubito-row:not(.droppable)")) {
        row.addEventListener("click", () => {
          if (chosen) act({ type: "play", card: chosen, row: Number(row.dataset.row) });
          else if (legal.length) prompt.textContent = "Pick a card from your hand first: the rows that take it light up.";
        });
      }
      for (const row of mine.querySelectorAll(".droppable")) {
        row.tabIndex = 0;
        row.setAttribute("role", "button");
        row.setAttribute("aria-describedby", "hand-prompt");  // named by what it shows: its number, rule and cards
        const go = () => { act({ type: "play", card: chosen, row: Number(row.dataset.row) }); chosen = null; };
        row.addEventListener("click", go);
        row.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
        row.addEventListener("dragover", (e) => e.preventDefault());
        row.addEventListener("drop", (e) => { e.preventDefault(); go(); });
      }
      area.append(h("section", { class: "player-tableau me" },
        h("h3", {}, `Your rows — ${points(view.scores[seat])}`), mine));
      area.append(h("div", { class: "dock" }, prompt,
        h("div", { class: `hand${legal.length ? "" : " waiting"}`, id: "my-hand", role: "group", "aria-label": "Your hand" }, view.hand.map((c) => {
          const playable = options(c).length > 0;
          // Once the game is over, or the player is out of it, the hand is pictures, not buttons.
          if (ctx.finished || ctx.out) return card(h, c, {});
          return card(h, c, {
            draggable: playable ? "true" : "false", "aria-pressed": chosen === c ? "true" : "false",
            disabled: !playable, onclick: () => { chosen = chosen === c ? null : c; redraw(); focusFirst(area, ".droppable"); },
            ondragstart: () => { chosen = c; },
          });
        }))));
    }
    view.rows.forEach((rows, n) => {
      if (n === seat) return;
      area.append(h("section", { class: `player-tableau${toAct.includes(n) ? " to-act" : ""}${view.out.includes(n) ? " out" : ""}` },
        h("h3", {}, name(n), h("span", { class: "muted small" },
          ` — ${points(view.scores[n])} · ${view.hand_counts[n]} in hand${view.out.includes(n) ? " · out" : ""}`)),
        tableau(h, view, n, null)));
    });
  }

  // After a card is picked, the keyboard goes on to the first row that takes it.
  function focusFirst(area, selector) {
    const target = area.querySelector(selector);
    if (target) target.focus();
  }

  function describe(event, name) {
    const { label } = window.DubiumCards;
    if (event.type === "play") return `${name(event.seat)} puts the ${label(event.card)} on row ${event.row}`;
    if (event.type === "out") return `${name(event.seat)} cannot play and is out with ${points(event.score)}`;
    if (event.type === "end") return `Game over: ${event.reason}`;
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dubito = { render, describe, scoreName: "points" };
})();
