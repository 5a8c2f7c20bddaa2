// Dubito: every player's tableau of four rows, each with its rule and points; pick a card from
// your hand, and the rows that take it light up (click, Enter or drop it there).
"use strict";

(function () {
  const POINTS = [1, 2, 3, 4];
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
        h("div", { class: "row-rule" }, h("strong", {}, `Row ${number} · ${cards.length * POINTS[i]} pts`), h("span", {}, names[i]),
          h("span", { class: "row-points" }, `${POINTS[i]} pt per card`)),
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
    area.append(h("p", { class: "table-status" },
      h("span", { class: "chip" }, `${view.pile} cards to draw`),
      view.turn != null ? h("span", { class: "chip strong" }, `${name(view.turn)} to play`) : null,
      last ? h("span", { class: "chip last-play-chip" }, `Last: ${name(last.seat)} put the ${label(last.card)} on row ${last.row}`) : null));

    if (seat != null && view.hand) {
      const options = (c) => (legal || []).filter((a) => a.card === c).map((a) => a.row);
      if (chosen && !options(chosen).length) chosen = null;
      const mine = tableau(h, view, seat, chosen ? options(chosen) : null);
      for (const row of mine.querySelectorAll(".droppable")) {
        row.tabIndex = 0;
        row.setAttribute("role", "button");
        row.setAttribute("aria-label", `Put the ${label(chosen)} on row ${row.dataset.row}`);
        const go = () => { act({ type: "play", card: chosen, row: Number(row.dataset.row) }); chosen = null; };
        row.addEventListener("click", go);
        row.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
        row.addEventListener("dragover", (e) => e.preventDefault());
        row.addEventListener("drop", (e) => { e.preventDefault(); go(); });
      }
      area.append(h("section", { class: "player-tableau me" },
        h("h3", {}, `Your rows — ${view.scores[seat]} points`), mine));
      const prompt = chosen ? `Now pick a lit row for the ${label(chosen)}` : legal && legal.length ? "Pick a card, then a row" : "Wait for your turn";
      area.append(h("div", { class: "dock" }, h("p", { class: "dock-prompt", "aria-live": "polite" }, prompt),
        h("div", { class: `hand${legal.length ? "" : " waiting"}`, id: "my-hand", role: "group", "aria-label": "Your hand" }, view.hand.map((c) => {
          const playable = options(c).length > 0;
          return card(h, c, {
            draggable: playable ? "true" : "false", "aria-pressed": chosen === c ? "true" : "false",
            disabled: !playable, onclick: () => { chosen = chosen === c ? null : c; redraw(); focusFirst(area, ".droppable"); },
            ondragstart: () => { chosen = c; },
          });
        }))));
    }
    view.rows.forEach((rows, n) => {
      if (n === seat) return;
      area.append(h("section", { class: `player-tableau${(view.to_act || []).includes(n) ? " to-act" : ""}${view.out.includes(n) ? " out" : ""}` },
        h("h3", {}, name(n), h("span", { class: "muted small" },
          ` — ${view.scores[n]} points · ${view.hand_counts[n]} in hand${view.out.includes(n) ? " · out" : ""}`)),
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
    if (event.type === "out") return `${name(event.seat)} cannot play and is out with ${event.score} points`;
    if (event.type === "end") return `Game over: ${event.reason}`;
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dubito = { render, describe, scoreName: "points" };
})();
