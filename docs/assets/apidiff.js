/* PyTorch Release Atlas: what changed in torch's public API between any two releases, from the site's API index (loaded
   when the form is first used). Names added and removed, and for the names both releases have, parameters added or
   removed and defaults changed; the breaking kinds are named as griffe names them. The choice stays in the address
   (?from=2.0&to=2.6&private=1); a value no control offers is ignored. Everything is written as text. */
(function () {
  "use strict";

  const atlas = window.atlas;
  const element = atlas.element;
  const SHOWN = 300; // items of a list shown before "show all"
  const GRIFFE = {  // griffe's BreakageKind values, as griffe writes them
    removed: "Public object was removed",
    parameterRemoved: "Parameter was removed",
    defaultChanged: "Parameter default was changed",
  };
  const PRIVATE = /(^|\.)_/;

  function inside(spans, at) {
    let inside = false;
    for (let i = 0; i < spans.length && spans[i] <= at; i += 1) { inside = !inside; }
    return inside;
  }

  function defaultAt(parameter, at) {
    let value = null;
    (Array.isArray(parameter.d) ? parameter.d : []).forEach(function (change) { if (change[0] <= at) { value = change[1]; } });
    return value;
  }

  // {added, removed, parameters: [path, name, "added" | "removed" | "default", before, after]} between two releases.
  function difference(index, from, to, withPrivate) {
    const found = { added: [], removed: [], parameters: [] };
    Object.keys(index.names).sort().forEach(function (parent) {
      const leaves = index.names[parent];
      Object.keys(leaves).sort().forEach(function (leaf) {
        const path = parent ? parent + "." + leaf : leaf;
        const entry = leaves[leaf];
        if ((!withPrivate && PRIVATE.test(path)) || !entry || !Array.isArray(entry.v)) { return; }
        const before = inside(entry.v, from), after = inside(entry.v, to);
        if (!before && after) { found.added.push(path); }
        if (before && !after) { found.removed.push(path); }
        if (!before || !after || !entry.p || typeof entry.p !== "object") { return; }
        Object.keys(entry.p).sort().forEach(function (name) {
          const parameter = entry.p[name];
          if (!parameter || typeof parameter !== "object") { return; }
          const had = Array.isArray(parameter.v) ? inside(parameter.v, from) : true;
          const has = Array.isArray(parameter.v) ? inside(parameter.v, to) : true;
          if (had && !has) { found.parameters.push([path, name, "removed"]); }
          if (!had && has) { found.parameters.push([path, name, "added"]); }
          const was = defaultAt(parameter, from), is = defaultAt(parameter, to);
          if (had && has && was !== null && is !== null && was !== is) { found.parameters.push([path, name, "default", was, is]); }
        });
      });
    });
    return found;
  }

  function nameItem(index, path, up, after) {
    const item = element("li");
    const link = atlas.referenceLink(function (p) {
      const cut = p.lastIndexOf(".");
      const leaves = atlas.own(index.names, cut < 0 ? "" : p.slice(0, cut));
      const entry = leaves ? atlas.own(leaves, p.slice(cut + 1)) : undefined;
      return entry && Number.isInteger(entry.k) ? index.kinds[entry.k] || "" : "";
    }, path, up);
    const code = element("code", path);
    if (link) { const a = element("a", "", { href: link }); a.append(code); item.append(a); } else { item.append(code); }
    if (after) { item.append(" " + after); }
    return item;
  }

  // A list of at most SHOWN items, with a button that shows the rest.
  function list(items) {
    const box = element("ul");
    items.slice(0, SHOWN).forEach(function (make) { box.append(make()); });
    if (items.length > SHOWN) {
      const more = element("button", atlas.text("Show all {count}", { count: items.length }), { type: "button" });
      more.addEventListener("click", function () {
        items.slice(SHOWN).forEach(function (make) { box.append(make()); });
        more.remove();
      });
      return [box, more];
    }
    return [box];
  }

  function show(index, from, to, withPrivate, box, up) {
    const found = difference(index, from, to, withPrivate);
    const a = index.releases[from], b = index.releases[to];
    const parts = [element("p", atlas.text("From PyTorch {from} to {to}: {added} names added, {removed} removed, {parameters} parameter changes.", {
      from: a, to: b, added: found.added.length, removed: found.removed.length, parameters: found.parameters.length,
    }), { class: "atlas-apidiff-summary" })];
    const section = function (title, items) {
      if (!items.length) { return; }
      parts.push(element("h3", title));
      parts.push.apply(parts, list(items));
    };
    section(atlas.text("Removed ({kind})", { kind: GRIFFE.removed }), found.removed.map(function (path) {
      return function () { return nameItem(index, path, up); };
    }));
    section(atlas.text("Parameters"), found.parameters.map(function (change) {
      return function () {
        const words = change[2] === "added"
          ? atlas.text("parameter {name} added", { name: change[1] })
          : change[2] === "removed"
            ? atlas.text("parameter {name} removed ({kind})", { name: change[1], kind: GRIFFE.parameterRemoved })
            : atlas.text("default of {name} changed from {before} to {after} ({kind})", { name: change[1], before: change[3], after: change[4], kind: GRIFFE.defaultChanged });
        return nameItem(index, change[0], up, "— " + words);
      };
    }));
    section(atlas.text("Added"), found.added.map(function (path) { return function () { return nameItem(index, path, up); }; }));
    box.replaceChildren.apply(box, parts);
  }

  function setup() {
    document.querySelectorAll("form.atlas-apidiff").forEach(function (form) {
      if (form.dataset.ready) { return; }
      form.dataset.ready = "1";
      const box = form.nextElementSibling;
      const up = form.dataset.up || "";
      const pick = { from: form.querySelector("[name=from]"), to: form.querySelector("[name=to]") };
      const own = form.querySelector("[name=private]");
      const offered = function (select) { return Array.from(select.options).map(function (o) { return o.value; }); };
      const run = function (write) {
        box.setAttribute("aria-busy", "true");
        atlas.json(form.dataset.index).then(function (index) {
          const from = index.releases.indexOf(pick.from.value), to = index.releases.indexOf(pick.to.value);
          box.removeAttribute("aria-busy");
          if (from < 0 || to < 0) { box.textContent = atlas.text("The API index could not be loaded."); return; }
          show(index, from, to, own.checked, box, up);
          if (write) { atlas.writeParams({ from: pick.from.value, to: pick.to.value, private: own.checked ? "1" : "" }); }
        }, function () {
          box.removeAttribute("aria-busy");
          box.textContent = atlas.text("The API index could not be loaded.");
        });
      };
      form.addEventListener("submit", function (event) { event.preventDefault(); run(true); });
      const asked = atlas.readParams(["from", "to", "private"]);
      let chosen = false;
      ["from", "to"].forEach(function (name) {
        if (offered(pick[name]).indexOf(asked[name]) >= 0) { pick[name].value = asked[name]; chosen = true; }
      });
      own.checked = asked.private === "1";
      if (chosen) { run(false); }
    });
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(setup);
  } else {
    document.addEventListener("DOMContentLoaded", setup);
  }
})();
