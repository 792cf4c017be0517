// Behaviour every page shares; no inline script anywhere (the CSP forbids it).
(function () {
  "use strict";

  // What only a page with its script gets (the chat as a window over the table) hangs on
  // this class; without the script the page stays whole and in order.
  document.documentElement.classList.add("js");

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

  // The roads scroll sideways in their boxes: each opens at its newest column, with the
  // page and whenever the statistics are drawn anew. One that scrolls takes the focus, so
  // that it scrolls from the keyboard too.
  function roadsToNewest() {
    document.querySelectorAll("#shoe-stats .road-scroll").forEach(function (box) {
      box.scrollLeft = box.scrollWidth;
      if (box.scrollWidth > box.clientWidth) box.setAttribute("tabindex", "0");
      else box.removeAttribute("tabindex");
    });
  }
  var shownStats = null;
  document.addEventListener("htmx:afterSettle", function () {
    var stats = document.getElementById("shoe-stats");
    if (stats && stats !== shownStats) { shownStats = stats; roadsToNewest(); }
  });
  var shownWidth = window.innerWidth; // a phone's bars coming and going are no new width
  window.addEventListener("resize", function () {
    if (window.innerWidth === shownWidth) return;
    shownWidth = window.innerWidth;
    roadsToNewest();
  });

  // The table's sound button (accounts/sound_button.html): the sound goes on or off at
  // once; htmx stores the choice and answers with the button as stored; the player's
  // other tabs hear of it. A turn on is a click: the sound may start there.
  var channel = window.BroadcastChannel ? new BroadcastChannel("casino-sound") : null;
  function showSound(on) {
    document.body.dataset.sound = on ? "on" : "off";
    document.querySelectorAll(".sound-form").forEach(function (form) {
      var button = form.querySelector("[data-sound-toggle]");
      if (button) button.setAttribute("aria-pressed", String(on));
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-sound-toggle]");
    if (!button || !button.form) return;
    if (button.form.classList.contains("htmx-request")) { event.preventDefault(); return; }
    var on = button.form.elements.sound.value === "on";
    showSound(on);
    if (on && window.casinoSound) {
      window.casinoSound.unlock();
      window.casinoSound.play("chip");
    }
  });
  function soundForm(event) {
    var elt = event.detail.elt;
    return !!(elt && elt.classList && elt.classList.contains("sound-form"));
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!soundForm(event)) return;
    var on = document.body.dataset.sound === "on";
    if (event.detail.isError) showSound(!on); // not stored: as it was
    else if (channel) channel.postMessage({ sound: on });
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (soundForm(event)) showSound(document.body.dataset.sound !== "on");
  });
  if (channel) {
    channel.onmessage = function (event) {
      var on = !!(event.data && event.data.sound);
      showSound(on);
      document.querySelectorAll(".sound-form input[name=sound]").forEach(function (input) {
        input.value = on ? "off" : "on";
      });
    };
  }

  function start() {
    shownStats = document.getElementById("shoe-stats");
    roadsToNewest();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
