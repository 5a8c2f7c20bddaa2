// Dobble: the player's card and the target card(s) drawn as round cards of 8 pictures (Twemoji,
// static/vendor/twemoji/), each card laid out at its own sizes and angles as the printed ones are.
// Click a picture, or press the number key shown on it, to claim it. A wrong claim locks the seat
// out for a moment: the countdown is drawn, and the cards come back to life when it ends.
"use strict";

(function () {
  const SYMBOLS = JSON.parse(document.getElementById("dobble-symbols").textContent);
  const NAMES = SYMBOLS.map((symbol) => symbol.name);
  const MINI_GAMES = {
    "towering-inferno": ["The Towering Inferno", "Spot the picture your card shares with the pile card to win it."],
    "the-well": ["The Well", "Spot the picture your card shares with the middle card to get rid of your card."],
    "hot-potato": ["Hot Potato", "Spot the picture your card shares with another player's card to pass it on."],
    "gotta-catch-them-all": ["Gotta Catch 'Em All", "Spot the picture a face-up card shares with the middle card to take it."],
    "poisoned-gift": ["The Poisoned Gift", "Spot the picture the pile card shares with another player's card to give it to them."],
  };
  // Sizes of the 7 ring pictures and the centre one, in % of the card's width. On a 390 px phone
  // a card is about 170 px wide, so the smallest (26 %) is still a 44 px target.
  const RING_SIZES = [26, 30, 27, 29, 26, 30, 28];
  const CENTRE_SIZE = 32;
  const RING_RADIUS = 33.5;

  // Where picture `slot` of card `cardId` sits: the same card always looks the same, two cards differ.
  function placement(cardId, slot) {
    const centre = cardId % 8;
    const turn = (cardId * 97 + slot * 131) % 360 - 180;
    if (slot === centre) return { x: 50, y: 50, size: CENTRE_SIZE, turn };
    const ring = (slot - centre + 8) % 8 - 1;
    const angle = ((cardId * 53) % 360) * Math.PI / 180 + ring * 2 * Math.PI / 7;
    return {
      x: 50 + RING_RADIUS * Math.cos(angle),
      y: 50 + RING_RADIUS * Math.sin(angle),
      size: RING_SIZES[(ring + cardId) % 7],
      turn,
    };
  }

  function symbolButton(h, card, slot, { onClaim, key }) {
    const id = card.symbols[slot];
    const name = NAMES[id];
    const place = placement(card.card, slot);
    const attrs = { class: "dobble-symbol", type: "button", title: name, "aria-label": name, "data-symbol": id, "data-slot": slot };
    if (key) Object.assign(attrs, { "aria-label": `${name}, key ${key}`, "aria-keyshortcuts": key });
    if (onClaim) attrs.onclick = () => onClaim(id); else attrs.disabled = true;
    const button = h("button", attrs);
    button.style.left = `${place.x - place.size / 2}%`;
    button.style.top = `${place.y - place.size / 2}%`;
    button.style.width = `${place.size}%`;
    button.style.height = `${place.size}%`;
    const picture = h("img", { src: SYMBOLS[id].picture, alt: "", draggable: "false" });
    picture.style.transform = `rotate(${place.turn}deg)`;
    button.append(picture);
    if (key) button.append(h("span", { class: "dobble-key", "aria-hidden": "true" }, String(key)));
    return button;
  }

  function cardNode(h, card, label, { onClaim = null, keys = false, index = 0 } = {}) {
    const node = h("div", { class: "dobble-card-box", "data-card-index": index });
    node.append(h("div", { class: "dobble-label", "aria-hidden": "true" }, label));
    const face = h("div", { class: "dobble-card", role: "group", "aria-label": label });
    node.append(face);
    if (!card) { face.classList.add("empty"); face.append(h("span", { class: "dobble-none" }, "no card")); return node; }
    card.symbols.forEach((_, slot) => face.append(symbolButton(h, card, slot, { onClaim, key: keys ? slot + 1 : null })));
    return node;
  }

  function targets(view, seat, name = (n) => `Seat ${n + 1}`) {
    switch (view.phase === "tiebreak" ? "tiebreak" : view.mini_game) {
      case "towering-inferno": return [{ target: "pile", card: view.pile.top, label: `Pile (${view.pile.count})` }];
      case "the-well": return [{ target: "middle", card: view.middle.top, label: "Middle" }];
      case "gotta-catch-them-all":
        return view.revealed.map((card, i) => card && { target: i, card, label: `Face-up card ${i + 1}` }).filter(Boolean);
      case "poisoned-gift":
        return view.seats.filter((s) => s.seat !== seat && s.top).map((s) => ({ target: s.seat, card: s.top, label: name(s.seat) }));
      default:
        return view.seats.filter((s) => s.seat !== seat && s.top && (!view.tie || view.tie.includes(s.seat)))
          .map((s) => ({ target: s.seat, card: s.top, label: name(s.seat) }));
    }
  }

  function ownCard(view, seat) {
    if (view.mini_game === "gotta-catch-them-all" && view.phase !== "tiebreak") return { card: view.middle.top, label: "Middle" };
    if (view.mini_game === "poisoned-gift" && view.phase !== "tiebreak") return { card: view.pile.top, label: `Pile (${view.pile.count})` };
    return { card: seat == null ? null : view.seats[seat].top, label: seat == null ? "Card" : "Your card" };
  }

  // The lockout ends in game time; the view comes with the game time of the last change, so the
  // countdown runs from the moment the view arrived. When it ends the area is drawn again.
  let lockout = null;
  let lockoutTimer = null;

  function lockoutNode(h, view, seat, redraw) {
    const until = seat == null ? null : view.lockouts[String(seat)];
    clearInterval(lockoutTimer);
    if (until == null || (lockout && lockout.until === until && lockout.over)) return null;
    if (!lockout || lockout.until !== until) lockout = { until, ends: Date.now() + until - view.now_ms, over: false };
    const seconds = h("span", { class: "dobble-lockout-seconds", "aria-hidden": "true" });
    const bar = h("span", { class: "dobble-lockout-bar", "aria-hidden": "true" });
    const total = Math.max(1, view.lockout_ms);
    const tick = () => {
      const left = Math.max(0, lockout.ends - Date.now());
      seconds.textContent = `${(left / 1000).toFixed(1)} s`;
      bar.style.width = `${Math.min(100, (100 * left) / total)}%`;
      if (left === 0) { clearInterval(lockoutTimer); lockout.over = true; redraw(); }
    };
    lockoutTimer = setInterval(tick, 100);
    tick();
    return h("p", { class: "dobble-lockout" },
      h("span", { role: "status" }, "Wrong picture: locked out "), seconds, h("span", { class: "dobble-lockout-track" }, bar));
  }

  // Focus survives a redraw: the picture in the same place on the same card gets it back.
  let focused = null;
  document.addEventListener("focusin", (event) => {
    const button = event.target.closest && event.target.closest(".dobble-symbol");
    const box = button && button.closest("[data-card-index]");
    focused = box ? { index: box.dataset.cardIndex, slot: button.dataset.slot } : null;
  });

  function restoreFocus(area) {
    if (!focused || (document.activeElement && document.activeElement !== document.body)) return;
    const button = area.querySelector(
      `[data-card-index="${focused.index}"] .dobble-symbol[data-slot="${focused.slot}"]:not([disabled])`);
    if (button) button.focus({ preventScroll: true });
  }

  function render(area, view, ctx) {
    const { h, act, seat } = ctx;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const redraw = () => { if (area.isConnected) { area.replaceChildren(); render(area, view, ctx); } };
    const lockoutBox = lockoutNode(h, view, seat, redraw);
    const [title, hint] = MINI_GAMES[view.mini_game] || [view.mini_game, ""];
    const header = h("div", { class: "dobble-status" },
      h("strong", {}, title),
      view.round ? ` · round ${view.round}${view.rounds ? ` of ${view.rounds}` : ""}` : "",
      view.phase === "tiebreak" ? h("strong", { class: "dobble-tiebreak" }, " · tiebreak!") : "",
      seat != null && !view.is_over ? h("span", { class: "dobble-hint" }, view.phase === "tiebreak"
        ? "Spot the picture your card shares with your rival's card first." : hint,
      h("span", { class: "dobble-keys-hint" }, " Keys 1–8 pick the numbered pictures.")) : null);
    const list = targets(view, seat, name);
    const claim = (target) => (symbol) => act({ type: "claim", symbol, target });
    const own = ownCard(view, seat);
    const canClaim = seat != null && ctx.toAct.includes(seat) && !lockoutBox;
    const board = h("div", { class: `dobble-board${lockoutBox ? " locked" : ""}` });
    // Where there is one target, clicking your own card's picture claims it too.
    // A spectator has no card of their own: no empty card is drawn for them.
    if (own.card || seat != null) {
      board.append(cardNode(h, own.card, own.label,
        { onClaim: canClaim && list.length === 1 ? claim(list[0].target) : null, index: 0 }));
    }
    list.forEach((item, i) => board.append(cardNode(h, item.card, item.label,
      { onClaim: canClaim ? claim(item.target) : null, keys: canClaim && i === 0, index: i + 1 })));
    const scores = h("ul", { class: "dobble-scores", "aria-label": "Cards and scores" }, view.seats.map((s) =>
      h("li", {}, `${name(s.seat)}: ${s.cards} card${s.cards === 1 ? "" : "s"} here, score ${s.score}`)));
    const credit = h("p", { class: "dobble-credit" }, "Pictures: ",
      h("a", { href: SYMBOLS[0].picture.replace(/[^/]*$/, "LICENSE") }, "Twemoji"), " by Twitter and contributors, ",
      h("a", { href: "https://creativecommons.org/licenses/by/4.0/", rel: "license" }, "CC-BY 4.0"));
    if (lockoutBox) board.append(lockoutBox);
    area.append(header, board, scores, credit);
    keyHandler = canClaim && list.length ? (key) => {
      const card = list[0].card;
      if (card && key >= 1 && key <= 8) claim(list[0].target)(card.symbols[key - 1]);
    } : null;
    restoreFocus(area);
  }

  let keyHandler = null;
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (keyHandler && !event.target.closest("input, textarea, select")) keyHandler(Number(event.key));
  });

  // A claim resent on new cards must still be right: the symbol on both cards it compares.
  function stillValid(view, action) {
    const item = targets(view, view.seat).find((t) => t.target === action.target);
    const own = ownCard(view, view.seat).card;
    return Boolean(item && item.card && own &&
      item.card.symbols.includes(action.symbol) && own.symbols.includes(action.symbol));
  }

  function describe(event, name) {
    if (event.type === "claim") {
      return event.correct ? `${name(event.seat)} spotted the ${NAMES[event.symbol]}`
        : `${name(event.seat)} picked the ${NAMES[event.symbol]}, which is not on both cards: locked out`;
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
  window.DubiumGames.dobble = { render, describe, stillValid, keepsFocus: true };
})();
