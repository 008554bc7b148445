"""A batch worker's one extractor (per process, per Dask worker) and the model check that
runs before any work."""

from __future__ import annotations

from typing import Any

from relx.api import settle_heap, single_thread, warm_up
from relx.app.batch.plan import RunPlan
from relx.errors import ModelError, RelxError
from relx.model_store import check_model_folder, find_model_dir

_EXTRACTORS: dict[tuple, Any] = {}
_ONE_THREAD = False


def one_compute_thread() -> None:
    """This worker process computes on one thread (:func:`relx.api.single_thread`, once)."""
    global _ONE_THREAD
    if not _ONE_THREAD:
        single_thread()
        _ONE_THREAD = True


def extractor_for(plan: RunPlan) -> Any:
    """One extractor per process (and per Dask worker), loaded on first use, with the
    per-sentence caps of ``plan``; a model that cannot be loaded is a :class:`ModelError`
    naming it."""
    task = plan.task
    options = plan.extractor
    k = (task.name, plan.model, *sorted(options.items()))
    if k not in _EXTRACTORS:
        try:
            ex = task.load(plan.model, warm_up=False, **options)
            warm_up(ex)     # what loads on first use, loaded before the heap settles
        except ModelError:
            raise
        except RelxError:
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged model: say which and what to do
            raise ModelError(f"cannot load the {task.model_kind} "
                             f"{plan.model or task.default_model}: {type(exc).__name__}: "
                             f"{exc}; reinstall or retrain it") from exc
        _EXTRACTORS[k] = ex
        settle_heap()   # this process is relx's own
    ex = _EXTRACTORS[k]
    ex.max_sentence_tokens = plan.max_sentence_tokens
    ex.max_sentence_pairs = plan.max_sentence_pairs
    return ex


def check_model(plan: RunPlan) -> None:
    """Before any work, every model the batch will load (the task's model and, for typed
    interactions, the event model: :meth:`relx.tasks.TaskRunner.models`; files exist and
    are readable: ``meta.json`` and ``config.toml`` parse, each ``.skops`` archive is
    whole), and the spaCy pipeline (``--spacy-model`` is loaded once here). Errors name
    the model and the file."""
    for name, kind, option in plan.task.runner_().models(plan.model, plan.extractor):
        _check_model_dir(name, kind, option)
    _check_pipeline(plan.spacy_model)


def _check_pipeline(name: str | None) -> None:
    from relx.model_store import models_dir
    from relx.parse.pipeline import DEFAULT_PIPELINE, load_nlp

    if name is None:
        folder = models_dir() / DEFAULT_PIPELINE
        if not (folder / "meta.json").is_file() or not (folder / "config.cfg").is_file():
            raise ModelError(f"the default parse pipeline is missing or incomplete: {folder}; "
                             "reinstall relx")
        return
    try:
        load_nlp(name)
    except Exception as exc:  # noqa: BLE001 - any failure to load: unusable, say which
        raise ModelError(f"cannot load the spaCy pipeline {name!r} (--spacy-model): "
                         f"{type(exc).__name__}: {exc}; pass an installed pipeline name or "
                         "a pipeline folder") from None


def _check_model_dir(name: str, kind: str, option: str) -> None:
    check_model_folder(find_model_dir(name, what=kind), kind,
                       f"reinstall the {kind} (or retrain it), or pass another with {option}")
