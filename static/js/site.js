// Behaviour every page shares; no inline script anywhere (the CSP forbids it).
(function () {
  "use strict";

  // The language switcher changes language as soon as one is chosen.
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("[data-submit-on-change]")) {
      event.target.form.submit();
    }
  });

  // An HTMX request the server refused or could not answer says so, in the page's
  // language, instead of silently doing nothing.
  function notice(text) {
    var box = document.getElementById("request-error");
    if (!box || !text) return;
    box.textContent = text;
    box.hidden = false;
  }
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var body = document.body.dataset;
    notice(status === 403 ? body.expiredMessage : status === 503 ? body.busyMessage : body.errorMessage);
  });
  document.addEventListener("htmx:sendError", function () {
    notice(document.body.dataset.offlineMessage);
  });
  document.addEventListener("htmx:beforeRequest", function () {
    var box = document.getElementById("request-error");
    if (box) box.hidden = true;
  });
})();
