"""Regenerate the README's picture: plan a bundled stack, open its report.html in headless Chromium (Debian's
chromium and chromium-driver, driven by selenium) and save a screenshot of the page's first screen.

    .venv/bin/python docs/screenshot.py --stack prod --out docs/report.png     # what `make screenshot` runs
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
         "--hide-scrollbars")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", default="prod")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report.png")
    parser.add_argument("--size", default="1280,1600", help="window width,height in pixels")
    args = parser.parse_args(argv)
    browser, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not browser or not driver_path:
        print("error: needs Chromium and its driver (Debian: apt-get install chromium chromium-driver)", file=sys.stderr)
        return 2
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from gkecap.atomic_files import write_bytes_atomic

    with tempfile.TemporaryDirectory(prefix="gkecap-screenshot-") as scratch:
        out = Path(scratch) / "plan"
        gkecap = Path(sys.executable).with_name("gkecap")
        subprocess.run([str(gkecap), "plan", "--stack", args.stack, "--out", str(out)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in (*FLAGS, f"--window-size={args.size}", f"--user-data-dir={Path(scratch) / 'profile'}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
        try:
            driver.get((out / "report.html").as_uri())
            picture = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    write_bytes_atomic(args.out, picture)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
