// The full table, live: the events of the table arrive as Server-Sent Events. An event
// that carries its whole change (a seat's chips, its Deal or Pass with the stakes it plays
// when it changed them, a player sitting down
// or leaving, a new round's opening, the end of betting, a new shoe's cut offered to
// another seat) is drawn from the event alone; for what an event cannot carry (a coup's
// cards and statistics, a new shoe, its cut and burn, a void, a gap in the event numbers)
// the page fetches its own board (in its language, with its own stack).
// The betting timer counts down to the server's deadline and warns at 10 and 5 seconds.
(function () {
  "use strict";

  var table = document.querySelector(".full-table");
  if (!table) return;
  var source = null;
  var refreshTimer = null;
  var dealtRound = null; // a round whose deal the board should show being dealt
  var voided = false;     // a round was voided: the board brings the player's notices
  var shown = {};         // rounds whose deal this page has shown already
  // What a test (or a curious player) can read: every event number seen, in order, and
  // how many boards this page fetched and for which events. While a board fetch is due
  // (not sent yet) the table carries data-board-due.
  window.tableEvents = { seqs: [], hello: [], boards: 0, fetchedFor: [] };

  function board() { return document.getElementById("board"); }
  function minePart() { return document.getElementById("board-mine"); } // a seated viewer's

  var words = {};
  var wordsData = document.getElementById("full-table-words");
  if (wordsData) words = JSON.parse(wordsData.textContent);
  var me = table.dataset.me;
  var lastSeq = Number(table.dataset.eventSeq || "0");
  // Events drawn from their data since the board now on the page was asked for (and the
  // chat's, which the board does not show): a board drawn before one of them committed
  // gets it drawn again (each draw sets, so twice is harmless).
  var drawn = [];
  var ownRequests = 0; // this page's own actions in flight: their answers draw the board

  function money(cents) {
    return window.casinoMoney ? window.casinoMoney(cents) : String(cents / 100);
  }

  function seatEl(number) { return document.querySelector(".seats .seat[data-seat='" + number + "']"); }

  function child(el, cls, tag) {
    var found = el.querySelector("." + cls);
    if (!found) {
      found = document.createElement(tag || "span");
      found.className = cls;
      el.appendChild(found);
    }
    return found;
  }

  // A seat's bets as chips on the seat's own boxes, one a spot of the table (the letters
  // seats.html gives the seats), as seats.html draws them; a box without a bet stays empty.
  function drawStakes(data) {
    var seat = seatEl(data.seat);
    if (!seat || seat.classList.contains("free")) return;
    var old = seat.querySelector(".seat-bets");
    var stakes = data.stakes || {};
    var byLetter = {};
    (words.spots || []).forEach(function (pair) { if (stakes[pair[0]]) byLetter[pair[1]] = stakes[pair[0]]; });
    var seats = document.querySelector(".seats[data-letters]");
    var letters = seats ? JSON.parse(seats.dataset.letters) : ["P", "B", "T"];
    var bets = document.createElement("span");
    bets.className = "seat-bets";
    letters.forEach(function (letter) {
      var amount = byLetter[letter] || 0;
      var bet = document.createElement("span");
      bet.className = "seat-bet seat-bet-" + letter + (amount ? " has-bet" : "");
      var abbr = document.createElement("abbr");
      abbr.textContent = letter;
      bet.appendChild(abbr);
      if (amount) {
        bet.appendChild(document.createTextNode(" "));
        if (window.casinoChipStack) bet.appendChild(window.casinoChipStack(amount));
        var figure = document.createElement("span");
        figure.className = "seat-amount";
        figure.textContent = money(amount);
        bet.appendChild(figure);
      } else {
        bet.setAttribute("aria-hidden", "true");
      }
      bets.appendChild(bet);
    });
    if (old) { old.replaceWith(bets); return; }
    var status = seat.querySelector(".seat-status");
    seat.insertBefore(bets, status || null);
  }

  // The player's own chips, laid out on this page: on their seat's boxes at once.
  document.addEventListener("casino:layout", function (event) {
    var b = board();
    if (b && b.dataset.mySeat) drawStakes({ seat: b.dataset.mySeat, stakes: event.detail.stakes });
  });

  function drawDecision(seatNumber, decision) {
    var seat = seatEl(seatNumber);
    if (!seat || seat.classList.contains("free")) return;
    ["deal", "pass", "timeout"].forEach(function (d) { seat.classList.remove("decided-" + d); });
    seat.classList.add("decided-" + decision);
    child(seat, "seat-status").textContent = words[decision] || "";
  }

  function seatLabel(number) { return (words.seat || "%(number)s").replace("%(number)s", String(number)); }

  function drawSeat(data, taken) {
    var seat = seatEl(data.seat);
    if (!seat) return;
    var holder = document.querySelector(".shoe-holder[data-seat='" + data.seat + "']");
    if (holder && !taken) holder.remove();
    var seated = !!board() && board().dataset.mySeat;
    while (seat.firstChild) seat.removeChild(seat.firstChild);
    seat.className = "seat" + (taken ? "" : " free");
    var number = document.createElement("span");
    number.className = "seat-number";
    number.textContent = seatLabel(data.seat);
    seat.appendChild(number);
    if (taken) {
      child(seat, "seat-player").textContent = data.player;
      var phase = board() ? board().dataset.phase : "";
      child(seat, "seat-status").textContent = phase ? (words.waits || "") : "";
    } else if (!seated) {
      var sit = document.createElement("a");
      sit.className = "button sit-here";
      sit.href = "#sit";
      sit.dataset.sit = String(data.seat);
      sit.textContent = words.sit_here || "";
      seat.appendChild(sit);
    } else {
      child(seat, "seat-free").textContent = words.free || "";
    }
    // The sitting form offers the free seats, the one chosen kept while it is free.
    var select = document.getElementById("id_seat");
    if (!select) return;
    var chosen = select.value;
    var free = Array.prototype.map.call(document.querySelectorAll(".seats .seat.free"), function (el) {
      return el.dataset.seat;
    });
    while (select.firstChild) select.removeChild(select.firstChild);
    free.forEach(function (number) {
      var option = document.createElement("option");
      option.value = number;
      option.textContent = number;
      select.appendChild(option);
    });
    if (free.indexOf(chosen) >= 0) select.value = chosen;
  }

  function drawClosed(data) {
    var b = board();
    if (!b) return;
    b.dataset.phase = "dealing";
    var timer = b.querySelector(".betting-timer");
    if (timer) timer.replaceWith(statusLine(words.closed));
    (data.left_out || []).forEach(function (number) { drawDecision(number, "timeout"); });
    b.querySelectorAll("#bet-form button").forEach(function (button) { button.disabled = true; });
    document.querySelectorAll("#table-controls .actions button:not(#btn-exit)").forEach(function (button) {
      button.disabled = true;
    });
  }

  // The line above the felt while no bets are taken, as timer.html draws it.
  function statusLine(text) {
    var line = document.createElement("p");
    line.className = "betting-timer closed";
    line.setAttribute("role", "status");
    line.textContent = text || "";
    return line;
  }

  function timerEl(deadline, seconds) {
    var el = document.createElement("div");
    el.className = "betting-timer";
    el.setAttribute("role", "timer");
    el.setAttribute("aria-label", words.time_left || "");
    el.dataset.deadline = deadline;
    el.dataset.seconds = String(seconds);
    var label = document.createElement("span");
    label.className = "timer-label";
    label.textContent = words.place_bets || "";
    var left = document.createElement("strong");
    left.className = "timer-seconds";
    left.textContent = String(secondsLeft(deadline));
    var unit = document.createElement("span");
    unit.className = "timer-unit";
    unit.textContent = words.seconds_unit || "";
    var bar = document.createElement("span");
    bar.className = "timer-bar";
    bar.setAttribute("aria-hidden", "true");
    bar.appendChild(document.createElement("span"));
    [label, left, unit].forEach(function (part) {
      el.appendChild(part);
      el.appendChild(document.createTextNode(" "));
    });
    el.appendChild(bar);
    return el;
  }

  // The board's attributes, not its classes: for its first frames htmx gives a swapped-in
  // board the classes of the one it replaced.
  function turning(b) { return b.hasAttribute("data-dealing") && !b.hasAttribute("data-revealed"); }

  // A new round opened before the last one's cards are on the board or while they are
  // still turning: drawn once they have turned (the outcome first, then the next round),
  // unless a board from the server shows the round by then; fetched after 15 s of waiting.
  function drawOpenLater(data, tries) {
    setTimeout(function () {
      var b = board();
      if (!b || b.dataset.phase === "betting") return;
      if (turning(b) || b.dataset.phase === "dealing") {
        if (tries < 75) { drawOpenLater(data, tries + 1); return; }
      } else if (drawOpen(data)) return;
      fetchFor(data);
    }, 200);
  }

  // A new round: its timer, every seat deciding, and for a seated player the spots (from
  // the board's template of them), an empty stake and the buttons. False (the board is
  // fetched) where the board cannot take it as it stands: a round taking bets already on
  // it, a table's first round (its note), a seat without the spots' template.
  function drawOpen(data) {
    var b = board();
    if (!b || b.dataset.phase === "betting" || b.querySelector(".place-bets")) return false;
    if (turning(b) || b.dataset.phase === "dealing") { drawOpenLater(data, 0); return true; }
    var template = b.dataset.mySeat ? b.querySelector("template#next-spots") : null;
    if (b.dataset.mySeat && !template) return false;
    b.dataset.phase = "betting";
    var timer = b.querySelector(".betting-timer");
    var fresh = timerEl(data.deadline, data.seconds);
    if (timer) timer.replaceWith(fresh);
    else b.insertBefore(fresh, b.querySelector(".felt"));
    pruneNotices(); // a round has opened: what the player was told goes once seen a while
    b.querySelectorAll("[data-hand-over]").forEach(function (el) { el.remove(); }); // the shoe's holder
    document.querySelectorAll(".seats .seat:not(.free)").forEach(function (seat) {
      ["deal", "pass", "timeout"].forEach(function (d) { seat.classList.remove("decided-" + d); });
      seat.querySelectorAll(".seat-cut").forEach(function (el) { el.remove(); });
      drawStakes({ seat: seat.dataset.seat, stakes: {} }); // its boxes, empty
      child(seat, "seat-status").textContent = words.deciding || "";
    });
    if (template) {
      if (minePart()) minePart().dataset.myDecision = "";
      template.replaceWith(template.content.cloneNode(true));
      var form = b.querySelector("#bet-form");
      if (form && window.htmx) window.htmx.process(form);
      if (window.casinoLayout) window.casinoLayout.read();
      var stack = document.getElementById("stack");
      var available = document.getElementById("available");
      if (stack && available) available.textContent = stack.textContent;
      var stake = document.getElementById("total-stake");
      if (stake) stake.textContent = money(0);
      var choice = document.getElementById("my-decision");
      if (choice && choice.parentNode) choice.parentNode.remove();
      document.querySelectorAll("#table-controls .actions button").forEach(function (button) {
        button.disabled = false;
      });
      if (window.casinoMarkChosen) window.casinoMarkChosen();
    }
    tick();
    return true;
  }

  // A new shoe's cut offered to a seat, or passed on by one: the line above the felt and
  // the seat's mark, as timer.html and seats.html draw them. Where the offer's form comes
  // (offered to this player) or is on the page still, the board is fetched.
  function drawCut(data, mine) {
    var b = board();
    if (!b || b.dataset.phase || b.querySelector(".cut-offer")) return false;
    if (mine && data.kind === "cut_offer") return false;
    document.querySelectorAll(".seats .seat-cut").forEach(function (el) { el.remove(); });
    if (data.kind === "cut_declined") return true; // the offer's next step comes with it
    var seat = seatEl(data.seat);
    if (seat && !seat.classList.contains("free")) child(seat, "seat-cut").textContent = words.offered_cut || "";
    var line = statusLine((words.cut_offered || "").replace("%(seat)s", String(data.seat)));
    var timer = b.querySelector(".betting-timer");
    if (timer) timer.replaceWith(line);
    else b.insertBefore(line, b.querySelector(".felt"));
    return true;
  }

  // Draws an event from its data; false when the page needs its board for it.
  function draw(data) {
    var b = board();
    var mine = b && b.dataset.mySeat && String(data.seat) === b.dataset.mySeat;
    if (data.kind === "bets") {
      if (mine && window.casinoLayout && window.casinoLayout.active()) {
        // This page lays its player's chips out: until they decide, what it shows is
        // newer than what it sent (the event of a layout sent before the last chips).
        var decided = minePart() && minePart().dataset.myDecision;
        if (decided || sameStakes(data.stakes)) drawStakes(data);
        return true;
      }
      drawStakes(data);
      // This player's own chips: their request's answer draws them. From another tab of
      // theirs, the spots and the status bar here need the board.
      return !(mine && !ownRequests && !sameStakes(data.stakes));
    }
    if (data.kind === "decision") {
      if (data.stakes) drawStakes(data); // the stakes as the Deal plays them
      drawDecision(data.seat, data.decision);
      var part = minePart();
      return !(mine && !ownRequests && (!part || part.dataset.myDecision !== data.decision));
    }
    if (data.kind === "sit" || data.kind === "leave") {
      if (data.player === me) return false; // this page sits down or stands up: its board
      drawSeat(data, data.kind === "sit");
      return true;
    }
    if (data.kind === "betting_closed") { drawClosed(data); return true; }
    if (data.kind === "cut_offer" || data.kind === "cut_declined") return drawCut(data, mine);
    if (data.kind === "round_open") {
      // A board drawn after the round opened (its events' number says so) shows it
      // already: the round and its event are written together.
      var shown = board();
      if (shown && Number(shown.dataset.seq) >= data.seq) return true;
      return drawOpen(data);
    }
    return false;
  }

  function sameStakes(stakes) {
    var shown = {};
    document.querySelectorAll("#bet-form .spot[data-kind]").forEach(function (spot) {
      var stake = Number(spot.dataset.stake || "0");
      if (stake) shown[spot.dataset.kind] = stake;
    });
    var given = stakes || {};
    var keys = Object.keys(shown).concat(Object.keys(given));
    return keys.every(function (kind) { return (shown[kind] || 0) === (given[kind] || 0); });
  }

  // The board fetched because of this event (what tableEvents.fetchedFor lists).
  function fetchFor(data) {
    window.tableEvents.fetchedFor.push(data.seq);
    refresh();
  }

  function refresh() {
    clearTimeout(refreshTimer);
    table.dataset.boardDue = "1";
    refreshTimer = setTimeout(function () {
      var b = board();
      // Let a deal on screen finish turning its cards before the board changes again.
      if (b && turning(b) && !dealtRound) {
        refreshTimer = setTimeout(refresh, 300);
        return;
      }
      var params = [];
      if (dealtRound && !shown[dealtRound]) { params.push("dealt=" + dealtRound); shown[dealtRound] = true; }
      if (voided) params.push("notices=1");
      dealtRound = null;
      voided = false;
      var url = table.dataset.boardUrl + (params.length ? "?" + params.join("&") : "");
      window.tableEvents.boards += 1;
      delete table.dataset.boardDue;
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
    // A message support removed keeps its event, without its text: nothing to draw.
    if (data.kind === "chat" && data.removed) return;
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

  // The window opens and closes (seeds 000/001: "Chat" and the "x", or Escape in it); it
  // lies over the page (table.css), closed until the player opens it; the page remembers.
  function chatOpen(open) {
    var win = document.getElementById("chat");
    if (!win) return;
    win.hidden = !open;
    document.querySelectorAll("[data-chat-toggle]").forEach(function (button) {
      if (button.classList.contains("chat-toggle")) button.setAttribute("aria-expanded", String(open));
    });
    try { window.localStorage.setItem("casino.chat", open ? "open" : "closed"); } catch (e) { /* private mode */ }
  }
  var chatStored = null;
  try { chatStored = window.localStorage.getItem("casino.chat"); } catch (e) { /* private mode */ }
  if (chatStored !== "open") chatOpen(false);
  document.addEventListener("keydown", function (event) {
    var win = document.getElementById("chat");
    if (event.key !== "Escape" || !win || win.hidden || !win.contains(document.activeElement)) return;
    chatOpen(false);
    var opener = document.querySelector(".chat-toggle");
    if (opener) opener.focus();
  });
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
    var gap = data.seq !== lastSeq + 1; // events this page never got: its board catches up
    lastSeq = Math.max(lastSeq, data.seq);
    var b = board();
    if (data.kind === "chat" || data.kind === "chat_removed" || data.kind === "chat_unmuted") {
      // The chat's, drawn beside the board: nothing of the board changes with them.
      if (data.kind === "chat_unmuted") { if (data.player === me) chatRefresh(true); }
      else chatEvent(data);
      if (!gap) drawn.push(data);
    } else {
      if ((data.kind === "sit" || data.kind === "leave") && data.player === me) chatRefresh(true);
      if (data.kind === "card" || data.kind === "result") dealtRound = data.round;
      if (data.kind === "round_void") voided = true;
      if (data.kind === "round_open") roundsOpened += 1;
      if (data.kind === "bets" || data.kind === "decision") window.casinoSound && window.casinoSound.play("chip");
      if (draw(data) && !gap) { drawn.push(data); }
      else { fetchFor(data); return; }
    }
    // The board on the page shows the table as of this event.
    if (b && !gap && Number(b.dataset.seq) === data.seq - 1) b.dataset.seq = String(data.seq);
    else if (gap) refresh();
  }

  // The browser reconnects by itself (with Last-Event-ID) when the connection drops. An
  // error answer to that (a web process without its database answers 503) closes the
  // stream for good: the page opens a new one from the last event it drew, after a pause
  // that doubles with each failure in a row (1 s up to 30 s).
  var retryDelay = 1000;
  function connect() {
    if (!window.EventSource) return;
    var url = table.dataset.eventsUrl + "?after=" + encodeURIComponent(table.dataset.eventSeq || "0");
    var opened = new EventSource(url);
    source = opened;
    opened.onmessage = handle;
    opened.onopen = function () { retryDelay = 1000; };
    opened.onerror = function () {
      if (opened.readyState !== EventSource.CLOSED || source !== opened) return;
      window.tableEvents.reconnects = (window.tableEvents.reconnects || 0) + 1;
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    };
  }

  // The timer: the deadline is the server's; the page only shows what is left of it.
  var warned = {};
  function secondsLeft(deadline) { return Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000)); }
  function tick() {
    pruneNotices();
    var timer = document.querySelector(".betting-timer[data-deadline]");
    if (!timer) return;
    var left = secondsLeft(timer.dataset.deadline);
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
    } else if (left > 0 && left < 5 && !warned[key + left]) {
      warned[key + left] = true; // the last seconds tick, one a second
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

  // This page's own actions (a chip, Deal, Pass...): their answers bring its board.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form") && table.contains(event.detail.elt)) ownRequests += 1;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("form") && table.contains(event.detail.elt)) ownRequests = Math.max(0, ownRequests - 1);
  });
  // A board drawn by the server before an event committed does not show it: the events
  // drawn from their data since are drawn on it again; those it already shows are done.
  // The same for the player's own part (the answer to their chip or decision, with their
  // spots and buttons), without forgetting events the board may still need.
  document.addEventListener("htmx:afterSwap", function (event) {
    // Still before the swapped board is painted: its timer shows what is left now, not
    // what was left when the server drew it, and the player's notices stay on it.
    tick();
    var swapped = event.detail.elt;
    if (swapped && (swapped.id === "board" || swapped.id === "board-mine")) {
      var config = event.detail.requestConfig;
      var from = config && config.elt;
      keepNotices(!!from && from !== table && from !== document.body);
    }
    var part = minePart();
    var target = event.detail.target;
    if (part && target && target.id === "board-mine") { // swapped out: the old element
      var since = Number(part.dataset.seq || "0");
      drawn.forEach(function (data) { if (data.seq > since) draw(data); });
      if (window.casinoMarkChosen) window.casinoMarkChosen();
      return;
    }
    var b = board();
    if (!b || event.detail.target !== b && event.detail.elt !== b) return;
    var seq = Number(b.dataset.seq || "0");
    drawn = drawn.filter(function (data) { return data.seq > seq; });
    drawn.forEach(function (data) {
      draw(data);
      if (data.seq === seq + 1) seq = data.seq; // shown now, with nothing missing before it
    });
    b.dataset.seq = String(seq);
    // Older than events this page has had and cannot draw (an answer drawn before a
    // board fetched since): the board is fetched again, unless a fetch is due already.
    if (seq < lastSeq && !table.dataset.boardDue) refresh();
  });

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

  // The player's notices and refusals (the answer to their own action, or a board asked
  // for with ?notices=1) stay while the board is drawn anew for other events, until the
  // player has seen them: until dismissed (×), until their next action is answered with
  // what it says, or once a round has opened since and they have been on screen
  // NOTICE_MS (counted again from when a hidden page shows).
  var NOTICE_MS = 8000;
  var NOTICE_PLACES = "#board-mine > .form-errors, #board-mine > p.message," +
    " #board > .form-errors, #board > p.message, #sit > .form-errors";
  var notices = []; // {el, sit, since, opened}
  var roundsOpened = 0; // round_open events this page has had

  function noteNotice(el) {
    el.classList.add("kept-notice");
    var close = document.createElement("button");
    close.type = "button";
    close.className = "notice-dismiss";
    close.setAttribute("aria-label", words.dismiss || "");
    close.textContent = "×";
    el.appendChild(close);
    var parent = el.parentNode;
    notices.push({ el: el, sit: !!parent && parent.id === "sit", since: Date.now(), opened: roundsOpened });
  }

  // Where the board writes a spectator's notices: before the timer, the cut and the felt.
  function noticePlace(b) { return b.querySelector(":scope > .betting-timer, :scope > .cut-offer, :scope > .felt"); }

  // The answer to the player's own chip, layout or decision is their part of the board
  // (retargeted to #board-mine). A board drawn without that part (a spectator's board that
  // an older fetch brought back, or the sitting answer's board waiting for the cards to
  // turn) cannot take it: the whole board is fetched instead, with the decision on it.
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.getResponseHeader("HX-Retarget") !== "#board-mine" || minePart()) return;
    event.preventDefault();
    refresh();
  });

  // A kept notice put back where the server writes it; false when that place is gone.
  function placeNotice(notice) {
    if (notice.sit) {
      var panel = document.getElementById("sit");
      if (!panel || panel.hidden) return false;
      panel.insertBefore(notice.el, panel.querySelector(":scope > form, :scope > p.message"));
      return true;
    }
    var mine = minePart();
    if (mine) { mine.appendChild(notice.el); return true; }
    var b = board();
    if (!b) return false;
    b.insertBefore(notice.el, noticePlace(b));
    return true;
  }

  function keepNotices(own) {
    if (own) { // the answer to this player's action tells what is to be told now
      notices = notices.filter(function (notice) { return document.contains(notice.el); });
    }
    notices = notices.filter(function (notice) { return document.contains(notice.el) || placeNotice(notice); });
    document.querySelectorAll(NOTICE_PLACES).forEach(function (el) {
      if (!el.classList.contains("kept-notice")) noteNotice(el);
    });
  }

  function pruneNotices() {
    var now = Date.now();
    notices = notices.filter(function (notice) {
      if (document.hidden) { notice.since = now; return true; } // not seen yet
      if (roundsOpened > notice.opened && now - notice.since >= NOTICE_MS) {
        notice.el.remove();
        return false;
      }
      return true;
    });
  }

  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest(".notice-dismiss");
    if (!close) return;
    var el = close.parentNode;
    notices = notices.filter(function (notice) { return notice.el !== el; });
    if (el) el.remove();
  });

  // Sitting down while the last coup's cards still turn: the answer's board waits, so the
  // reveal is not cut short. The seat, the sitting panel and what the answer tells are
  // drawn now; the board is fetched once the cards have turned.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var b = board();
    var config = event.detail.requestConfig;
    var from = config && config.elt;
    if (!b || event.detail.target !== b || !event.detail.shouldSwap || !turning(b)) return;
    if (!from || !from.closest || !from.closest("#sit")) return;
    event.detail.shouldSwap = false;
    var answer = document.createElement("template");
    answer.innerHTML = event.detail.serverResponse;
    var fresh = answer.content.querySelector("#board");
    var panel = answer.content.querySelector("#sit");
    var shown = document.getElementById("sit");
    if (panel && shown) {
      panel.removeAttribute("hx-swap-oob");
      shown.replaceWith(panel);
      if (window.htmx) window.htmx.process(panel);
    }
    var number = fresh && fresh.dataset.mySeat;
    if (!number) { keepNotices(true); return; } // refused: the sitting panel says why
    var seat = seatEl(number);
    var mine = fresh.querySelector(".seat[data-seat='" + number + "']");
    if (seat && mine) seat.replaceWith(mine);
    fresh.querySelectorAll("#board-mine > .form-errors, #board-mine > p.message").forEach(function (el) {
      b.insertBefore(el, noticePlace(b));
    });
    keepNotices(true);
    refresh();
  });

  connect();
  keepNotices(true);
  tick();
  keepCutChoice();
  var startLog = document.getElementById("chat-log");
  if (startLog) startLog.scrollTop = startLog.scrollHeight;
})();
