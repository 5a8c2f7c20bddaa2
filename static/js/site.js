// Every page: on a narrow screen the header's links fold behind a Menu button (site.css hides
// them while it says aria-expanded="false"). Without this script the button stays hidden and
// the links stay shown.
"use strict";

(function () {
  const toggle = document.querySelector(".nav-toggle");
  if (!toggle) return;
  toggle.hidden = false;
  toggle.addEventListener("click", () => {
    toggle.setAttribute("aria-expanded", String(toggle.getAttribute("aria-expanded") !== "true"));
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") {
      toggle.setAttribute("aria-expanded", "false");
      toggle.focus();
    }
  });
})();

// A printable page (the round sheet): its Print button, shown only when this script runs.
(function () {
  for (const button of document.querySelectorAll("[data-print]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
})();
