"""A batch worker's one extractor (per process, per Dask worker) and the model check that
runs before any work."""

from __future__ import annotations

import json
from typing import Any

from relx.api import settle_heap, single_thread
from relx.app.batch_options import BatchOptions
from relx.errors import ModelError, RelxError
from relx.model_store import find_model_dir
from relx.tasks import get_task

_EXTRACTORS: dict[tuple, Any] = {}
_ONE_THREAD = False


def one_compute_thread() -> None:
    """This worker process computes on one thread (:func:`relx.api.single_thread`, once)."""
    global _ONE_THREAD
    if not _ONE_THREAD:
        single_thread()
        _ONE_THREAD = True


def extractor_for(opts: BatchOptions) -> Any:
    """One extractor per process (and per Dask worker), loaded on first use, with the
    per-sentence caps of ``opts``; a model that cannot be loaded is a :class:`ModelError`
    naming it."""
    task = get_task(opts.task)
    options = opts.extractor_options()
    k = (task.name, opts.model, *sorted(options.items()))
    if k not in _EXTRACTORS:
        try:
            ex = task.runner_().load(opts.model, options)
        except ModelError:
            raise
        except RelxError:
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged model: say which and what to do
            raise ModelError(f"cannot load the {task.model_kind} "
                             f"{opts.model or task.default_model}: {type(exc).__name__}: "
                             f"{exc}; reinstall or retrain it") from exc
        _EXTRACTORS[k] = ex
        settle_heap()   # this process is relx's own
    ex = _EXTRACTORS[k]
    ex.max_sentence_tokens = opts.max_sentence_tokens
    ex.max_sentence_pairs = opts.max_sentence_pairs
    return ex


def check_model(opts: BatchOptions) -> None:
    """Before any work: the model's files exist and are readable (``meta.json`` and
    ``config.toml`` parse, each ``.skops`` archive is whole); errors name the file."""
    import tomllib
    import zipfile

    task = get_task(opts.task)
    folder = find_model_dir(opts.model or task.default_model, what=task.model_kind)
    fix = "reinstall the model (or retrain it), or pass another with --model"
    for f in sorted(folder.iterdir()):
        try:
            if f.name == "meta.json":
                json.loads(f.read_text(encoding="utf-8"))
            elif f.suffix == ".toml":
                tomllib.loads(f.read_text(encoding="utf-8"))
            elif f.suffix == ".skops":
                with zipfile.ZipFile(f) as z:
                    bad = z.testzip()
                if bad is not None:
                    raise ValueError(f"damaged member {bad}")
        except (ValueError, OSError, zipfile.BadZipFile, tomllib.TOMLDecodeError) as exc:
            raise ModelError(f"{f}: cannot read this model file ({type(exc).__name__}: "
                             f"{exc}); {fix}") from None
