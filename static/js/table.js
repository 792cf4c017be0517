// Table keyboard shortcuts and small helpers; htmx does the requests.
(function () {
  "use strict";
  var selected = null;

  function board() { return document.getElementById("board"); }

  function spot(kind) {
    var b = board();
    return b ? b.querySelector('.spot[data-kind="' + kind + '"]') : null;
  }

  function select(kind) {
    var b = board();
    if (!b) return;
    b.querySelectorAll(".spot.selected").forEach(function (el) { el.classList.remove("selected"); });
    var el = spot(kind);
    if (el) {
      el.classList.add("selected");
      el.querySelector(".spot-add").focus();
      selected = kind;
    }
  }

  function change(sign, units) {
    var b = board();
    if (!b || !selected || !window.htmx) return;
    var amount = Number(b.dataset.chipUnit) * units;
    var values = { amount: String(amount) };
    values[sign > 0 ? "kind" : "remove"] = selected;
    window.htmx.ajax("POST", b.dataset.betUrl, {
      source: b, target: "#board", swap: "outerHTML", values: values
    });
  }

  function click(id) {
    var el = document.getElementById(id);
    if (el && !el.disabled) el.click();
  }

  document.addEventListener("keydown", function (event) {
    var t = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (t && (t.tagName === "INPUT" && t.type !== "radio" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (!board()) return;
    var key = event.key;
    var kinds = { "1": "player", "2": "banker", "3": "tie" };
    if (kinds[key]) { select(kinds[key]); event.preventDefault(); }
    else if (key === "0") { click("btn-rebet"); event.preventDefault(); }
    else if (key === "Enter" && !(t && t.tagName === "BUTTON")) { click("btn-deal"); event.preventDefault(); }
    else if (key === "Delete" || key === ".") { click("btn-clear"); event.preventDefault(); }
    else if (key === "+" || key === "=" || (key === "*" && event.shiftKey)) { change(1, event.shiftKey ? 10 : 1); event.preventDefault(); }
    else if (key === "-" || key === "_" || key === "\u2212") { change(-1, event.shiftKey ? 10 : 1); event.preventDefault(); }
  });

  // Right-click on a spot takes a chip back.
  document.addEventListener("contextmenu", function (event) {
    var el = event.target.closest && event.target.closest(".spot");
    if (!el) return;
    event.preventDefault();
    var remove = el.querySelector(".spot-remove");
    if (remove) remove.click();
  });

  // Keep the selected spot after each swap of the board.
  document.addEventListener("htmx:afterSwap", function () {
    if (selected && spot(selected)) spot(selected).classList.add("selected");
  });

  document.addEventListener("click", function (event) {
    var opener = event.target.closest && event.target.closest("[data-open-dialog]");
    if (!opener) return;
    var dialog = document.getElementById(opener.getAttribute("data-open-dialog"));
    if (dialog && dialog.showModal) dialog.showModal();
  });
})();
