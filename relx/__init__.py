"""relx: protein-protein interactions and GENIA bio-events from biomedical text.

    import relx
    ex = relx.load()                       # interactions (task="events": GENIA events)
    for rel in ex.extract("STAT5 is phosphorylated by JAK1 in T cells."):
        print(rel.entity1.text, rel.entity2.text, rel.score)

``extract`` and ``pipe`` take text, a path, a :class:`Document`, ``(id, text)`` pairs or an
iterable of these (:mod:`relx.api`). The names below are imported when first used (PEP 562),
so ``import relx`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from relx.doc import Document
    from relx.ge.extract import EventExtractor, ExtractedEvent
    from relx.io.registry import read, write
    from relx.ppi.extract import ExtractedRelation, Extractor
    from relx.tasks import Task

# public name -> module it lives in (imported on first access)
_LAZY = {
    "Document": "relx.doc",
    "Extractor": "relx.ppi.extract",
    "ExtractedRelation": "relx.ppi.extract",
    "EventExtractor": "relx.ge.extract",
    "ExtractedEvent": "relx.ge.extract",
    "read": "relx.io.registry",
    "write": "relx.io.registry",
}


def load(model: str | None = None, *, task: str | Task = "ppi", types: bool = True,
         event_model: str | None = None, **options: Any) -> Extractor | EventExtractor:
    """The extractor of ``task`` ("ppi": interactions, the default; "events": GENIA
    events) with ``model`` (default: the task's shipped model), loaded and warmed up.
    ``options`` go to the task's extractor (:class:`Extractor` / :class:`EventExtractor`);
    for "ppi", ``types`` (default True) types and directs each reported pair with
    ``event_model`` (default: the shipped ``ge-events``) on the same parse
    (:mod:`relx.ge.interactions`); ``False``: undirected ``Interaction`` pairs, faster to
    load and run. Tasks: :data:`relx.tasks.TASKS` (a name, or the ``Task`` itself)."""
    from relx.tasks import get_task

    the_task = get_task(task)
    typed = {"types": types, "event_model": event_model}
    options.update({k: v for k, v in typed.items() if k in the_task.options})
    return the_task.load(model, **options)


def load_interactions(model: str | None = None, *, types: bool = True,
                      event_model: str | None = None, **options: Any) -> Extractor:
    """The interaction extractor (task "ppi"), typed by the event model unless ``types``
    is False (see :func:`load`)."""
    from relx.ppi.extract import load as load_ppi

    if types and "typer" not in options:
        from relx.ge.interactions import EventTyper

        options["typer"] = EventTyper(event_model)
    return load_ppi(model, **options)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'relx' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = ["Document", "EventExtractor", "ExtractedEvent", "ExtractedRelation", "Extractor",
           "__version__", "load", "read", "write"]
