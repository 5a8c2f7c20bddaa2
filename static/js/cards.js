// Playing cards and dice drawn with CSS, shared by the card and dice games.
"use strict";

(function () {
  const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const RANK = { T: "10" };

  function card(h, code, attrs = {}) {
    const tag = attrs.onclick ? "button" : "span";
    const red = code[1] === "H" || code[1] === "D";
    return h(tag, { class: `playing-card${red ? " red" : ""}`, "aria-label": label(code), type: tag === "button" ? "button" : null, ...attrs },
      h("span", {}, `${RANK[code[0]] || code[0]}${SUIT[code[1]]}`));
  }

  function back(h, attrs = {}) {
    return h("span", { class: "playing-card back", "aria-hidden": "true", ...attrs });
  }

  function label(code) {
    const ranks = { A: "ace", T: "ten", J: "jack", Q: "queen", K: "king" };
    const suits = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
    return `${ranks[code[0]] || code[0]} of ${suits[code[1]]}`;
  }

  function die(h, face, attrs = {}) {
    return h("span", { class: `die${face === 1 ? " wild" : ""}`, role: "img", "aria-label": `die showing ${face}`, ...attrs },
      "⚀⚁⚂⚃⚄⚅"[face - 1] ? String(face) : "?");
  }

  window.DubiumCards = { card, back, die, label };
})();
