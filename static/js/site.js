// Every page: on a narrow screen the header's links fold behind a Menu button (site.css hides
// them while it says aria-expanded="false"). Without this script the button stays hidden and
// the links stay shown.
"use strict";

// Times on the pages are shown in the browser's own zone: the server reads it from this cookie
// (dubium/timezones.py). Set when missing or changed, so the next page is in it.
(function () {
  const zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  const cookie = `tz=${zone}`;  // zone names ("Europe/Paris", "Etc/GMT+5") are valid cookie text as they are
  if (!document.cookie.split("; ").includes(cookie)) {
    document.cookie = `${cookie}; path=/; max-age=31536000; samesite=lax`;
  }
})();

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
