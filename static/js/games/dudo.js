// Dudo: your dice, everyone's dice counts, a bid picker that offers only legal bids, doubt.
"use strict";

(function () {
  const FACE = ["", "ones", "twos", "threes", "fours", "fives", "sixes"];

  function render(area, view, ctx) {
    const { h, act, seat, legal } = ctx;
    const { die } = window.DubiumCards;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const bid = view.bid;
    area.append(h("p", { class: "dudo-status" },
      `Round ${view.round}`, view.palifico ? " — one-die round: only single-die players may change the face" : "",
      view.ones_wild ? " — ones are wild" : " — ones are not wild"));
    area.append(h("p", { class: "current-bid", "aria-live": "polite" },
      bid ? `${name(bid.seat)} bids ${bid.quantity} ${FACE[bid.face]}` : "No bid yet: the starter opens."));

    const last = [...view.history].reverse().find((e) => e.type === "doubt");
    if (last && !bid) {  // the dice of the last doubt stay shown until the next opening bid
      area.append(h("div", { class: "reveal" },
        h("p", {}, `${name(last.seat)} doubted ${last.quantity} ${FACE[last.face]}: ${last.count} found — ${name(last.loser)} loses a die.`),
        ...last.dice.map((dice, n) => h("div", {}, h("span", { class: "muted" }, `${name(n)}: `), ...dice.map((d) => die(h, d))))));
    }

    area.append(h("div", { class: "opponents" }, view.dice_counts.map((count, n) => h("div", { class: "opponent" },
      h("strong", {}, name(n)), view.out.includes(n) ? " (out)" : ` — ${count} ${count === 1 ? "die" : "dice"}`,
      h("div", {}, n === seat && view.dice ? view.dice.map((d) => die(h, d)) : Array.from({ length: count }, () => h("span", { class: "die hidden", "aria-hidden": "true" }, "?")))))));

    if (seat == null || !legal || !legal.length) return;
    const bids = legal.filter((a) => a.type === "bid");
    const quantities = [...new Set(bids.map((b) => b.quantity))];
    const qSelect = h("select", { id: "dudo-quantity", "aria-label": "Quantity" }, quantities.map((q) => h("option", { value: q }, q)));
    const fSelect = h("select", { id: "dudo-face", "aria-label": "Face" });
    const refreshFaces = () => {
      const q = Number(qSelect.value);
      fSelect.replaceChildren(...bids.filter((b) => b.quantity === q).map((b) => h("option", { value: b.face }, FACE[b.face])));
    };
    qSelect.addEventListener("change", refreshFaces);
    refreshFaces();
    const controls = h("form", { class: "controls", id: "dudo-controls" },
      h("label", {}, "Bid ", qSelect), h("label", {}, " ", fSelect),
      h("button", { class: "button", type: "submit", id: "dudo-bid", "data-key": "b", "aria-keyshortcuts": "B" }, "Bid (B)"),
      legal.some((a) => a.type === "doubt") ? h("button", { class: "button danger", type: "button", id: "dudo-doubt",
        "data-key": "d", "aria-keyshortcuts": "D", onclick: () => act({ type: "doubt" }) }, "Dudo! (D)") : null);
    controls.addEventListener("submit", (event) => {
      event.preventDefault();
      act({ type: "bid", quantity: Number(qSelect.value), face: Number(fSelect.value) });
    });
    area.append(controls);
  }

  function describe(event, name) {
    if (event.type === "round") return `Round ${event.round}${event.palifico ? " (one-die round)" : ""}: ${name(event.starter)} starts`;
    if (event.type === "bid") return `${name(event.seat)}: ${event.quantity} ${FACE[event.face]}`;
    if (event.type === "doubt") return `${name(event.seat)} doubts ${event.quantity} ${FACE[event.face]}: ${event.count} found, ${name(event.loser)} loses a die`;
    if (event.type === "out") return `${name(event.seat)} is out`;
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dudo = { render, describe, scoreName: "dice left" };
})();
