// Client-side filter over search-index.js (ids, titles, rule ids, tags); no network.
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
  index.forEach(function (e) {
    e.h = [e.id, e.t, e.p, (e.r || []).join(" "), (e.g || []).join(" ")].join(" ").toLowerCase();
  });
  function rank(e, words) {
    var id = e.id.toLowerCase();
    if (words.length === 1 && id === words[0]) return 0;
    return e.k === "rule" ? 1 : 2;
  }
  function run() {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    while (out.firstChild) out.removeChild(out.firstChild);
    if (!words.length) { count.textContent = ""; out.hidden = true; return; }
    var hits = index.filter(function (e) {
      return words.every(function (w) { return e.h.indexOf(w) >= 0; });
    });
    hits.sort(function (a, b) { return rank(a, words) - rank(b, words) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0); });
    count.textContent = hits.length + (hits.length === 1 ? " match" : " matches") + (hits.length > 100 ? " (first 100 shown)" : "");
    hits.slice(0, 100).forEach(function (e) {
      var li = document.createElement("li");
      li.className = "hit hit-" + e.k;
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
