"""A headless Chromium driven by Selenium, and evoplay serve running in a thread: what the browser tests share."""
from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver",)
# This machine may have no network: without these flags Chromium tries to reach the internet.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,900")


def missing() -> str | None:
    """Why no browser can be had here (None when one can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not any(Path(p).exists() for p in CHROMIUM):
        return "chromium is not installed (apt-get install chromium chromium-driver; .ci/run does it as root)"
    if not any(Path(p).exists() for p in DRIVER) and shutil.which("chromedriver") is None:
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


def start_browser(width: int = 1200, height: int = 900):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = next(p for p in CHROMIUM if Path(p).exists())
    for flag in FLAGS:
        opts.add_argument(flag if not flag.startswith("--window-size") else f"--window-size={width},{height}")
    profile = tempfile.mkdtemp(prefix="evoplay-chromium-")
    opts.add_argument(f"--user-data-dir={profile}")
    driver_path = next((p for p in DRIVER if Path(p).exists()), None) or shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(driver_path), options=opts)
    driver.set_page_load_timeout(30)
    driver._evoplay_profile = profile
    return driver


def stop_browser(driver) -> None:
    profile = getattr(driver, "_evoplay_profile", None)
    driver.quit()
    if profile:
        shutil.rmtree(profile, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """evoplay serve's app under uvicorn in a background thread, on a free port of 127.0.0.1."""

    def __init__(self, runs: Path, **app_options):
        import uvicorn

        from evoplay.serve.app import make_app

        self.port = free_port()
        self.app = make_app(runs, **app_options)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("evoplay serve did not start within 20 s")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=10)


def wait_for(condition, timeout: float = 15.0, what: str = "the page"):
    """Poll ``condition()`` until it is truthy; its value, or an AssertionError naming ``what``."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as err:  # the element is being replaced: try again
            last_error = err
        time.sleep(0.05)
    detail = f" ({last_error})" if last_error else ""
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}{detail}")
