/* PyTorch Release Atlas: "which release has torch.X?" — answered in the browser from the site's own API index.
   Takes a dotted name, a part of one, a pasted error, or two releases ("1.13 to 2.6": the upgrade path between them);
   writes answers with textContent only (names and titles are data, never markup); keeps the question in the URL
   (?name=; the theme's search takes ?q=) so an answer can be linked. */
(function () {
  "use strict";

  const SHOWN_MENTIONS = 4; // entries of the atlas that cite a name, shown under it (oldest first)
  const atlas = window.atlas;
  const own = atlas.own;  // the index's objects are read at keys from the question (?name=): own properties only
  let loaded = null; // a promise of {index, mentions, paged}

  function load(form) {
    if (!loaded) {
      loaded = Promise.all([atlas.json(form.dataset.index), atlas.json(form.dataset.mentions), atlas.json(form.dataset.features)]).then(function (found) {
        const data = prepare(found[0], found[1].names);
        data.deprecated = found[1].deprecated || {};
        data.features = found[2].features;
        return data;
      });
      loaded.catch(function () { loaded = null; });
    }
    return loaded;
  }

  // Every name, one per line, in one string (and a lower-cased copy), with where each line starts: a question scans
  // them without an object per name, so the page's heap, and its pauses to collect garbage, stay small. The index
  // itself stays as parsed; a name's entry is read from it. Modules with a page of the reference are noted once.
  function prepare(index, mentions) {
    const paths = [];
    const listedChildren = new Set();
    const modules = [];
    Object.keys(index.names).forEach(function (parent) {
      const leaves = index.names[parent];
      Object.keys(leaves).forEach(function (leaf) {
        const path = parent ? parent + "." + leaf : leaf;
        paths.push(path);
        const entry = leaves[leaf];
        if (index.kinds[entry.k] === "module" && entry.a) { return; }
        listedChildren.add(parent);
        if (index.kinds[entry.k] === "module") { modules.push(path); }
      });
    });
    paths.sort();
    const starts = new Int32Array(paths.length + 1);
    let at = 1;
    paths.forEach(function (path, i) { starts[i] = at; at += path.length + 1; });
    starts[paths.length] = at;
    const text = "\n" + paths.join("\n") + "\n";
    const lower = text.toLowerCase();
    return { index: index, mentions: mentions, text: text, lower: lower.length === text.length ? lower : text, starts: starts,
      paged: new Set(modules.filter(function (path) { return listedChildren.has(path); })) };
  }

  // A name's entry in the index, or null; never a property every object inherits (`__proto__.hasOwnProperty`,
  // `constructor.name`).
  function entryOf(data, path) {
    const cut = path.lastIndexOf(".");
    const leaves = own(data.index.names, cut < 0 ? "" : path.slice(0, cut));
    return own(leaves, path.slice(cut + 1)) || null;
  }

  // The number of the line (name) holding a position of the text.
  function lineAt(data, position) {
    let low = 0, high = data.starts.length - 2;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (data.starts[middle] <= position) { low = middle; } else { high = middle - 1; }
    }
    return low;
  }

  function pathAt(data, line) { return data.text.slice(data.starts[line], data.starts[line + 1] - 1); }

  // The full names whose last part is `leaf`, in sorted order.
  function withLeaf(data, leaf) {
    const found = [];
    [".", "\n"].forEach(function (before) {
      for (let at = data.text.indexOf(before + leaf + "\n"); at >= 0; at = data.text.indexOf(before + leaf + "\n", at + 1)) {
        found.push(pathAt(data, lineAt(data, at + 1)));
      }
    });
    return found.sort();
  }

  // The names that hold `part` (lower-cased), in sorted order.
  function containing(data, part) {
    const found = [];
    for (let at = data.lower.indexOf(part); at >= 0; ) {
      const line = lineAt(data, at);
      found.push(pathAt(data, line));
      at = data.lower.indexOf(part, data.starts[line + 1]);
    }
    return found;
  }

  // Two releases, such as "1.13 to 2.6", "from 2.0 -> 2.5", "v1.13.1..2.6" or "从 1.13 到 2.6".
  const RELEASE_PAIR = /^(?:from\s+|从\s*)?(?:(?:py)?torch\s*|v)?(\d+\.\d+)(?:\.\d+)?\s*(?:to|->|→|\.\.|…|-|–|—|到|至|\s)\s*(?:(?:py)?torch\s*|v)?(\d+\.\d+)(?:\.\d+)?$/i;

  // What the question asks: {name}, {name, param}, {owner, attr} (an attribute of an object of a class), {upgrade} (two
  // releases), or {text}.
  function parse(question) {
    const q = question.trim();
    let m = q.match(RELEASE_PAIR);
    if (m) { return { upgrade: [m[1], m[2]] }; }
    m = q.match(/module '([\w.]+)' has no attribute '(\w+)'/);
    if (m) { return { name: m[1] + "." + m[2] }; }
    m = q.match(/'(\w+)' object has no attribute '(\w+)'/);
    if (m) { return { owner: m[1], attr: m[2] }; }
    m = q.match(/cannot import name '(\w+)' from '([\w.]+)'/);
    if (m) { return { name: m[2] + "." + m[1] }; }
    m = q.match(/No module named '([\w.]+)'/);
    if (m) { return { name: m[1] }; }
    m = q.match(/([\w.]+)\(\) got an unexpected keyword argument '(\w+)'/);
    if (m) { return { callable: m[1], param: m[2] }; }
    m = q.match(/^([\w.]+)\(.*?(\w+)\s*=/);  // a call with a keyword argument: torch.load(f, weights_only=True)
    if (m) { return { callable: m[1], param: m[2] }; }
    m = q.match(/^([\w.]+)[\s,:]+(\w+)$/);  // a callable and a parameter: "torch.load weights_only"
    if (m) { return { callable: m[1], param: m[2] }; }
    const bare = q.replace(/^[`'"]+|[`'"]+$/g, "").replace(/\(.*$/, "");
    if (/^[\w.]+$/.test(bare)) { return { name: bare }; }
    return { text: bare };
  }

  function releaseAt(data, position) { return data.index.releases[position]; }

  // Every fact about one name, as sentences.
  function describe(data, path, entry) {
    const v = entry.v || [];
    const facts = [];
    const kind = data.index.kinds[entry.k];  // as the index writes it; shown in words by kindText
    if (!v.length) {
      facts.push(entry.x ? atlas.text("only raises, from PyTorch {release}", { release: releaseAt(data, entry.x[0]) }) : atlas.text("never usable"));
    } else {
      facts.push(atlas.text("available since PyTorch {release}", { release: releaseAt(data, v[0]) }));
      for (let i = 1; i < v.length; i += 2) {
        facts.push(i + 1 < v.length
          ? atlas.text("removed in {removed}, back in {back}", { removed: releaseAt(data, v[i]), back: releaseAt(data, v[i + 1]) })
          : atlas.text("removed in {release}", { release: releaseAt(data, v[i]) }));
      }
      if (entry.x) { facts.push(atlas.text("only raises from {release}", { release: releaseAt(data, entry.x[0]) })); }
      (own(data.deprecated, path) || []).forEach(function (at) { facts.push(atlas.text("deprecated in {release}", { release: at[0] })); });
      if (Array.isArray(entry.c)) {  // measured where a CPU-only build of the release was measured too
        const cuda = data.index.releases.filter(function (release, at) { return entry.c.filter(function (cut) { return cut <= at; }).length % 2 === 1; });
        if (cuda.length) { facts.push(atlas.text("only the CUDA build has it in {releases}", { releases: cuda.join(", ") })); }
      }
    }
    return { path: path, kind: kind, facts: facts, entry: entry };
  }

  function parameterFacts(data, entry, param) {
    const p = own(entry.p, param);
    if (!p) { return null; }
    const facts = [];
    const v = p.v || [];
    for (let i = 0; i < v.length; i += 2) {
      facts.push(atlas.text("parameter {param} added in {release}", { param: param, release: releaseAt(data, v[i]) }));
      if (i + 1 < v.length) { facts.push(atlas.text("parameter {param} removed in {release}", { param: param, release: releaseAt(data, v[i + 1]) })); }
    }
    (p.d || []).slice(1).forEach(function (change, n) {
      facts.push(atlas.text("default of {param} changed from {before} to {after} in {release}", {
        param: param, before: p.d[n][1], after: change[1], release: releaseAt(data, change[0]),
      }));
    });
    return facts;
  }

  function find(data, name) {
    if (entryOf(data, name)) { return name; }
    if (entryOf(data, "torch." + name)) { return "torch." + name; }
    return null;
  }

  // Features whose name is the question, or else (from three characters on, or two Chinese ones) whose name starts
  // with it or holds it, the shortest first; at most five. A Chinese page matches and shows the Chinese names too.
  function features(data, question) {
    const q = question.trim().replace(/^[`'"]+|[`'"]+$/g, "").toLowerCase();
    if (q.length < (/[\u4e00-\u9fff]/.test(q) ? 2 : 3)) { return []; }
    const language = document.documentElement.lang;
    const ranked = [];
    data.features.forEach(function (feature) {
      const names = [feature.name, feature[language]].filter(Boolean).map(function (n) { return n.toLowerCase(); });
      const ats = names.map(function (name) {
        return name === q || feature.id === q ? 0 : name.startsWith(q) ? 1 : name.indexOf(q) >= 0 ? 2 : 3;
      });
      const at = Math.min.apply(null, ats);
      if (at < 3) { ranked.push([at, names[names.length - 1].length, feature]); }
    });
    ranked.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    const whole = ranked.length && ranked[0][0] === 0;  // a feature of that very name: it alone answers
    return ranked.filter(function (r) { return !whole || r[0] === 0; }).slice(0, 5).map(function (r) {
      const feature = r[2];
      const facts = [atlas.text("since PyTorch {release}", { release: feature.since })];
      if (feature.latest) { facts.push(atlas.text("{stage} in {release}", { stage: stageText(feature.latest[0]), release: feature.latest[1] })); }
      return { path: feature[language] || feature.name, kind: "feature", facts: facts, page: "features/" + feature.id + "/", entry: null };
    });
  }

  // The names and features that answer a question, `asked` being what parse() made of it.
  function answer(data, question, asked) {
    const found = asked.name || asked.text ? features(data, question) : [];
    if (asked.name) {
      const path = find(data, asked.name);
      if (path) { found.push(describe(data, path, entryOf(data, path))); }
    } else if (asked.owner) {
      const suffix = "." + asked.owner + "." + asked.attr;
      withLeaf(data, asked.attr).forEach(function (path) {
        if (path.endsWith(suffix)) { found.push(describe(data, path, entryOf(data, path))); }
      });
    } else if (asked.callable) {
      // Callables with that name; those whose parameter has a history first, then torch's own name, then the shortest.
      const suffix = "." + asked.callable;
      const ranked = [];
      withLeaf(data, asked.callable.slice(asked.callable.lastIndexOf(".") + 1)).forEach(function (path) {
        if (path === asked.callable || path.endsWith(suffix)) {
          const entry = entryOf(data, path);
          const described = describe(data, path, entry);
          const facts = parameterFacts(data, entry, asked.param);
          described.facts = facts || [atlas.text("no change to parameter {param} was measured: it was there in every release whose signature could be read", { param: asked.param })];
          ranked.push([facts ? 0 : 1, path === "torch" + suffix ? 0 : 1, path.length, described]);
        }
      });
      ranked.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
      ranked.forEach(function (r) { found.push(r[3]); });
    }
    if (found.every(function (item) { return item.kind === "feature"; })) {
      const text = (asked.text || asked.name || asked.attr || asked.param || "").toLowerCase().replace(/^torch\./, "");
      if (text.length >= 2 && text.indexOf("\n") < 0) {
        const hidePrivate = !/(^|\.)_/.test(text);  // private names (a part starting with `_`) answer only when asked
        const ranked = containing(data, text).filter(function (path) { return !(hidePrivate && /(^|\.)_/.test(path)); }).map(function (path) {
          const leaf = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
          return [leaf === text ? 0 : leaf.startsWith(text) ? 1 : 2, path.length, path];
        });
        ranked.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : 1); });
        ranked.slice(0, 20).forEach(function (r) { found.push(describe(data, r[2], entryOf(data, r[2]))); });
      }
    }
    return found;
  }

  // Where a name's row is: the page of the module it lives in, or of the module whose class it belongs to.
  function pageOf(data, path, up) {
    const cut = path.lastIndexOf(".");
    const parent = path.slice(0, cut);
    const leaf = path.slice(cut + 1);
    const entry = entryOf(data, path);
    if (data.paged.has(parent) && !(data.index.kinds[entry.k] === "module" && entry.a)) {
      return up + "reference/" + parent + "/#" + leaf;
    }
    const owner = entryOf(data, parent);
    const ownerCut = parent.lastIndexOf(".");
    if (owner && data.index.kinds[owner.k] === "class" && data.paged.has(parent.slice(0, ownerCut))) {
      return up + "reference/" + parent.slice(0, ownerCut) + "/#" + parent.slice(ownerCut + 1) + "." + leaf;
    }
    return null;
  }

  const element = window.atlas.element;

  // A name's kind in words: the index's word (a "constant:" kind with its type), or "feature".
  function kindText(kind) {
    if (kind.startsWith("constant:")) { return atlas.text("constant of type {type}", { type: kind.slice("constant:".length) }); }
    switch (kind) {
      case "builtin": return atlas.text("builtin");
      case "class": return atlas.text("class");
      case "classmethod": return atlas.text("classmethod");
      case "dtype": return atlas.text("dtype");
      case "error": return atlas.text("error");
      case "function": return atlas.text("function");
      case "method": return atlas.text("method");
      case "module": return atlas.text("module");
      case "other": return atlas.text("other");
      case "property": return atlas.text("property");
      case "staticmethod": return atlas.text("staticmethod");
      case "feature": return atlas.text("feature");
      default: return kind;
    }
  }

  // A feature's latest stage: a stability label as its release wrote it; the site's words for no label, deprecated, removed.
  function stageText(stage) {
    switch (stage) {
      case "No label": return atlas.text("No label");
      case "Deprecated": return atlas.text("Deprecated");
      case "Removed": return atlas.text("Removed");
      default: return stage;
    }
  }

  // What an entry citing a name is: a feature's stability label, as written, or a change's kind in words.
  function whatText(what) {
    switch (what) {
      case "breaking": return atlas.text("breaking");
      case "deprecation": return atlas.text("deprecation");
      case "removal": return atlas.text("removal");
      default: return what;
    }
  }

  // The upgrade path between two releases, one link per kind of change (the upgrade page, narrowed); null when the
  // atlas does not cover both, or they are the same.
  function upgradeAnswer(data, pair, up) {
    const releases = data.index.releases;
    const [from, to] = pair.slice().sort(function (a, b) { return releases.indexOf(a) - releases.indexOf(b); });
    if (from === to || releases.indexOf(from) < 0 || releases.indexOf(to) < 0) { return null; }
    const row = element("li");
    row.append(element("strong", atlas.text("Upgrading from PyTorch {from} to {to}: ", { from: from, to: to })));
    [["breaking", atlas.text("backwards-incompatible changes only")], ["deprecation", atlas.text("deprecations only")],
      ["removal", atlas.text("removals only")], ["", atlas.text("every change")]].forEach(function (kind, n) {
      if (n) { row.append(element("span", " · ")); }
      const query = new URLSearchParams({ from: from, to: to });
      if (kind[0]) { query.set("kind", kind[0]); }
      row.append(element("a", kind[1], { href: up + "upgrade/?" + query.toString() }));
    });
    const list = element("ul", "", { class: "atlas-lookup-results" });
    list.append(row);
    return list;
  }

  function show(data, box, question, up) {
    box.replaceChildren();
    const asked = parse(question);
    const path = asked.upgrade && upgradeAnswer(data, asked.upgrade, up);
    if (path) { box.append(path); return; }
    const found = answer(data, question, asked);
    if (!found.length) {
      box.append(element("p", atlas.text("No public name of torch matches “{question}” in any release from {first} to {last}.", {
        question: question.trim(), first: data.index.releases[0], last: data.index.releases[data.index.releases.length - 1],
      })));
      return;
    }
    const list = element("ul", "", { class: "atlas-lookup-results" });
    found.forEach(function (item) {
      const row = element("li");
      const link = item.page ? up + item.page : pageOf(data, item.path, up);
      const name = element(item.page ? "strong" : "code", item.path);
      row.append(link ? (function () { const a = element("a", "", { href: link }); a.append(name); return a; })() : name);
      row.append(element("span", atlas.text(" ({kind}): ", { kind: kindText(item.kind) })));
      row.append(element("strong", item.facts.join(atlas.text("; "))));
      const mentions = (!item.page && own(data.mentions, item.path)) || [];
      mentions.slice(0, SHOWN_MENTIONS).forEach(function (mention) {
        const cite = element("div", "", { class: "atlas-lookup-mention" });
        cite.append(element("span", atlas.text("PyTorch {release} ({what}): ", { release: mention[0], what: whatText(mention[2]) })));
        cite.append(element("a", mention[3], { href: up + "releases/" + mention[0] + "/#" + mention[1] }));
        row.append(cite);
      });
      if (mentions.length > SHOWN_MENTIONS) {
        row.append(element("div", atlas.text("… and {n} more entries of the atlas", { n: mentions.length - SHOWN_MENTIONS }), { class: "atlas-lookup-mention" }));
      }
      list.append(row);
    });
    box.append(list);
  }

  // Keep the question in the address (?name=), so that the answer can be linked.
  function remember(question) {
    const params = new URLSearchParams(window.location.search);
    params.set("name", question);
    window.history.replaceState(window.history.state, "", window.location.pathname + "?" + params.toString() + window.location.hash);
  }

  function setupLookup() {
    document.querySelectorAll("form.atlas-lookup").forEach(function (form) {
      if (form.dataset.ready) { return; }
      form.dataset.ready = "1";
      const input = form.querySelector("input");
      const box = form.nextElementSibling;
      const up = form.dataset.up || "";
      const run = function (write) {
        const question = input.value;
        if (!question.trim()) { box.replaceChildren(); return; }
        box.setAttribute("aria-busy", "true");
        load(form).then(function (data) {
          show(data, box, question, up);
          box.removeAttribute("aria-busy");
          // The address records the question once the answer is shown: writing history costs a phone ~15 ms.
          if (write) { window.setTimeout(function () { remember(question); }, 0); }
        }, function () {
          box.textContent = atlas.text("The API index could not be loaded.");
        });
      };
      form.addEventListener("submit", function (event) { event.preventDefault(); run(true); });
      input.addEventListener("focus", function () { load(form); }, { once: true });
      const asked = new URLSearchParams(window.location.search).get("name");
      if (asked) { input.value = asked; run(false); }
    });
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(setupLookup);
  } else {
    document.addEventListener("DOMContentLoaded", setupLookup);
  }
})();
