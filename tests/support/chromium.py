"""Debian's Chromium, launched headless by Playwright with no background traffic off the machine."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MISSING = "Debian's Chromium is missing: run `make test` (it installs it) or `apt-get install chromium`."


def launch_chromium(playwright):
    """A headless Chromium browser; raises with the install command when it is missing."""
    if not CHROMIUM.exists():
        raise FileNotFoundError(MISSING)
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
