// Dubito: your four rows and hand; pick a card, then a row (only rows that take it are offered).
"use strict";

(function () {
  const RULES = ["ascending ranks", "one suit", "one suit, ascending", "one rank"];
  let chosen = null;

  function rowsOf(h, rows, card, highlight) {
    return h("div", { class: "dubito-rows" }, rows.map((cards, i) => h("div", {
      class: `dubito-row${highlight && highlight.includes(i + 1) ? " droppable" : ""}`, "data-row": i + 1 },
      h("span", { class: "muted" }, `Row ${i + 1} (${RULES[i]}, ${i + 1} pt): `),
      h("span", { class: "row-cards" }, cards.map((c) => card(h, c))))));
  }

  function render(area, view, ctx) {
    const { h, act, seat, legal } = ctx;
    const { card } = window.DubiumCards;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    area.append(h("p", {}, `${view.pile} cards to draw`, view.turn != null ? ` — ${name(view.turn)} to play` : ""));
    if (seat != null && view.hand) {
      const options = (c) => legal.filter((a) => a.card === c).map((a) => a.row);
      if (chosen && !options(chosen).length) chosen = null;
      const mine = rowsOf(h, view.rows[seat], card, chosen ? options(chosen) : null);
      for (const row of mine.querySelectorAll(".droppable")) {
        row.tabIndex = 0;
        row.setAttribute("role", "button");
        row.setAttribute("aria-label", `Play ${chosen} on row ${row.dataset.row}`);
        const go = () => { act({ type: "play", card: chosen, row: Number(row.dataset.row) }); chosen = null; };
        row.addEventListener("click", go);
        row.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
        row.addEventListener("dragover", (e) => e.preventDefault());
        row.addEventListener("drop", (e) => { e.preventDefault(); go(); });
      }
      area.append(h("h3", {}, `Your rows — ${view.scores[seat]} points`), mine);
      area.append(h("h3", {}, "Your hand"), h("div", { class: "hand", id: "my-hand" }, view.hand.map((c) => {
        const playable = options(c).length > 0;
        return card(h, c, {
          "data-card": c, draggable: playable ? "true" : "false", "aria-pressed": chosen === c ? "true" : "false",
          disabled: !playable, onclick: playable ? () => { chosen = c; rerender(); } : null,
          ondragstart: () => { chosen = c; },
        });
      })));
      const rerender = () => { area.replaceChildren(); render(area, view, ctx); };
    }
    area.append(h("h3", {}, "Everyone's rows"));
    view.rows.forEach((rows, n) => {
      if (n === seat) return;
      area.append(h("div", { class: "opponent" }, h("strong", {}, `${name(n)} — ${view.scores[n]} points${view.out.includes(n) ? " (out)" : ""}, ${view.hand_counts[n]} in hand`),
        rowsOf(h, rows, card, null)));
    });
  }

  function describe(event, name) {
    if (event.type === "play") return `${name(event.seat)} puts ${event.card} on row ${event.row}`;
    if (event.type === "out") return `${name(event.seat)} cannot play: out with ${event.score} points`;
    if (event.type === "end") return `Game over: ${event.reason}`;
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dubito = { render, describe, scoreName: "points" };
})();
