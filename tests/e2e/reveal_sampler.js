// The reveal's sampler (tests/e2e/test_reveal.py), an init script of the test's pages:
// armed, it notes on every animation frame, every 10 ms and after every change of the DOM
// what a player could see of the board: whether its last card is face up, and which parts
// of the outcome show. The page's Content-Security-Policy does not apply to it.
(() => {
  const frames = [];
  const boards = new WeakMap();
  let boardCount = 0;
  let armed = false;
  let brass = null;

  function rgbOf(hex) {
    hex = hex.trim().replace("#", "");
    if (hex.length === 3) hex = hex.split("").map((c) => c + c).join("");
    const n = parseInt(hex, 16);
    return "rgb(" + (n >> 16) + ", " + ((n >> 8) & 255) + ", " + (n & 255) + ")";
  }
  function seen(el) {
    return !!el && el.isConnected && el.getClientRects().length > 0 &&
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  }
  function anySeen(selector) {
    return Array.prototype.some.call(document.querySelectorAll(selector), seen);
  }
  function text(el) { return el && seen(el) ? el.innerText.trim() : ""; }
  function brassOn(style) {
    return style.boxShadow.indexOf(brass) >= 0 || style.borderTopColor === brass ||
      (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 && style.outlineColor === brass);
  }
  // A ring or a glow in brass, on the element or drawn by one of its pseudo-elements.
  function marked(el) {
    if (!seen(el)) return false;
    if (brassOn(getComputedStyle(el))) return true;
    return ["::before", "::after"].some(function (pseudo) {
      const style = getComputedStyle(el, pseudo);
      return style.content !== "none" && style.visibility === "visible" &&
        Number(style.opacity) > 0 && brassOn(style);
    });
  }
  // How an element stands out: what a ring, a glow or a highlight changes.
  function look(el, withGround) {
    const s = getComputedStyle(el);
    // Shadows in a transparent colour draw nothing (an animation pads a list with them).
    const shadows = s.boxShadow.split(/,(?![^(]*\))/).map(function (shadow) { return shadow.trim(); })
      .filter(function (shadow) { return shadow.indexOf("rgba(0, 0, 0, 0)") !== 0; });
    const parts = [shadows.join(", ") || "none", s.outlineStyle === "none" ? "none" : s.outlineWidth + " " + s.outlineColor, s.filter];
    if (withGround) parts.push(s.borderTopColor, s.backgroundColor);
    return parts.join(" | ");
  }
  // The winning spot stands out: brass on it or on its letter, or its letter unlike the
  // letter of a spot without a result.
  function spotMarked(spot, plain) {
    if (!seen(spot)) return "";
    const brass = [spot, spot.querySelector(".spot-letter")].filter(function (el) { return el && marked(el); })[0];
    if (brass) return "brass on " + brass.className;
    const letter = spot.querySelector(".spot-letter");
    const other = plain && plain.querySelector(".spot-letter");
    return letter && other && look(letter) !== look(other) ? "its letter: " + look(letter) : "";
  }
  // The winning hand stands out: brass, or unlike the other hand.
  function handMarked(hand, other) {
    return marked(hand) || (!!other && look(hand, true) !== look(other, true));
  }
  function faceUp(card) {
    const inner = card.querySelector(".card-inner") || card;
    const transform = getComputedStyle(inner).transform;
    const m = /matrix(3d)?\(([^,]+)/.exec(transform);
    const there = Number(getComputedStyle(card).opacity) > 0.99 && seen(card);
    return there && (transform === "none" || (m && Number(m[2]) > 0.999));
  }
  function sample(cause) {
    if (!armed) return;
    const board = document.getElementById("board");
    if (!board) return;
    if (!boards.has(board)) boards.set(board, ++boardCount);
    if (brass === null) brass = rgbOf(getComputedStyle(document.documentElement).getPropertyValue("--brass"));
    const cards = Array.prototype.slice.call(board.querySelectorAll(".playing-card"));
    let last = null, lastStep = -1;
    cards.forEach(function (card) {
      const step = Number((/\bstep-(\d)/.exec(card.className) || [0, -1])[1]);
      if (step > lastStep) { lastStep = step; last = card; }
    });
    const after = board.querySelector("input[name=after]");
    const stats = document.getElementById("shoe-stats");
    const swap = stats && stats.querySelector(".swap");
    const buyIn = document.getElementById("buy-in");
    const announcer = document.getElementById("announcer");
    const shown = [];
    if (anySeen(".result-banner")) shown.push("banner");
    if (anySeen(".spot-result")) shown.push("spot result");
    const plain = board.querySelector(".spot:not(.result-win):not(.result-lose):not(.result-push)");
    Array.prototype.forEach.call(board.querySelectorAll(".spot.result-win"), function (spot) {
      const how = spotMarked(spot, plain);
      if (how) shown.push("ring: " + how);
    });
    const loser = board.querySelector(".hand:not(.winner)");
    if (Array.prototype.some.call(board.querySelectorAll(".hand.winner"), function (hand) {
      return handMarked(hand, loser);
    })) shown.push("winning hand");
    if (anySeen(".seat-net")) shown.push("seat net");
    if (anySeen(".status-bar .outcome")) shown.push("status figures");
    if (swap && anySeen("#shoe-stats .outcome")) shown.push("statistics");
    frames.push({
      t: performance.now(),
      cause: cause,
      board: boards.get(board),
      round: board.dataset.round || (after ? after.value : ""),
      parsing: document.readyState === "loading",
      cards: cards.length,
      lastUp: !!last && faceUp(last),
      shown: shown,
      stack: text(document.getElementById("stack")),
      available: text(document.getElementById("available")),
      lastResult: text(document.getElementById("last-outcome")),
      statsBlank: !!swap && !(text(swap.querySelector(".before")) || text(swap.querySelector(".outcome"))),
      buyInOpen: !!buyIn && buyIn.open,
      announced: announcer ? announcer.textContent.trim() : "",
      title: document.title
    });
  }
  function frame() { sample("frame"); requestAnimationFrame(frame); }
  requestAnimationFrame(frame);
  setInterval(function () { sample("timer"); }, 10);
  new MutationObserver(function () { sample("change"); }).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true
  });
  window.revealSampler = {
    arm: function () { frames.length = 0; armed = true; sample("armed"); },
    frames: function () { armed = false; return frames.slice(); }
  };
})();
