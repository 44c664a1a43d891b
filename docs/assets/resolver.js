/* PyTorch Release Atlas: "Will it run on my machine?" — answered in the browser from /api/compatibility.json.
   For a GPU (a name from NVIDIA's list, or a compute capability), an operating system, a Python and a driver, every
   feature release, newest first: the newest X.Y.Z with a wheel for that Python there, and whether its measured Linux
   build carries code for the GPU and can run on the driver; or why not. Writes with textContent only; keeps the
   form's state in the URL so an answer can be linked. */
(function () {
  "use strict";

  const FIELDS = ["gpu", "os", "python", "driver"];
  let loaded = null;

  function load(url) {
    if (!loaded) {
      loaded = fetch(url).then(function (r) { if (!r.ok) { throw new Error(url); } return r.json(); });
      loaded.catch(function () { loaded = null; });
    }
    return loaded;
  }

  const atlas = window.atlas;
  const node = atlas.element;
  const own = atlas.own;  // the data's objects are read at keys from the form, which the address fills: own properties only

  function numbers(version) { return version.split(".").map(function (part) { return parseInt(part, 10); }); }

  function atLeast(version, least) {
    const a = numbers(version), b = numbers(least);
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      const x = a[i] || 0, y = b[i] || 0;
      if (x !== y) { return x > y; }
    }
    return true;
  }

  // "8.6", "sm_86", "86" or a GPU's name -> {arch: 86, label}; null when not understood.
  function readGpu(text, gpus) {
    const value = text.trim();
    if (!value) { return null; }
    const named = gpus.find(function (gpu) { return gpu.name.toLowerCase() === value.toLowerCase(); });
    const capability = named ? named.compute_capability : value.replace(/^sm_?/i, "");
    const parts = /^(\d{1,2})\.(\d)$/.exec(capability) || /^(\d{1,2})(\d)$/.exec(capability);
    if (!parts) { return undefined; }
    const values = { name: named ? named.name : "", capability: parts[1] + "." + parts[2] };
    const label = named ? atlas.text("{name}, compute capability {capability}", values) : atlas.text("compute capability {capability}", values);
    return { major: parseInt(parts[1], 10), minor: parseInt(parts[2], 10), arch: parseInt(parts[1] + parts[2], 10), label: label };
  }

  function smList(arches) { return arches.map(function (a) { return "sm_" + a; }).join(atlas.text(", ")); }

  // Whether a build's GPU code runs on the GPU: a cubin runs on its own major version at its minor or later;
  // PTX is compiled by the driver for any later GPU.
  function gpuCode(code, gpu) {
    if (code.sm.some(function (a) { return Math.floor(a / 10) === gpu.major && a % 10 <= gpu.minor; })) { return "cubin"; }
    if (code.ptx.some(function (a) { return a <= gpu.arch; })) { return "ptx"; }
    return null;
  }

  function driverVerdict(data, cuda, driver, how) {  // the measured builds are Linux ones: Linux figures
    const toolkit = data.drivers.find(function (d) { return d.cuda === cuda; });
    const least = toolkit && toolkit.linux;
    if (!least) { return { ok: null, text: atlas.text("NVIDIA's least driver for CUDA {cuda} is not recorded here", { cuda: cuda }) }; }
    const values = { driver: driver, least: least, cuda: cuda };
    if (atLeast(driver, least)) { return { ok: true, text: atlas.text("driver {driver} is at least the {least} that CUDA {cuda} needs", values) }; }
    const series = data.minor_version_compatibility.find(function (s) { return s.major === numbers(cuda)[0]; });
    if (series) { values.branch = series.branch; }
    if (series && how === "cubin" && numbers(driver)[0] >= series.branch) {
      return { ok: true, text: atlas.text("driver {driver} is older than CUDA {cuda}'s {least} but of branch {branch} or later: it runs under minor version compatibility (features that need a newer driver report an error)", values) };
    }
    return { ok: false, text: !series
      ? atlas.text("driver {driver} is older than the {least} that CUDA {cuda} needs", values)
      : how === "ptx"
        ? atlas.text("driver {driver} is older than the {least} that CUDA {cuda} needs (code compiled from PTX needs that driver)", values)
        : atlas.text("driver {driver} is older than the {least} that CUDA {cuda} needs or than branch {branch} for minor version compatibility", values) };
  }

  // One release's verdict: {version, runs: true|false|null, reasons: [..]}.
  function judge(data, release, ask) {
    const fits = function (python) { return ask.python ? python === ask.python : !/t$/.test(python); };  // no Python given: any
    const version = release.versions.find(function (v) { return (own(v.wheels, ask.os) || []).some(fits); });
    if (!version) {
      const values = { python: ask.python, platform: own(data.platforms, ask.os), release: release.release };
      return { release: release, runs: false, reasons: [ask.python
        ? atlas.text("no wheel for Python {python} on {platform} in any {release}.x release", values)
        : atlas.text("no wheel for any Python on {platform} in any {release}.x release", values)] };
    }
    const verdict = { release: release, version: version, runs: true, reasons: [] };
    if (!ask.python) { verdict.reasons.push(atlas.text("wheels for Python {pythons}", { pythons: own(version.wheels, ask.os).filter(fits).join(atlas.text(", ")) })); }
    if (!ask.gpu) { verdict.reasons.push(atlas.text("the CPU build runs; no GPU was given")); return verdict; }
    if (ask.os !== data.measured.platform || !version.linux) {
      verdict.runs = null;
      verdict.reasons.push(atlas.text("the wheel installs; whether it uses the GPU is measured here for Linux (x86_64) wheels only"));
      return verdict;
    }
    const code = version.linux;
    if (!code.cuda) { verdict.runs = false; verdict.reasons.push(atlas.text("PyPI's wheel is a CPU-only build")); return verdict; }
    const how = gpuCode(code, ask.gpu);
    if (!how) {
      verdict.runs = false;
      const values = { cuda: code.cuda, sm: smList(code.sm), ptx: smList(code.ptx), gpu: ask.gpu.label };
      verdict.reasons.push(code.ptx.length
        ? atlas.text("its CUDA {cuda} build has GPU code for {sm} and PTX for {ptx}, none of which runs on {gpu}", values)
        : atlas.text("its CUDA {cuda} build has GPU code for {sm}, none of which runs on {gpu}", values));
      return verdict;
    }
    if (how === "cubin") {
      verdict.reasons.push(atlas.text("its CUDA {cuda} build has GPU code for {gpu}", { cuda: code.cuda, gpu: ask.gpu.label }));
    } else {  // only PTX: torch's own kernels can be compiled by the driver, but whether the libraries it bundles can is not measured
      verdict.runs = null;
      verdict.reasons.push(atlas.text("its CUDA {cuda} build has no compiled code for {gpu}, only PTX that the driver compiles for it on first use; whether the libraries it bundles have code for it is not measured", {
        cuda: code.cuda, gpu: ask.gpu.label,
      }));
    }
    if (ask.driver) {
      const driver = driverVerdict(data, code.cuda, ask.driver, how);
      verdict.reasons.push(driver.text);
      if (driver.ok === false) { verdict.runs = false; } else if (driver.ok === null && verdict.runs) { verdict.runs = null; }
    }
    return verdict;
  }

  function show(data, box, ask, up) {
    box.replaceChildren();
    const verdicts = data.releases.map(function (release) { return judge(data, release, ask); });
    const running = verdicts.filter(function (v) { return v.runs === true; });
    const summary = node("p", "", { class: "atlas-resolver-summary" });
    if (running.length) {
      const named = function (v) { return atlas.text("PyTorch {release} ({version})", { release: v.release.release, version: v.version.version }); };
      summary.textContent = atlas.text("Newest release that runs: {newest}. Oldest release that runs: {oldest}. {running} of {total} releases run.", {
        newest: named(running[0]), oldest: named(running[running.length - 1]), running: running.length, total: verdicts.length,
      });
    } else {
      summary.textContent = atlas.text("No release of PyTorch on PyPI runs on this machine as described.");
    }
    box.append(summary);
    const list = node("ol", "", { class: "atlas-resolver-releases" });
    verdicts.forEach(function (v) {
      const item = node("li", "", { class: "atlas-resolver-" + (v.runs === true ? "runs" : v.runs === false ? "fails" : "unknown") });
      const head = node("p");
      head.append(node("a", "PyTorch " + (v.version ? v.version.version : v.release.release), { href: up + v.release.page }));
      head.append(document.createTextNode(v.runs === true ? atlas.text(": runs") : v.runs === false ? atlas.text(": does not run") : atlas.text(": installs; not known to use the GPU")));
      item.append(head);
      item.append(node("p", atlas.text("{reasons}.", { reasons: v.reasons.join(atlas.text("; ")) })));
      if (v.version && v.runs !== false) {
        const companions = Object.keys(v.release.companions).map(function (name) { return name + " " + v.release.companions[name]; });
        item.append(node("code", "pip install torch==" + v.version.version, { class: "atlas-resolver-command" }));
        if (companions.length) { item.append(node("p", atlas.text("Goes with {companions} (the release's own table).", { companions: companions.join(atlas.text(" and ")) }))); }
        if (v.version.official_commands) {  // the previous-versions page's commands, on the release page
          const official = node("p");
          official.append(node("a", atlas.text("Every build's official install command"), { href: up + v.release.page + "#install" }));
          item.append(official);
        }
      }
      list.append(item);
    });
    box.append(list);
  }

  function remember(form) {
    const params = new URLSearchParams();
    FIELDS.forEach(function (name) { if (form.elements[name].value.trim()) { params.set(name, form.elements[name].value.trim()); } });
    window.history.replaceState(window.history.state, "", window.location.pathname + "?" + params.toString() + window.location.hash);
  }

  function setupResolver() {
    document.querySelectorAll("form.atlas-resolver").forEach(function (form) {
      if (form.dataset.ready) { return; }
      form.dataset.ready = "1";
      const box = form.nextElementSibling;
      const up = form.dataset.up || "";
      const run = function (write) {
        load(form.dataset.compatibility).then(function (data) {
          const gpu = readGpu(form.elements.gpu.value, data.gpus);
          const driver = form.elements.driver.value.trim();
          if (gpu === undefined) {
            box.replaceChildren(node("p", atlas.text("Give the GPU by a name from the list or by its compute capability, such as 8.6 (nvidia-smi --query-gpu=compute_cap --format=csv prints it).")));
            return;
          }
          if (driver && !/^\d{3}(\.\d{1,3}){0,2}$/.test(driver)) {
            box.replaceChildren(node("p", atlas.text("Give the driver as nvidia-smi prints it, such as 535.104.05.")));
            return;
          }
          show(data, box, { gpu: gpu, os: form.elements.os.value, python: form.elements.python.value, driver: driver }, up);
          if (write) { remember(form); }
        }, function () { box.textContent = atlas.text("The compatibility data could not be loaded."); });
      };
      form.addEventListener("submit", function (event) { event.preventDefault(); run(true); });
      const asked = new URLSearchParams(window.location.search);
      let given = false;
      FIELDS.forEach(function (name) {
        const value = asked.get(name);
        if (value === null) { return; }
        const field = form.elements[name];
        if (field.tagName === "SELECT" && !Array.from(field.options).some(function (o) { return o.value === value; })) { return; }
        field.value = value;
        given = true;
      });
      if (given) { run(false); }
    });
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(setupResolver);
  } else {
    document.addEventListener("DOMContentLoaded", setupResolver);
  }
})();
