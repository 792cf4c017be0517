// When each card of the replay's board turns face up (tests/e2e/test_replay.py), an init
// script after reveal_sampler.js: on every animation frame, the first time each card (by
// its deal step) is seen face up. A press of "Play again" starts the count over (seen in
// the capture phase, before the page's own handler restarts the reveal).
//
// It also arms the sampler when the board first carries data-dealing: the page's script
// sets it as the parser inserts the board, in the same round of DOM observers, so no frame
// is drawn in between; the sampler's own observer, the first of the page, looks once before
// that, at a board no one has seen.
(() => {
  const arming = new MutationObserver(function () {
    const board = document.getElementById("board");
    if (board && board.hasAttribute("data-dealing")) {
      arming.disconnect();
      window.revealSampler.arm();
    }
  });
  arming.observe(document, { subtree: true, childList: true, attributes: true });
  let turned = {};
  let since = 0;
  function faceUp(card) {
    const inner = card.querySelector(".card-inner") || card;
    const transform = getComputedStyle(inner).transform;
    const m = /matrix(3d)?\(([^,]+)/.exec(transform);
    const there = Number(getComputedStyle(card).opacity) > 0.99 && card.getClientRects().length > 0 &&
      card.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    return there && (transform === "none" || (m && Number(m[2]) > 0.999));
  }
  function look() {
    const board = document.getElementById("board");
    if (board) {
      board.querySelectorAll(".playing-card").forEach(function (card) {
        const step = Number((/\bstep-(\d)/.exec(card.className) || [0, -1])[1]);
        if (!(step in turned) && faceUp(card)) turned[step] = performance.now();
      });
    }
    requestAnimationFrame(look);
  }
  requestAnimationFrame(look);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#replay-again")) {
      turned = {};
      since = performance.now();
    }
  }, true);
  window.cardOrder = {
    turned: function () { return turned; },
    since: function () { return since; }
  };
})();
