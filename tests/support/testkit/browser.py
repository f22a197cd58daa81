"""A real browser for the report tests: Debian's headless Chromium driven by Selenium through Debian's chromedriver
(the same Chromium build, so driver and browser always match; nothing is downloaded).

In a user's clone without Chromium the browser tests skip, naming the packages; under CI=true (`.ci/run` installs
them) a missing browser fails the test instead, so CI never passes by skipping.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = ("chromium", "chromium-browser")
DRIVER = "chromedriver"
# Flags that let Chromium run headless as root in a container, with nothing fetched from the network.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900")
SKIP_REASON = ("needs Chromium and its driver (Debian packages chromium and chromium-driver) and the selenium "
               "package; CI runs this test")


def tools() -> tuple[str, str] | None:
    browser = next((found for name in CHROMIUM if (found := shutil.which(name))), None)
    driver = shutil.which(DRIVER) or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None
    return (browser, driver) if browser and driver else None


def require_browser() -> tuple[str, str]:
    found = tools()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(SKIP_REASON.replace("; CI runs this test", ": CI must have them (.ci/run installs them)"))
        pytest.skip(SKIP_REASON)
    return found


@contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium session with a new empty profile; its console messages are kept for `console_errors`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver_path = require_browser()
    with tempfile.TemporaryDirectory(prefix="gkecap-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def console_errors(driver: object) -> list[str]:
    """The page's console messages at SEVERE level (script errors, failed loads) since the last call."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
