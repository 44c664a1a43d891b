"""Screenshots of the main views at desktop (1280 px) and phone (375 px) width, for review.

The Chinese views (`zh-*`) need the CJK fonts `make browser` installs, or their text shows as boxes.

Reproduce: `.venv/bin/python bench/screenshots.py` (builds the real site with --strict, serves it on
loopback and writes PNG files to bench/screenshots/). `--project DIR --out DIR` photographs another checkout,
such as a worktree of an older commit (`git worktree add /tmp/before <commit>`), for a before/after comparison.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from tests.support.chromium import launch_chromium  # noqa: E402
from tests.support.site import PREFIX, build_site, free_port, serve  # noqa: E402

OUT = PROJECT / "bench" / "screenshots"
VIEWS = {
    "home": "",
    "grid": "topics/fft/#lifecycles",
    "matrix": "matrix/?component=pytorch",
    "feature": "features/torch-compile/",
    "release": "releases/1.10/",
    "upgrade": "upgrade/?from=1.13&to=2.6&kind=breaking",
    "platforms": "platforms/",
    "zh-home": "zh/",
    "zh-release": "zh/releases/1.10/",
    "zh-matrix": "zh/matrix/?component=pytorch",
    "zh-feature": "zh/features/torch-compile/",
}
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 740}}


def main() -> None:
    """Build, serve and photograph every view at both widths."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=PROJECT, help="the checkout to build (default: this one)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNG files go (default: bench/screenshots/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as root:
        port = free_port()
        result = build_site(Path(root) / PREFIX.strip("/"), f"http://127.0.0.1:{port}{PREFIX}", project=args.project.resolve())
        if result.returncode:
            sys.exit(result.stdout + result.stderr)
        with serve(Path(root), port) as base_url, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for width_name, viewport in WIDTHS.items():
                context = browser.new_context(viewport=viewport, is_mobile=width_name == "phone")
                page = context.new_page()
                for name, path in VIEWS.items():
                    page.goto(base_url + path, wait_until="load")
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(args.out / f"{name}-{width_name}.png"))
                    print(args.out / f"{name}-{width_name}.png")
                context.close()
            browser.close()


if __name__ == "__main__":
    main()
