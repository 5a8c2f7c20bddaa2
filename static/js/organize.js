// The organizer's tournament form: show only the settings of the chosen format (and, for a
// knockout, of its table size). Without this script every group shows under a legend that says
// which format it is for, and the server ignores the groups that do not apply.
"use strict";

(function () {
  const form = document.getElementById("tournament-form");
  if (!form) return;
  const format = form.elements.format;
  const seats = form.elements.table_size;
  const rounds = form.elements.rounds;
  const computesItsRounds = ["round-robin", "knockout"];

  function update() {
    const size = seats && Number(seats.value) === 2 ? "2" : "3+";
    for (const group of form.querySelectorAll("[data-formats]")) {
      const forFormat = group.dataset.formats.split(" ").includes(format.value);
      group.hidden = !forFormat || (group.dataset.seats !== undefined && group.dataset.seats !== size);
    }
    if (rounds) rounds.closest(".field").hidden = computesItsRounds.includes(format.value);
  }

  format.addEventListener("change", update);
  if (seats) seats.addEventListener("change", update);
  update();
})();
