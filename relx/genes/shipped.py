"""The learned gene-naming tables relx ships as JSON in ``relx/data`` (ranker, family
members, confidence calibration), each read once per process on first use."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TypeVar

__all__ = ["shipped_json"]

T = TypeVar("T")
_LOADED: dict[str, object] = {}
_LOCK = threading.Lock()


def shipped_json(name: str, parse: Callable[[dict], T], path: Path | str | None = None
                 ) -> T | None:
    """``parse`` of the JSON file ``path``, or of the shipped ``relx/data/<name>`` (read
    once, then cached); None when no such file is shipped."""
    if path is not None:
        return parse(json.loads(Path(path).read_text("utf-8")))
    with _LOCK:
        if name not in _LOADED:
            f = resources.files("relx").joinpath(f"data/{name}")
            _LOADED[name] = parse(json.loads(f.read_text("utf-8"))) if f.is_file() else None
        return _LOADED[name]   # type: ignore[return-value]
