"""Where models live and how one is found: shipped models, ``$RELX_MODELS``, a directory.

Every model directory (relation model, event model or spaCy parse pipeline) holds a
``meta.json``; this module finds one by name or path, lists them, and writes the flat TOML
configs saved beside them. It knows nothing of what a model does (that is the task
packages' business), so both tasks and the parse stage share it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class ModelError(ValueError):
    """A model directory that cannot be used (missing, wrong format version, untrusted)."""


def models_dir() -> Path:
    """Where shipped models live: ``$RELX_MODELS`` or the repository's ``models/``."""
    env = os.environ.get("RELX_MODELS")
    return Path(env) if env else Path(__file__).resolve().parents[1] / "models"


def find_model_dir(name: str, *, what: str = "model",
                   error: type[Exception] = ModelError) -> Path:
    """The directory of a model given as a directory or an installed model's name."""
    path = Path(name)
    if not (path / "meta.json").exists():
        path = models_dir() / name
    if not (path / "meta.json").exists():
        raise error(f"no {what} {name!r} (looked for a directory, and in {models_dir()}); "
                    "`relx models` lists the installed ones")
    return path


def installed_models(root: Path | None = None) -> list[dict[str, Any]]:
    """Every model directory under ``root`` (default: the shipped ``models/``) with its meta."""
    root = models_dir() if root is None else root
    found = []
    for meta_file in sorted(root.glob("*/meta.json")):
        meta = json.loads(meta_file.read_text())
        kind = "relation model" if (meta_file.parent / "pipeline.skops").exists() else \
            "event model" if meta.get("format") == "relx-ge-events" else \
            "spaCy pipeline" if (meta_file.parent / "config.cfg").exists() else "other"
        default_task = {"spaCy pipeline": "parse", "event model": "ge-events"}.get(kind, "?")
        found.append({"name": meta_file.parent.name, "path": str(meta_file.parent), "kind": kind,
                      "version": meta.get("version", "?"),
                      "task": meta.get("task", default_task),
                      "size_mb": round(sum(f.stat().st_size for f in meta_file.parent.rglob("*")
                                           if f.is_file()) / 1e6, 1)})
    return found


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def to_toml(cfg: dict[str, Any]) -> str:
    """A config of flat sections (what relx configs are) as TOML text."""
    out = []
    for section, body in cfg.items():
        if not isinstance(body, dict):
            out.append(f"{section} = {_toml_value(body)}")
            continue
        out.append(f"\n[{section}]")
        out += [f"{k} = {_toml_value(v)}" for k, v in body.items() if not isinstance(v, dict)]
    return "\n".join(out).lstrip() + "\n"
