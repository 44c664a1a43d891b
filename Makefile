# PyTorch Release Atlas: every task a person or CI runs.
# `make serve` and `make test` set up everything they need on a fresh machine.
# `make help` lists every target with its description (the `## ` comment after its name).

VENV := .venv
PYTHON := $(VENV)/bin/python
SITE_PREFIX := pytorch-release-atlas
export NO_MKDOCS_2_WARNING := 1
# make api-static's loop, one process per release (the releases to read come from --list; a failure sets status)
API_STATIC = releases=$$($(PYTHON) -m tools.api.static --list $(if $(AGAIN),--again) $(RELEASES)) || status=2; \
	for release in $$releases; do $(PYTHON) -m tools.api.static $(if $(AGAIN),--again) $$release || status=1; done

.PHONY: serve build check test lint published examples api api-cpu api-index api-static builds pypi must-match wheels install-commands new-release bench lighthouse browser requirements clean help

serve: $(VENV)/.installed  ## Set up and preview the site on http://127.0.0.1:8000/pytorch-release-atlas/; a save renders again only the pages whose source changed (macros/plugin/preview.py); for less, RELEASES="2.5 2.6", EDITION=en, API=no
	ATLAS_RELEASES="$(RELEASES)" ATLAS_EDITION="$(EDITION)" ATLAS_API="$(API)" $(PYTHON) -m mkdocs serve --dirty --dev-addr 127.0.0.1:8000

build: $(VENV)/.installed  ## Build the site with --strict into site/ (reproducible: dated by the last commit)
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || date +%s) $(PYTHON) -m mkdocs build --strict --clean

check: $(VENV)/.installed  ## Check the data in seconds: every file, label, id and published URL, plus the lifecycle joins and likely duplicate ids
	$(PYTHON) -m macros.check

test: $(VENV)/.installed-test browser  ## Set up and run every test: data check, lint, unit, build, bad data, browser
	$(PYTHON) -m macros.check
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m pytest

lint: $(VENV)/.installed-test  ## Run ruff's checks and its format check on the whole repository (part of make test)
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

published: $(VENV)/.installed  ## Record every URL the site now publishes in data/published.txt (run when publishing)
	$(PYTHON) -m macros.check --record-published data

examples: $(VENV)/.installed  ## Run every code block on the torch release it documents (downloads GBs; RELEASES="1.7 2.5" for some, AGAIN=1 to rerun current results, KEEP=1 to reuse environments); writes data/examples/
	$(PYTHON) -m tools.examples.run $(if $(AGAIN),--again) $(if $(KEEP),--keep) $(RELEASES)

api: $(VENV)/.installed  ## Measure the public API of each torch release in a virtualenv of its own (downloads GBs; RELEASES="2.13" for some, AGAIN=1 to measure again); writes data/api/surfaces/, reads the same wheels' static facts (make api-static), then the index
	$(PYTHON) -m tools.api.extract $(if $(AGAIN),--again) $(RELEASES); status=$$?; \
	$(API_STATIC); \
	$(PYTHON) -m tools.api.index && exit $$status

api-static: $(VENV)/.installed  ## Read from each release's Linux wheel on PyPI, by byte range, the signatures of its argument parsers, one process per release (~4-12 MB each; RELEASES="1.5" for some, AGAIN=1 to read again); writes data/api/static/
	@status=0; $(API_STATIC); exit $$status

api-cpu: $(VENV)/.installed  ## Measure the CPU-only build of one release from its wheel, to tell the names only PyPI's CUDA build has: VERSION=X.Y WHEEL=path-or-URL (download.pytorch.org/whl/cpu/...); writes data/api/surfaces/X.Y+cpu.json.gz, then the index
	@test -n "$(VERSION)" -a -n "$(WHEEL)" || { echo "usage: make api-cpu VERSION=2.13 WHEEL=torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"; exit 2; }
	$(PYTHON) -m tools.api.extract --cpu "$(WHEEL)" $(VERSION) && $(PYTHON) -m tools.api.index

api-index: $(VENV)/.installed  ## Fold the stored API surfaces into one index of intervals, data/api/index.json
	$(PYTHON) -m tools.api.index

builds: pypi must-match wheels  ## Read PyPI's files of torch and its companions and what their wheels require, then measure each release's Linux wheel (downloads ~1 GB per release; RELEASES="2.8" for some, AGAIN=1 to measure again); writes data/builds/

pypi: $(VENV)/.installed  ## Read PyPI's listing of torch, torchvision and torchaudio: each release's day and the Pythons it has wheels for per platform (data/builds/pypi.json)
	$(PYTHON) -m tools.builds.pypi

must-match: $(VENV)/.installed  ## Read what each torch wheel requires of triton, and what each torchvision, torchaudio, torchcodec, xformers and torchao wheel requires of torch, from their metadata on PyPI (byte ranges, no downloads; data/builds/requirements.json)
	$(PYTHON) -m tools.builds.requirements

wheels: $(VENV)/.installed  ## Measure the CUDA version and GPU architectures of each release's Linux wheel on PyPI, one release at a time (data/builds/wheels/<X.Y>.json)
	$(PYTHON) -m tools.builds.wheels $(if $(AGAIN),--again) $(RELEASES)

install-commands: $(VENV)/.installed  ## Write data/builds/install.yaml from the previous-versions page's Markdown source: PAGES='--page FILE --read-from "repository, path, commit" ...' (the first given wins where several copies have a release)
	@test -n '$(PAGES)' || { echo 'usage: make install-commands PAGES='"'"'--page previous-versions.md --read-from "owner/repo path at commit …"'"'"; exit 2; }
	$(PYTHON) -m tools.builds.install $(PAGES)

new-release: $(VENV)/.installed  ## Draft data/releases/X.Y.yaml for the release VERSION=X.Y on PyPI: reads PyPI again, measures its API and Linux wheel, then writes what a machine can read and marks the rest TODO(new-release), which the build refuses
	@test -n "$(VERSION)" || { echo "usage: make new-release VERSION=2.16"; exit 2; }
	$(PYTHON) -m tools.builds.pypi
	$(PYTHON) -m tools.api.extract $(VERSION); status=$$?; $(PYTHON) -m tools.api.static $(VERSION) || status=1; \
	$(PYTHON) -m tools.api.index && test $$status = 0
	$(PYTHON) -m tools.builds.wheels $(VERSION)
	$(PYTHON) -m tools.releaseday.draft $(VERSION)

bench: $(VENV)/.installed-test browser  ## Run the build, serve, page-weight and Lighthouse benchmarks in one run (about 20 min); writes bench/RESULTS.md and bench/LIGHTHOUSE.md
	$(PYTHON) bench/run.py

lighthouse: $(VENV)/.installed-test browser  ## Lighthouse, mobile and desktop, on a page of each kind served as GitHub Pages serves them, and every release page on a slower phone; writes bench/LIGHTHOUSE.md
	$(PYTHON) bench/lighthouse.py

browser:  ## Debian's Chromium and the CJK fonts a Chinese reader's device has, for the browser tests and the bench (installed once, needs root or sudo)
	@{ test -x /usr/bin/chromium && fc-list :lang=zh | grep -q .; } || { \
	  echo "Installing Debian's chromium and fonts-noto-cjk for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-noto-cjk; }

$(VENV)/.installed: requirements.txt
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.installed-test: requirements.txt requirements-test.txt $(VENV)/.installed
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	touch $@

requirements: $(VENV)/.installed-test  ## Re-pin requirements*.txt from the direct dependencies in requirements*.in (pip-tools)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check pip-tools
	for name in requirements requirements-test; do \
	  CUSTOM_COMPILE_COMMAND="make requirements" $(VENV)/bin/pip-compile --quiet --annotation-style=line --strip-extras --no-emit-index-url --no-emit-find-links \
	    --output-file $$name.txt $$name.in; done

clean:  ## Delete the built site (site/) and pytest's cache
	rm -rf site .pytest_cache

help:  ## List every target with what it does (read from this Makefile)
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":[^#]*## "}; {printf "%-17s %s\n", $$1, $$2}'
