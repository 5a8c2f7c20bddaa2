// Buttons and small forms that call the JSON API with the session's CSRF token, then reload
// (data-then="go": go to the match it answers with; "stay": the page's socket shows the change).
"use strict";

(function () {
  function csrfToken() {
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  async function call(url, body, method = "POST") {
    const response = await fetch(url, {
      method,
      credentials: "same-origin",
      keepalive: true,  // a resignation or a leave still reaches the server if the page goes elsewhere first
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: body ? JSON.stringify(body) : "{}",
    });
    const data = response.status === 204 ? null : await response.json().catch(() => null);
    if (!response.ok) {
      const message = (data && (data.message || data.detail)) || Object.values(data || {}).flat().join(" ") ||
        `The server said ${response.status}.`;
      throw new Error(message);
    }
    return data;
  }

  function report(error) {
    const box = document.getElementById("table-error") || document.getElementById("page-error");
    if (box) { box.textContent = error.message; box.hidden = false; } else { alert(error.message); }
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-api]");
    if (!button) return;
    event.preventDefault();
    if (button.dataset.confirm && !confirm(button.dataset.confirm)) return;
    button.disabled = true;
    try {
      const data = await call(button.dataset.api, null, button.dataset.method || "POST");
      if (button.dataset.then === "go" && data && data.id) location.href = `/match/${data.id}/`;
      else if (button.dataset.then === "stay") button.disabled = false;
      else location.reload();
    } catch (error) { report(error); button.disabled = false; }
  });

  document.addEventListener("submit", async (event) => {
    const form = event.target.closest("[data-api-form]");
    if (!form) return;
    event.preventDefault();
    const body = {};
    for (const field of form.elements) {
      if (!field.name || field.disabled) continue;
      let value = field.value;
      if (field.type === "checkbox") value = field.checked;
      else if (field.type === "number" || field.dataset.number !== undefined) value = Number(value);
      // Game options are named "opt:<name>" and travel together as "options".
      if (field.name.startsWith("opt:")) (body.options = body.options || {})[field.name.slice(4)] = value;
      else body[field.name] = value;
    }
    try {
      const data = await call(form.dataset.apiForm, body);
      if (form.dataset.then === "go" && data && data.id) location.href = `/match/${data.id}/`;
      else location.reload();
    } catch (error) { report(error); }
  });

  window.DubiumApi = { call, report };
})();
