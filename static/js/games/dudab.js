// Dudab Buba: columns, your hand and own pile, the binding request, Shaman answers, follow-ups.
// Every button is one of the legal actions the server sent, so nothing illegal is offered.
"use strict";

(function () {
  const COLOURS = { R: "red", B: "blue", Y: "yellow", G: "green" };
  let selected = null;

  function cardTile(h, id, attrs = {}) {
    const parts = id.split("-");
    let text = id;
    let colour = "";
    if (COLOURS[parts[0]]) { colour = COLOURS[parts[0]]; text = `${parts[2]} ${parts[1]}`; }
    else if (parts[0] === "shaman") { colour = COLOURS[parts[1]]; text = "Shaman"; }
    else text = parts[0][0].toUpperCase() + parts[0].slice(1);
    const tag = attrs.onclick ? "button" : "span";
    return h(tag, { class: `dudab-card ${colour} ${parts[0]}`, title: id, "data-card": id, type: tag === "button" ? "button" : null, ...attrs }, text);
  }

  function requestText(request) {
    if (!request) return "";
    if (request.colour) return COLOURS[request.colour];
    if (request.symbol) return request.symbol;
    return `value ${request.value}`;
  }

  function actionText(action) {
    switch (action.type) {
      case "play": return `Column ${action.column + 1}${action.request ? `, ask for ${requestText(action.request)}` : ""}`;
      case "draw": return action.own ? `Draw, giving up ${action.own}` : "Draw a card";
      case "reveal": return "Take the Shaman penalty";
      case "jungle": return `Jungle on column ${action.column + 1}`;
      case "baby": return `Baby on column ${action.column + 1}`;
      case "trim": return `Keep all but ${action.cards.join(", ")}`;
      case "discard_down": return `${action.cards.join(", ")} to ${action.to === "own" ? "your own pile" : "the discard pile"}`;
      default: return action.type;
    }
  }

  function render(area, view, ctx) {
    const { h, act, seat, legal } = ctx;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    area.append(h("p", {}, `Round ${view.round} of ${view.rounds} · ${view.deck_count} cards to draw`,
      view.request ? h("strong", {}, ` · Dudab asks for ${requestText(view.request.request)} (column ${view.request.column + 1})`) : "",
      view.shaman_pending ? h("strong", {}, " · A Shaman waits for an answer") : ""));
    area.append(h("div", { class: "dudab-columns" }, view.columns.map((column, i) => h("div", { class: "dudab-column", "data-column": i },
      h("div", { class: "muted" }, `Column ${i + 1}${column.hidden ? ` (+${column.hidden} under a Baby)` : ""}`),
      column.cards.map((id, at) => cardTile(h, id, at === column.jungle_at ? { class: "dudab-card jungle sideways" } : {}))))));
    area.append(h("table", { class: "list dudab-scores" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Hand"), h("th", {}, "Own pile"), h("th", {}, "Total"))),
      h("tbody", {}, view.hand_counts.map((count, n) => h("tr", {}, h("td", {}, name(n)), h("td", {}, count),
        h("td", {}, view.own_counts[n]), h("td", {}, view.totals[n]))))));
    if (seat == null || !view.hand) return;
    const plays = (legal || []).filter((a) => a.type === "play");
    if (selected && !view.hand.includes(selected)) selected = null;
    area.append(h("h3", {}, "Your hand"), h("div", { class: "hand", id: "my-hand" }, view.hand.map((id) =>
      cardTile(h, id, { onclick: () => { selected = id; rerender(); }, "aria-pressed": selected === id ? "true" : "false",
        disabled: !plays.some((a) => a.card === id) }))));
    if (view.own && view.own.length) area.append(h("p", { class: "muted" }, `Your own pile: ${view.own.join(", ")}`));
    const choices = (legal || []).filter((a) => a.type !== "play" || a.card === selected);
    if (choices.length) {
      area.append(h("div", { class: "controls", id: "dudab-choices" }, choices.slice(0, 40).map((action) =>
        h("button", { class: `button${action.type === "play" ? "" : " secondary"}`, type: "button", "data-action": action.type,
          onclick: () => { selected = null; act(action); } }, actionText(action)))));
    }
    const rerender = () => { area.replaceChildren(); render(area, view, ctx); };
  }

  function describe(event, name) {
    switch (event.type) {
      case "round": return `Round ${event.round}: ${name(event.starter)} starts`;
      case "play": return `${name(event.seat)} plays ${event.card} on column ${event.column + 1}` +
        (event.request ? `, asking for ${requestText(event.request)}` : "") + (event.collected ? ` and collects ${event.collected}` : "");
      case "draw": return `${name(event.seat)} draws${event.shown ? ` (showing ${event.shown.join(", ")})` : ""}${event.special ? ` a ${event.special}` : ""}`;
      case "reveal": return `${name(event.seat)} reveals ${event.revealed.join(", ")} and draws ${event.draws}`;
      case "round_end": return `Round ${event.round} scores: ${event.scores.join(", ")}`;
      default: return `${name(event.seat)}: ${event.type}`;
    }
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dudab = { render, describe, scoreName: "total" };
})();
