/* PyTorch Release Atlas: feature-matrix filters and upgrade-path selection, kept in the URL; and `atlas.element`,
   with which the lookup and the resolver write their answers (text as textContent, never markup). */
(function () {
  "use strict";

  window.atlas = {
    element: function (tag, text, attributes) {
      const node = document.createElement(tag);
      if (text) { node.textContent = text; }
      Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
      return node;
    },
  };

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
      form.elements.count.value = shown + " of " + rows.length + " features";
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

  function setupUpgrade() {
    const form = document.getElementById("upgrade-form");
    if (!form) { return; }
    const steps = Array.from(document.querySelectorAll(".atlas-step"));
    const order = {};
    steps.forEach(function (step) { order[step.dataset.version] = Number(step.dataset.order); });

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
      const valid = order[from] < order[to];
      const counts = { breaking: 0, deprecation: 0, removal: 0, moved: 0 };
      steps.forEach(function (step) {
        const position = Number(step.dataset.order);
        let shown = 0;
        step.querySelectorAll("li").forEach(function (item) {
          item.hidden = Boolean(kind) && kindOf(item) !== kind;
          shown += item.hidden ? 0 : 1;
        });
        const inside = valid && position > order[from] && position <= order[to] && (!kind || shown > 0);
        step.hidden = !inside;
        const heading = step.querySelector("h2");
        if (heading) {
          document.querySelectorAll('.md-nav--secondary a[href$="#' + heading.id + '"]').forEach(function (entry) {
            entry.parentElement.hidden = !inside;
          });
        }
        if (inside) {
          ["breaking", "deprecation", "removal"].forEach(function (kind) {
            counts[kind] += step.querySelectorAll(".atlas-kind--" + kind).length;
          });
          counts.moved += step.querySelectorAll(".atlas-moved").length;
        }
      });
      form.elements.summary.value = valid
        ? "From " + from + " to " + to + ": " + counts.breaking + " backwards-incompatible changes, " +
          counts.deprecation + " deprecations, " + counts.removal + " removals, " + counts.moved + " stage changes"
        : "Choose a target release newer than " + from + ".";
      writeParams({ from: from, to: to, kind: kind });
    }

    const initial = readParams(["from", "to", "kind"]);
    const kinds = form.elements.kind;
    if (Array.from(kinds.options).some(function (o) { return o.value === initial.kind; })) { kinds.value = initial.kind; }
    kinds.addEventListener("change", apply);
    ["from", "to"].forEach(function (name) {
      const select = form.elements[name];
      if (initial[name] && initial[name] in order) {
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

  // Instant navigation swaps pages with pushState, so the browser neither scrolls to nor marks
  // (:target) the anchor of the new URL; do both, so a link into a release lands on its feature.
  function revealTarget() {
    document.querySelectorAll(".atlas-target").forEach(function (element) { element.classList.remove("atlas-target"); });
    if (!window.location.hash) { return; }
    const target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (!target) { return; }
    target.classList.add("atlas-target");
    const header = document.querySelector(".md-header");
    const clear = (header ? header.offsetHeight : 0) + 16;
    const top = target.getBoundingClientRect().top;
    if (top < clear || top > window.innerHeight) { window.scrollBy(0, top - clear); }
  }

  // A stage grid opens on its newest releases (the right-hand end); the names column stays in view.
  // Each grid scrolls when it first comes near the screen: reading its width at load would lay it out then.
  function showNewestReleases() {
    const observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) { return; }
        entry.target.scrollLeft = entry.target.scrollWidth;
        observer.unobserve(entry.target);
      });
    }, { rootMargin: "25% 0px" });
    document.querySelectorAll(".atlas-grid-scroll").forEach(function (box) { observer.observe(box); });
  }

  // Material sets up each code block (copy button, focus for keyboard scrolling) as it comes into view
  // (content.lazy); until then every block is focusable, so a keyboard can reach and scroll any of them.
  function makeCodeFocusable() {
    document.querySelectorAll(".md-typeset pre > code:not([tabindex])").forEach(function (code) { code.tabIndex = 0; });
  }

  function setup() {
    makeCodeFocusable();
    showNewestReleases();
    setupMatrix();
    setupUpgrade();
    window.requestAnimationFrame(revealTarget);
  }

  // Material's instant navigation swaps pages without a reload; document$ emits on each page.
  if (typeof document$ !== "undefined") {
    document$.subscribe(setup);
  } else {
    document.addEventListener("DOMContentLoaded", setup);
  }
})();
