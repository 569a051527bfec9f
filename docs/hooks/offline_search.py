"""MkDocs hook: search that works from ``site/index.html`` opened as a file, offline.

Material's offline plugin inlines the search index into ``search/search_index.js`` and asks
for a Worker stand-in that it would fetch from the network (unpkg). This puts retrograd's
own stand-in, ``docs/javascripts/file-worker.js``, in its place: the site then needs no
network at all, and search runs when the pages are opened from the file system.
"""

from __future__ import annotations

from typing import Any

LOCAL = "javascripts/file-worker.js"


def on_config(config: Any) -> Any:
    polyfills = [p for p in config.extra.get("polyfills", []) if "iframe-worker" not in str(p)]
    config.extra["polyfills"] = [LOCAL, *[p for p in polyfills if p != LOCAL]]
    return config
