// I Doubt It: the pile, the last play face down beside it, every player's hand size, your hand to
// pick cards from, and the doubt staged on the table: the challenged cards turn face up for a
// few seconds with the verdict and who takes the pile.
"use strict";

(function () {
  const NAMES = { A: "aces", K: "kings", Q: "queens", J: "jacks", T: "tens", 9: "nines", 8: "eights", 7: "sevens",
    6: "sixes", 5: "fives", 4: "fours", 3: "threes", 2: "twos" };
  const ONE = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
    6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
  const REVEAL_MS = 5000;
  let selected = new Set();
  let lastHand = "";
  let seenDoubt = null;
  let revealUntil = 0;

  const claim = (count, rank) => `${count} ${count === 1 ? ONE[rank] : NAMES[rank]}`;
  const cardsText = (n) => `${n} card${n === 1 ? "" : "s"}`;

  // The reveal ends with a redraw of the latest state: the one that staged it may be long gone
  // (the game ended, or others moved meanwhile), and its redraw would be refused as stale.
  let latestRedraw = () => {};

  // A replay (`newFrom`: where the step's own entries start) shows the doubt on its own step, no timer.
  function stagedDoubt(view, redraw, newFrom) {
    if (redraw) latestRedraw = redraw;
    const index = view.history.map((e) => e.type).lastIndexOf("doubt");
    if (index < 0) return null;
    if (newFrom != null) return index >= newFrom ? view.history[index] : null;
    if (index !== seenDoubt) {
      const current = Boolean(view.last_play && view.last_play.cards);
      if (seenDoubt !== null || current) revealUntil = Date.now() + REVEAL_MS;
      seenDoubt = index;
      if (redraw) setTimeout(() => latestRedraw(), REVEAL_MS + 50); // the table as it is then, not as it was
    }
    return Date.now() < revealUntil ? view.history[index] : null;
  }

  function revealPanel(h, event, name) {
    const { card } = window.DubiumCards;
    return h("section", { class: `reveal staged ${event.honest ? "honest" : "bluff"}`, id: "doubt-reveal", "aria-live": "assertive" },
      h("p", { class: "reveal-title" }, `${name(event.seat)} doubts ${name(event.player)}'s ${claim(event.cards.length, event.rank)}`),
      h("div", { class: "hand reveal-cards" }, event.cards.map((code) =>
        card(h, code, {}, `flip ${code[0] === event.rank ? "counts" : "wrong"}`))),
      h("p", { class: "verdict" }, h("strong", { class: "verdict-word" }, event.honest ? "Honest" : "Bluff!"), " ",
        h("strong", {}, `${name(event.loser)} takes the pile`), ` (${cardsText(event.took)}).`));
  }

  function render(area, view, ctx) {
    const { h, act, seat } = ctx;
    const legal = ctx.legal || [];
    const { card, back } = window.DubiumCards;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const redraw = ctx.redraw || (() => { area.replaceChildren(); render(area, view, ctx); });
    const win = view.window;
    const last = view.last_play;

    area.append(h("p", { class: "table-status" },
      ctx.finished ? h("span", { class: "chip strong" }, `The game is over${ctx.endedBy ? `: ${ctx.endedBy}` : ""}`)
        : h("span", { class: "chip strong" }, `Next claim: ${NAMES[view.due]}`),
      h("span", { class: "chip" }, `${view.plays} play${view.plays === 1 ? "" : "s"}`),
      view.turn != null && !ctx.finished ? h("span", { class: "chip" }, `${name(view.turn)} to play`) : null));

    const pileCards = Array.from({ length: Math.min(view.pile, 7) }, () => back(h));
    const lastCards = last && !last.cards && win.open ? Array.from({ length: last.count }, () => back(h, { class: "playing-card back last-play" })) : [];
    area.append(h("div", { class: "felt" },
      h("div", { class: "pile-stack", role: "img", "aria-label": `The pile: ${cardsText(view.pile)}` }, pileCards,
        h("span", { class: "pile-count" }, view.pile ? cardsText(view.pile) : "empty pile")),
      last ? h("div", { class: "last-play-box", id: "last-play" },
        h("span", {}, h("strong", {}, name(last.seat)), ` played ${claim(last.count, last.rank)}`),
        lastCards.length ? h("span", { class: "hand" }, lastCards) : null,
        win.open && !ctx.finished ? h("span", { class: "countdown", id: "doubt-waiting" }, `Waiting for ${win.waiting.map(name).join(", ")}`, h("span", { "data-window-left": "" })) : null)
        : h("p", { class: "last-play-box muted" }, "Nobody has played yet.")));  // on a card, not the felt: AA contrast

    const toAct = ctx.finished ? [] : view.to_act || [];
    area.append(h("div", { class: "opponents" }, view.hand_counts.map((count, n) => {
      const answered = ctx.finished ? "" : win.passed.includes(n) ? "passed" : win.doubted.includes(n) ? "doubts!" : win.waiting.includes(n) ? "deciding…" : "";
      return h("div", { class: `opponent${toAct.includes(n) ? " to-act" : ""}${n === seat ? " me" : ""}${last && last.seat === n ? " last-player" : ""}`, "data-seat": n },
        h("strong", { class: "opponent-name", title: name(n) }, n === seat ? `${name(n)} (you)` : name(n)),
        h("span", { class: "count-badge", "aria-label": cardsText(count) }, cardsText(count)),
        answered ? h("span", { class: "muted" }, ` ${answered}`) : null);
    })));
    // Under the live claim and the hand counts, in the flow of the table: nothing is ever under it.
    const doubt = stagedDoubt(view, redraw, ctx.newFrom);
    if (doubt) area.append(revealPanel(h, doubt, name));

    if (seat == null || !view.hand) return;
    const handKey = view.hand.join(",");
    if (handKey !== lastHand) { selected = new Set(); lastHand = handKey; }
    const canPlay = legal.some((a) => a.type === "play");
    const dock = h("div", { class: "dock" });
    const prompt = h("p", { class: "dock-prompt", id: "hand-prompt", "aria-live": "polite" });
    const label = () => selected.size ? `Play ${selected.size} as ${NAMES[view.due]}` : `Pick cards to play as ${NAMES[view.due]}`;
    const playButton = h("button", { class: "button", id: "play-cards", type: "button", disabled: !selected.size,
      onclick: () => act({ type: "play", cards: [...selected].map((i) => view.hand[i]) }) }, label());
    if (canPlay) dock.append(prompt);
    dock.append(h("div", { class: "hand fan", id: "my-hand", role: "group", "aria-label": `Your hand, ${cardsText(view.hand.length)}` },
      view.hand.map((code, index) => card(h, code, canPlay ? {
        "aria-pressed": selected.has(index) ? "true" : "false",
        "data-choice": `card-${index}`,
        onclick: (event) => {
          prompt.textContent = "";
          if (selected.has(index)) selected.delete(index);
          else if (selected.size < view.max_cards) selected.add(index);
          else prompt.textContent = `You may play at most ${view.max_cards} cards at once: tap a picked card to put it back.`;
          event.currentTarget.setAttribute("aria-pressed", selected.has(index) ? "true" : "false");
          playButton.textContent = label();
          playButton.disabled = !selected.size;
        },
      } : {}))));
    if (canPlay) dock.append(h("div", { class: "controls" }, playButton));
    if (legal.some((a) => a.type === "doubt")) {
      dock.append(h("div", { class: "controls" },
        h("button", { class: "button danger", id: "doubt", type: "button", "data-key": "d", "aria-keyshortcuts": "D",
          onclick: () => act({ type: "doubt" }) }, `I doubt it! (D)`),
        h("button", { class: "button secondary", id: "pass", type: "button", "data-key": "p", "aria-keyshortcuts": "P",
          onclick: () => act({ type: "pass" }) }, "Pass (P)")));
    }
    area.append(dock);
    spreadFan(document.getElementById("my-hand"));
  }

  // The hand's cards overlap only as much as its width needs, and always show their corner index.
  function spreadFan(hand) {
    const cards = hand ? hand.children : [];
    if (cards.length < 2) return;
    const width = cards[0].getBoundingClientRect().width;
    const needed = (cards.length * width - hand.clientWidth + 2) / (cards.length - 1);
    hand.style.setProperty("--fan-overlap", `${Math.min(0.6 * width, Math.max(0.2 * width, needed))}px`);
  }

  function describe(event, name) {
    const { label } = window.DubiumCards;
    if (event.type === "play") return `${name(event.seat)} plays ${claim(event.count, event.rank)} (${event.left} left in hand)`;
    if (event.type === "doubt") {
      return `${name(event.seat)} doubts ${name(event.player)}: ${event.cards.map(label).join(", ")} — ` +
        `${event.honest ? "honest" : "a bluff"}; ${name(event.loser)} takes the pile (${cardsText(event.took)})`;
    }
    if (event.type === "unchallenged") return `Nobody doubts ${name(event.seat)}`;
    if (event.type === "end") return event.winner != null ? `${name(event.winner)} wins` : `Game over after ${event.plays} plays`;
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  // "Nobody doubts" closes the doubt window: no seat's move, so never "no move in time".
  const seatless = (event) => event.type === "unchallenged";
  window.DubiumGames["doubt-it"] = { render, describe, seatless, scoreName: "cards left" };
})();
