/* PyTorch Release Atlas: "Will it run on my machine?" — answered in the browser from /api/compatibility.json.
   For a GPU (an NVIDIA name, model number or compute capability; an AMD name or LLVM target, which the ROCm builds
   answer; an Intel name or family, which the XPU builds answer), an operating system, a Python and a driver, every
   feature release, newest first: the newest X.Y.Z with a wheel for that Python there, and the best of its builds
   (PyPI's and its wheel index's) that carries code for the GPU and can run on the driver, with the command that
   installs it; or why none does. Writes with textContent only; keeps the
   form's state in the URL so an answer can be linked. */
(function () {
  "use strict";

  const FIELDS = ["gpu", "os", "python", "driver"];

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

  // The words of a GPU's name that name its model, in lower case: without the maker's and family's words, nor what
  // nvidia-smi and sellers add that NVIDIA's tables leave out (the form factor, the memory, "Laptop GPU", "Generation"):
  // "Tesla V100-SXM2-16GB" is ["v100"], "NVIDIA H100 80GB HBM3" ["h100"].
  const NOT_THE_MODEL = /^(nvidia|geforce|tesla|quadro|sxm\d*|pcie|nvl|hbm\d*e?|\d+gb|laptop|gpu|generation|mobile)$/;
  function modelWords(text) { return text.toLowerCase().split(/[^a-z0-9]+/).filter(function (word) { return word && !NOT_THE_MODEL.test(word); }); }

  // A GPU's name as people write it, without spaces or case: "RTX 4090", "GeForce RTX 4090" and "rtx4090" are all "rtx4090".
  function plainName(text) { return modelWords(text).join(""); }

  // The names a listed GPU answers to: its name, and the other name it gives in brackets ("NVIDIA GB10 (DGX Spark)").
  function namesOf(gpu) { return gpu.name.split(/[()]/).map(plainName).filter(Boolean); }

  // A series row ("GeForce RTX 30x0 series", NVIDIA's figure for every card of it) as the cards it stands for:
  // "rtx3060", "3060" and "rtx3060ti" are of the RTX 30x0 series; "4000" is no card of the RTX 40x0 series.
  function seriesPattern(gpu) {
    const series = /^([a-z]*)(\d+)x0series$/.exec(plainName(gpu.name));
    return series ? new RegExp("^(" + series[1] + ")?" + series[2] + "[1-9]0[a-z]*$") : null;
  }

  // Whether a plain `name` is the plain `wanted` model after family letters only: "rtx4090" is "4090" so, "rtx4090ti" is not.
  function modelAfterLetters(name, wanted) {
    return name.length > wanted.length && name.endsWith(wanted) && /^[a-z]+$/.test(name.slice(0, name.length - wanted.length));
  }

  // The listed GPU a reader means: the one of that name; else the only one whose name is that model number after
  // family letters ("4090" is the RTX 4090, "1080" the GTX 1080, not the 1080 Ti); else the series the card is of.
  function namedGpu(value, gpus) {
    const wanted = plainName(value);
    if (!wanted) { return null; }
    const exact = gpus.find(function (gpu) { return namesOf(gpu).indexOf(wanted) >= 0; });
    if (exact) { return exact; }
    const ends = gpus.filter(function (gpu) { return namesOf(gpu).some(function (name) { return modelAfterLetters(name, wanted); }); });
    if (ends.length === 1) { return ends[0]; }
    const series = gpus.filter(function (gpu) { const pattern = seriesPattern(gpu); return pattern && pattern.test(wanted); });
    if (series.length === 1) { return series[0]; }
    // a family named by some of the words of GPUs' names, all of one compute capability: "Jetson Orin" is each of the
    // Jetson AGX Orin, Orin NX and Orin Nano, "RTX PRO 6000" the RTX PRO 6000 Blackwell
    const asked = modelWords(value);
    const family = gpus.filter(function (gpu) {
      const named = modelWords(gpu.name);
      return named.length > asked.length && asked.every(function (word) { return named.indexOf(word) >= 0; });
    });
    const same = family.length > 0 && family.every(function (gpu) { return gpu.compute_capability === family[0].compute_capability; });
    if (!same) { return null; }
    const inferred = family.find(function (gpu) { return gpu.architecture; });  // one inferred figure makes the whole answer inferred
    return { name: family.map(function (gpu) { return gpu.name; }).join(" / "), compute_capability: family[0].compute_capability, architecture: inferred && inferred.architecture };
  }

  // An AMD GPU's name as people write it, without the maker's and family's words: "AMD Radeon RX 7900 XTX",
  // "RX 7900 XTX" and "rx7900xtx" are all "rx7900xtx"; "Instinct MI300X" is "mi300x".
  function plainAmdName(text) { return text.toLowerCase().replace(/\b(amd|radeon|instinct)\b/g, "").replace(/[^a-z0-9]/g, ""); }

  // The AMD GPU a reader means: its LLVM target itself ("gfx1100"), the GPU of that name, or the only one whose name
  // is that model after family letters ("7900xtx" is the RX 7900 XTX) -> {amd: true, gfx, label}; else null.
  function amdGpu(value, gpus) {
    const target = /^gfx[0-9a-f]{3,4}$/i.exec(value.replace(/\s+/g, ""));
    if (target) { return { amd: true, gfx: target[0].toLowerCase(), label: atlas.text("AMD LLVM target {gfx}", { gfx: target[0].toLowerCase() }) }; }
    const wanted = plainAmdName(value);
    if (!wanted) { return null; }
    let found = gpus.find(function (gpu) { return plainAmdName(gpu.name) === wanted; });
    if (!found) {
      const ends = gpus.filter(function (gpu) { return modelAfterLetters(plainAmdName(gpu.name), wanted); });
      found = ends.length && ends.every(function (gpu) { return gpu.gfx === ends[0].gfx; }) ? ends[0] : null;
    }
    return found ? { amd: true, gfx: found.gfx, label: atlas.text("{name}, LLVM target {gfx}", { name: found.name, gfx: found.gfx }) } : null;
  }

  // An Intel GPU's name as people write it, without the maker's and brand's words: "Intel Arc A770 Graphics", "Arc A770"
  // and "a770" are all "a770"; "Intel Data Center GPU Max 1550" is "max1550".
  function plainIntelName(text) {
    return text.toLowerCase().replace(/\((r|tm)\)|[®™]/g, "").replace(/\b(intel|arc|graphics|gpu|data|center)\b/g, "").replace(/[^a-z0-9]/g, "");
  }

  // The Intel GPU a reader means: a GPU of that name (or the only one whose name is that model after family letters:
  // "1550" is the Max 1550), or a family by its name or code name ("Lunar Lake", "Arc B-Series"; "Meteor Lake" is the
  // Meteor Lake-H the pages name) -> {intel: true, family, label}; else null.
  function intelGpu(value, intel) {
    const wanted = plainIntelName(value);
    if (!wanted || !intel) { return null; }
    const of = function (id, name) {
      const family = intel.families.find(function (f) { return f.id === id; });
      const familyLabel = atlas.text("{name} ({codename})", { name: family.name, codename: family.codename });
      return { intel: true, family: id, familyLabel: familyLabel, label: name ? atlas.text("{name} ({codename})", { name: name, codename: family.codename }) : familyLabel };
    };
    const exact = intel.gpus.find(function (gpu) { return plainIntelName(gpu.name) === wanted; });
    if (exact) { return of(exact.family, exact.name); }
    const ends = intel.gpus.filter(function (gpu) { return modelAfterLetters(plainIntelName(gpu.name), wanted); });
    if (ends.length === 1) { return of(ends[0].family, ends[0].name); }
    const kin = intel.families.find(function (f) {
      const code = plainIntelName(f.codename);
      return plainIntelName(f.name) === wanted || code === wanted || code === wanted + "h";
    });
    return kin ? of(kin.id, "") : null;
  }

  // A GPU's name in any common spelling, "8.6", "sm_86" or "86" -> {arch: 86, label}; an AMD GPU's name or target ->
  // {amd: true, gfx, label}; an Intel GPU's name or family -> {intel: true, family, label}; null when empty, undefined
  // when not understood.
  function readGpu(text, gpus, amdGpus, intel) {
    const value = text.trim();
    if (!value) { return null; }
    const named = namedGpu(value, gpus);
    const other = named ? null : amdGpu(value, amdGpus || []) || intelGpu(value, intel);
    if (other) { return other; }
    const capability = named ? named.compute_capability : value.replace(/^sm_?/i, "");
    const parts = /^(\d{1,2})\.(\d)$/.exec(capability) || /^(\d{1,2})(\d)$/.exec(capability);
    if (!parts) { return undefined; }
    const values = { name: named ? named.name : "", capability: parts[1] + "." + parts[2], architecture: named && named.architecture };
    const label = !named ? atlas.text("compute capability {capability}", values)
      : named.architecture ? atlas.text("{name}, compute capability {capability} (inferred)", values)
        : atlas.text("{name}, compute capability {capability}", values);
    const inferred = named && named.architecture
      ? atlas.text("NVIDIA lists the {name} as a {architecture} GPU, and {architecture} as compute capability {capability}: the figure is inferred from the two, as the page explains.", values) : "";
    return { major: parseInt(parts[1], 10), minor: parseInt(parts[2], 10), arch: parseInt(parts[1] + parts[2], 10), label: label, inferred: inferred };
  }

  function smList(arches) { return arches.map(function (a) { return "sm_" + a; }).join(atlas.text(", ")); }

  // Whether a build's GPU code runs on the GPU: a cubin runs on its own major version at its minor or later;
  // PTX is compiled by the driver for any later GPU.
  function gpuCode(code, gpu) {
    if (code.sm.some(function (a) { return Math.floor(a / 10) === gpu.major && a % 10 <= gpu.minor; })) { return "cubin"; }
    if (code.ptx.some(function (a) { return a <= gpu.arch; })) { return "ptx"; }
    return null;
  }

  function driverVerdict(data, cuda, driver, how, os) {
    const toolkit = data.drivers.find(function (d) { return d.cuda === cuda; });
    const least = toolkit && (/^windows/.test(os) ? toolkit.windows : toolkit.linux);
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

  // The builds of a release that hold for one of its patch releases on the platform, as its build list states them.
  function buildsFor(release, version, os) {
    return (release.builds || []).filter(function (b) {
      return b.platforms.indexOf(os) >= 0 && (!b.patches || b.patches.indexOf(version.version) >= 0);
    });
  }

  // The CUDA builds of a release that could serve the machine, for one patch release: each build of its wheel index
  // for the platform, and PyPI's own where the build list does not say which it is. The GPU code of the build PyPI
  // serves on the measured platform is the measured one; of the others, as the build list states it.
  function cudaBuilds(data, release, version, os) {
    const measured = os === data.measured.platform ? version.linux : null;
    const builds = buildsFor(release, version, os);
    const listed = builds.filter(function (b) { return b.cuda; }).map(function (b) {
      const pypi = (b.pypi || []).indexOf(os) >= 0;
      const code = pypi && measured && measured.cuda === b.cuda ? { sm: measured.sm, ptx: measured.ptx, known: "measured" } : b.gpu || null;
      return { variant: b.variant, cuda: b.cuda, index: b.index, pypi: pypi, channel: b.channel, code: code };
    });
    const pypiListed = builds.some(function (b) { return (b.pypi || []).indexOf(os) >= 0; });
    if (measured && measured.cuda && !pypiListed) {  // PyPI's own build, measured, where the build list does not say which it is
      listed.push({ variant: "", cuda: measured.cuda, index: "", pypi: true, code: { sm: measured.sm, ptx: measured.ptx, known: "measured" } });
    }
    return listed;
  }

  // The ROCm builds of a release for one patch release on the platform, as its build list states them.
  function rocmBuilds(release, version, os) {
    return buildsFor(release, version, os).filter(function (b) { return b.rocm; }).map(function (b) {
      return { variant: b.variant, rocm: b.rocm, index: b.index, pypi: (b.pypi || []).indexOf(os) >= 0, channel: b.channel, code: b.gpu || null };
    });
  }

  // One ROCm build's verdict for an AMD GPU: whether it was compiled for the GPU's LLVM target.
  function judgeRocmBuild(build, ask) {
    const values = { build: build.variant, rocm: build.rocm, gpu: ask.gpu.label, gfx: ask.gpu.gfx };
    const verdict = { build: build, runs: true, how: "gfx", reasons: [] };
    const targets = build.code && build.code.gfx ? build.code.gfx : [];
    if (!targets.length) {
      verdict.runs = null;
      verdict.reasons.push(atlas.text("its ROCm {rocm} build ({build}): the GPU targets it was compiled for are not recorded here", values));
      return verdict;
    }
    values.known = knownHow(build.code.known);
    values.targets = targets.join(atlas.text(", "));
    if (targets.indexOf(ask.gpu.gfx) >= 0) {
      verdict.reasons.push(atlas.text("its ROCm {rocm} build ({build}) was compiled for {gfx}, among {targets} ({known})", values));
    } else {
      verdict.runs = false;
      verdict.reasons.push(atlas.text("its ROCm {rocm} build ({build}) was compiled for {targets} ({known}), not for {gpu}", values));
    }
    return verdict;
  }

  function knownHow(known) {  // how a build's GPU code is known
    return known === "measured" ? atlas.text("measured in the wheel")
      : known === "stated" ? atlas.text("as its build list states") : atlas.text("inferred from the changes before the release");
  }

  // One build's verdict for the GPU and driver: {build, runs: true|false|null, how, reasons: [..]}.
  function judgeBuild(data, build, ask) {
    const values = { build: build.variant ? build.variant : atlas.text("PyPI's build"), cuda: build.cuda, gpu: ask.gpu.label };
    const verdict = { build: build, runs: true, how: null, reasons: [] };
    if (!build.code) {
      verdict.runs = null;
      verdict.reasons.push(atlas.text("its CUDA {cuda} build ({build}): the GPU code it carries is not recorded here", values));
      return verdict;
    }
    values.known = knownHow(build.code.known);
    const how = verdict.how = gpuCode(build.code, ask.gpu);
    if (!how) {
      values.sm = smList(build.code.sm);
      values.ptx = smList(build.code.ptx);
      verdict.runs = false;
      verdict.reasons.push(build.code.ptx.length
        ? atlas.text("its CUDA {cuda} build ({build}) has GPU code for {sm} and PTX for {ptx} ({known}), none of which runs on {gpu}", values)
        : atlas.text("its CUDA {cuda} build ({build}) has GPU code for {sm} ({known}), none of which runs on {gpu}", values));
      return verdict;
    }
    if (how === "cubin") {
      verdict.reasons.push(atlas.text("its CUDA {cuda} build ({build}) has GPU code for {gpu} ({known})", values));
    } else {  // only PTX: torch's own kernels can be compiled by the driver, but whether the libraries it bundles can is not known
      verdict.runs = null;
      verdict.reasons.push(atlas.text("its CUDA {cuda} build ({build}) has no compiled code for {gpu}, only PTX that the driver compiles for it on first use ({known}); whether the libraries it bundles have code for it is not known", values));
    }
    if (ask.driver) {
      const driver = driverVerdict(data, build.cuda, ask.driver, how, ask.os);
      verdict.reasons.push(driver.text);
      if (driver.ok === false) { verdict.runs = false; } else if (driver.ok === null && verdict.runs) { verdict.runs = null; }
    }
    return verdict;
  }

  // Best first: a build that runs, then one not known to; compiled code before PTX; the one PyPI serves; the newest CUDA.
  function better(a, b) {
    const rank = function (v) { return v.runs === true ? 0 : v.runs === null ? 1 : 2; };
    if (rank(a) !== rank(b)) { return rank(a) - rank(b); }
    if ((a.how === "cubin") !== (b.how === "cubin")) { return a.how === "cubin" ? -1 : 1; }
    if (a.build.pypi !== b.build.pypi) { return a.build.pypi ? -1 : 1; }
    const x = a.build.cuda || a.build.rocm, y = b.build.cuda || b.build.rocm;
    return atLeast(x, y) ? (x === y ? 0 : -1) : 1;
  }

  // The command that installs one patch release's build: the previous-versions page's own where it gives one; else
  // the plain command for the build PyPI serves, or the wheel index's address (from 2.0 on), marked as constructed.
  function command(release, version, build, os) {
    const system = os.split("-")[0];
    // lts/1.8/cu111 is CUDA 11.1 on the previous-versions page; PyPI's own build, by the CUDA measured in it
    const kind = build.variant ? build.variant.split("/").pop() : build.cuda ? "cu" + build.cuda.replace(".", "") : "";
    const official = version.commands && (own(version.commands, (kind || "default") + " " + system) || (build.pypi ? own(version.commands, "default " + system) : null));
    if (official) { return { text: official, official: true }; }
    if (build.pypi) { return { text: "pip install torch==" + version.version, official: false }; }
    if (build.index && atLeast(release.release, "2.0")) { return { text: "pip install torch==" + version.version + " --index-url " + build.index, official: false }; }
    return null;
  }

  // One release's verdict: {release, version, runs: true|false|null, reasons: [..], build, others: [..]}.
  function judge(data, release, ask) {
    const fits = function (python) { return ask.python ? python === ask.python : !/t$/.test(python); };  // no Python given: any
    const version = release.versions.find(function (v) { return (own(v.wheels, ask.os) || []).some(fits); });
    if (!version) {
      const values = { python: ask.python, platform: own(data.platforms, ask.os), release: release.release };
      return { release: release, runs: false, reasons: [ask.python
        ? atlas.text("no wheel for Python {python} on {platform} in any {release}.x release", values)
        : atlas.text("no wheel for any Python on {platform} in any {release}.x release", values)] };
    }
    const verdict = { release: release, version: version, runs: true, reasons: [], others: [] };
    if (!ask.python) { verdict.reasons.push(atlas.text("wheels for Python {pythons}", { pythons: own(version.wheels, ask.os).filter(fits).join(atlas.text(", ")) })); }
    if (!ask.gpu) {
      const cpu = buildsFor(release, version, ask.os).find(function (b) { return b.variant === "cpu"; });
      verdict.build = cpu ? { variant: "cpu", index: cpu.index, pypi: (cpu.pypi || []).indexOf(ask.os) >= 0 } : { variant: "", index: "", pypi: true };
      verdict.reasons.push(atlas.text("the CPU build runs; no GPU was given"));
      return verdict;
    }
    if (ask.gpu.amd) { return judgeAmd(release, version, ask, verdict); }
    if (ask.gpu.intel) { return judgeIntel(data, release, version, ask, verdict); }
    const builds = cudaBuilds(data, release, version, ask.os);
    if (!builds.length) {  // the build lists are not complete for every platform: not known, rather than "does not run"
      verdict.runs = null;
      verdict.reasons.push(atlas.text("the wheel installs; no CUDA build of it for {platform} is recorded here", { platform: own(data.platforms, ask.os) }));
      verdict.build = { variant: "", index: "", pypi: true };
      return verdict;
    }
    const judged = builds.map(function (build) { return judgeBuild(data, build, ask); }).sort(better);
    const best = judged[0];
    verdict.runs = best.runs;
    verdict.build = best.runs === false ? null : best.build;
    verdict.reasons = verdict.reasons.concat(best.reasons);
    verdict.others = judged.slice(1);
    return verdict;
  }

  // A release's verdict for an AMD GPU: the best of its ROCm builds. With none recorded for the platform it is not
  // known rather than "does not run": the build lists say what was found, not what was not (2.15's ROCm builds were not).
  function judgeAmd(release, version, ask, verdict) {
    const builds = rocmBuilds(release, version, ask.os);
    if (!builds.length) {
      verdict.runs = null;
      verdict.build = null;
      verdict.reasons.push(atlas.text("no ROCm build of it for {platform} is recorded here", { platform: ask.platform }));
      return verdict;
    }
    const judged = builds.map(function (build) { return judgeRocmBuild(build, ask); }).sort(better);
    verdict.runs = judged[0].runs;
    verdict.build = judged[0].runs === false ? null : judged[0].build;
    verdict.reasons = verdict.reasons.concat(judged[0].reasons);
    verdict.others = judged.slice(1);
    return verdict;
  }

  // A release's verdict for an Intel GPU: whether the release's "Getting Started on Intel GPU" page names the GPU's
  // family among those its XPU build is validated on for the platform. A family it does not name is not known to run,
  // rather than said to fail: the page names what was validated.
  function judgeIntel(data, release, version, ask, verdict) {
    const xpu = buildsFor(release, version, ask.os).find(function (b) { return b.variant === "xpu"; });
    const values = { platform: ask.platform, family: ask.gpu.familyLabel };
    verdict.runs = null;
    if (!xpu) {
      verdict.build = null;
      verdict.reasons.push(atlas.text("no XPU build of it for {platform} is recorded here", values));
      return verdict;
    }
    verdict.build = { variant: "xpu", index: xpu.index, pypi: false, channel: xpu.channel };
    const page = own(data.intel.releases, release.release);
    if (!page) {
      verdict.reasons.push(atlas.text("its XPU build (xpu): the Intel GPUs it is validated on are not recorded here", values));
    } else if ((own(page, ask.os) || []).indexOf(ask.gpu.family) >= 0) {
      verdict.runs = true;
      verdict.reasons.push(atlas.text("its XPU build (xpu) is validated on the {family} on {platform}, as the release's Getting Started on Intel GPU page states", values));
    } else if ((page.client || []).indexOf(ask.os) >= 0 && ask.gpu.family !== "ponte-vecchio") {
      verdict.reasons.push(atlas.text("its XPU build (xpu) is validated on Intel client GPUs on {platform}, as the release's Getting Started on Intel GPU page states without naming products", values));
    } else {
      verdict.reasons.push(atlas.text("the release's Getting Started on Intel GPU page does not name the {family} among the GPUs its XPU build (xpu) is validated on for {platform}", values));
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
      summary.textContent = atlas.text("No build of any PyTorch release runs on this machine as described.");
    }
    box.append(summary);
    if (ask.gpu && ask.gpu.inferred) { box.append(node("p", ask.gpu.inferred, { class: "atlas-resolver-inferred" })); }
    const list = node("ol", "", { class: "atlas-resolver-releases" });
    verdicts.forEach(function (v) {
      const item = node("li", "", { class: "atlas-resolver-" + (v.runs === true ? "runs" : v.runs === false ? "fails" : "unknown") });
      const head = node("p");
      head.append(node("a", "PyTorch " + (v.version ? v.version.version : v.release.release), { href: up + v.release.page }));
      head.append(document.createTextNode(v.runs === true ? atlas.text(": runs") : v.runs === false ? atlas.text(": does not run") : atlas.text(": installs; not known to use the GPU")));
      item.append(head);
      item.append(node("p", atlas.text("{reasons}.", { reasons: v.reasons.join(atlas.text("; ")) })));
      const how = v.build && v.version ? command(v.release, v.version, v.build, ask.os) : null;
      if (how) {
        const companions = Object.keys(v.release.companions).map(function (name) { return name + " " + v.release.companions[name]; });
        item.append(node("code", how.text, { class: "atlas-resolver-command" }));
        if (!how.official) { item.append(node("p", atlas.text("Constructed from the release's builds and the wheel index's address: the previous-versions page gives no command for this build."))); }
        if (companions.length) { item.append(node("p", atlas.text("Goes with {companions} (the release's own table).", { companions: companions.join(atlas.text(" and ")) }))); }
        const matching = v.version.must_match;
        if (matching) {  // as the wheels' metadata declares it
          const named = Object.keys(matching).filter(function (name) { return name !== "triton" && matching[name].length; })
            .map(function (name) { return name + " " + matching[name].join(atlas.text(" or ")); });
          if (matching.triton.length) { named.unshift(atlas.text("{triton} (pip installs it with torch)", { triton: matching.triton.join(atlas.text(", ")) })); }
          if (named.length) { item.append(node("p", atlas.text("What must match it, as the wheels declare: {packages}.", { packages: named.join(atlas.text("; ")) }), { class: "atlas-resolver-must-match" })); }
        }
      }
      const runningToo = (v.others || []).filter(function (o) { return o.runs === true; }).map(function (o) { return o.build.variant; });
      if (runningToo.length) { item.append(node("p", atlas.text("Its other builds that run: {builds}.", { builds: runningToo.join(atlas.text(", ")) }))); }
      const failing = (v.others || []).filter(function (o) { return o.runs === false; });
      if (failing.length) {
        const why = node("ul", "", { class: "atlas-resolver-why-not" });
        failing.forEach(function (o) { why.append(node("li", atlas.text("{reasons}.", { reasons: o.reasons.join(atlas.text("; ")) }))); });
        item.append(why);
      }
      if (v.version && v.version.commands) {  // the previous-versions page's commands, on the release page
        const official = node("p");
        official.append(node("a", atlas.text("Every build's official install command"), { href: up + v.release.page + "#install" }));
        item.append(official);
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
        atlas.json(form.dataset.compatibility).then(function (data) {
          const gpu = readGpu(form.elements.gpu.value, data.gpus, data.amd_gpus, data.intel);
          const driver = form.elements.driver.value.trim();
          if (gpu === undefined) {
            box.replaceChildren(node("p", atlas.text("Give an NVIDIA GPU by its name or model number (RTX 4090, 4090, H100) or by its compute capability, such as 8.6 (nvidia-smi --query-gpu=compute_cap --format=csv prints it); or an AMD GPU by its name (RX 7900 XTX, MI300X) or its LLVM target, such as gfx1100 (rocminfo prints it); or an Intel GPU by its name or family (Arc B580, Max 1550, Lunar Lake).")));
            return;
          }
          if (driver && !/^\d{3}(\.\d{1,3}){0,2}$/.test(driver)) {
            box.replaceChildren(node("p", atlas.text("Give the driver as nvidia-smi prints it, such as 535.104.05.")));
            return;
          }
          const os = form.elements.os.value;
          const ask = { gpu: gpu, os: os, platform: own(data.platforms, os), python: form.elements.python.value, driver: gpu && (gpu.amd || gpu.intel) ? "" : driver };
          show(data, box, ask, up);
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
