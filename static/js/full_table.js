// The full table, live: the events of the table arrive as Server-Sent Events; each one
// makes the page fetch its own board (in its language, with its own stack). The betting
// timer counts down to the server's deadline and warns at 10 and 5 seconds.
(function () {
  "use strict";

  var table = document.querySelector(".full-table");
  if (!table) return;
  var source = null;
  var refreshTimer = null;
  var dealtRound = null; // a round whose deal the board should show being dealt
  var voided = false;     // a round was voided: the board brings the player's notices
  var shown = {};         // rounds whose deal this page has shown already
  // What a test (or a curious player) can read: every event number seen, in order.
  window.tableEvents = { seqs: [], hello: [] };

  function board() { return document.getElementById("board"); }

  function refresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () {
      var b = board();
      // Let a deal on screen finish turning its cards before the board changes again.
      if (b && b.classList.contains("dealing") && !b.classList.contains("revealed") && !dealtRound) {
        refreshTimer = setTimeout(refresh, 300);
        return;
      }
      var params = [];
      if (dealtRound && !shown[dealtRound]) { params.push("dealt=" + dealtRound); shown[dealtRound] = true; }
      if (voided) params.push("notices=1");
      dealtRound = null;
      voided = false;
      var url = table.dataset.boardUrl + (params.length ? "?" + params.join("&") : "");
      window.htmx.ajax("GET", url, { source: table, target: "#board", swap: "outerHTML" });
    }, 60);
  }

  // The chat: the log is fetched when a message comes or goes; a message also shows for
  // a while beside its writer's seat (text only: textContent, never HTML).
  var BUBBLE_MS = 8000;
  var bubbles = {}; // seat -> {message, text, until}
  var chatTimer = null;

  function chatBody() { return document.getElementById("chat-body"); }

  function chatRefresh(whole) {
    var body = chatBody();
    if (!body) return;
    clearTimeout(chatTimer);
    chatTimer = setTimeout(function () {
      var url = body.dataset.logUrl;
      if (whole) {
        window.htmx.ajax("GET", url.split("?")[0], { source: body, target: "#chat-body", swap: "outerHTML" });
      } else {
        window.htmx.ajax("GET", url, { source: body, target: "#chat-log", swap: "outerHTML" });
      }
    }, 60);
  }

  function showBubbles() {
    var now = Date.now();
    document.querySelectorAll(".seat .chat-bubble").forEach(function (el) { el.remove(); });
    Object.keys(bubbles).forEach(function (seat) {
      var bubble = bubbles[seat];
      if (bubble.until <= now) { delete bubbles[seat]; return; }
      var place = document.querySelector(".seat[data-seat='" + seat + "']");
      if (!place) return;
      var el = document.createElement("span");
      el.className = "chat-bubble";
      el.dataset.message = String(bubble.message);
      el.setAttribute("aria-hidden", "true"); // the log reads it out once
      el.textContent = bubble.text;
      place.appendChild(el);
    });
  }

  function chatEvent(data) {
    if (data.kind === "chat") {
      bubbles[data.seat] = { message: data.message, text: data.text, until: Date.now() + BUBBLE_MS };
      showBubbles();
      setTimeout(showBubbles, BUBBLE_MS + 50);
      chatRefresh(false);
      window.casinoSound && window.casinoSound.play("tick");
    } else if (data.kind === "chat_removed") {
      Object.keys(bubbles).forEach(function (seat) {
        if (bubbles[seat].message === data.message) delete bubbles[seat];
      });
      showBubbles();
      var row = document.getElementById("chat-message-" + data.message);
      if (row) row.remove();
      if (data.player === table.dataset.me) chatRefresh(true);
    }
  }

  // The window opens and closes (seeds 000/001: "Chat" and the "x"); the page remembers.
  function chatOpen(open) {
    var win = document.getElementById("chat");
    if (!win) return;
    win.hidden = !open;
    document.querySelectorAll("[data-chat-toggle]").forEach(function (button) {
      if (button.classList.contains("chat-toggle")) button.setAttribute("aria-expanded", String(open));
    });
    try { window.localStorage.setItem("casino.chat", open ? "open" : "closed"); } catch (e) { /* private mode */ }
  }
  try { if (window.localStorage.getItem("casino.chat") === "closed") chatOpen(false); } catch (e) { /* private mode */ }
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("[data-chat-toggle]");
    if (!toggle) return;
    var win = document.getElementById("chat");
    var open = toggle.classList.contains("chat-close") ? false : win.hidden;
    chatOpen(open);
    if (open) { var input = document.getElementById("chat-text"); if (input) input.focus(); }
    else { var opener = document.querySelector(".chat-toggle"); if (opener) opener.focus(); }
  });

  function handle(event) {
    var data = JSON.parse(event.data);
    if (data.kind === "hello") { window.tableEvents.hello.push(data.pid); return; }
    window.tableEvents.seqs.push(data.seq);
    table.dataset.eventSeq = String(data.seq);
    if (data.kind === "chat" || data.kind === "chat_removed") { chatEvent(data); return; }
    if (data.kind === "chat_unmuted") { if (data.player === table.dataset.me) chatRefresh(true); return; }
    if ((data.kind === "sit" || data.kind === "leave") && data.player === table.dataset.me) chatRefresh(true);
    if (data.kind === "card" || data.kind === "result") dealtRound = data.round;
    if (data.kind === "round_void") voided = true;
    if (data.kind === "bets" || data.kind === "decision") window.casinoSound && window.casinoSound.play("chip");
    refresh();
  }

  function connect() {
    if (!window.EventSource) return;
    var url = table.dataset.eventsUrl + "?after=" + encodeURIComponent(table.dataset.eventSeq || "0");
    source = new EventSource(url);
    source.onmessage = handle;
    // The browser reconnects by itself (with Last-Event-ID) when the connection drops.
  }

  // The timer: the deadline is the server's; the page only shows what is left of it.
  var warned = {};
  function tick() {
    var timer = document.querySelector(".betting-timer[data-deadline]");
    if (!timer) return;
    var left = Math.max(0, Math.ceil((Date.parse(timer.dataset.deadline) - Date.now()) / 1000));
    var total = Number(timer.dataset.seconds) || 15;
    timer.querySelector(".timer-seconds").textContent = String(left);
    var bar = timer.querySelector(".timer-bar span");
    if (bar) bar.style.width = Math.min(100, (left / total) * 100) + "%";
    timer.classList.toggle("hurry", left <= 5);
    var key = timer.dataset.deadline;
    var announcer = document.getElementById("timer-announcer");
    if (left === 10 && !warned[key + "10"]) {
      warned[key + "10"] = true;
      if (announcer) announcer.textContent = table.dataset.warnTen;
      window.casinoSound && window.casinoSound.play("tick");
    } else if (left === 5 && !warned[key + "5"]) {
      warned[key + "5"] = true;
      if (announcer) announcer.textContent = table.dataset.warnFive;
      window.casinoSound && window.casinoSound.play("tick");
    }
  }
  setInterval(tick, 250);

  // "Sit here" on a free seat chooses it in the sitting form.
  document.addEventListener("click", function (event) {
    var sit = event.target.closest && event.target.closest("[data-sit]");
    if (!sit) return;
    var select = document.getElementById("id_seat");
    if (select) {
      select.value = sit.dataset.sit;
      noteSitChoice();
    }
    var amount = document.getElementById("id_sit_amount");
    if (amount) amount.focus();
  });

  // Taking a seat: another player's event draws the sitting form anew (the free seats may
  // have changed). The new form keeps the seat (while it is still free) and the chips this
  // player chose, and the focus, instead of going back to its defaults under their hands.
  var sitChoice = null; // {seat, amount, focused}
  function noteSitChoice() {
    var select = document.getElementById("id_seat");
    var amount = document.getElementById("id_sit_amount");
    if (select && amount) sitChoice = { seat: select.value, amount: amount.value };
  }
  function keepSitChoice() {
    var select = document.getElementById("id_seat");
    var amount = document.getElementById("id_sit_amount");
    if (!select || !amount) { sitChoice = null; return; } // seated: nothing to keep
    if (!sitChoice) return;
    var free = Array.prototype.some.call(select.options, function (option) {
      return option.value === sitChoice.seat;
    });
    if (free) select.value = sitChoice.seat;
    amount.value = sitChoice.amount;
    if (sitChoice.focused) {
      var focused = document.getElementById(sitChoice.focused);
      if (focused) focused.focus();
    }
  }

  // The cut: show where the yellow card goes. Another player's event refreshes the board;
  // the new board keeps the place this player chose for the offer (and the slider's focus).
  var cutChoice = null; // {range: "min:max", value, focused}
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_seat" || event.target.id === "id_sit_amount") noteSitChoice();
    if (event.target.id === "cut-position") {
      cutChoice = { range: event.target.min + ":" + event.target.max, value: event.target.value };
      var output = document.getElementById("cut-output");
      if (output) output.textContent = event.target.value;
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement;
    if (cutChoice && event.detail.target === board()) cutChoice.focused = !!active && active.id === "cut-position";
    if (sitChoice && event.detail.target === board()) {
      var id = active && active.id;
      sitChoice.focused = id === "id_seat" || id === "id_sit_amount" ? id : null;
    }
  });

  function keepCutChoice() {
    var range = document.getElementById("cut-position");
    if (!range) { cutChoice = null; return; }
    if (cutChoice && cutChoice.range === range.min + ":" + range.max) {
      range.value = cutChoice.value;
      if (cutChoice.focused) range.focus();
    }
    var output = document.getElementById("cut-output");
    if (output) output.textContent = range.value;
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var b = board();
    var body = chatBody();
    if (body && event.detail.elt === body && event.detail.requestConfig && event.detail.requestConfig.verb === "post") {
      var input = document.getElementById("chat-text");
      if (input) input.focus();
    }
    var log = document.getElementById("chat-log");
    if (log && (event.detail.elt === log || event.detail.elt === body)) log.scrollTop = log.scrollHeight;
    if (b && event.detail.elt === b) {
      showBubbles();
      if (b.classList.contains("dealing") && b.dataset.round) shown[b.dataset.round] = true;
      keepCutChoice();
      keepSitChoice();
      tick();
    }
  });

  connect();
  tick();
  keepCutChoice();
  var startLog = document.getElementById("chat-log");
  if (startLog) startLog.scrollTop = startLog.scrollHeight;
})();
