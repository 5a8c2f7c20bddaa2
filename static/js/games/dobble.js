// Dobble: the player's card and the target card(s) drawn as round cards of 8 pictures (Twemoji,
// static/vendor/twemoji/), each card laid out at its own sizes and angles as the printed ones are.
// Click a picture, or press the number key shown on it, to claim it. A wrong claim locks the seat
// out for a moment: the countdown is drawn, and the cards come back to life when it ends.
"use strict";

(function () {
  const SYMBOLS = JSON.parse(document.getElementById("dobble-symbols").textContent);
  const NAMES = SYMBOLS.map((symbol) => symbol.name);
  // All 57 pictures are fetched as the table opens (and kept), so a card dealt after a fast claim
  // never shows empty rings while its pictures load.
  const PRELOADED = SYMBOLS.map((symbol) => Object.assign(new Image(), { decoding: "async", src: symbol.picture }));
  // Name, what to do, how each player's figure reads beside their pile ("3 won") and, in a sentence, who wins.
  const MINI_GAMES = {
    "towering-inferno": ["The Towering Inferno", "Spot the picture your card shares with the pile card to win it.", "won", "Most cards won wins this mini-game."],
    "the-well": ["The Well", "Spot the picture your card shares with the middle card to get rid of your card.", null, "First out of cards wins this mini-game."],
    "hot-potato": ["Hot Potato", "Spot the picture your card shares with another player's card to pass it on.", "kept aside", "Fewest cards kept aside wins this mini-game."],
    "gotta-catch-them-all": ["Gotta Catch 'Em All", "Spot the picture a face-up card shares with the middle card to take it.", "won", "Most cards won wins this mini-game."],
    "poisoned-gift": ["The Poisoned Gift", "Spot the picture the pile card shares with another player's card to give it to them.", "received", "Fewest cards received wins this mini-game."],
  };
  // Four layouts of 8 pictures as printed cards have them, from big to small (2.4 to 2.8 times
  // between the largest and the smallest): [x, y, picture size], all in % of the card's width. Each
  // picture's tap target is at least 25 % wide (44 px on a 390 px phone, where a card is ~180 px),
  // and the targets neither overlap nor cross the rim (found once by a small packing script).
  const LAYOUTS = [
    [[50.5, 52.6, 34], [32.2, 24.3, 30], [80.0, 64.2, 26], [60.7, 18.1, 23], [59.7, 82.3, 20], [79.2, 37.1, 17], [17.4, 57.9, 15], [33.3, 79.2, 13]],
    [[51.6, 49.8, 36], [22.4, 66.6, 28], [46.8, 82.5, 27], [76.2, 71.2, 22], [18.2, 38.8, 19], [81.4, 37.9, 18], [62.8, 18.9, 14], [36.2, 19.2, 13]],
    [[41.9, 78.6, 33], [52.4, 46.7, 31], [21.7, 31.8, 24], [74.0, 26.4, 22], [72.3, 75.3, 21], [83.6, 51.2, 16], [44.0, 17.3, 15], [19.0, 58.2, 14]],
    [[57.4, 21.8, 34], [45.1, 52.5, 29], [16.5, 53.1, 25], [82.3, 40.4, 22], [79.2, 66.8, 19], [26.6, 25.8, 17], [29.2, 76.5, 15], [55.7, 79.2, 13]],
  ];
  const TARGET_SIZE = 25;
  const SMALLEST = 16.5;

  // Where picture `slot` of card `cardId` sits: the same card always looks the same, two cards
  // differ (their own layout, turned and maybe mirrored as a whole, pictures dealt to its places).
  function placement(cardId, slot) {
    const layout = LAYOUTS[cardId % LAYOUTS.length];
    const [x, y, size] = layout[(slot * 3 + cardId) % 8];
    const angle = ((cardId * 53) % 360) * Math.PI / 180;
    const mirror = cardId % 2 ? -1 : 1;
    const dx = (x - 50) * mirror;
    const dy = y - 50;
    return {
      x: 50 + dx * Math.cos(angle) - dy * Math.sin(angle),
      y: 50 + dx * Math.sin(angle) + dy * Math.cos(angle),
      size,
      target: Math.max(size, TARGET_SIZE),
      turn: (cardId * 97 + slot * 131) % 360 - 180,
    };
  }

  function symbolButton(h, card, slot, { onClaim, key }) {
    const id = card.symbols[slot];
    const name = NAMES[id];
    const place = placement(card.card, slot);
    const attrs = { class: `dobble-symbol${key ? " keyed" : ""}`, type: "button", title: name, "aria-label": name, "data-symbol": id, "data-slot": slot };
    if (key) Object.assign(attrs, { "aria-label": `${name}, key ${key}`, "aria-keyshortcuts": key });
    if (onClaim) attrs.onclick = () => onClaim(id); else attrs.disabled = true;
    const button = h("button", attrs);
    // Placed by its centre, so a ring grown to 44 px on a small card grows evenly around its picture.
    button.style.left = `${place.x}%`;
    button.style.top = `${place.y}%`;
    button.style.width = `${place.target}%`;
    button.style.height = `${place.target}%`;
    const picture = h("img", { src: SYMBOLS[id].picture, alt: "", draggable: "false" });
    // A picture fills at most 80 % of its own ring, so turned any way its drawing stays inside it and
    // clear of its neighbours'; none is drawn smaller than SMALLEST % of the card (~23 px on a phone), so
    // a small turned one is still recognisable. The largest stay twice the smallest or more.
    const side = 0.8 * Math.max(place.size, SMALLEST);
    picture.style.width = picture.style.height = `${(100 * side) / place.target}%`;
    picture.style.transform = `translate(-50%, -50%) rotate(${place.turn}deg)`;
    button.append(picture);
    // The number sits on the picture's own ring, on the side facing the card's centre.
    if (key) {
      const badge = h("span", { class: "dobble-key", "aria-hidden": "true" }, String(key));
      const inward = Math.atan2(50 - place.y, 50 - place.x);
      badge.style.left = `${50 + 36 * Math.cos(inward)}%`;
      badge.style.top = `${50 + 36 * Math.sin(inward)}%`;
      button.append(badge);
    }
    return button;
  }

  function cardNode(h, card, label, { onClaim = null, keys = false, index = 0, faceDown = false } = {}) {
    const node = h("div", { class: "dobble-card-box", "data-card-index": index });
    node.append(h("div", { class: "dobble-label", "aria-hidden": "true" }, label));
    const face = h("div", { class: "dobble-card", role: "group", "aria-label": faceDown ? `${label}, face down` : label });
    node.append(face);
    if (faceDown) { face.classList.add("back"); return node; }
    if (!card) { face.classList.add("empty"); face.append(h("span", { class: "dobble-none" }, "no card")); return node; }
    card.symbols.forEach((_, slot) => face.append(symbolButton(h, card, slot, { onClaim, key: keys ? slot + 1 : null })));
    return node;
  }

  function targets(view, seat, name = (n) => `Seat ${n + 1}`) {
    switch (view.phase === "tiebreak" ? "tiebreak" : view.mini_game) {
      case "towering-inferno": return [{ target: "pile", card: view.pile.top, label: `Pile (${view.pile.count})` }];
      case "the-well": return [{ target: "middle", card: view.middle.top, label: "Middle" }];
      case "gotta-catch-them-all":
        return view.revealed.map((card, i) => (card || view.face_down) && { target: i, card, label: `Face-up card ${i + 1}` }).filter(Boolean);
      case "poisoned-gift":
        return view.seats.filter((s) => s.seat !== seat && held(view, s)).map((s) => ({ target: s.seat, card: s.top, label: name(s.seat) }));
      default:
        return view.seats.filter((s) => s.seat !== seat && held(view, s) && (!view.tie || view.tie.includes(s.seat)))
          .map((s) => ({ target: s.seat, card: s.top, label: name(s.seat) }));
    }
  }

  // Before "go" the server sends no card's face (view.face_down): a player's card is there, face down.
  function held(view, s) { return Boolean(s.top || (view.face_down && s.cards)); }

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
      h("span", { role: "status" }, falseStart(view, seat) ? "Too fast, a false start: locked out " : "Wrong picture: locked out "), seconds, h("span", { class: "dobble-lockout-track" }, bar));
  }

  // Was the seat's last claim a false start (rated games: sooner than anyone can see the cards)?
  function falseStart(view, seat) {
    const last = view.history.filter((e) => e.type === "claim" && e.seat === seat).pop();
    return Boolean(last && last.false_start);
  }

  // Focus survives a redraw: the picture in the same place on the same card gets it back.
  let focused = null;
  document.addEventListener("focusin", (event) => {
    if (event.target.id === "game-area") return;  // held by the table while locked out: the place is kept
    const button = event.target.closest && event.target.closest(".dobble-symbol");
    const box = button && button.closest("[data-card-index]");
    focused = box ? { index: box.dataset.cardIndex, slot: button.dataset.slot } : null;
  });

  // A claimed card leaves with its pictures: the keyboard goes on to the first picture that can
  // be claimed (or the table while locked out), never to <body>.
  function restoreFocus(area) {
    const active = document.activeElement;
    const lost = (!active || active === document.body) && focused;
    if (!lost && active !== area) return;
    const button = (focused && area.querySelector(
      `[data-card-index="${focused.index}"] .dobble-symbol[data-slot="${focused.slot}"]:not([disabled])`))
      || area.querySelector(".dobble-symbol:not([disabled])") || area;
    if (button !== active) button.focus({ preventScroll: true });
  }

  // "Your pile: 1 card · 0 won" for the viewer, the player's name for the others.
  function pileLine(s, seat, name, figure) {
    const who = s.seat === seat ? "Your pile" : `${name(s.seat)}'s pile`;
    const cards = `${s.cards} card${s.cards === 1 ? "" : "s"}`;
    return `${who}: ${cards}${figure ? ` · ${s.score} ${figure}` : ""}`;
  }

  // The get-ready countdown: the server sends the cards' faces only from "go" (starts_in_ms) and
  // refuses claims before it; until then the cards are drawn face down under 3, 2, 1, and after
  // it until the state with their faces arrives (view.face_down).
  let readyTimer = null;

  function getReadyNode(h, ctx, redraw) {
    clearInterval(readyTimer);
    if (ctx.goAt == null) ctx.goAt = Date.now() + (ctx.startsInMs || 0);
    if (Date.now() >= ctx.goAt) return null;
    const count = h("span", { class: "dobble-ready-count" });
    const tick = () => {
      const left = ctx.goAt - Date.now();
      if (left <= 0) { clearInterval(readyTimer); redraw(); return; }
      count.textContent = String(Math.ceil(left / 1000));
    };
    readyTimer = setInterval(tick, 100);
    tick();
    return h("div", { class: "dobble-ready", role: "status" }, h("span", {}, "Get ready"), count);
  }

  function render(area, view, ctx) {
    const { h, act, seat } = ctx;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const redraw = () => { if (area.isConnected) { area.replaceChildren(); render(area, view, ctx); } };
    const ready = view.is_over ? null : getReadyNode(h, ctx, redraw);
    const faceDown = !view.is_over && Boolean(ready || view.face_down);
    const lockoutBox = faceDown ? null : lockoutNode(h, view, seat, redraw);
    const [title, hint, figure, goal] = MINI_GAMES[view.mini_game] || [view.mini_game, "", null, null];
    const header = h("div", { class: "dobble-status" },
      h("strong", {}, title),
      view.round ? ` · round ${view.round}${view.rounds ? ` of ${view.rounds}` : ""}` : "",
      view.phase === "tiebreak" ? h("strong", { class: "dobble-tiebreak" }, " · tiebreak!") : "",
      seat != null && !view.is_over ? h("span", { class: "dobble-hint" }, view.phase === "tiebreak"
        ? "Spot the picture your card shares with your rival's card first." : hint,
      h("span", { class: "dobble-keys-hint" }, " Keys 1–8 pick the numbered pictures.")) : null);
    const list = targets(view, seat, name);
    // at_ms is required (docs/protocol/dobble.md); the server replaces it with the arrival time.
    const claim = (target) => (symbol) => act({ type: "claim", symbol, target, at_ms: view.now_ms || 0 });
    const own = ownCard(view, seat);
    const canClaim = seat != null && ctx.toAct.includes(seat) && !lockoutBox && !faceDown;
    const board = h("div", { class: `dobble-board${lockoutBox ? " locked" : ""}${faceDown ? " face-down" : ""}` });
    // Where there is one target, clicking your own card's picture claims it too.
    // A spectator has no card of their own: no empty card is drawn for them.
    if (own.card || seat != null) {
      board.append(cardNode(h, faceDown ? null : own.card, own.label,
        { onClaim: canClaim && list.length === 1 ? claim(list[0].target) : null, index: 0, faceDown }));
    }
    list.forEach((item, i) => board.append(cardNode(h, faceDown ? null : item.card, item.label,
      { onClaim: canClaim ? claim(item.target) : null, keys: canClaim && i === 0, index: i + 1, faceDown })));
    const mine = view.seats.filter((s) => s.seat === seat);
    const scores = h("ul", { class: "dobble-scores", "aria-label": "Piles" },
      [...mine, ...view.seats.filter((s) => s.seat !== seat)].map((s) =>
        h("li", { class: s.seat === seat ? "me" : "" }, pileLine(s, seat, name, figure))),
      goal ? h("li", { class: "dobble-goal" }, goal) : null);
    const credit = h("p", { class: "dobble-credit" }, "Pictures: ",
      h("a", { href: SYMBOLS[0].picture.replace(/[^/]*$/, "LICENSE") }, "Twemoji"), " by Twitter and contributors, ",
      h("a", { href: "https://creativecommons.org/licenses/by/4.0/", rel: "license" }, "CC-BY 4.0"));
    if (lockoutBox) board.append(lockoutBox);
    if (ready) board.append(ready);
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
      if (event.false_start) return `${name(event.seat)} claimed faster than anyone can see the cards: a false start, locked out`;
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
