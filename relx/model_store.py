"""Where models live and how one is found: shipped models, ``$RELX_MODELS``, a directory.

Every model directory (relation model, event model or spaCy parse pipeline) holds a
``meta.json``; this module finds one by name or path, lists them, checks and reads their
files (:func:`load_skops`: ``meta.json``, its format version, the skops file of fitted
parts under the model kind's allow-list), and writes the flat TOML configs saved beside
them. It knows nothing of what a model does (that is the task packages' business: each
declares its :class:`ModelKind` and allow-list beside its model class), so both tasks and
the parse stage share it.
"""

from __future__ import annotations

import json
import os
import tomllib
import zipfile
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from relx.errors import ModelError  # noqa: E402,F401  (its home before relx.errors)
from relx.tasks import TASKS

#: the environment variable naming a models folder that replaces the shipped one
MODELS_ENV = "RELX_MODELS"


def shipped_models_dir() -> Path:
    """The models relx ships: ``relx/models`` inside an installed wheel (package data, found
    through ``importlib.resources``), else the checkout's ``models/`` (a source tree or an
    editable install)."""
    from importlib import resources

    packaged = resources.files("relx").joinpath("models")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[1] / "models"


def models_dir() -> Path:
    """Where installed models are looked up: ``$RELX_MODELS`` when set, else the shipped
    models (:func:`shipped_models_dir`)."""
    env = os.environ.get(MODELS_ENV)
    return Path(env) if env else shipped_models_dir()


def find_model_dir(name: str, *, what: str = "model",
                   error: type[Exception] = ModelError) -> Path:
    """The directory of a model given as a directory or an installed model's name."""
    path = Path(name)
    if not (path / "meta.json").exists():
        path = models_dir() / name
    if not (path / "meta.json").exists():
        where = models_dir()
        hint = "" if where.is_dir() else \
            f" (that folder does not exist: set ${MODELS_ENV} or reinstall relx)"
        raise error(f"no {what} {name!r} (looked for a directory, and in {where}{hint}); "
                    "`relx models` lists the installed ones")
    return path


def model_meta(name: str) -> dict[str, Any]:
    """The ``meta.json`` of model ``name`` (a directory or an installed name); ``{}`` when it
    cannot be read (a missing model fails later, where it is loaded, with its own message)."""
    try:
        return json.loads((find_model_dir(name) / "meta.json").read_text(encoding="utf-8"))
    except (ValueError, OSError):
        return {}


def installed_models(root: Path | None = None) -> list[dict[str, Any]]:
    """Every model directory under ``root`` (default: the shipped ``models/``) with its meta."""
    root = models_dir() if root is None else root
    found = []
    for meta_file in sorted(root.glob("*/meta.json")):
        meta = json.loads(meta_file.read_text("utf-8"))
        kind = "relation model" if (meta_file.parent / "pipeline.skops").exists() else \
            "event model" if meta.get("format") == "relx-ge-events" else \
            "gene relation model" if meta.get("format") == "relx-gene-relations" else \
            "pair typer" if meta.get("format") == "relx-pair-typer" else \
            "spaCy pipeline" if (meta_file.parent / "config.cfg").exists() else "other"
        default_task = "parse" if kind == "spaCy pipeline" else next(
            (t.name for t in TASKS.values() if t.model_kind == kind), "?")
        found.append({"name": meta_file.parent.name, "path": str(meta_file.parent), "kind": kind,
                      "version": meta.get("version", "?"),
                      "task": meta.get("task", default_task),
                      "size_mb": round(sum(f.stat().st_size for f in meta_file.parent.rglob("*")
                                           if f.is_file()) / 1e6, 1),
                      "trained_on": trained_on(meta)})
    return found


def trained_on(meta: dict[str, Any]) -> str:
    """A one-line description of a model's training data from its ``meta.json``: the
    ``trained_on`` file names of a relx model, the ``sources`` of a spaCy pipeline."""
    files = meta.get("trained_on")
    if files:
        return ", ".join(Path(str(f)).name if Path(str(f)).is_absolute() else str(f)
                         for f in files)
    sources = meta.get("sources")
    if sources:
        return ", ".join(str(s.get("name", s)) if isinstance(s, dict) else str(s)
                         for s in sources)
    return str(meta.get("description", ""))


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


#: what reading a damaged model file raises: a truncated or corrupt zip, an unreadable
#: file, JSON / TOML / array data that does not parse, a part missing from the file
MODEL_DAMAGE = (OSError, EOFError, zipfile.BadZipFile, ValueError, KeyError, IndexError,
                TypeError, AttributeError)


@contextmanager
def reading_model_file(path: str | Path, what: str = "model",
                       error: type[Exception] = ModelError, fix: str = "") -> Iterator[None]:
    """Inside the block, an error of reading the model file ``path`` (:data:`MODEL_DAMAGE`;
    not a ``ModelError``, which already says what is wrong) becomes ``error`` naming the
    file and what to do (``fix``; default: reinstall relx or retrain the model)."""
    try:
        yield
    except ModelError:
        raise
    except MODEL_DAMAGE as exc:
        raise error(f"{path}: cannot read this {what} file, it is damaged or incomplete "
                    f"({type(exc).__name__}: {exc}); "
                    f"{fix or 'reinstall relx or retrain the model'}") from exc


@dataclass(frozen=True)
class ModelKind:
    """One kind of model folder: ``name`` (what messages call it: "relation model"), the
    skops file of its fitted parts beside ``meta.json``, the ``format_version`` values of
    ``meta.json`` this relx reads, the ``format`` name ``meta.json`` must declare (None:
    none), the words naming a format version in messages, and the error it raises."""

    name: str
    skops_file: str
    readable_formats: tuple[int, ...]
    format: str | None = None
    version_label: str = "model format"
    error: type[ModelError] = ModelError


def read_model_file(path: Path, what: str = "model", error: type[Exception] = ModelError,
                    fix: str = "") -> Any:
    """The contents of a model file, checked: ``*.json`` parsed (``meta.json`` must be a
    JSON object), ``*.toml`` parsed, a ``*.skops`` archive's structure checked without
    decompressing it (:func:`check_zip`; returns None); other files are not read. A damaged
    file is ``error`` naming it (:func:`reading_model_file`, with ``fix``)."""
    with reading_model_file(path, what, error, fix):
        if path.suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            if path.name == "meta.json" and not isinstance(data, dict):
                raise ValueError("not a JSON object")
            return data
        if path.suffix == ".toml":
            return tomllib.loads(path.read_text(encoding="utf-8"))
        if path.suffix == ".skops":
            check_zip(path)
    return None


def check_zip(path: Path) -> None:
    """A zip archive's directory reads, and every member's local header is where the
    directory says, names it and leaves room for its compressed bytes in the file: what
    truncation or a foreign file breaks, found without decompressing (a model's skops
    archives are LZMA: ``testzip`` would decompress them all, ~0.5 s, and loading them
    again checks every member's CRC). Raises ``zipfile.BadZipFile`` (or ``OSError``)."""
    size = path.stat().st_size
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            with z.open(info):      # reads and checks the member's local header only
                pass
            if info.header_offset + info.compress_size > size:
                raise zipfile.BadZipFile(f"member {info.filename} runs past the end")


def check_model_folder(folder: Path, what: str = "model", fix: str = "") -> None:
    """Every file of a model folder is whole (:func:`read_model_file`), checked without
    loading the model; ``fix``: what the error tells the user to do."""
    for f in sorted(folder.iterdir()):
        read_model_file(f, what, fix=fix)


def load_skops(folder: str | Path, trusted_types: Iterable[str], kind: ModelKind, *,
               predictors: bool = True) -> tuple[dict[str, Any], Any]:
    """``(meta, fitted parts)`` of a model folder of ``kind``: ``meta.json`` and the skops
    file exist, ``meta.json`` declares the kind's format and a readable format version, and
    the skops file holds only the types of ``trusted_types`` (plus what
    :mod:`relx.skops_reader` trusts by default). Errors are ``kind.error`` naming the file.
    ``predictors``: scikit-learn parts as relx's stand-ins, which predict the same without
    importing scikit-learn (:func:`relx.skops_reader.read`); False: scikit-learn's objects
    (to refit or inspect them)."""
    from relx import skops_reader

    folder = Path(folder)
    meta_file, skops_file = folder / "meta.json", folder / kind.skops_file
    for p in (meta_file, skops_file):
        if not p.is_file():
            raise kind.error(f"{folder}: not a relx {kind.name} ({p.name} missing)")
    meta = read_model_file(meta_file, kind.name, kind.error)
    if kind.format is not None and meta.get("format") != kind.format:
        raise kind.error(f"{meta_file}: format {meta.get('format')!r} is not {kind.format}")
    version = meta.get("format_version")
    if version not in kind.readable_formats:
        raise kind.error(f"{meta_file}: {kind.version_label} {version!r}, this relx reads "
                         f"formats {', '.join(map(str, kind.readable_formats))}; retrain "
                         "the model with `relx train`")
    with reading_model_file(skops_file, kind.name, kind.error):
        try:   # audits the whole file against the allow-list, then builds it (no skops import)
            parts = skops_reader.load(skops_file, trusted_types, predictors=predictors)
        except skops_reader.UntrustedTypes as exc:
            raise kind.error(f"{skops_file}: refusing to load untrusted types "
                             f"({exc})") from None
    return meta, parts


Loaded = TypeVar("Loaded")


def resolve_model(model: str | Path | Loaded | None, loaded: type[Loaded], default: str,
                  kind: ModelKind, load: Callable[[Path], Loaded]) -> Loaded:
    """``model`` if it is a ``loaded`` model object, else ``load`` of its folder: a
    directory or an installed model's name (None: ``default``)."""
    if isinstance(model, loaded):
        return model
    return load(find_model_dir(default if model is None else str(model), what=kind.name,
                               error=kind.error))


def in_background(load: Callable[..., Loaded], *args: Any) -> Future[Loaded]:
    """``load(*args)`` started in a thread of its own, so that models load beside each other
    (their decompression releases the GIL); ``.result()`` gives the model or raises what
    loading raised."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="relx-load")
    try:
        return pool.submit(load, *args)
    finally:
        pool.shutdown(wait=False)
