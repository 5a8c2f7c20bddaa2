// Dudo: every player's cup (your dice face up, the others' hidden), the standing bid, a bid picker
// that offers only legal bids, and the doubt staged on the table: every die turns face up for a
// few seconds with the count, the verdict and who loses a die.
"use strict";

(function () {
  const PLURAL = ["", "ones", "twos", "threes", "fours", "fives", "sixes"];
  const SINGULAR = ["", "one", "two", "three", "four", "five", "six"];
  const REVEAL_MS = 5000;
  let seenDoubt = null; // index in the history of the last doubt already staged
  let revealUntil = 0;
  let chosenFace = null;
  let chosenQuantity = null;

  const spell = (quantity, face) => `${quantity} ${quantity === 1 ? SINGULAR[face] : PLURAL[face]}`;

  function bidPicture(h, bid) {
    const { die } = window.DubiumCards;
    return h("span", { class: "bid-picture", "aria-hidden": "true" }, h("span", { class: "bid-quantity" }, bid.quantity), "×", die(h, bid.face));
  }

  // The last doubt, staged when it is new (or, on a fresh page, when no bid has followed it yet).
  // The reveal ends with a redraw of the latest state: the one that staged it may be long gone
  // (the game ended, or others moved meanwhile), and its redraw would be refused as stale.
  let latestRedraw = () => {};

  // A replay (`newFrom`: where the step's own entries start) shows the doubt on its own step, no timer.
  function stagedDoubt(view, redraw, newFrom) {
    if (redraw) latestRedraw = redraw;
    const index = view.history.map((e) => e.type).lastIndexOf("doubt");
    if (index < 0) return null;
    if (newFrom == null && index !== seenDoubt) {
      const current = !view.bid;
      if (seenDoubt !== null || current) revealUntil = Date.now() + REVEAL_MS;
      seenDoubt = index;
      if (redraw) setTimeout(() => latestRedraw(), REVEAL_MS + 50); // the table as it is then, not as it was
    }
    const event = view.history[index];
    const round = view.history.slice(0, index).reverse().find((e) => e.type === "round");
    const live = newFrom == null ? Date.now() < revealUntil : index >= newFrom;
    return { event, onesWild: round ? round.ones_wild : true, live };
  }

  function revealPanel(h, doubt, name) {
    const { die } = window.DubiumCards;
    const { event, onesWild } = doubt;
    const counts = (d) => d === event.face || (onesWild && event.face !== 1 && d === 1);
    const bluff = event.count < event.quantity;
    return h("section", { class: `reveal staged ${bluff ? "bluff" : "honest"}`, id: "dudo-reveal", "aria-live": "assertive" },
      h("p", { class: "reveal-title" }, `${name(event.seat)} doubts ${name(event.bidder)}'s ${spell(event.quantity, event.face)}`),
      h("div", { class: "reveal-cups" }, event.dice.map((dice, n) => dice.length ? h("div", { class: "reveal-cup" },
        h("span", { class: "cup-name" }, name(n)),
        h("span", { class: "dice-row" }, dice.map((d) => die(h, d, {}, `flip${counts(d) ? " counts" : ""}`))))
        : null)),
      h("p", { class: "verdict" },
        h("strong", { class: "verdict-word" }, bluff ? "Bluff!" : "Honest"),
        ` ${spell(event.count, event.face)} found${onesWild && event.face !== 1 ? " (ones wild)" : ""}. `,
        h("strong", {}, `${name(event.loser)} loses a die.`)));
  }

  // What the bid line says when no bid stands: how the last round ended, and who opens the next
  // one (nobody, once the match is over; why it is, when a player left or resigned).
  function standing(doubt, finished, toAct, name, endedBy) {
    const last = doubt && !doubt.live ? `Last round: ${name(doubt.event.loser)} lost a die ` +
      `(${spell(doubt.event.count, doubt.event.face)} found for a bid of ${doubt.event.quantity}).` : "";
    if (finished && endedBy) return `The game is over: ${endedBy}.`;
    if (finished) return `The game is over. ${last}`.trim();
    if (last) return `${last} ${name(toAct[0])} opens.`;
    return `No bid yet: ${toAct.length ? name(toAct[0]) : "the starter"} opens the round.`;
  }

  function render(area, view, ctx) {
    const { h, act, seat } = ctx;
    const legal = ctx.legal || [];
    const { die } = window.DubiumCards;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const redraw = ctx.redraw || (() => { area.replaceChildren(); render(area, view, ctx); });
    const bid = view.bid;
    const toAct = ctx.finished ? [] : view.to_act || [];

    area.append(h("p", { class: "table-status dudo-status" },
      h("span", { class: "chip" }, `Round ${view.round}`),
      h("span", { class: "chip" }, `${view.total_dice} ${view.total_dice === 1 ? "die" : "dice"} on the table`),
      h("span", { class: `chip${view.ones_wild ? " wild" : ""}` }, view.ones_wild ? "Ones are wild" : "Ones are not wild"),
      view.palifico ? h("span", { class: "chip warn" }, "One-die round: only players with one die may change the face") : null));

    const doubt = stagedDoubt(view, redraw, ctx.newFrom);
    area.append(h("div", { class: "current-bid", "aria-live": "polite", id: "dudo-bid-shown" }, bid && !ctx.finished
      ? [h("span", { class: "muted" }, `${name(bid.seat)} bids`), bidPicture(h, bid), h("span", { class: "visually-hidden" }, spell(bid.quantity, bid.face))]
      : h("span", { class: "muted" }, standing(doubt, ctx.finished, toAct, name, ctx.endedBy))));
    // Under the live bid, in the flow of the table: the bid and the controls are never under it.
    if (doubt && doubt.live) area.append(revealPanel(h, doubt, name));

    area.append(h("div", { class: "cups" }, view.dice_counts.map((count, n) => {
      const out = view.out.includes(n);
      const mine = n === seat && view.dice;
      return h("div", { class: `cup${out ? " out" : ""}${toAct.includes(n) ? " to-act" : ""}${bid && bid.seat === n ? " bidder" : ""}${n === seat ? " me" : ""}`,
        "data-seat": n },
      h("div", { class: "cup-head" }, h("strong", {}, n === seat ? `${name(n)} (you)` : name(n)),
        h("span", { class: "muted" }, out ? "out" : `${count} ${count === 1 ? "die" : "dice"}`)),
      h("div", { class: "dice-row" }, mine ? view.dice.map((d) => die(h, d)) : Array.from({ length: count }, () => die(h, 0))),
      bid && bid.seat === n ? h("div", { class: "cup-bid" }, "bid ", spell(bid.quantity, bid.face)) : null);
    })));

    if (seat == null || !legal || !legal.length) return;
    const bids = legal.filter((a) => a.type === "bid");
    const controls = h("form", { class: "controls dock", id: "dudo-controls", "aria-label": "Your bid" });
    if (bids.length) {
      const quantities = [...new Set(bids.map((b) => b.quantity))].sort((a, b) => a - b);
      const qSelect = h("select", { id: "dudo-quantity", "aria-label": "How many dice" }, quantities.map((q) => h("option", { value: q }, q)));
      if (quantities.includes(chosenQuantity)) qSelect.value = String(chosenQuantity);
      const faces = h("div", { class: "face-picker", role: "group", "aria-label": "Face" });
      const drawFaces = () => {
        const q = Number(qSelect.value);
        const allowed = bids.filter((b) => b.quantity === q).map((b) => b.face);
        if (!allowed.includes(chosenFace)) chosenFace = allowed[0];
        faces.replaceChildren(...[1, 2, 3, 4, 5, 6].map((f) => h("button", {
          type: "button", class: "face-button", "data-choice": `face-${f}`, "aria-pressed": f === chosenFace ? "true" : "false",
          "aria-label": PLURAL[f], disabled: !allowed.includes(f),
          onclick: () => { chosenFace = f; drawFaces(); faces.querySelector(`[data-choice="face-${f}"]`).focus(); },
        }, die(h, f, { "aria-hidden": "true", role: null }))));
      };
      qSelect.addEventListener("change", () => { chosenQuantity = Number(qSelect.value); drawFaces(); });
      drawFaces();
      controls.append(h("label", { class: "quantity" }, "Bid ", qSelect, " ×"), faces,
        h("button", { class: "button", type: "submit", id: "dudo-bid", "data-key": "b", "aria-keyshortcuts": "B" }, "Bid (B)"));
      controls.addEventListener("submit", (event) => {
        event.preventDefault();
        act({ type: "bid", quantity: Number(qSelect.value), face: chosenFace });
      });
    } else {
      controls.addEventListener("submit", (event) => event.preventDefault());
    }
    if (legal.some((a) => a.type === "doubt")) {
      controls.append(h("button", { class: "button danger", type: "button", id: "dudo-doubt", "data-key": "d", "aria-keyshortcuts": "D",
        onclick: () => act({ type: "doubt" }) }, "Dudo! (D)"));
    }
    area.append(controls);
  }

  function describe(event, name) {
    if (event.type === "round") return `Round ${event.round}${event.palifico ? " (one-die round)" : ""}: ${name(event.starter)} starts`;
    if (event.type === "bid") return `${name(event.seat)} bids ${spell(event.quantity, event.face)}`;
    if (event.type === "doubt") {
      const verdict = event.count < event.quantity ? "a bluff" : "honest";
      return `${name(event.seat)} doubts ${name(event.bidder)}'s ${spell(event.quantity, event.face)}: ${event.count} found, ${verdict}; ${name(event.loser)} loses a die`;
    }
    if (event.type === "out") return `${name(event.seat)} is out`;
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dudo = { render, describe, scoreName: "dice left" };
})();
