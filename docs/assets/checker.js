/* PyTorch Release Atlas: "which torch does my code need?" — pasted Python read in the browser against the site's API
   index. The rules are torch_needs.py's, function for function (tokens, Index, Reader, presentIn, ranges, answer), and
   both pass the cases in tests/fixtures/checker_cases.json. The code is only read: never run, never sent, and written back
   only as text (textContent). One pass over the text, no recursion: any paste ends in time linear in its length.
   `atlas.torchNeeds(document, files)` gives the answer as torch_needs.py --json does. */
(function () {
  "use strict";

  const OPERATORS = ["**=", "//=", ">>=", "<<=", "...",
    "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=", "<<", "<=", "==", ">=", ">>", "@=", "^=", "|="];
  const OPENING = "([{", CLOSING = ")]}", DIGITS = "0123456789", PREFIX = "rRbBuUfF";
  const NAME_START = /[\p{L}_]/u, NAME_PART = /[\p{L}\p{N}_]/u;
  const atlas = window.atlas;
  const own = atlas.own;

  // The length of the name character at `position` (2 for one outside the BMP), or 0 if there is none.
  function nameChar(text, position, first) {
    const code = text.codePointAt(position);
    if (code === undefined) { return 0; }
    const char = String.fromCodePoint(code);
    return (first ? NAME_START : NAME_PART).test(char) ? char.length : 0;
  }

  function quoteAfterPrefix(text, position) {
    let end = position;
    while (end < text.length && end - position < 2 && PREFIX.includes(text[end])) { end += 1; }
    return end < text.length && (text[end] === "'" || text[end] === '"');
  }

  // The position after the string literal at `position` and the line it ends on.
  function skipString(text, position, line) {
    while (text[position] !== "'" && text[position] !== '"') { position += 1; }
    const triple = text[position].repeat(3);
    const quote = text.startsWith(triple, position) ? triple : text[position];
    position += quote.length;
    const size = text.length;
    while (position < size) {
      const char = text[position];
      if (char === "\\") {
        if (position + 1 < size && text[position + 1] === "\n") { line += 1; }
        position += 2;
      } else if (text.startsWith(quote, position)) {
        return [position + quote.length, line];
      } else if (char === "\n") {
        if (quote.length === 1) { return [position, line]; }
        line += 1;
        position += 1;
      } else {
        position += 1;
      }
    }
    return [size, line];
  }

  // Tokens: [kind, text, line], kind "name", "op" or "newline" (the end of a logical line).
  function tokens(text) {
    const found = [];
    let position = 0, line = 1, depth = 0;
    const size = text.length;
    while (position < size) {
      const char = text[position];
      if (char === "\n") {
        if (depth === 0) { found.push(["newline", "", line]); }
        line += 1;
        position += 1;
      } else if (" \t\f\r".includes(char)) {
        position += 1;
      } else if (char === "#") {
        const end = text.indexOf("\n", position);
        position = end < 0 ? size : end;
      } else if (char === "\\") {
        position += 1;
      } else if (char === "'" || char === '"' || (PREFIX.includes(char) && quoteAfterPrefix(text, position))) {
        [position, line] = skipString(text, position, line);
      } else if (nameChar(text, position, true)) {
        let end = position + nameChar(text, position, true);
        for (let step = nameChar(text, end, false); step; step = nameChar(text, end, false)) { end += step; }
        found.push(["name", text.slice(position, end), line]);
        position = end;
      } else if (DIGITS.includes(char) || (char === "." && position + 1 < size && DIGITS.includes(text[position + 1]))) {
        let end = position + 1;
        while (end < size) {
          const step = "._".includes(text[end]) || ("+-".includes(text[end]) && "eE".includes(text[end - 1])) ? 1 : nameChar(text, end, false);
          if (!step) { break; }
          end += step;
        }
        position = end;
      } else {
        let operator = OPERATORS.find(function (op) { return text.startsWith(op, position); }) || char;
        if (OPENING.includes(operator)) {
          depth += 1;
        } else if (CLOSING.includes(operator)) {
          depth = Math.max(0, depth - 1);
        } else if (operator === ";" && depth === 0) {
          found.push(["newline", "", line]);
          operator = "";
        }
        if (operator) { found.push(["op", operator, line]); }
        position += operator.length || 1;
      }
    }
    found.push(["newline", "", line]);
    return found;
  }

  // The atlas's API index: releases and names with the intervals they exist in. Throws on a document that is not one.
  function Index(document) {
    if (!document || typeof document !== "object" || document.format !== 1) { throw new Error("not the atlas's API index"); }
    const releases = document.releases, names = document.names;
    if (!Array.isArray(releases) || !releases.length || !releases.every(function (r) { return typeof r === "string"; })) {
      throw new Error("the index has no list of releases");
    }
    if (!names || typeof names !== "object" || !Object.keys(names).every(function (p) { return names[p] && typeof names[p] === "object" && !Array.isArray(names[p]); })) {
      throw new Error("the index has no names");
    }
    this.releases = releases;
    this.names = names;
    this.kinds = Array.isArray(document.kinds) ? document.kinds : [];
    this.holders = new Map();
    Object.keys(names).forEach(function (parent) {
      const leaves = names[parent];
      Object.keys(leaves).forEach(function (leaf) {
        const entry = leaves[leaf];
        const alias = entry && typeof entry === "object" ? own(entry, "a") : undefined;
        if (typeof alias === "string" && !this.holders.has(alias)) { this.holders.set(alias, parent ? parent + "." + leaf : leaf); }
      }, this);
    }, this);
  }

  Index.prototype.entry = function (path) {
    const cut = path.lastIndexOf(".");
    const leaves = own(this.names, cut < 0 ? "" : path.slice(0, cut));
    const entry = leaves && typeof leaves === "object" ? own(leaves, path.slice(cut + 1)) : undefined;
    return entry && typeof entry === "object" && Array.isArray(entry.v) ? entry : null;
  };

  Index.prototype.member = function (path, entry, name) {
    const holders = [path, own(entry, "a"), this.holders.get(path)];
    for (let i = 0; i < holders.length; i += 1) {
      if (typeof holders[i] === "string" && this.entry(holders[i] + "." + name) !== null) { return holders[i] + "." + name; }
    }
    return null;
  };

  Index.prototype.present = function (spans) {
    const flags = [];
    const cuts = spans.filter(Number.isInteger);
    let inside = false, cut = 0;
    for (let number = 0; number < this.releases.length; number += 1) {
      while (cut < cuts.length && cuts[cut] <= number) { inside = !inside; cut += 1; }
      flags.push(inside);
    }
    return flags;
  };

  // One pass over the tokens of one text: the uses of torch names and keyword arguments, and what it could not check.
  function Reader(text, index) {
    this.toks = tokens(text);
    this.index = index;
    this.bound = new Map([["torch", "torch"]]);
    this.uses = [];
    this.unresolved = [];
    this.calls = [];
  }

  Reader.prototype.textAt = function (at) { return at >= 0 && at < this.toks.length ? this.toks[at][1] : ""; };
  Reader.prototype.nameAt = function (at) { return at >= 0 && at < this.toks.length && this.toks[at][0] === "name" ? this.toks[at][1] : ""; };
  Reader.prototype.statementStarts = function (at) { return at === 0 || this.toks[at - 1][0] === "newline" || this.toks[at - 1][1] === ":"; };

  Reader.prototype.read = function () {
    let at = 0;
    while (at < this.toks.length) { at = this.step(at); }
    return this;
  };

  Reader.prototype.step = function (at) {
    const [kind, value, line] = this.toks[at];
    if (kind === "op") {
      if (OPENING.includes(value)) {
        this.calls.push("");
      } else if (CLOSING.includes(value) && this.calls.length) {
        const called = this.calls.pop();
        const after = this.nameAt(at + 2);
        if (called && this.textAt(at + 1) === "." && after) {
          this.unresolved.push({ line: line, why: "result-attribute", path: called, name: after });
        }
      }
      return at + 1;
    }
    if (kind !== "name" || this.textAt(at - 1) === ".") { return at + 1; }
    if (value === "import" && this.statementStarts(at)) { return this.importNames(at + 1); }
    if (value === "from" && this.statementStarts(at)) { return this.fromImport(at + 1); }
    const before = this.textAt(at - 1);
    if (this.textAt(at + 1) === "=" && (before === "(" || before === ",") && this.calls.length && this.calls[this.calls.length - 1]) {
      this.uses.push({ name: this.calls[this.calls.length - 1], keyword: value, line: line });
      return at + 1;
    }
    if (value === "getattr" && this.textAt(at + 1) === "(" && this.bound.has(this.nameAt(at + 2)) && this.textAt(at + 3) === ",") {
      this.unresolved.push({ line: line, why: "dynamic", path: this.bound.get(this.nameAt(at + 2)), name: "" });
    }
    if (this.textAt(at + 1) === "=" && this.statementStarts(at)) { return this.assignment(at); }
    if (this.bound.has(value)) { return this.chainUse(at)[0]; }
    return at + 1;
  };

  Reader.prototype.chain = function (at) {
    let path = this.bound.get(this.toks[at][1]);
    let entry = this.index.entry(path);
    const line = this.toks[at][2];
    at += 1;
    while (this.textAt(at) === "." && this.nameAt(at + 1)) {
      const name = this.nameAt(at + 1);
      if (entry === null || (name.startsWith("__") && name.endsWith("__"))) { break; }
      const found = this.index.member(path, entry, name);
      if (found === null) {
        this.unresolved.push({ line: line, why: "unknown-name", path: path + "." + name, name: name });
        at += 2;
        while (this.textAt(at) === "." && this.nameAt(at + 1)) { at += 2; }
        return ["", at];
      }
      path = found;
      entry = this.index.entry(found);
      at += 2;
    }
    if (entry === null) {
      this.unresolved.push({ line: line, why: "unknown-name", path: path, name: path.slice(path.lastIndexOf(".") + 1) });
      return ["", at];
    }
    return [path, at];
  };

  Reader.prototype.chainUse = function (at) {
    const [path, end] = this.chain(at);
    if (path) { this.uses.push({ name: path, keyword: null, line: this.toks[at][2] }); }
    if (this.textAt(end) === "(") {
      this.calls.push(path);
      return [end + 1, path];
    }
    return [end, path];
  };

  Reader.prototype.assignment = function (at) {
    const target = this.toks[at][1], valueAt = at + 2;
    if (this.bound.has(this.nameAt(valueAt))) {
      const [end, path] = this.chainUse(valueAt);
      if (path && this.toks[end][0] === "newline") { this.bound.set(target, path); } else { this.bound.delete(target); }
      return end;
    }
    this.bound.delete(target);
    return at + 1;
  };

  Reader.prototype.dotted = function (at) {
    const parts = [];
    while (this.nameAt(at)) {
      parts.push(this.nameAt(at));
      if (this.textAt(at + 1) !== "." || !this.nameAt(at + 2)) { return [parts.join("."), at + 1]; }
      at += 2;
    }
    return [parts.join("."), at];
  };

  Reader.prototype.usePath = function (path, line) {
    if (this.index.entry(path) === null) {
      this.unresolved.push({ line: line, why: "unknown-name", path: path, name: path.slice(path.lastIndexOf(".") + 1) });
      return "";
    }
    this.uses.push({ name: path, keyword: null, line: line });
    return path;
  };

  function isTorch(path) { return path === "torch" || path.startsWith("torch."); }

  Reader.prototype.importNames = function (at) {
    while (this.toks[at][0] !== "newline") {
      const line = this.toks[at][2];
      let path;
      [path, at] = this.dotted(at);
      const alias = this.textAt(at) === "as" ? this.nameAt(at + 1) : "";
      if (alias) { at += 2; }
      if (isTorch(path)) {
        const found = this.usePath(path, line);
        if (alias && found) { this.bound.set(alias, found); } else if (!alias) { this.bound.set("torch", "torch"); }
      } else if (alias || path) {
        this.bound.delete(alias || path.split(".")[0]);
      }
      if (this.textAt(at) !== ",") { break; }
      at += 1;
    }
    return at;
  };

  Reader.prototype.fromImport = function (at) {
    let module;
    [module, at] = this.dotted(at);
    if (this.textAt(at) !== "import" || !isTorch(module)) { return at; }
    at += 1;
    const parenthesised = this.textAt(at) === "(";
    if (parenthesised) { at += 1; }
    while (this.toks[at][0] !== "newline") {
      const line = this.toks[at][2];
      if (this.textAt(at) === "*") {
        this.unresolved.push({ line: line, why: "star-import", path: module, name: "*" });
        return at + 1;
      }
      const name = this.nameAt(at);
      if (!name) { break; }
      const alias = this.textAt(at + 1) === "as" ? this.nameAt(at + 2) : "";
      at += alias ? 3 : 1;
      const found = this.usePath(module + "." + name, line);
      if (found) { this.bound.set(alias || name, found); } else { this.bound.delete(alias || name); }
      if (this.textAt(at) !== ",") { break; }
      at += 1;
    }
    return parenthesised && this.textAt(at) === ")" ? at + 1 : at;
  };

  // [per release whether the use is there, whether **kwargs may have taken the keyword where its parameter was not].
  function presentIn(index, use) {
    const entry = index.entry(use.name) || { v: [] };
    const there = index.present(entry.v);
    const parameters = entry.p && typeof entry.p === "object" ? entry.p : {};
    const history = use.keyword ? own(parameters, use.keyword) : undefined;
    if (!history || typeof history !== "object" || !Array.isArray(history.v)) { return [there, false]; }
    const parameter = index.present(history.v);
    const anyKeyword = Array.isArray(entry.w) ? index.present(entry.w) : there.map(function () { return false; });
    const maybe = there.some(function (flag, number) { return flag && anyKeyword[number] && !parameter[number]; });
    return [there.map(function (flag, number) { return flag && parameter[number]; }), maybe];
  }

  function ranges(index, flags) {
    const found = [];
    flags.forEach(function (flag, number) {
      if (flag && (number === 0 || !flags[number - 1])) {
        found.push([index.releases[number], index.releases[number]]);
      } else if (flag) {
        found[found.length - 1][1] = index.releases[number];
      }
    });
    return found;
  }

  function compare(a, b) {
    for (let i = 0; i < a.length; i += 1) {
      if (a[i] < b[i]) { return -1; }
      if (a[i] > b[i]) { return 1; }
    }
    return 0;
  }

  // The answer for some texts, as [file name, text] pairs, shaped as torch_needs.py --json prints it.
  function answer(index, files) {
    const grouped = new Map();
    let unresolved = [];
    files.forEach(function (pair) {
      const file = pair[0];
      const reader = new Reader(pair[1], index).read();
      reader.uses.forEach(function (use) {
        const key = use.name + "\u0000" + (use.keyword || "");
        let record = grouped.get(key);
        if (!record) {
          const [flags, maybe] = presentIn(index, use);
          record = { name: use.name, keyword: use.keyword, at: [], flags: flags, key: [use.name, use.keyword || ""] };
          grouped.set(key, record);
          if (maybe) { unresolved.push({ line: use.line, why: "any-keyword", path: use.name, name: use.keyword, file: file }); }
        }
        record.at.push({ file: file, line: use.line });
      });
      unresolved = unresolved.concat(reader.unresolved.map(function (item) { return Object.assign({}, item, { file: file }); }));
    });
    const records = Array.from(grouped.values());
    const last = index.releases.length - 1;
    const every = index.releases.map(function (release, number) { return records.every(function (r) { return r.flags[number]; }); });
    const first = every.indexOf(true) >= 0 ? every.indexOf(true) : null;
    const newest = first !== null ? every.lastIndexOf(true) : null;
    records.sort(function (a, b) { return compare(a.key, b.key); });
    const uses = records.map(function (record) {
      const flags = record.flags;
      return {
        name: record.name, keyword: record.keyword, at: record.at, releases: ranges(index, flags),
        sets_oldest: first !== null && first > 0 && !flags[first - 1],
        sets_newest: newest !== null && newest < last && !flags[newest + 1],
      };
    });
    unresolved.sort(function (a, b) { return compare([a.file, a.line, a.why, a.path, a.name], [b.file, b.line, b.why, b.path, b.name]); });
    return {
      index: { first: index.releases[0], last: index.releases[last] },
      oldest: first !== null ? index.releases[first] : null,
      newest: newest !== null && newest < last ? index.releases[newest] : null,
      releases: ranges(index, every),
      uses: uses,
      unresolved: unresolved,
    };
  }

  atlas.torchNeeds = function (document, files) { return answer(new Index(document), files); };
  atlas.torchNeedsIndex = Index;

  // ---- The page: a form with the code, the answer written as text. ----

  const element = atlas.element;
  const SHOWN = 200; // uses and unchecked lines listed at most; the counts say how many there are
  let prepared = null;  // the Index made of the loaded index, once

  function load(form) {
    return atlas.json(form.dataset.index).then(function (document) { return prepared || (prepared = new Index(document)); });
  }

  function label(use) { return use.keyword ? use.name + "(" + use.keyword + "=)" : use.name; }
  function spans(releases) {
    return releases.map(function (r) { return r[0] === r[1] ? r[0] : atlas.text("{first} to {last}", { first: r[0], last: r[1] }); }).join(", ") || atlas.text("none");
  }
  function lines(use) {
    const shown = use.at.slice(0, 5).map(function (at) { return String(at.line); }).join(", ");
    return atlas.text("line {lines}", { lines: shown + (use.at.length > 5 ? ", …" : "") });
  }

  function useItem(index, use, up, fact) {
    const item = element("li");
    const link = atlas.referenceLink(function (path) { const entry = index.entry(path); return entry ? index.kinds[entry.k] || "" : ""; }, use.name, up);
    const code = element("code", label(use));
    if (link) { const a = element("a", "", { href: link }); a.append(code); item.append(a); } else { item.append(code); }
    item.append(" — " + fact + " (" + lines(use) + ")");
    return item;
  }

  // A list of the first SHOWN of `items`, each made by `make` (a 10 MB paste can have 100,000 uses not checked).
  function listOf(items, make) {
    const list = element("ul");
    items.slice(0, SHOWN).forEach(function (item) { list.append(make(item)); });
    if (items.length > SHOWN) { list.append(element("li", atlas.text("and {count} more", { count: items.length - SHOWN }))); }
    return list;
  }

  // Why a use was not checked, in words (the same as torch_needs.py's WHY).
  const WHY = {
    "star-import": function (v) { return atlas.text("from {path} import *: the names it brings in are not followed", v); },
    "dynamic": function (v) { return atlas.text("getattr on {path}: a name chosen at run time", v); },
    "unknown-name": function (v) { return atlas.text("{path}: the index has no such name (private, misspelt, or newer than the index)", v); },
    "result-attribute": function (v) { return atlas.text(".{name} on what {path}(...) returns: its type is not followed", v); },
    "any-keyword": function (v) { return atlas.text("{path}({name}=): releases before the parameter took **kwargs, which may have accepted it (counted as not)", v); },
  };

  function show(index, result, box, up) {
    const parts = [];
    const count = result.uses.reduce(function (sum, use) { return sum + use.at.length; }, 0);
    if (result.oldest === null) {
      parts.push(element("p", atlas.text("No release has every name and keyword argument this code uses. Where each one is:")));
      const full = JSON.stringify([[result.index.first, result.index.last]]);
      parts.push(listOf(result.uses.filter(function (use) { return JSON.stringify(use.releases) !== full; }), function (use) {
        return useItem(index, use, up, atlas.text("in {releases}", { releases: spans(use.releases) }));
      }));
    } else {
      const bound = result.newest
        ? atlas.text("PyTorch {oldest} to {newest}", { oldest: result.oldest, newest: result.newest })
        : atlas.text("PyTorch {oldest} or newer", { oldest: result.oldest });
      parts.push(element("p", atlas.text("{bound} has every torch name and keyword argument this code uses ({count} uses of {names} names and keyword arguments).",
        { bound: bound, count: count, names: result.uses.length }), { class: "atlas-checker-summary" }));
      if (result.releases.length > 1) { parts.push(element("p", atlas.text("Releases that have them all: {releases}.", { releases: spans(result.releases) }))); }
      const oldest = result.uses.filter(function (use) { return use.sets_oldest; });
      if (oldest.length) {
        parts.push(element("p", atlas.text("Why not older: these came in PyTorch {release}.", { release: result.oldest })));
        parts.push(listOf(oldest, function (use) { return useItem(index, use, up, atlas.text("since {release}", { release: use.releases[0][0] })); }));
      } else if (count) {
        parts.push(element("p", atlas.text("Everything it uses is in the oldest release the index measured.")));
      }
      const newest = result.uses.filter(function (use) { return use.sets_newest; });
      if (newest.length) {
        parts.push(element("p", atlas.text("Why not newer: these are gone after PyTorch {release}.", { release: result.newest })));
        parts.push(listOf(newest, function (use) { return useItem(index, use, up, atlas.text("in {releases}", { releases: spans(use.releases) })); }));
      }
    }
    if (result.unresolved.length) {
      parts.push(element("p", atlas.text("Not checked ({count}): the checker says so rather than guess.", { count: result.unresolved.length })));
      parts.push(listOf(result.unresolved, function (item) {
        return element("li", atlas.text("line {line}", { line: item.line }) + ": " + WHY[item.why]({ path: item.path, name: item.name }));
      }));
    }
    parts.push(element("p", atlas.text("Methods called on variables (x.sum()) are not checked: the checker does not follow values.")));
    box.replaceChildren.apply(box, parts);
  }

  function setup() {
    document.querySelectorAll("form.atlas-checker").forEach(function (form) {
      if (form.dataset.ready) { return; }
      form.dataset.ready = "1";
      // The text box comes from here: the sanitizer lets no page's HTML hold a textarea, which could swallow the page.
      const code = element("textarea", "", { id: "atlas-checker-code", name: "code", rows: "10", autocomplete: "off",
        autocapitalize: "off", spellcheck: "false", placeholder: "import torch.nn.functional as F" });
      form.querySelector(".atlas-checker-code").append(code);
      form.noValidate = true;  // the browser's own check of a form's fields takes seconds on a 10 MB paste, for nothing here
      const file = form.querySelector("input[type=file]");
      const box = form.nextElementSibling;
      const up = form.dataset.up || "";
      const run = function () {
        if (!code.value.trim()) { box.replaceChildren(); return; }
        box.setAttribute("aria-busy", "true");
        load(form).then(function (index) {
          show(index, answer(index, [["", code.value]]), box, up);
          box.removeAttribute("aria-busy");
        }, function () {
          box.removeAttribute("aria-busy");
          box.textContent = atlas.text("The API index could not be loaded.");
        });
      };
      form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
      code.addEventListener("focus", function () { load(form); }, { once: true });
      if (file) {
        file.addEventListener("change", function () {
          if (!file.files.length) { return; }
          file.files[0].text().then(function (text) { code.value = text; run(); }, function () {
            box.textContent = atlas.text("The file could not be read.");
          });
        });
      }
    });
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(setup);
  } else {
    document.addEventListener("DOMContentLoaded", setup);
  }
})();
