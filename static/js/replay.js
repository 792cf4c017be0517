// A round of the protocol dealt again (templates/baccarat/protocol_replay.html). The reveal
// is the table's own: static/css/table.css deals the board's cards and holds back its
// outcome while the board carries data-dealing; this script sets it, marks the end
// (data-revealed), announces the result, and "Play again" starts it over. table.js is not
// loaded: it reveals a board once, after a DEAL, and drives a table this page has not.
//
// Loaded in the head, not deferred: it sets data-dealing on the board as the parser
// inserts it, before the page is first drawn, so the reveal starts with the first frame
// and no frame shows the outcome first. Without the script the board has no data-dealing:
// the page shows the round as it ended, everything in sight.
(function () {
  "use strict";

  var watcher = null;
  if (window.MutationObserver) {
    watcher = new MutationObserver(function () {
      var found = document.getElementById("board");
      if (!found) return;
      watcher.disconnect();
      found.setAttribute("data-dealing", "");
    });
    watcher.observe(document.documentElement, { childList: true, subtree: true });
  }

  // As static/js/table.js: the casino's preference or the system's setting.
  function reducedMotion() {
    return document.body.classList.contains("reduced-motion") ||
      (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }
  function seconds(cssTime) {
    var value = parseFloat(cssTime);
    if (isNaN(value)) return 0;
    return /ms\s*$/.test(cssTime) ? value / 1000 : value;
  }

  var board = null;
  var run = 0; // the reveal under way; an end from an earlier one is ignored
  var backstop = null;

  function finish(which) {
    if (which !== run || board.hasAttribute("data-revealed")) return;
    clearTimeout(backstop);
    board.classList.add("revealed");
    board.setAttribute("data-revealed", "");
    var announcer = document.getElementById("announcer");
    var text = document.getElementById("reveal-announcement");
    if (announcer && text) announcer.textContent = text.content.textContent.replace(/\s+/g, " ").trim();
  }

  // The end of run number which: at once with reduced motion (the CSS shows everything).
  function follow(which) {
    if (reducedMotion()) { finish(which); return; }
    // The CSS shows the outcome when the banner appears (its animation's end); the timer
    // is a backstop for a banner that never animates.
    var style = getComputedStyle(board.closest(".game-table") || board);
    var step = seconds(style.getPropertyValue("--step-time")) || 0.7;
    var steps = Number(board.dataset.steps || 0);
    backstop = setTimeout(function () { finish(which); }, (steps * step + 0.4) * 1000 + 1000);
  }

  function play() {
    run += 1;
    clearTimeout(backstop);
    var announcer = document.getElementById("announcer");
    if (announcer) announcer.textContent = "";
    board.classList.remove("revealed");
    board.removeAttribute("data-revealed");
    board.removeAttribute("data-dealing");
    void board.offsetWidth; // the style without it is applied: the animations start over
    board.setAttribute("data-dealing", "");
    follow(run);
  }

  function start() {
    if (watcher) watcher.disconnect();
    board = document.getElementById("board");
    if (!board) return;
    var banner = board.querySelector(".result-banner");
    if (banner) {
      banner.addEventListener("animationend", function (event) {
        if (event.target === banner && event.animationName === "appear") finish(run);
      });
    }
    var again = document.getElementById("replay-again");
    if (again) {
      again.hidden = false;
      again.addEventListener("click", play);
    }
    // Dealing since the parser drew the board; else (no MutationObserver) from now.
    if (board.hasAttribute("data-dealing")) { run += 1; follow(run); } else { play(); }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
