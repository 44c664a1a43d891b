/* PyTorch Release Atlas: the search index when the search is wanted.
   The theme downloads and parses its edition's search index (3 MB of JSON) as each page loads, and hands it to the
   search's worker: on a phone that competes with the page for the network and the main thread, for a search most
   readers never open. This script runs before the theme's and holds that one request until the reader reaches for the
   search (a press on it or a focus in it, or the search opening by a key), meanwhile the theme says it is preparing
   the search. An address that asks for a search (`?q=`) or its highlighting (`?h=`) is served at once. */
(function () {
  "use strict";

  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  const held = new WeakSet();

  XMLHttpRequest.prototype.open = function (method, url) {
    const asked = new URLSearchParams(window.location.search);
    if (/\/search\/search_index\.json$/.test(String(url)) && !asked.has("q") && !asked.has("h")) { held.add(this); }
    return open.apply(this, arguments);
  };

  XMLHttpRequest.prototype.send = function () {
    const request = this, args = arguments;
    const toggle = document.querySelector("[data-md-toggle=search]");
    if (!held.has(request) || !toggle) { return send.apply(request, args); }
    const reaches = ["pointerdown", "focusin"];
    function release(event) {
      const wanted = event.type === "change" ? toggle.checked
        : event.target instanceof Element && event.target.closest(".md-search, label[for=__search]");
      if (!wanted) { return; }
      reaches.forEach(function (type) { document.removeEventListener(type, release, true); });
      toggle.removeEventListener("change", release);
      send.apply(request, args);
    }
    reaches.forEach(function (type) { document.addEventListener(type, release, true); });
    toggle.addEventListener("change", release);
  };
})();
