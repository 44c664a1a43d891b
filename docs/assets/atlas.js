/* PyTorch Release Atlas: feature-matrix filters and upgrade-path selection, kept in the URL; `atlas.element`,
   with which the lookup and the resolver write their answers (text as textContent, never markup); `atlas.text`, the
   interface text of the page's language (the Chinese pages load their words first, as `window.atlasWords`);
   `atlas.own`, with which the scripts read a plain object at a key that may come from the address; and
   `atlas.readParams` / `atlas.writeParams`, which keep a page's choices in its address; `atlas.referenceLink`, where
   the reference lists a name; and `atlas.json`, a site file fetched once.
   Whatever the address holds (?sort=__proto__, #%) is data: a value no control offers is ignored, never thrown on,
   and never looked up as one of an object's inherited properties. */
(function () {
  "use strict";

  // An object's own property, or undefined: never one it inherits (`__proto__`, `constructor`, `toString`).
  function own(object, key) {
    return object != null && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
  }

  window.atlas = {
    text: function (english, values) {
      return (own(window.atlasWords, english) || english).replace(/\{(\w+)\}/g, function (whole, name) {
        return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
      });
    },
    element: function (tag, text, attributes) {
      const node = document.createElement(tag);
      if (text) { node.textContent = text; }
      Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
      return node;
    },
    own: own,
    readParams: readParams,
    writeParams: writeParams,
    referenceLink: referenceLink,
    json: json,
  };
  const atlas = window.atlas;

  // The element an address's anchor names, or null: the anchor as the browser writes it (percent-encoded), decoded;
  // one that is not valid percent-encoding (#%, #%E0%A4%A) names nothing rather than throwing.
  function hashTarget() {
    const hash = window.location.hash.slice(1);
    if (!hash) { return null; }
    let id;
    try {
      id = decodeURIComponent(hash);
    } catch (error) {
      return null;
    }
    return document.getElementById(id);
  }

  // The site's JSON file at `url`, fetched once per page view (a failed fetch is tried again on the next call).
  const fetched = new Map();
  function json(url) {
    if (!fetched.has(url)) {
      const found = fetch(url).then(function (r) { if (!r.ok) { throw new Error(url); } return r.json(); });
      found.catch(function () { fetched.delete(url); });
      fetched.set(url, found);
    }
    return fetched.get(url);
  }

  // Where the reference lists a name: its module's page at its anchor, or, for a class's member, the page of the module
  // that holds the class (`kindOf(path)` gives the kind the API index has for a path, or "").
  function referenceLink(kindOf, path, up) {
    const cut = path.lastIndexOf(".");
    const parent = path.slice(0, cut), leaf = path.slice(cut + 1);
    const kind = kindOf(parent);
    if (kind === "module") { return up + "reference/" + parent + "/#" + leaf; }
    if (kind === "class") {
      const module = parent.slice(0, parent.lastIndexOf("."));
      return up + "reference/" + module + "/#" + parent.slice(module.length + 1) + "." + leaf;
    }
    return path === "torch" ? up + "reference/torch/" : null;
  }

  function readParams(names) {
    const params = new URLSearchParams(window.location.search);
    const values = {};
    names.forEach(function (name) { values[name] = params.get(name) || ""; });
    return values;
  }

  function writeParams(values) {
    const params = new URLSearchParams(window.location.search);
    Object.keys(values).forEach(function (name) {
      if (values[name]) { params.set(name, values[name]); } else { params.delete(name); }
    });
    const query = params.toString();
    window.history.replaceState(window.history.state, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
  }

  function setupMatrix() {
    const form = document.getElementById("matrix-filters");
    const table = document.getElementById("matrix-table");
    if (!form || !table) { return; }
    const names = ["text", "topic", "stage", "component"];
    const rows = Array.from(table.tBodies[0].rows);
    const rowNames = rows.map(function (row) { return row.cells[0].textContent.toLowerCase(); });

    function apply() {
      const chosen = {};
      names.forEach(function (name) { chosen[name] = form.elements[name].value; });
      const words = chosen.text.toLowerCase().split(/\s+/).filter(Boolean);
      let shown = 0;
      rows.forEach(function (row, index) {
        const visible =
          words.every(function (word) { return rowNames[index].includes(word); }) &&
          (!chosen.topic || row.dataset.topics.split(" ").includes(chosen.topic)) &&
          (!chosen.stage || row.dataset.stages.split(" ").includes(chosen.stage)) &&
          (!chosen.component || row.dataset.component === chosen.component ||
            (chosen.component === "domain-libraries" && row.dataset.component !== form.dataset.core));
        row.hidden = !visible;
        if (visible) { shown += 1; }
      });
      form.elements.count.value = atlas.text("{shown} of {total} features", { shown: shown, total: rows.length });
      writeParams(chosen);
    }

    const initial = readParams(names);
    names.forEach(function (name) {
      const field = form.elements[name];
      if (field.tagName !== "SELECT" || Array.from(field.options).some(function (o) { return o.value === initial[name]; })) {
        field.value = initial[name];
      }
      field.addEventListener(field.tagName === "SELECT" ? "change" : "input", apply);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    apply();
  }

  // A stage grid's rows sort by feature name, first release or latest stage with the buttons of its headings, a second
  // click reversing the order, and the address keeps it (?sort=since, ?sort=-latest).
  function versionNumber(version) {
    const parts = version.split(".");
    return Number(parts[0]) * 1000 + Number(parts[1]);
  }

  // A Map, not a plain object: the address's ?sort= is looked up in it, and ?sort=__proto__ or ?sort=hasOwnProperty
  // must find nothing (an object would give what it inherits, which throws as a key).
  const SORT_KEYS = new Map([
    ["name", function (row) { return row.cells[0].textContent.replace(/^["'(\[]+/, "").toLowerCase(); }],
    ["since", function (row) { return versionNumber(row.dataset.since); }],
    // the most stable stage first, and within a stage the most recent release
    ["latest", function (row) {
      const parts = row.dataset.latest.split(" ");
      return Number(parts[0]) * 100000 - versionNumber(parts[1]);
    }],
  ]);

  function sortGrid(table, sort) {
    const descending = sort.charAt(0) === "-";
    const key = SORT_KEYS.get(sort.replace(/^-/, ""));
    if (!key) { return; }  // an order no heading offers: the grid keeps the one it came with
    const rows = Array.from(table.tBodies[0].rows).map(function (row, index) { return { row: row, key: key(row), index: index }; });
    rows.sort(function (a, b) {
      const order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
      return (descending ? -order : order) || a.index - b.index;
    });
    const sorted = document.createDocumentFragment();
    rows.forEach(function (item) { sorted.appendChild(item.row); });
    table.tBodies[0].appendChild(sorted);
    table.tHead.querySelectorAll("th[data-sort]").forEach(function (heading) {
      if (heading.dataset.sort === sort.replace(/^-/, "")) {
        heading.setAttribute("aria-sort", descending ? "descending" : "ascending");
      } else {
        heading.removeAttribute("aria-sort");
      }
    });
  }

  // The buttons come with the page: changing the head of a large grid at load would restyle the whole grid.
  function setupGridSorting() {
    const initial = readParams(["sort"]).sort;
    document.querySelectorAll("table.atlas-grid").forEach(function (table) {
      table.tHead.addEventListener("click", function (event) {
        const heading = event.target.closest("th[data-sort]");
        if (!heading) { return; }
        const name = heading.dataset.sort;
        const sort = heading.getAttribute("aria-sort") === "ascending" ? "-" + name : name;
        sortGrid(table, sort);
        writeParams({ sort: sort });
      });
      if (initial) { sortGrid(table, initial); }
    });
  }

  function setupUpgrade() {
    const form = document.getElementById("upgrade-form");
    if (!form) { return; }
    const steps = Array.from(document.querySelectorAll(".atlas-step"));
    const order = new Map();  // release -> position; a Map, as ?from= and ?to= are looked up in it
    steps.forEach(function (step) { order.set(step.dataset.version, Number(step.dataset.order)); });

    // What one item of a step is: a change of some kind, or a stage change ("moved"); "" for the "nothing listed" line.
    function kindOf(item) {
      const mark = item.querySelector(".atlas-kind, .atlas-moved");
      if (!mark) { return ""; }
      return mark.classList.contains("atlas-moved") ? "moved" : mark.className.replace(/.*atlas-kind--(\w+).*/, "$1");
    }

    function apply() {
      const from = form.elements.from.value;
      const to = form.elements.to.value;
      const kind = form.elements.kind.value;
      const topic = form.elements.topic.value;
      const valid = order.has(from) && order.has(to) && order.get(from) < order.get(to);
      const counts = { breaking: 0, deprecation: 0, removal: 0, moved: 0 };
      steps.forEach(function (step) {
        const position = Number(step.dataset.order);
        let shown = 0;
        step.querySelectorAll("li").forEach(function (item) {
          const about = item.querySelector("[data-topics]");
          item.hidden = (Boolean(kind) && kindOf(item) !== kind) ||
            (Boolean(topic) && !(about && about.dataset.topics.split(" ").includes(topic)));
          shown += item.hidden ? 0 : 1;
        });
        const inside = valid && position > order.get(from) && position <= order.get(to) && (!(kind || topic) || shown > 0);
        step.hidden = !inside;
        const heading = step.querySelector("h2");
        if (heading) { showInContents(heading, inside); }
        if (inside) {
          ["breaking", "deprecation", "removal"].forEach(function (kind) {
            counts[kind] += step.querySelectorAll("li:not([hidden]) .atlas-kind--" + kind).length;
          });
          counts.moved += step.querySelectorAll("li:not([hidden]) .atlas-moved").length;
        }
      });
      form.elements.summary.value = valid
        ? atlas.text("From {from} to {to}: {breaking} backwards-incompatible changes, {deprecations} deprecations, {removals} removals, {moved} stage changes", {
          from: from, to: to, breaking: counts.breaking, deprecations: counts.deprecation, removals: counts.removal, moved: counts.moved,
        })
        : atlas.text("Choose a target release newer than {from}.", { from: from });
      writeParams({ from: from, to: to, kind: kind, topic: topic });
    }

    const initial = readParams(["from", "to", "kind", "topic"]);
    ["kind", "topic"].forEach(function (name) {
      const field = form.elements[name];
      if (Array.from(field.options).some(function (o) { return o.value === initial[name]; })) { field.value = initial[name]; }
      field.addEventListener("change", apply);
    });
    ["from", "to"].forEach(function (name) {
      const select = form.elements[name];
      if (initial[name] && order.has(initial[name])) {
        if (!Array.from(select.options).some(function (o) { return o.value === initial[name]; })) {
          select.add(new Option(initial[name], initial[name]));
        }
        select.value = initial[name];
      }
      select.addEventListener("change", apply);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    apply();
  }

  // Show or hide the entry of the table of contents that leads to a heading.
  function showInContents(heading, visible) {
    document.querySelectorAll('.md-nav--secondary a[href$="#' + heading.id + '"]').forEach(function (entry) {
      entry.parentElement.hidden = !visible;
    });
  }

  // A release page shows only the entries of one topic or one kind (?topic=cuda, ?kind=breaking). An entry is a
  // heading that carries its topics and kinds, and what follows it up to the next heading; a section none of whose
  // entries is shown goes too. A link into an entry that the filter would hide shows the whole page.
  function setupReleaseFilters() {
    const form = document.getElementById("release-filters");
    if (!form) { return; }
    const entries = [];
    const sections = [];
    let section = { nodes: [], entries: [] };
    let entry = null;
    Array.from(form.parentElement.children).forEach(function (node) {
      if (node.tagName === "H2") {
        section = { heading: node, nodes: [node], entries: [] };
        sections.push(section);
        entry = null;
      } else if (node.tagName === "H3" && node.dataset.kind) {
        entry = { heading: node, nodes: [node], topics: node.dataset.topics.split(" "), kinds: node.dataset.kind.split(" ") };
        entries.push(entry);
        section.entries.push(entry);
      } else {
        (entry || section).nodes.push(node);
      }
    });

    function show(item, visible) {
      item.shown = visible;
      item.nodes.forEach(function (node) { node.classList.toggle("atlas-off", !visible); });
      if (item.heading) { showInContents(item.heading, visible); }
    }

    function apply() {
      const topic = form.elements.topic.value;
      const kind = form.elements.kind.value;
      let shown = 0;
      entries.forEach(function (item) {
        const visible = (!topic || item.topics.includes(topic)) && (!kind || item.kinds.includes(kind));
        show(item, visible);
        shown += visible ? 1 : 0;
      });
      sections.forEach(function (item) {
        if (item.entries.length) { show(item, item.entries.some(function (e) { return e.shown; })); }
      });
      form.elements.count.value = topic || kind
        ? atlas.text("{shown} of {total} entries shown", { shown: shown, total: entries.length })
        : atlas.text("{total} entries", { total: entries.length });
      writeParams({ topic: topic, kind: kind });
    }

    const initial = readParams(["topic", "kind"]);
    ["topic", "kind"].forEach(function (name) {
      const field = form.elements[name];
      if (Array.from(field.options).some(function (o) { return o.value === initial[name]; })) { field.value = initial[name]; }
      field.addEventListener("change", apply);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    if (!form.elements.topic.value && !form.elements.kind.value) {  // nothing to hide: leave the page as it loaded
      form.elements.count.value = atlas.text("{total} entries", { total: entries.length });
      return;
    }
    apply();
    const target = hashTarget();
    if (target && target.closest(".atlas-off")) {
      form.elements.topic.value = "";
      form.elements.kind.value = "";
      apply();
    }
  }

  // A link into a page lands on its target once the page is set up: the target is marked (an anchor that is not a
  // heading as well), and scrolled clear of the sticky header if the blocks above it, laid out only near the screen
  // (content-visibility), moved it.
  function revealTarget() {
    document.querySelectorAll(".atlas-target").forEach(function (element) { element.classList.remove("atlas-target"); });
    const target = hashTarget();
    if (!target) { return; }
    target.classList.add("atlas-target");
    const header = document.querySelector(".md-header");
    const clear = (header ? header.offsetHeight : 0) + 16;
    const top = target.getBoundingClientRect().top;
    if (top < clear || top > window.innerHeight) { window.scrollBy(0, top - clear); }
  }

  // Material sets up each code block (copy button, focus for keyboard scrolling) as it comes into view
  // (content.lazy); until then every block is focusable, so a keyboard can reach and scroll any of them.
  // A wide table scrolls inside the theme's box around it (on a phone, where its first column stays put): a keyboard
  // reaches and scrolls the boxes that do scroll.
  function makeScrollersFocusable() {
    document.querySelectorAll(".md-typeset pre > code:not([tabindex])").forEach(function (code) { code.tabIndex = 0; });
    // Measured in an observer's first report, after the browser's own layout: reading widths at load would force one.
    const observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        const box = entry.target;
        if (box.scrollWidth > box.clientWidth) { box.tabIndex = 0; }
        observer.unobserve(box);
      });
    });
    document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach(function (box) { observer.observe(box); });
  }

  // The language switch goes to this page in the other edition (its address, written with the page) with the reader's
  // query and anchor.
  document.addEventListener("click", function (event) {
    const link = event.target instanceof Element ? event.target.closest("a[data-atlas-switch]") : null;
    if (!link) { return; }
    const counterpart = new URL(link.getAttribute("href"), window.location.href);
    counterpart.search = window.location.search;
    counterpart.hash = window.location.hash;
    link.href = counterpart.href;
  });

  function setup() {
    makeScrollersFocusable();
    setupGridSorting();
    setupMatrix();
    setupReleaseFilters();
    setupUpgrade();
    window.requestAnimationFrame(revealTarget);
  }

  window.addEventListener("hashchange", revealTarget);  // an anchor of this page, followed
  // The theme's document$ emits once the page is set up.
  if (typeof document$ !== "undefined") {
    document$.subscribe(setup);
  } else {
    document.addEventListener("DOMContentLoaded", setup);
  }
})();
