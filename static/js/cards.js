// Pictures shared by the tables: French playing cards, dice with pips and the Dudab Buba cards,
// all drawn here as SVG (no image files, no fonts needed for suits), plus the words players use
// for them ("ace of hearts", "red mammoth 3"). Colours are SVG presentation attributes, never
// style="" strings, so the pages work under a strict Content-Security-Policy.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANK_WORDS = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", T: "ten", J: "jack", Q: "queen", K: "king" };
  const RANK_INDEX = { T: "10" };
  const RED = "#c0262d";
  const BLACK = "#1d1f24";

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs || {})) if (value != null) node.setAttribute(key, value);
    for (const child of children.flat()) {
      if (child == null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // Suit outlines on a 100 x 100 square, centred.
  const SUIT_PATHS = {
    H: ["M50 92C22 68 2 50 2 29 2 13 14 3 28 3c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 10 26 26 0 21-20 39-48 63z"],
    D: ["M50 2 90 50 50 98 10 50z"],
    S: ["M50 3C78 31 98 45 98 63c0 14-11 23-24 23-9 0-16-4-20-11 1 10 5 18 13 24H33c8-6 12-14 13-24-4 7-11 11-20 11C13 86 2 77 2 63 2 45 22 31 50 3z"],
    C: ["M50 4a21 21 0 0 1 17 33 21 21 0 1 1-10 36c1 10 5 18 12 24H31c7-6 11-14 12-24a21 21 0 1 1-10-36A21 21 0 0 1 50 4z"],
  };

  function suitShape(suit, cx, cy, size, flip) {
    const scale = size / 100;
    const turn = flip ? ` rotate(180 50 50)` : "";
    return svg("g", { transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${scale})${turn}` },
      SUIT_PATHS[suit].map((d) => svg("path", { d, fill: suit === "H" || suit === "D" ? RED : BLACK })));
  }

  // Pip positions (column 0-2, row 0-1 from top to bottom) of the number cards.
  const L = 0, C = 1, R = 2;
  const PIPS = {
    2: [[C, 0], [C, 1]],
    3: [[C, 0], [C, 0.5], [C, 1]],
    4: [[L, 0], [R, 0], [L, 1], [R, 1]],
    5: [[L, 0], [R, 0], [C, 0.5], [L, 1], [R, 1]],
    6: [[L, 0], [R, 0], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
    7: [[L, 0], [R, 0], [C, 0.25], [L, 0.5], [R, 0.5], [L, 1], [R, 1]],
    8: [[L, 0], [R, 0], [C, 0.25], [L, 0.5], [R, 0.5], [C, 0.75], [L, 1], [R, 1]],
    9: [[L, 0], [R, 0], [L, 1 / 3], [R, 1 / 3], [C, 0.5], [L, 2 / 3], [R, 2 / 3], [L, 1], [R, 1]],
    T: [[L, 0], [R, 0], [C, 1 / 6], [L, 1 / 3], [R, 1 / 3], [L, 2 / 3], [R, 2 / 3], [C, 5 / 6], [L, 1], [R, 1]],
  };

  function cardLabel(code) {
    return `${RANK_WORDS[code[0]]} of ${SUITS[code[1]]}`;
  }

  function cardFace(code) {
    const rank = code[0], suit = code[1];
    const colour = suit === "H" || suit === "D" ? RED : BLACK;
    const index = RANK_INDEX[rank] || rank;
    const corner = (flip) => svg("g", { transform: flip ? "rotate(180 30 42)" : null },
      svg("text", { x: 7.5, y: 14.5, "text-anchor": "middle", "font-size": index.length > 1 ? 11 : 13, "font-weight": 700,
        "font-family": "Georgia, 'DejaVu Serif', serif", fill: colour, "letter-spacing": index.length > 1 ? -1 : 0 }, index),
      suitShape(suit, 7.5, 21, 8));
    const middle = [];
    if (PIPS[rank]) {
      for (const [column, row] of PIPS[rank]) {
        middle.push(suitShape(suit, 20 + column * 10, 20 + row * 44, 11, row > 0.5));
      }
    } else if (rank === "A") {
      middle.push(suitShape(suit, 30, 42, 30));
    } else {
      middle.push(svg("rect", { x: 14, y: 12, width: 32, height: 60, rx: 3, fill: suit === "H" || suit === "D" ? "#fbe9e9" : "#eceef3",
        stroke: colour, "stroke-width": 1 }));
      middle.push(svg("text", { x: 30, y: 41, "text-anchor": "middle", "font-size": 22, "font-weight": 700,
        "font-family": "Georgia, 'DejaVu Serif', serif", fill: colour }, rank));
      middle.push(suitShape(suit, 30, 56, 13));
    }
    return svg("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true", focusable: "false" },
      svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#fff", stroke: "#8a8f99", "stroke-width": 1 }),
      corner(false), corner(true), middle);
  }

  // `extra`: classes added to the card's own ("last-play", "flip counts").
  function card(h, code, attrs = {}, extra = "") {
    const tag = attrs.onclick ? "button" : "span";
    const red = code[1] === "H" || code[1] === "D";
    return h(tag, { class: `playing-card${red ? " red" : ""} ${extra}`.trim(), title: cardLabel(code), "data-card": code,
      ...pictureName(h, tag, cardLabel(code)), ...attrs }, cardFace(code), spokenName(h, tag, cardLabel(code)));
  }

  // A picture's name for screen readers: a button says it as its own text (so the name and the
  // content agree), a plain picture carries it as an image label.
  function pictureName(h, tag, name) {
    return tag === "button" ? { type: "button" } : { role: "img", "aria-label": name };
  }

  function spokenName(h, tag, name) {
    return tag === "button" ? h("span", { class: "visually-hidden" }, name) : null;
  }

  function back(h, attrs = {}) {
    return h("span", { class: "playing-card back", "aria-hidden": "true", ...attrs },
      svg("svg", { viewBox: "0 0 60 84", class: "card-svg", focusable: "false" },
        svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#23408e", stroke: "#14275a" }),
        svg("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, fill: "none", stroke: "#f5f1e6", "stroke-width": 1.2 }),
        svg("path", { d: "M30 16 46 42 30 68 14 42z", fill: "none", stroke: "#f5f1e6", "stroke-width": 1.5 }),
        svg("circle", { cx: 30, cy: 42, r: 6, fill: "#f5f1e6" })));
  }

  // Dice ------------------------------------------------------------------------

  const DIE_PIPS = {
    1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  };
  const FACE_WORDS = ["", "one", "two", "three", "four", "five", "six"];

  function dieFace(face) {
    const hidden = !DIE_PIPS[face];
    return svg("svg", { viewBox: "0 0 40 40", class: "die-svg", "aria-hidden": "true", focusable: "false" },
      svg("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 8, fill: hidden ? "#3c4250" : face === 1 ? "#fff4cc" : "#fff",
        stroke: hidden ? "#262a33" : "#2d3038", "stroke-width": 2 }),
      hidden
        ? svg("text", { x: 20, y: 27, "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: "#aeb4c2" }, "?")
        : DIE_PIPS[face].map(([x, y]) => svg("circle", { cx: 10 * x, cy: 10 * y, r: face === 1 ? 5.5 : 4, fill: face === 1 ? RED : "#1d1f24" })));
  }

  function die(h, face, attrs = {}, extra = "") {
    const shown = Boolean(DIE_PIPS[face]);
    return h("span", { class: `die${face === 1 ? " wild" : ""}${shown ? "" : " hidden"} ${extra}`.trim(), role: "img",
      "aria-label": shown ? `die showing ${FACE_WORDS[face]}` : "hidden die", "data-face": shown ? face : null, ...attrs }, dieFace(face));
  }

  window.DubiumCards = { svg, card, back, die, dieFace, label: cardLabel, pictureName, spokenName, RANK_WORDS, SUITS };
})();

// Dudab Buba: a number card shows its value, its colour (with a shape mark for players who cannot
// tell the colours apart) and its symbol; Shaman, Dudab, Jungle and Baby have their own pictures.
(function () {
  const COLOURS = {
    R: { name: "red", strong: "#b3261e", tint: "#fbe1dd" },
    B: { name: "blue", strong: "#1f5aa6", tint: "#dce8f8" },
    Y: { name: "yellow", strong: "#8a6100", tint: "#fdf1c7" },
    G: { name: "green", strong: "#276b2c", tint: "#d9efd9" },
  };
  const SYMBOLS = ["hand", "mammoth", "club", "hide"];

  function pictogram(svg, symbol, fill) {
    const white = "#fff";
    switch (symbol) {
      case "hand": return [
        svg("rect", { x: 30, y: 46, width: 44, height: 44, rx: 14, fill }),
        svg("rect", { x: 30, y: 20, width: 10, height: 40, rx: 5, fill }),
        svg("rect", { x: 42, y: 11, width: 10, height: 46, rx: 5, fill }),
        svg("rect", { x: 54, y: 13, width: 10, height: 44, rx: 5, fill }),
        svg("rect", { x: 66, y: 22, width: 9, height: 36, rx: 4.5, fill }),
        svg("rect", { x: 14, y: 48, width: 11, height: 32, rx: 5.5, fill, transform: "rotate(-38 20 64)" }),
      ];
      case "mammoth": return [
        svg("ellipse", { cx: 58, cy: 50, rx: 32, ry: 24, fill }),
        svg("circle", { cx: 30, cy: 42, r: 18, fill }),
        svg("path", { d: "M18 48C9 62 10 78 21 86", stroke: fill, "stroke-width": 9, fill: "none", "stroke-linecap": "round" }),
        svg("path", { d: "M26 56C27 70 36 75 46 70", stroke: white, "stroke-width": 4, fill: "none", "stroke-linecap": "round" }),
        svg("rect", { x: 38, y: 64, width: 11, height: 26, rx: 3, fill }),
        svg("rect", { x: 70, y: 64, width: 11, height: 26, rx: 3, fill }),
        svg("circle", { cx: 28, cy: 37, r: 2.8, fill: white }),
      ];
      case "club": return [
        svg("path", { d: "M18 86 28 94 70 50 52 36z", fill }),
        svg("circle", { cx: 64, cy: 34, r: 21, fill }),
        svg("circle", { cx: 82, cy: 20, r: 7, fill }),
        svg("circle", { cx: 58, cy: 11, r: 6, fill }),
        svg("circle", { cx: 86, cy: 42, r: 6, fill }),
        svg("circle", { cx: 60, cy: 32, r: 3, fill: white, opacity: 0.7 }),
        svg("circle", { cx: 70, cy: 42, r: 2.5, fill: white, opacity: 0.7 }),
      ];
      case "hide": return [
        svg("path", { fill, d: "M50 12c8 0 12 8 20 6l12-8 2 16c-6 8-2 18 4 24-6 6-10 16-4 24l-2 16-12-8c-8-2-12 6-20 6s-12-8-20-6l-12 8-2-16c6-8 2-18-4-24 6-6 10-16 4-24l2-16 12 8c8 2 12-6 20-6z" }),
        svg("circle", { cx: 40, cy: 40, r: 5, fill: white, opacity: 0.55 }),
        svg("circle", { cx: 60, cy: 56, r: 6, fill: white, opacity: 0.55 }),
        svg("circle", { cx: 44, cy: 64, r: 4, fill: white, opacity: 0.55 }),
        svg("circle", { cx: 62, cy: 34, r: 3.5, fill: white, opacity: 0.55 }),
      ];
      default: return [];
    }
  }

  // A shape per colour, so colour is never the only cue: red circle, blue square, yellow triangle, green diamond.
  function colourMark(svg, colour, x, y, size) {
    const fill = COLOURS[colour].strong;
    const r = size / 2;
    if (colour === "R") return svg("circle", { cx: x, cy: y, r, fill });
    if (colour === "B") return svg("rect", { x: x - r, y: y - r, width: size, height: size, fill });
    if (colour === "Y") return svg("path", { d: `M${x} ${y - r}L${x + r} ${y + r}L${x - r} ${y + r}z`, fill });
    return svg("path", { d: `M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}z`, fill });
  }

  function parse(id) {
    const parts = id.split("-");
    if (COLOURS[parts[0]]) return { kind: "number", colour: parts[0], symbol: parts[1], value: Number(parts[2]) };
    if (parts[0] === "shaman") return { kind: "shaman", colour: parts[1] };
    return { kind: parts[0] };
  }

  function describe(id) {
    const card = parse(id);
    if (card.kind === "number") return `${COLOURS[card.colour].name} ${card.symbol} ${card.value}`;
    if (card.kind === "shaman") return `${COLOURS[card.colour].name} Shaman`;
    return card.kind[0].toUpperCase() + card.kind.slice(1);
  }

  function requestText(request) {
    if (!request) return "";
    if (request.colour) return `a ${COLOURS[request.colour].name} card`;
    if (request.symbol) return `a ${request.symbol}`;
    return `a ${request.value}`;
  }

  function special(svg, kind) {
    if (kind === "dudab") return [
      svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 6, fill: "#26283a", stroke: "#111", "stroke-width": 1 }),
      svg("circle", { cx: 30, cy: 38, r: 19, fill: "none", stroke: "#f2c94c", "stroke-width": 3 }),
      svg("text", { x: 30, y: 48, "text-anchor": "middle", "font-size": 30, "font-weight": 800, fill: "#f2c94c" }, "?"),
      svg("text", { x: 30, y: 74, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#f2c94c" }, "DUDAB"),
    ];
    if (kind === "jungle") return [
      svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 6, fill: "#d8ecc9", stroke: "#3c6e1f", "stroke-width": 2 }),
      svg("path", { d: "M29 68C31 54 31 42 30 30", stroke: "#6b4423", "stroke-width": 4, fill: "none" }),
      ...[-60, -20, 20, 60, 180].map((angle) => svg("ellipse", { cx: 30, cy: 18, rx: 14, ry: 5, fill: "#3c6e1f",
        transform: `rotate(${angle} 30 30) translate(0 0)` })),
      svg("text", { x: 30, y: 79, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#2b4f15" }, "JUNGLE"),
    ];
    if (kind === "baby") return [
      svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 6, fill: "#fde2ec", stroke: "#a3476d", "stroke-width": 2 }),
      svg("circle", { cx: 30, cy: 38, r: 17, fill: "#f6c9a8", stroke: "#7a4b35", "stroke-width": 1.5 }),
      svg("path", { d: "M28 21c-4-6 6-9 6-3", stroke: "#7a4b35", "stroke-width": 2, fill: "none" }),
      svg("path", { d: "M21 36q3 3 6 0M33 36q3 3 6 0", stroke: "#5a3526", "stroke-width": 1.8, fill: "none" }),
      svg("circle", { cx: 30, cy: 46, r: 4, fill: "#a3476d" }),
      svg("text", { x: 30, y: 74, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#7d2f50" }, "BABY"),
    ];
    return [];
  }

  function face(id) {
    const { svg } = window.DubiumCards;
    const card = parse(id);
    const parts = [];
    if (card.kind === "number" || card.kind === "shaman") {
      const colour = COLOURS[card.colour];
      parts.push(svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 6, fill: colour.tint, stroke: colour.strong, "stroke-width": 2.5 }));
      if (card.kind === "number") {
        parts.push(svg("text", { x: 9, y: 18, "text-anchor": "middle", "font-size": 16, "font-weight": 800, fill: colour.strong }, card.value));
        parts.push(colourMark(svg, card.colour, 9, 26, 7));
        parts.push(svg("g", { transform: "translate(13 22) scale(0.4)" }, pictogram(svg, card.symbol, colour.strong)));
        parts.push(svg("g", { transform: "rotate(180 30 42)" },
          svg("text", { x: 9, y: 18, "text-anchor": "middle", "font-size": 16, "font-weight": 800, fill: colour.strong }, card.value),
          colourMark(svg, card.colour, 9, 26, 7)));
        parts.push(...Array.from({ length: card.value }, (_, n) =>
          svg("circle", { cx: 30 + (n - (card.value - 1) / 2) * 7, cy: 72, r: 2.4, fill: colour.strong })));
      } else {
        parts.push(colourMark(svg, card.colour, 9, 10, 7));
        parts.push(svg("ellipse", { cx: 30, cy: 42, rx: 13, ry: 17, fill: colour.strong }));
        parts.push(...[-35, 0, 35].map((angle) => svg("ellipse", { cx: 30, cy: 16, rx: 4, ry: 10, fill: colour.strong, opacity: 0.75,
          transform: `rotate(${angle} 30 36)` })));
        parts.push(svg("ellipse", { cx: 25, cy: 39, rx: 3, ry: 2.2, fill: "#fff" }), svg("ellipse", { cx: 35, cy: 39, rx: 3, ry: 2.2, fill: "#fff" }));
        parts.push(svg("rect", { x: 25, y: 49, width: 10, height: 3, rx: 1.5, fill: "#fff" }));
        parts.push(svg("text", { x: 30, y: 76, "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: colour.strong }, "SHAMAN"));
      }
    } else {
      parts.push(...special(svg, card.kind));
    }
    return svg("svg", { viewBox: "0 0 60 84", class: "card-svg", "aria-hidden": "true", focusable: "false" }, parts);
  }

  function tile(h, id, attrs = {}, extra = "") {
    const card = parse(id);
    const tag = attrs.onclick ? "button" : "span";
    const { pictureName, spokenName } = window.DubiumCards;
    return h(tag, { class: `dudab-card ${card.kind}${card.colour ? ` ${COLOURS[card.colour].name}` : ""} ${extra}`.trim(), "data-card": id,
      title: describe(id), ...pictureName(h, tag, describe(id)), ...attrs }, face(id), spokenName(h, tag, describe(id)));
  }

  // A request as a small picture plus words: "a red card", "a mammoth", "a 3".
  function requestBadge(h, request) {
    const { svg } = window.DubiumCards;
    let picture;
    if (request.colour) {
      picture = svg("svg", { viewBox: "0 0 20 20", class: "request-svg", "aria-hidden": "true" },
        svg("rect", { x: 1, y: 1, width: 18, height: 18, rx: 4, fill: COLOURS[request.colour].tint, stroke: COLOURS[request.colour].strong, "stroke-width": 2 }),
        colourMark(svg, request.colour, 10, 10, 8));
    } else if (request.symbol) {
      picture = svg("svg", { viewBox: "0 0 100 100", class: "request-svg", "aria-hidden": "true" }, pictogram(svg, request.symbol, "#2b2d42"));
    } else {
      picture = h("span", { class: "request-value", "aria-hidden": "true" }, request.value);
    }
    return h("span", { class: "request-badge" }, picture, h("span", {}, requestText(request)));
  }

  window.DudabCards = { COLOURS, SYMBOLS, parse, describe, requestText, requestBadge, tile };
})();
