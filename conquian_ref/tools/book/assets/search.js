// Client-side filter over search-index.js (ids, titles, rule ids, tags, and the words of each
// rule's text and each scenario's annotation); no network. Every word typed must occur.
(function () {
  var input = document.getElementById("search");
  if (!input) return;
  var out = document.getElementById("search-results");
  var count = document.getElementById("search-count");
  var root = input.getAttribute("data-root") || "";
  var profile = input.getAttribute("data-profile") || "";
  var index = (window.CONQUIAN_BOOK_INDEX || []).filter(function (e) {
    return !profile || e.p === profile;
  });
  var texts = window.CONQUIAN_BOOK_TEXTS || {};
  index.forEach(function (e) {
    e.head = [e.id, e.t, e.p, (e.r || []).join(" "), (e.g || []).join(" ")].join(" ").toLowerCase();
    e.h = e.head + " " + (e.k === "rule" ? texts[e.id] || "" : e.x || "");
  });
  // The id itself first, then what matches in ids, titles and tags, then in text only; rules
  // before scenarios.
  function rank(e, words) {
    var id = e.id.toLowerCase();
    if (words.length === 1 && id === words[0]) return 0;
    return (inHead(e, words) ? 1 : 3) + (e.k === "rule" ? 0 : 1);
  }
  function inHead(e, words) {
    return words.every(function (w) { return e.head.indexOf(w) >= 0; });
  }
  function run() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    while (out.firstChild) out.removeChild(out.firstChild);
    if (!words.length) { count.textContent = ""; out.hidden = true; return; }
    var hits = index.filter(function (e) {
      return words.every(function (w) { return e.h.indexOf(w) >= 0; });
    });
    hits.sort(function (a, b) { return rank(a, words) - rank(b, words) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0); });
    var textOnly = hits.filter(function (e) { return !inHead(e, words); }).length;
    count.textContent = hits.length + (hits.length === 1 ? " match" : " matches") +
      (textOnly ? ", " + textOnly + " in the text only" : "") + (hits.length > 100 ? " (first 100 shown)" : "");
    hits.slice(0, 100).forEach(function (e) {
      var li = document.createElement("li");
      li.className = "hit hit-" + e.k + (inHead(e, words) ? "" : " in-text");
      li.setAttribute("data-id", e.id);
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = e.k === "rule" ? "rule" : "scenario";
      var a = document.createElement("a");
      a.href = root + e.u;
      a.textContent = e.id;
      li.appendChild(kind);
      li.appendChild(a);
      li.appendChild(document.createTextNode(" " + e.t));
      if (!profile) {
        var p = document.createElement("span");
        p.className = "prof";
        p.textContent = e.p;
        li.appendChild(p);
      }
      out.appendChild(li);
    });
    out.hidden = false;
  }
  var q = /[?&]q=([^&]*)/.exec(window.location.search);
  if (q) input.value = decodeURIComponent(q[1].replace(/\+/g, " "));
  input.addEventListener("input", run);
  run();
})();
