// The table in the browser: the keyboard of seeds 000/001, the chosen chip and spot,
// the reveal's announcement and sounds, and the clocks. htmx does every request; the
// server decides everything. Shared by the single-player and the full table.
(function () {
  "use strict";

  var SPOTS = ["player_pair", "player", "tie", "banker", "banker_pair"]; // left to right
  var KEY_SPOTS = { "1": "player", "2": "banker", "3": "tie", "4": "player_pair", "5": "banker_pair" };
  var chosenSpot = "player";

  function table() { return document.querySelector(".game-table"); }
  function board() { return document.getElementById("board"); }
  function spot(kind) {
    var b = board();
    return b ? b.querySelector('.spot[data-kind="' + kind + '"]') : null;
  }
  function availableSpots() {
    return SPOTS.filter(function (kind) { return spot(kind); });
  }
  function reducedMotion() {
    return document.body.classList.contains("reduced-motion") ||
      (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }
  function seconds(cssTime) {
    var value = parseFloat(cssTime);
    if (isNaN(value)) return 0;
    return /ms\s*$/.test(cssTime) ? value / 1000 : value;
  }

  // Sound: generated with the Web Audio API, off unless the player turned it on in
  // the preferences, and never before the page has had a click or a key.
  var sound = (function () {
    var context = null;
    function enabled() { return document.body.dataset.sound === "on"; }
    function unlock() {
      if (!enabled() || context) return;
      var Context = window.AudioContext || window.webkitAudioContext;
      if (Context) context = new Context();
    }
    function tone(frequency, start, length, type, volume) {
      var osc = context.createOscillator();
      var gain = context.createGain();
      osc.type = type || "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(volume || 0.15, start);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(start);
      osc.stop(start + length);
    }
    function noise(start, length, frequency, volume) {
      var buffer = context.createBuffer(1, Math.ceil(context.sampleRate * length), context.sampleRate);
      var data = buffer.getChannelData(0);
      for (var i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
      var source = context.createBufferSource();
      var filter = context.createBiquadFilter();
      var gain = context.createGain();
      source.buffer = buffer;
      filter.type = "bandpass";
      filter.frequency.value = frequency;
      gain.gain.value = volume;
      source.connect(filter).connect(gain).connect(context.destination);
      source.start(start);
    }
    var sounds = {
      chip: function (t) { noise(t, 0.05, 3200, 0.5); tone(2100, t, 0.05, "triangle", 0.08); },
      card: function (t) { noise(t, 0.12, 1400, 0.35); },
      win: function (t) { tone(523, t, 0.18); tone(659, t + 0.12, 0.18); tone(784, t + 0.24, 0.35); },
      tick: function (t) { tone(880, t, 0.08, "square", 0.05); }
    };
    return {
      unlock: unlock,
      play: function (name, delay) {
        if (!enabled() || !context || !sounds[name]) return;
        sounds[name](context.currentTime + (delay || 0));
      }
    };
  })();
  window.casinoSound = sound;
  document.addEventListener("pointerdown", sound.unlock, true);
  document.addEventListener("keydown", sound.unlock, true);

  // The chosen chip: the radios sit outside the board, so they keep their choice while
  // the board changes; remembered per table for a reload too.
  function chipKey() { var t = table(); return t ? "chip:" + t.dataset.table : "chip"; }
  function chosenChip() {
    var checked = document.querySelector('#chip-rack input[name="amount"]:checked');
    return checked ? Number(checked.value) : 0;
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches('#chip-rack input[name="amount"]')) {
      try { sessionStorage.setItem(chipKey(), event.target.value); } catch (e) { /* private mode */ }
    }
  });
  function restoreChip() {
    var saved = null;
    try { saved = sessionStorage.getItem(chipKey()); } catch (e) { /* private mode */ }
    if (!saved) return;
    var radio = document.querySelector('#chip-rack input[name="amount"][value="' + saved + '"]');
    if (radio) radio.checked = true;
  }

  // The chosen spot, for + − ↑ ↓; ← → move it.
  function chooseSpot(kind) {
    if (!spot(kind)) return;
    chosenSpot = kind;
    markChosen();
  }
  function markChosen() {
    var b = board();
    if (!b) return;
    b.querySelectorAll(".spot.selected").forEach(function (el) { el.classList.remove("selected"); });
    var el = spot(chosenSpot);
    if (el) el.classList.add("selected");
  }
  function moveSpot(direction) {
    var kinds = availableSpots();
    var index = kinds.indexOf(chosenSpot);
    if (index < 0) index = 0;
    chooseSpot(kinds[Math.max(0, Math.min(kinds.length - 1, index + direction))]);
  }

  function post(values) {
    var t = table();
    if (!t || !window.htmx) return;
    window.htmx.ajax("POST", t.dataset.betUrl, {
      source: board(), target: "#board", swap: "outerHTML", values: values
    });
  }
  function placeChip(kind) {
    var amount = chosenChip();
    if (!amount || !spot(kind)) return;
    chooseSpot(kind);
    sound.play("chip");
    post({ kind: kind, amount: String(amount) });
  }
  function changeStake(sign, units) {
    var t = table();
    if (!t || !spot(chosenSpot)) return;
    var values = { amount: String(Number(t.dataset.chipUnit) * units) };
    values[sign > 0 ? "kind" : "remove"] = chosenSpot;
    sound.play("chip");
    post(values);
  }
  function press(id) {
    var el = document.getElementById(id);
    if (el && !el.disabled) el.click();
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!board() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && target.closest && target.closest("input:not([type=radio]), textarea, select, dialog[open]")) return;
    var key = event.key;
    if (KEY_SPOTS[key]) { placeChip(KEY_SPOTS[key]); }
    else if (key === "0") { press("btn-rebet"); }
    else if (key === "Enter") {
      // A focused button or link does what it says; anywhere else Enter deals.
      if (target && target.closest && target.closest("button, a, summary")) return;
      press("btn-deal");
    }
    else if (key === "Delete" || key === ".") { press("btn-clear"); }
    else if (key === "+" || (key === "=" && event.shiftKey) || key === "ArrowUp") { changeStake(1, event.shiftKey ? 10 : 1); }
    else if (key === "-" || key === "_" || key === "\u2212" || key === "ArrowDown") { changeStake(-1, event.shiftKey ? 10 : 1); }
    else if (key === "ArrowLeft") { moveSpot(-1); }
    else if (key === "ArrowRight") { moveSpot(1); }
    else { return; }
    event.preventDefault();
  });

  // A click on a spot chooses it; a right-click takes its whole bet back.
  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest(".spot");
    if (el) { chosenSpot = el.dataset.kind; sound.play("chip"); }
    var opener = event.target.closest && event.target.closest("[data-open-dialog]");
    if (opener) {
      var dialog = document.getElementById(opener.getAttribute("data-open-dialog"));
      if (dialog && dialog.showModal) dialog.showModal();
    }
  });
  document.addEventListener("contextmenu", function (event) {
    var el = event.target.closest && event.target.closest(".spot");
    if (!el || !board() || !board().contains(el)) return;
    event.preventDefault();
    chooseSpot(el.dataset.kind);
    if (el.classList.contains("has-stake")) post({ remove: el.dataset.kind });
  });

  // The reveal: the cards turn (CSS), then the result is announced and heard.
  var pending = [];
  function reveal() {
    pending.forEach(clearTimeout);
    pending = [];
    var b = board();
    var announcer = document.getElementById("announcer");
    if (!b || !b.classList.contains("dealing")) return;
    var steps = Number(b.dataset.steps || 0);
    var style = getComputedStyle(table() || b);
    var step = seconds(style.getPropertyValue("--step-time")) || 0.7;
    var turn = seconds(style.getPropertyValue("--turn-time")) || 0.35;
    var quick = reducedMotion();
    var done = quick ? 0 : (steps * step + 0.4) * 1000;
    if (!quick) {
      for (var i = 0; i < steps; i++) sound.play("card", i * step + 0.3 + turn / 2);
    }
    pending.push(setTimeout(function () {
      var text = document.getElementById("reveal-announcement");
      if (announcer && text) announcer.textContent = text.content.textContent.trim();
      if (Number(b.dataset.net || 0) > 0) sound.play("win");
      b.classList.add("revealed");
    }, done));
  }

  // A DEAL's answer brings the statistics panel after the coup only; until the cards are
  // turned the panel shows the one from before it, which is the one on the page now:
  // copied into the new panel's empty "before" (data-previous), not sent again.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var fragment = event.detail.fragment;
    var before = fragment && fragment.querySelector && fragment.querySelector(".before[data-previous]");
    if (!before) return;
    var panel = event.detail.target;
    var shown = panel.querySelector(".swap > .outcome") || panel;
    Array.prototype.forEach.call(shown.childNodes, function (node) {
      if (node.nodeName !== "H2") before.appendChild(node.cloneNode(true));
    });
    before.removeAttribute("data-previous");
  });

  // After the settle (htmx gives a swapped-in element its new classes only then): a new
  // board, whoever asked for it (a button, the keyboard, the live events), is revealed.
  var shownBoard = null;
  document.addEventListener("htmx:afterSettle", function () {
    var b = board();
    if (b && b !== shownBoard) {
      shownBoard = b;
      markChosen();
      reveal();
    }
    var controls = document.getElementById("table-controls");
    if (controls && controls !== shownControls) { shownControls = controls; restoreChip(); }
  });
  var shownControls = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var announcer = document.getElementById("announcer");
    if (announcer) announcer.textContent = "";
  });

  // The clocks (seed 003): how long this tab has been at the table, and the local time.
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function startClocks() {
    var clocks = document.querySelector("[data-clocks]");
    if (!clocks) return;
    var key = "since:" + (table() ? table().dataset.table : "");
    var since = Date.now();
    try {
      since = Number(sessionStorage.getItem(key)) || since;
      sessionStorage.setItem(key, String(since));
    } catch (e) { /* private mode */ }
    var elapsed = clocks.querySelector("[data-elapsed]");
    var local = clocks.querySelector("[data-local]");
    var format = window.Intl ? new Intl.DateTimeFormat(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" }) : null;
    function tick() {
      var s = Math.floor((Date.now() - since) / 1000);
      elapsed.textContent = pad(Math.floor(s / 3600)) + ":" + pad(Math.floor(s / 60) % 60) + ":" + pad(s % 60);
      var now = new Date();
      local.textContent = format ? format.format(now) : pad(now.getHours()) + ":" + pad(now.getMinutes());
      local.setAttribute("datetime", now.toISOString());
    }
    tick();
    setInterval(tick, 1000);
  }

  function start() {
    shownBoard = board();
    shownControls = document.getElementById("table-controls");
    restoreChip();
    markChosen();
    reveal();
    startClocks();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
