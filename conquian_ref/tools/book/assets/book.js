// The scenario page's controls, no network: show the table as one seat sees it (every view is
// in the page; this only switches which one shows), fold or unfold every step, open
// the step a link points into, and open every step for printing. Without it the table view
// shows and each step still folds by itself (<details>). On every page: fold the top bar's links
// on a narrow screen.
(function () {
  // A card's full name as its tooltip, made when the pointer first comes over it: a page draws
  // thousands of cards, so the names are given once (#card-names, cards.Cards.names), not per card.
  var names = document.getElementById("card-names");
  names = names && JSON.parse(names.textContent);
  if (names) document.addEventListener("mouseover", function (ev) {
    var card = ev.target.closest && ev.target.closest(".card");
    if (!card || card.title) return;
    // Its letter form: the rank written, the suit of its class (cards.py).
    var rank = card.firstChild.textContent, suit = (/\bs-(\w+)/.exec(card.className) || ["", ""])[1];
    var letter = rank + suit;
    card.title = (names.ranks[rank] || rank) + " of " + (names.suits[suit] || suit) + " (" + letter + ")" +
      (card.classList.contains("back") ? ", face down in the stock" : "");
  });

  // On a narrow screen the top bar's links start folded under "pages" (book.css); without this
  // script they show, as on a wide screen.
  var more = document.querySelector(".topbar details.more");
  if (more && window.matchMedia("(max-width: 40rem)").matches) more.open = false;

  var toggles = document.querySelector(".toggles");
  if (!toggles) return;
  toggles.hidden = false;

  // Each position is drawn once for every view; the page's style shows what the body's view is
  // marked for (story.html.j2).
  function show(view) {
    document.body.setAttribute("data-view", view);
  }
  var radios = toggles.querySelectorAll('input[name="view"]');
  radios.forEach(function (r) {
    r.addEventListener("change", function () { if (r.checked) show(r.value); });
    if (r.checked) show(r.value);  // a reload keeps the chosen radio
  });

  toggles.querySelectorAll("button[data-fold]").forEach(function (b) {
    b.addEventListener("click", function () {
      var open = b.getAttribute("data-fold") === "open";
      document.querySelectorAll("details.step").forEach(function (d) { d.open = open; });
    });
  });

  // A step's position before is drawn once, as the previous step's after (or the start): copy
  // it in when the step opens, its ids renamed so that they stay unique.
  function fillBefore(d) {
    var slot = d.querySelector(".before[data-from]");
    var from = slot && document.getElementById(slot.getAttribute("data-from"));
    if (!from || slot.getAttribute("data-filled")) return;
    var copy = from.cloneNode(true);
    copy.id = d.id.replace("step-", "pos-before-");
    copy.querySelectorAll("[id]").forEach(function (e) { e.removeAttribute("id"); });
    slot.appendChild(copy);
    slot.setAttribute("data-filled", "1");
  }
  document.querySelectorAll("details.step").forEach(function (d) {
    if (d.open) fillBefore(d);
    d.addEventListener("toggle", function () { if (d.open) fillBefore(d); });
  });

  function openTarget() {
    var el = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!el) return;
    for (var up = el; up; up = up.parentElement) {
      if (up.tagName === "DETAILS") up.open = true;
    }
    el.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();

  // Printing shows every step (the stylesheet does too where ::details-content is known).
  var folded = [];
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.step").forEach(function (d) {
      fillBefore(d);  // now: the toggle event would come after the page is laid out for print
      if (!d.open) { d.open = true; folded.push(d); }
    });
  });
  window.addEventListener("afterprint", function () {
    folded.forEach(function (d) { d.open = false; });
    folded = [];
  });
})();
