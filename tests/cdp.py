"""A headless Chromium driven through the DevTools protocol, for tests that click.

``Chromium()`` starts ``chromium --headless --remote-debugging-pipe`` (the protocol's JSON
messages over two pipes, fd 3 in and fd 4 out, no network port), opens a tab, and offers
``open(url)``, ``js(expression)`` (its value) and ``wait(expression)`` (until true). Only
the standard library is used; a test skips where no Chromium is installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
from typing import Any

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str | None:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


class Chromium:
    def __init__(self, profile: str, width: int = 1200, height: int = 900) -> None:
        to_browser, self._writer = os.pipe()
        self._reader, from_browser = os.pipe()
        command = [
            browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--remote-debugging-pipe", f"--user-data-dir={profile}",
            f"--window-size={width},{height}", "about:blank",
        ]  # fmt: skip
        # fd 3 is what the browser reads, fd 4 what it writes: bash puts them there (sh may
        # not redirect descriptors above 9).
        self.process = subprocess.Popen(
            ["bash", "-c", f'exec "$@" 3<&{to_browser} 4>&{from_browser}', "bash", *command],
            pass_fds=(to_browser, from_browser),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "HOME": profile},
        )  # fmt: skip
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0
        self._session: str | None = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def _message(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._reader, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe")
            self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(text)

    def call(self, method: str, **params: Any) -> dict:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if self._session is not None:
            message["sessionId"] = self._session
        os.write(self._writer, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def js(self, expression: str) -> Any:
        result = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = 30.0) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                value = self.js(expression)
            except RuntimeError:  # the page is changing under the evaluation
                value = None
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {expression}")

    def open(self, url: str) -> None:
        self.call("Page.navigate", url=url)
        self.wait("document.readyState === 'complete' && location.href !== 'about:blank'")

    def close(self) -> None:
        self._session = None  # a browser-wide command
        with contextlib.suppress(RuntimeError, OSError):
            self.call("Browser.close")
        self.process.wait(timeout=30)
        os.close(self._writer)
        os.close(self._reader)
