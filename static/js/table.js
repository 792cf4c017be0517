// The table in the browser: the keyboard of seeds 000/001, the chosen chip and spot,
// the single-player layout, the reveal's announcement and sounds, and the clocks. htmx
// does every request; the server decides everything. Shared by the single-player and
// the full table.
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
  window.casinoMarkChosen = markChosen; // the full table's script draws new spots
  function moveSpot(direction) {
    var kinds = availableSpots();
    var index = kinds.indexOf(chosenSpot);
    if (index < 0) index = 0;
    chooseSpot(kinds[Math.max(0, Math.min(kinds.length - 1, index + direction))]);
  }

  // The player's layout (data-local-layout) is laid out here, as at a casino's own
  // tables: a chip, −, a right-click, Clear and Same bet change it at once, checked as the
  // server checks a chip, in the server's words (#layout-refusals), and DEAL sends it
  // whole (its hidden fields, which the server checks all again), so a round is one
  // request. Without the script each chip is a POST of its own. At a full table
  // (data-layout-url) every seat sees the bets: the layout also goes to the server once
  // the player's chips pause (LAYOUT_PAUSE_MS), and Same bet is the server's (it knows
  // the player's last round there; the board carries no data-last).
  var layout = { stakes: {}, dirty: false, carried: false };
  var moneyFormat = null;
  function localLayout() {
    var t = table();
    return !!(t && t.hasAttribute("data-local-layout") && document.getElementById("deal-form"));
  }
  function money(cents) {
    if (!moneyFormat) {
      var data = document.getElementById("money-format");
      moneyFormat = data ? JSON.parse(data.textContent) : { prefix: "€", suffix: "", decimal: ".", group: "," };
    }
    var hundredths = cents % 100;
    var units = String((cents - hundredths) / 100).replace(/\B(?=(\d{3})+(?!\d))/g, moneyFormat.group);
    return moneyFormat.prefix + units + moneyFormat.decimal + (hundredths < 10 ? "0" : "") + hundredths + moneyFormat.suffix;
  }
  window.casinoMoney = money; // the full table's script draws other seats' chips with it
  // A stake as a stack of the table's chips, as the server draws it (baccarat/board/
  // chips.py, templates/jinja2/baccarat/chips.html): greedily from the largest chip, the
  // largest at the bottom, six at most; the amount is written beside it.
  var STACK_HEIGHT = 6;
  function chipValues() {
    var el = document.querySelector("[data-chip-values]");
    if (el) { try { return JSON.parse(el.dataset.chipValues); } catch (e) { /* drawn below */ } }
    return Array.prototype.map.call(
      document.querySelectorAll('#chip-rack input[name="amount"]'),
      function (input) { return Number(input.value); });
  }
  function chipStack(cents) {
    var stack = document.createElement("span");
    stack.className = "chip-stack";
    stack.setAttribute("aria-hidden", "true");
    var left = Math.max(0, Math.floor(Number(cents) || 0));
    var places = chipValues().map(function (value, i) { return [i + 1, Number(value)]; })
      .sort(function (a, b) { return b[1] - a[1]; });
    for (var i = 0; i < places.length && stack.childNodes.length < STACK_HEIGHT; i++) {
      if (places[i][1] <= 0) continue;
      var count = Math.floor(left / places[i][1]);
      left -= count * places[i][1];
      for (var c = 0; c < count && stack.childNodes.length < STACK_HEIGHT; c++) {
        var chip = document.createElement("span");
        chip.className = "stack-chip sc-" + places[i][0];
        stack.appendChild(chip);
      }
    }
    return stack;
  }
  window.casinoChipStack = chipStack;
  function readLayout() {
    var b = board();
    var stakes = {};
    if (b) {
      b.querySelectorAll(".spot[data-kind]").forEach(function (el) {
        var stake = Number(el.dataset.stake || 0);
        if (stake > 0) stakes[el.dataset.kind] = stake;
      });
    }
    layout = { stakes: stakes, dirty: false, carried: !!(b && b.hasAttribute("data-carried")) };
    writeDealForm();
  }
  // The layout in the forms that send it: DEAL's, and EXIT's total (it asks first when
  // the player laid chips out; the last round's bets shown again, untouched, are none).
  function writeDealForm() {
    var deal = document.getElementById("deal-form");
    var exit = document.getElementById("exit-form");
    var total = 0;
    function field(form, name, value) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      input.setAttribute("data-layout", "");
      form.appendChild(input);
    }
    [deal, exit].forEach(function (form) {
      if (form) form.querySelectorAll("input[data-layout]").forEach(function (input) { input.remove(); });
    });
    if (deal) field(deal, "layout", "on");
    Object.keys(layout.stakes).forEach(function (kind) {
      total += layout.stakes[kind];
      if (deal) field(deal, "stake_" + kind, String(layout.stakes[kind]));
    });
    if (exit) field(exit, "layout_stake", String(layout.carried ? 0 : total));
  }
  // Why the server would refuse these stakes, or null (betting.py: chip_edit, _check_stakes).
  function refusalOf(stakes) {
    var b = board();
    var unit = Number(table().dataset.chipUnit || 1);
    var total = 0;
    var kinds = Object.keys(stakes);
    for (var i = 0; i < kinds.length; i++) {
      var el = spot(kinds[i]);
      var stake = stakes[kinds[i]];
      if (!el || stake % unit) return "not_a_chip";
      if (el.dataset.step && stake % Number(el.dataset.step)) return "stake_not_commissionable";
      total += stake;
    }
    var spots = b.querySelector(".spots");
    if (spots && spots.hasAttribute("data-exclusive") && stakes.player && stakes.banker) return "combination_not_allowed";
    for (var j = 0; j < kinds.length; j++) {
      if (stakes[kinds[j]] > Number(spot(kinds[j]).dataset.max)) return "above_max";
    }
    if (total > Number(b.dataset.stack || 0)) return "stack_short";
    return null;
  }
  function clearRefusals() {
    var b = board();
    if (b) b.querySelectorAll(".form-errors").forEach(function (el) { el.remove(); });
  }
  function refuse(code) {
    var b = board();
    var refusals = document.getElementById("layout-refusals");
    var shown = refusals && refusals.content.querySelector('[data-code="' + code + '"]');
    clearRefusals();
    if (!b || !shown) return;
    var status = b.querySelector(".status-bar");
    var copy = shown.cloneNode(true);
    if (status) status.after(copy); else b.prepend(copy);
  }
  function drawLayout(keepRefusals) {
    var b = board();
    if (!b) return;
    if (!keepRefusals) clearRefusals();
    var total = 0;
    var spots = b.querySelector(".spots");
    b.querySelectorAll(".spot[data-kind]").forEach(function (el) {
      var stake = layout.stakes[el.dataset.kind] || 0;
      total += stake;
      el.dataset.stake = String(stake);
      el.classList.toggle("has-stake", stake > 0);
      // What became of the last round's bets goes once the layout changes.
      el.classList.remove("result-win", "result-lose", "result-push");
      var result = el.querySelector(".spot-result");
      if (result) result.remove();
      var box = el.querySelector(".spot-stake");
      box.textContent = "";
      var part = document.createElement("span");
      if (stake) {
        box.appendChild(chipStack(stake));
        part.className = "amount";
        part.textContent = money(stake);
      } else {
        part.className = "visually-hidden";
        part.textContent = spots ? spots.dataset.noBet : "";
      }
      box.appendChild(part);
      var minus = el.querySelector(".spot-remove");
      if (minus) minus.hidden = !stake;
    });
    if (spots) spots.classList.remove("carried");
    var note = b.querySelector(".carried-note");
    if (note) note.remove();
    var stack = Number(b.dataset.stack || 0);
    var stakeShown = document.getElementById("total-stake");
    if (stakeShown) stakeShown.textContent = money(total);
    // A full table draws them on the player's seat too (static/js/full_table.js).
    document.dispatchEvent(new CustomEvent("casino:layout", { detail: { stakes: layout.stakes } }));
    var available = document.getElementById("available");
    if (available) {
      available.textContent = "";
      var figure = document.createElement("span");
      figure.textContent = money(Math.max(0, stack - total));
      available.appendChild(figure);
    }
    writeDealForm();
  }
  function layOut(stakes) {
    var clean = {};
    Object.keys(stakes).forEach(function (kind) { if (stakes[kind] > 0) clean[kind] = stakes[kind]; });
    var refused = refusalOf(clean);
    if (refused) { refuse(refused); return; }
    layout = { stakes: clean, dirty: true, carried: false };
    drawLayout(false);
    laidOut();
  }

  // A full table: the layout goes to the server once the chips pause, unless DEAL, Pass
  // or Same bet (which send or replace it) come first. Taken, the answer is empty (204);
  // refused, it is the player's part of the board as the server holds it, with why,
  // drawn only if the layout is still the one sent and betting still open.
  var LAYOUT_PAUSE_MS = 400;
  var sendTimer = null;
  var sends = 0; // layouts sent; the answer to an older one is not drawn
  function laidOut() {
    var t = table();
    if (!t || !t.dataset.layoutUrl) return;
    clearTimeout(sendTimer);
    sendTimer = setTimeout(sendLayout, LAYOUT_PAUSE_MS);
  }
  function sendLayout() {
    var t = table();
    var b = board();
    if (!t || !b || b.dataset.phase !== "betting" || !localLayout() || !window.htmx) return;
    var values = { layout: "on", token: pressKey() };
    Object.keys(layout.stakes).forEach(function (kind) { values["stake_" + kind] = String(layout.stakes[kind]); });
    sends += 1;
    var sent = sends;
    window.htmx.ajax("POST", t.dataset.layoutUrl, {
      source: b, target: "#board-mine", swap: "outerHTML", values: values,
      headers: { "X-Layout-Send": String(sent) }
    });
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var sent = config && config.headers && config.headers["X-Layout-Send"];
    if (!sent) return;
    var b = board();
    if (Number(sent) !== sends || !b || b.dataset.phase !== "betting") event.detail.shouldSwap = false;
  });
  // The player's own Deal, Pass or Same bet: a layout not sent yet is not sent after it.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("#table-controls")) {
      clearTimeout(sendTimer);
      sends += 1;
      // Same bet replaces the layout with the server's: its answer's spots are drawn.
      if (elt.querySelector && elt.querySelector("#btn-rebet")) layout.dirty = false;
    }
  });
  // What the full table's script asks: whether this page lays the player's chips out (its
  // own seat's chips are then the page's, not an event's), and to read the spots the
  // page drew for a new round.
  window.casinoLayout = {
    active: function () { return localLayout(); },
    read: function () { if (localLayout()) readLayout(); }
  };
  function addLocal(kind, amount) {
    if (!amount || !spot(kind)) return;
    var placed = Object.assign({}, layout.stakes);
    placed[kind] = (placed[kind] || 0) + amount;
    var spots = board().querySelector(".spots");
    // A chip that cannot stand beside the last round's repeated bets replaces them.
    if (layout.carried && spots && spots.hasAttribute("data-exclusive") && placed.player && placed.banker) {
      placed = {};
      placed[kind] = amount;
    }
    layOut(placed);
  }
  function takeBackLocal(kind, amount) {
    if (!layout.stakes[kind]) return;
    var placed = Object.assign({}, layout.stakes);
    placed[kind] = amount ? Math.max(0, placed[kind] - amount) : 0;
    layOut(placed);
  }
  function rebetLocal() {
    var b = board();
    var last = b && b.dataset.last ? JSON.parse(b.dataset.last) : {};
    if (!Object.keys(last).length) { refuse("no_previous_bets"); return; }
    layOut(last);
  }
  // The spots' buttons, Clear and Same bet, before htmx sees them.
  document.addEventListener("click", function (event) {
    if (!localLayout() || !board()) return;
    var button = event.target.closest && event.target.closest("button");
    if (!button) return;
    var inBoard = board().contains(button);
    if (inBoard && button.classList.contains("spot-add")) {
      chooseSpot(button.value);
      sound.play("chip");
      addLocal(button.value, chosenChip());
    } else if (inBoard && button.classList.contains("spot-remove")) {
      chooseSpot(button.value);
      sound.play("chip");
      takeBackLocal(button.value, chosenChip());
    } else if (button.id === "btn-clear") {
      layOut({});
    } else if (button.id === "btn-rebet" && board().hasAttribute("data-last")) {
      rebetLocal();
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    // Clicked with a pointer: the focus leaves the button, as when the board was drawn
    // anew, so that Enter deals; pressed from the keyboard, it stays where it was.
    if (event.detail > 0) button.blur();
  }, true);

  // Each chip, Clear or Same bet sent to the server carries a key made for that press
  // (without this script, the one its form was drawn with): the server changes nothing
  // for a request it has seen already (a retry, a second submit).
  function pressKey() {
    var bytes = new Uint8Array(8);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.closest && elt.closest("form[data-press-key]")) {
      event.detail.parameters.token = pressKey();
    }
  });

  function post(values) {
    var t = table();
    if (!t || !window.htmx) return;
    values.token = pressKey();
    window.htmx.ajax("POST", t.dataset.betUrl, {
      source: board(), target: "#board", swap: "outerHTML", values: values
    });
  }
  function placeChip(kind) {
    var amount = chosenChip();
    if (!amount || !spot(kind)) return;
    chooseSpot(kind);
    sound.play("chip");
    if (localLayout()) addLocal(kind, amount);
    else post({ kind: kind, amount: String(amount) });
  }
  function changeStake(sign, units) {
    var t = table();
    if (!t || !spot(chosenSpot)) return;
    var amount = Number(t.dataset.chipUnit) * units;
    sound.play("chip");
    if (localLayout()) {
      if (sign > 0) addLocal(chosenSpot, amount);
      else takeBackLocal(chosenSpot, amount);
      return;
    }
    var values = { amount: String(amount) };
    values[sign > 0 ? "kind" : "remove"] = chosenSpot;
    post(values);
  }
  function press(id) {
    var el = document.getElementById(id);
    if (el && !el.disabled) el.click();
  }

  // Enter deals (seed 000: "Eingabetaste: Geben") wherever the focus is, but in a text
  // field, a list or a dialog, and on a control the player reached with the keyboard
  // (Tab, and shown as such: :focus-visible), which does what it says. A button or link
  // merely clicked (Rules, Version, a rebuy), or given the focus back by a closing dialog,
  // never keeps Enter.
  var tabbing = false;
  var tabbedTo = null;
  document.addEventListener("keydown", function (event) { tabbing = event.key === "Tab"; }, true);
  document.addEventListener("pointerdown", function () { tabbing = false; tabbedTo = null; }, true);
  document.addEventListener("focusin", function (event) {
    tabbedTo = tabbing ? event.target : null;
    tabbing = false;
  }, true);
  function keepsEnter(target) {
    var control = target && target.closest && target.closest("button, a, summary");
    return !!control && control === tabbedTo && control.matches(":focus-visible");
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!board() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && target.closest && target.closest(
      "input:not([type=radio]), textarea, select, dialog[open], [role=dialog], [role=alertdialog]")) return;
    var key = event.key;
    if (KEY_SPOTS[key]) { placeChip(KEY_SPOTS[key]); }
    else if (key === "0") { press("btn-rebet"); }
    else if (key === "Enter") {
      if (keepsEnter(target)) return;
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
    if (localLayout() && el.contains(document.activeElement)) document.activeElement.blur();
    if (!el.classList.contains("has-stake")) return;
    if (localLayout()) takeBackLocal(el.dataset.kind, 0);
    else post({ remove: el.dataset.kind });
  });

  // The reveal: the cards turn and the outcome shows (CSS, from the board's data-dealing),
  // then the result is announced and heard, the board and the statistics are marked
  // revealed, and a buy-in panel the result opens (the stack ran short) opens.
  var pending = [];
  function reveal() {
    pending.forEach(clearTimeout);
    pending = [];
    var b = board();
    var announcer = document.getElementById("announcer");
    if (!b || !b.hasAttribute("data-dealing")) return;
    var steps = Number(b.dataset.steps || 0);
    var style = getComputedStyle(table() || b);
    var step = seconds(style.getPropertyValue("--step-time")) || 0.7;
    var turn = seconds(style.getPropertyValue("--turn-time")) || 0.35;
    var quick = reducedMotion();
    var done = quick ? 0 : (steps * step + 0.4) * 1000;
    if (!quick) {
      for (var i = 0; i < steps; i++) sound.play("card", i * step + 0.3 + turn / 2);
    }
    var finished = false;
    function finish() {
      if (finished || board() !== b) return;
      finished = true;
      var text = document.getElementById("reveal-announcement");
      if (announcer && text) announcer.textContent = text.content.textContent.trim();
      if (Number(b.dataset.net || 0) > 0) sound.play("win");
      b.classList.add("revealed");
      b.setAttribute("data-revealed", "");
      // The figures from before the deal go: what the board says is what it shows.
      b.querySelectorAll(".swap > .before").forEach(function (el) { el.remove(); });
      var stats = document.getElementById("shoe-stats");
      if (stats && stats.hasAttribute("data-dealing")) stats.setAttribute("data-revealed", "");
      document.querySelectorAll("details[data-opens-after-reveal]").forEach(function (panel) {
        panel.removeAttribute("data-opens-after-reveal");
        panel.open = true;
      });
    }
    // The CSS shows the outcome when the banner appears (its animation's end); the script
    // follows it, not its own clock, which starts later and may run ahead of a page that
    // is busy drawing. The timer is a backstop for a banner that never animates.
    var banner = b.querySelector(".result-banner");
    if (banner && !quick) {
      banner.addEventListener("animationend", function (event) {
        if (event.target === banner && event.animationName === "appear") finish();
      });
    }
    pending.push(setTimeout(finish, quick || !banner ? 0 : done + 1000));
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
      // A new board after a DEAL shows the server's layout; after anything else (a
      // refused DEAL, a rebuy) the chips laid out here stay on it.
      if (localLayout()) {
        if (layout.dirty && !b.hasAttribute("data-dealing")) drawLayout(true);
        else readLayout();
      }
      markChosen();
      reveal();
    }
    // A full table's answer to the player's own action brings their spots and buttons
    // alone: the chips laid out here stay on the spots (a refused DEAL), or the spots
    // are the server's (after a DEAL or Same bet taken); DEAL's form carries the layout.
    var spots = document.getElementById("my-spots");
    if (spots && spots !== shownSpots) {
      shownSpots = spots;
      if (localLayout() && b && !b.hasAttribute("data-dealing")) {
        if (layout.dirty && spots.querySelector(".spot")) drawLayout(true);
        else readLayout();
      }
    }
    var controls = document.getElementById("table-controls");
    if (controls && controls !== shownControls) {
      shownControls = controls;
      restoreChip();
      if (localLayout()) writeDealForm();
    }
  });
  var shownControls = null;
  var shownSpots = null;
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
    shownSpots = document.getElementById("my-spots");
    if (localLayout()) readLayout();
    restoreChip();
    markChosen();
    reveal();
    startClocks();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
