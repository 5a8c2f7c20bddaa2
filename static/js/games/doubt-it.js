// I Doubt It: select cards from your hand and play them as the rank due; doubt or pass in the window.
"use strict";

(function () {
  const NAMES = { A: "aces", K: "kings", Q: "queens", J: "jacks", T: "tens", 9: "nines", 8: "eights", 7: "sevens",
    6: "sixes", 5: "fives", 4: "fours", 3: "threes", 2: "twos" };
  let selected = new Set();
  let lastHand = "";

  function render(area, view, ctx) {
    const { h, act, seat, legal } = ctx;
    const { card, back } = window.DubiumCards;
    const name = ctx.name || ((n) => `Seat ${n + 1}`);
    const window_ = view.window;
    area.append(h("p", { class: "due" }, window_.open
      ? h("span", {}, `${name(view.last_play.seat)} played ${view.last_play.count} ${NAMES[view.last_play.rank]}. Doubt window: `,
          h("span", { class: "countdown", id: "doubt-waiting" }, `waiting for ${window_.waiting.map(name).join(", ")}`))
      : `${view.turn == null ? "" : name(view.turn) + " to play "}${NAMES[view.due]} (${view.pile} card${view.pile === 1 ? "" : "s"} on the pile)`));
    area.append(h("div", { class: "pile", "aria-label": `pile of ${view.pile} cards` },
      Array.from({ length: Math.min(view.pile, 12) }, () => back(h))));
    area.append(h("div", { class: "opponents" }, view.hand_counts.map((count, n) =>
      h("div", { class: "opponent" }, h("strong", {}, name(n)), ` — ${count} card${count === 1 ? "" : "s"}`))));
    if (seat == null || !view.hand) return;
    const handKey = view.hand.join(",");
    if (handKey !== lastHand) { selected = new Set(); lastHand = handKey; }
    const canPlay = legal.some((a) => a.type === "play");
    const label = () => `Play ${selected.size} as ${NAMES[view.due]}`;
    const hand = h("div", { class: "hand", id: "my-hand", "aria-label": "your hand" }, view.hand.map((code, index) =>
      card(h, code, canPlay ? {
        "aria-pressed": selected.has(index) ? "true" : "false",
        "data-card": code,
        onclick: (event) => {
          if (selected.has(index)) selected.delete(index);
          else if (selected.size < view.max_cards) selected.add(index);
          event.currentTarget.setAttribute("aria-pressed", selected.has(index) ? "true" : "false");
          playButton.textContent = label();
          playButton.disabled = !selected.size;
        },
      } : {})));
    area.append(h("h3", {}, "Your hand"), hand);
    const playButton = h("button", { class: "button", id: "play-cards", type: "button", disabled: !selected.size,
      onclick: () => act({ type: "play", cards: [...selected].map((i) => view.hand[i]) }) }, label());
    if (canPlay) area.append(h("div", { class: "controls" }, playButton));
    if (legal.some((a) => a.type === "doubt")) {
      area.append(h("div", { class: "controls" },
        h("button", { class: "button danger", id: "doubt", type: "button", "data-key": "d", "aria-keyshortcuts": "D",
          onclick: () => act({ type: "doubt" }) }, "I doubt it! (D)"),
        h("button", { class: "button secondary", id: "pass", type: "button", "data-key": "p", "aria-keyshortcuts": "P",
          onclick: () => act({ type: "pass" }) }, "Pass (P)")));
    }
  }

  function describe(event, name) {
    if (event.type === "play") return `${name(event.seat)} plays ${event.count} ${NAMES[event.rank]} (${event.left} left)`;
    if (event.type === "doubt") return `${name(event.seat)} doubts ${name(event.player)}: ${event.cards.join(" ")} — ${event.honest ? "honest" : "a bluff"}; ${name(event.loser)} takes ${event.took} cards`;
    if (event.type === "unchallenged") return `Nobody doubts ${name(event.seat)}`;
    if (event.type === "end") return event.winner != null ? `${name(event.winner)} wins` : `Game over: ${event.reason}`;
    return event.type;
  }

  window.DubiumGames = window.DubiumGames || {};
  window.DubiumGames["doubt-it"] = { render, describe, scoreName: "cards left" };
})();
