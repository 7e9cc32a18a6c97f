"""Debian's Chromium as the browser tests and ``benchmarks/page.py`` launch it: headless, as
root, on a machine with no way out (without the background-networking flags Chromium keeps
trying hosts it cannot reach)."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
