// The organizer's tournament form: show only the settings and tiebreaks of the chosen format (and,
// for a knockout, of its table size). Without this script every group shows under a legend that says
// which format it is for, and the server ignores the groups that do not apply.
"use strict";

(function () {
  const form = document.getElementById("tournament-form");
  if (!form) return;
  const format = form.elements.format;
  const seats = form.elements.table_size;
  const rounds = form.elements.rounds;
  const advance = form.elements.advance;
  const computesItsRounds = (form.dataset.computesRounds || "").split(" ");

  function update() {
    const size = seats && Number(seats.value) === 2 ? "2" : "3+";
    for (const group of form.querySelectorAll("[data-formats]")) {
      const forFormat = group.dataset.formats.split(" ").includes(format.value);
      group.hidden = !forFormat || (group.dataset.seats !== undefined && group.dataset.seats !== size);
    }
    if (rounds) rounds.closest(".field").hidden = computesItsRounds.includes(format.value);
    if (advance && seats) offerFewerThanATable(Number(seats.value));
    offerTheFormatsTiebreaks();
  }

  // Tiebreaks the chosen format does not take (a Dobble series: none weighing the opponents met)
  // are not offered; one chosen before the format changed goes back to none.
  function offerTheFormatsTiebreaks() {
    for (const option of form.querySelectorAll("option[data-tiebreak-formats]")) {
      const offered = option.dataset.tiebreakFormats.split(" ").includes(format.value);
      option.disabled = option.hidden = !offered;
      if (!offered && option.selected) option.parentElement.value = "";
    }
  }

  // Fewer than a table's players go through from it: larger numbers are not offered.
  function offerFewerThanATable(tableSize) {
    for (const option of advance.options) {
      const tooMany = Number(option.value) >= tableSize;
      option.disabled = option.hidden = tooMany;
      if (tooMany && option.selected) advance.value = "0";
    }
  }

  format.addEventListener("change", update);
  if (seats) seats.addEventListener("change", update);
  update();
})();
