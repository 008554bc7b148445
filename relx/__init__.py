"""relx: gene relations, protein-protein interactions and GENIA bio-events from
biomedical text.

    import relx
    ex = relx.load()                       # document-level gene relations (GeneRelation)
    for rel in ex.extract("JAK1 phosphorylates STAT5. STAT5 then binds SOCS3."):
        print(rel.gene1.id, rel.gene2.id, rel.type, rel.novel, rel.probability)
    pairs = relx.load(task="ppi")          # mention-level pairs (ExtractedRelation)
    events = relx.load(task="events")      # GENIA events (ExtractedEvent)

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
    from relx.ppi.gene_relations import GeneRelation, GeneRelationExtractor
    from relx.tasks import Task

# public name -> module it lives in (imported on first access)
_LAZY = {
    "Document": "relx.doc",
    "Extractor": "relx.ppi.extract",
    "ExtractedRelation": "relx.ppi.extract",
    "EventExtractor": "relx.ge.extract",
    "ExtractedEvent": "relx.ge.extract",
    "GeneRelation": "relx.ppi.gene_relations",
    "GeneRelationExtractor": "relx.ppi.gene_relations",
    "read": "relx.io.registry",
    "write": "relx.io.registry",
}


def load(model: str | None = None, *, task: str | Task | None = None, types: bool = True,
         event_model: str | None = None, **options: Any
         ) -> GeneRelationExtractor | Extractor | EventExtractor:
    """The extractor of ``task`` with ``model`` (default: the task's shipped model), loaded
    and warmed up. Tasks (:data:`relx.tasks.TASKS`; a name, or the ``Task`` itself):

    - ``"gene-relations"`` (the default, :data:`relx.tasks.DEFAULT_TASK`, as ``relx
      extract``): a :class:`GeneRelationExtractor`, whose ``extract`` gives one
      :class:`GeneRelation` per related gene pair of a document (the records of
      ``gene_relations.jsonl``: ``gene1`` / ``gene2`` with ``id``, ``names``, ``mentions``,
      ``ids``; BioRED's ``type`` and ``novel`` with their probabilities; the pair's
      calibrated ``probability``; ``evidence`` sentences; relx's GENIA ``event_type`` and
      ``direction``);
    - ``"ppi"``: an :class:`Extractor`, one :class:`ExtractedRelation` per interacting
      mention pair of a sentence (``relations.jsonl``);
    - ``"events"``: an :class:`EventExtractor`, GENIA events (:class:`ExtractedEvent`).

    ``options`` go to the task's extractor; for "gene-relations" and "ppi", ``types``
    (default True) types and directs the mention pairs with ``event_model`` (default: the
    shipped ``ge-events``) on the same parse (:mod:`relx.ge.interactions`); ``False``:
    undirected ``Interaction`` pairs, faster to load and run."""
    from relx.tasks import DEFAULT_TASK, get_task

    the_task = get_task(DEFAULT_TASK if task is None else task)
    typed = {"types": types, "event_model": event_model}
    options.update({k: v for k, v in typed.items() if k in the_task.options})
    return the_task.load(model, **options)


def load_interactions(model: str | None = None, *, types: bool = True,
                      event_model: str | None = None, pair_typer: str | bool = True,
                      **options: Any) -> Extractor:
    """The interaction extractor (task "ppi"), typed unless ``types`` is False (see
    :func:`load`): by the pair typer where it is sure and the event model elsewhere
    (:class:`relx.ppi.pair_typer.HybridTyper`; ``pair_typer``: True for the shipped one, a
    name or folder, or False for the event model alone)."""
    from relx.ppi.extract import load as load_ppi

    if types and "typer" not in options:
        from relx.ge.interactions import EventTyper

        events = EventTyper(event_model)   # its model loads beside the next one
        if pair_typer is False:
            options["typer"] = events
        else:
            from relx.ppi.pair_typer import HybridTyper

            options["typer"] = HybridTyper(events, None if pair_typer is True else pair_typer)
    ex = load_ppi(model, **options)
    if ex.typer is not None:
        _ = ex.typer.model       # loaded (or its error raised) before the extractor is returned
    return ex


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
           "GeneRelation", "GeneRelationExtractor", "__version__", "load", "read", "write"]
