// The history's lines, the same on the table and the replay: each entry in words, the mover named
// "(computer)" from the place where they resigned or left (and throughout for a player who never
// came), and a line at that place saying so, for a player leaving is no move of the game.
(function () {
  "use strict";

  // events: the view's history; first: the first entry shown; describe(event, nameOf): an entry in
  // words; name(seat); gone: [{seat, at, why, words}] (at: the number of entries before the mark;
  // words: the line after the name, "was counted out: ...", else why);
  // absent(seat): the computer made all of that seat's moves; note(index): a node after an entry, or null.
  function lines(h, { events, first = 0, describe, name, gone, absent = () => false, note = () => null }) {
    const goneAt = new Map(gone.map((mark) => [mark.seat, mark.at]));
    const mover = (index) => (n) => (absent(n) || index >= (goneAt.get(n) ?? Infinity) ? `${name(n)} (computer)` : name(n));
    const shown = events.slice(first).map((event, i) => h("li", {}, describe(event, mover(first + i)), note(first + i)));
    // Latest first, so that each earlier mark's place is still counted in the game's own entries.
    const marks = gone.filter((mark) => mark.at >= first && mark.at <= events.length).sort((a, b) => b.at - a.at);
    for (const mark of marks) {
      shown.splice(mark.at - first, 0, h("li", { class: "history-gone" }, `${name(mark.seat)} ${mark.words || mark.why}`));
    }
    return shown;
  }

  window.DubiumHistory = { lines };
})();
