// Dobble: the player's card and the target card(s) drawn large; click (or press the symbol's
// number key) to claim. Symbols are SVG shapes in 8 forms x 8 colours, named in tooltips.
"use strict";

(function () {
  const NAMES = JSON.parse(document.getElementById("dobble-symbols").textContent);
  const COLOURS = ["#d62828", "#f77f00", "#e9c46a", "#2a9d8f", "#1d70b8", "#7b2cbf", "#2b2d42", "#ff70a6"];
  const SHAPES = [
    "M0,-40 A40,40 0 1,1 -0.1,-40Z",
    "M-34,-34 H34 V34 H-34Z",
    "M0,-42 L38,30 H-38Z",
    "M0,-44 L12,-14 L44,-14 L18,6 L28,38 L0,18 L-28,38 L-18,6 L-44,-14 L-12,-14Z",
    "M0,-44 L36,0 L0,44 L-36,0Z",
    "M-20,-38 H20 L40,0 L20,38 H-20 L-40,0Z",
    "M-12,-40 H12 V-12 H40 V12 H12 V40 H-12 V12 H-40 V-12 H-12Z",
    "M0,38 C-50,0 -30,-44 0,-18 C30,-44 50,0 0,38Z",
  ];
  const SLOTS = [[0, 0], [0, -62], [54, -31], [54, 31], [0, 62], [-54, 31], [-54, -31], [0, 0]];
  const NS = "http://www.w3.org/2000/svg";

  function symbolSvg(id, size) {
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "-50 -50 100 100");
    svg.setAttribute("width", size);
    svg.setAttribute("height", size);
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", SHAPES[id % 8]);
    path.setAttribute("fill", COLOURS[Math.floor(id / 8) % 8]);
    path.setAttribute("stroke", "#111");
    path.setAttribute("stroke-width", "3");
    svg.append(path);
    if (id >= 56) {  // the 57th symbol: the only shape with a white ring
      const ring = document.createElementNS(NS, "circle");
      ring.setAttribute("r", "14");
      ring.setAttribute("fill", "#fff");
      svg.append(ring);
    }
    return svg;
  }

  function cardNode(h, card, label, onClaim) {
    const node = h("div", { class: "dobble-card", role: "group", "aria-label": label });
    node.append(h("div", { class: "dobble-label" }, label));
    if (!card) { node.classList.add("empty"); return node; }
    card.symbols.forEach((id, index) => {
      const button = h("button", {
        class: "dobble-symbol", type: "button", title: NAMES[id], "aria-label": NAMES[id],
        "data-symbol": id, "data-slot": index,
        onclick: onClaim ? () => onClaim(id) : null, disabled: !onClaim,
      });
      button.append(symbolSvg(id, index === 0 ? 58 : 48));
      node.append(button);
    });
    return node;
  }

  function targets(view, seat, name = (n) => `Seat ${n + 1}`) {
    const mine = seat == null ? null : view.seats[seat];
    switch (view.phase === "tiebreak" ? "tiebreak" : view.mini_game) {
      case "towering-inferno": return [{ target: "pile", card: view.pile.top, label: `Pile (${view.pile.count})` }];
      case "the-well": return [{ target: "middle", card: view.middle.top, label: "Middle" }];
      case "gotta-catch-them-all":
        return view.revealed.map((card, i) => card && { target: i, card, label: `Card ${i + 1}` }).filter(Boolean);
      case "poisoned-gift":
        return view.seats.filter((s) => s.seat !== seat && s.top).map((s) => ({ target: s.seat, card: s.top, label: name(s.seat) }));
      default:
        return view.seats.filter((s) => s.seat !== seat && s.top && (!view.tie || view.tie.includes(s.seat)))
          .map((s) => ({ target: s.seat, card: s.top, label: name(s.seat) }));
    }
  }

  function ownCard(view, seat) {
    if (view.mini_game === "gotta-catch-them-all" && view.phase !== "tiebreak") return view.middle.top;
    if (view.mini_game === "poisoned-gift" && view.phase !== "tiebreak") return view.pile.top;
    return seat == null ? null : view.seats[seat].top;
  }

  function render(area, view, ctx) {
    const { h, act, seat } = ctx;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const lockedUntil = seat == null ? null : view.lockouts[String(seat)];
    const header = h("div", { class: "dobble-status" },
      h("strong", {}, view.mini_game.replace(/-/g, " ")),
      view.round ? ` — round ${view.round}${view.rounds ? ` of ${view.rounds}` : ""}` : "",
      view.phase === "tiebreak" ? " — tiebreak!" : "",
      lockedUntil != null ? h("span", { class: "lockout", role: "status" }, " Locked out after a wrong claim") : null);
    const board = h("div", { class: "dobble-board" });
    const list = targets(view, seat, name);
    const claim = (target) => (symbol) => act({ type: "claim", symbol, target });
    const own = ownCard(view, seat);
    const canClaim = seat != null && ctx.toAct.includes(seat) && lockedUntil == null;
    // Where there is one target, clicking your own card's symbol claims it too.
    board.append(cardNode(h, own, seat == null ? "Card" : "Your card", canClaim && list.length === 1 ? claim(list[0].target) : null));
    for (const item of list) board.append(cardNode(h, item.card, item.label, canClaim ? claim(item.target) : null));
    const scores = h("ul", { class: "dobble-scores" }, view.seats.map((s) =>
      h("li", {}, `${name(s.seat)}: ${s.cards} card${s.cards === 1 ? "" : "s"} here, score ${s.score}`)));
    area.append(header, board, scores);
    area.dataset.keys = "1-8 claim the symbols of the first target card";
    keyHandler = canClaim && list.length ? (key) => {
      const card = list[0].card;
      if (card && key >= 1 && key <= 8) claim(list[0].target)(card.symbols[key - 1]);
    } : null;
  }

  let keyHandler = null;
  document.addEventListener("keydown", (event) => {
    if (keyHandler && !event.target.closest("input, textarea")) keyHandler(Number(event.key));
  });

  // A claim resent on new cards must still be right: the symbol on both cards it compares.
  function stillValid(view, action) {
    const item = targets(view, view.seat).find((t) => t.target === action.target);
    const own = ownCard(view, view.seat);
    return Boolean(item && item.card && own &&
      item.card.symbols.includes(action.symbol) && own.symbols.includes(action.symbol));
  }

  function describe(event, name) {
    if (event.type === "claim") {
      return `${name(event.seat)} ${event.correct ? "spotted" : "missed with"} ${NAMES[event.symbol]}` +
        (event.correct ? "" : " — locked out");
    }
    if (event.type === "out") return `${name(event.seat)} is out of cards`;
    if (event.type === "round") return `Round ${event.round}`;
    if (event.type === "round-lost") return `${name(event.seat)} lost round ${event.round} with ${event.cards} cards`;
    if (event.type === "tiebreak") return `Tiebreak: ${event.seats.map(name).join(" vs ")}`;
    if (event.type === "tiebreak-end") return `Tiebreak order: ${event.order.map(name).join(", ")}`;
    if (event.type === "end") return "The mini-game is over";
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames.dobble = { render, describe, stillValid };
})();
