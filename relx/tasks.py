"""The task contract: what relx can extract, each task described once.

A :class:`Task` names a task (``ppi``, ``events``), the spellings it used to have, its
shipped model, the records it produces and how they are counted, the item kinds it hands
to output formats (see :data:`relx.io.registry.ITEM_KINDS`) and the options its extractor
takes. Its behaviour in a batch (loading the extractor, counting, what each format gets,
outputs written beside the formats, the report) is a :class:`TaskRunner` in the task's own
package (``relx.ppi.task``, ``relx.ge.task``), imported on first use, so the CLI, the
batch, the API and the spaCy components dispatch on the task object, never on its name.

Adding a task: a package with an extractor and a ``TaskRunner``, and one entry in
:data:`TASKS`.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from relx.errors import ConfigError

#: a unit of batch results: per document ``(annotated document, results, extra)``
Done = list[tuple[Any, list[Any], Any]]


class TaskRunner(Protocol):
    """A task's behaviour in a batch (implemented by ``relx.ppi.task`` and ``relx.ge.task``,
    each built with its :class:`Task`)."""

    def models(self, model: str | None, options: Mapping[str, Any]
               ) -> list[tuple[str, str, str]]:
        """Every model a run with ``model`` (None: the task's default) and extractor
        ``options`` loads: ``(name or folder, kind, the option choosing it)``."""

    def settings(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """What else decides the outputs (recorded; a resumed batch must match)."""

    def counts(self, done: Done) -> dict[str, int]:
        """The :attr:`Task.counts` of a unit of results."""

    def record(self, extractor: Any) -> dict[str, Any]:
        """What a unit's record notes of the extractor (e.g. the threshold applied)."""

    def items(self, done: Done) -> dict[str, list[Any]]:
        """Per item kind, what output formats get of a unit of results."""

    def write_direct(self, done: Done, out: Path, owner: Callable[[int], str],
                     claim: Callable[[Path, str, str], str],
                     on_error: Callable[[str, str, str], None]) -> None:
        """Outputs written per document straight into the batch folder (not joined)."""

    def summary(self, out: Path, records: list[dict[str, Any]], settings: Mapping[str, Any]
                ) -> dict[str, Any]:
        """What the batch summary adds for this task (after the model)."""

    def write_report(self, records: list[dict[str, Any]], path: Path,
                     summary: Mapping[str, Any]) -> None:
        """The HTML report of a batch's merged records."""


@dataclass(frozen=True)
class Task:
    """One extraction task, described once."""

    name: str
    description: str
    default_model: str
    model_kind: str                     # in messages: "relation model", "event model"
    results: str                        # merged output ``<results>.jsonl``; its record count
    counts: tuple[str, ...]             # per unit record and in the summary
    items: tuple[str, ...]              # item kinds handed to output formats
    always: tuple[str, ...]             # outputs every batch writes
    options: tuple[str, ...]            # extractor options of the batch and components
    runner: str                         # "module:class" of its TaskRunner (built with the task)
    extractor: str                      # "module:function" building its extractor
    summary_line: str                   # the closing line of a batch (format string)
    mentions: tuple[str, ...]           # --mentions: whose protein mentions it can use
    corpus: str                         # what evaluate/train read: "files" or "folders";
                                        # "lab": trained by its lab recipe, not the CLI
    aliases: tuple[str, ...] = ()       # older spellings, accepted with a warning
    summary_names_task: bool = False    # the summary says which task made it
    event_model: str | None = None      # the event model typing its results by default
    record: str | None = None           # "module:Class" of its records (pydantic)

    def runner_(self) -> TaskRunner:
        """Its batch behaviour (:class:`TaskRunner`), built with this task."""
        module, _, attr = self.runner.partition(":")
        return getattr(importlib.import_module(module), attr)(self)

    def load(self, model: str | Path | None = None, **options: Any) -> Any:
        """The task's extractor (what ``relx.load(task=...)`` returns), loaded with the
        garbage collector paused (:func:`relx.heap.paused_gc`)."""
        from relx.heap import paused_gc

        module, _, func = self.extractor.partition(":")
        with paused_gc():
            return getattr(importlib.import_module(module), func)(model, **options)

    def record_model(self) -> Any:
        """The pydantic class of its records (what ``<results>.jsonl`` holds a line of)."""
        module, _, attr = (self.record or "").partition(":")
        return getattr(importlib.import_module(module), attr)

    def formats(self) -> tuple[str, ...]:
        """The output formats this task can write: those taking one of its item kinds,
        and the outputs it always writes."""
        from relx.io.registry import FORMATS

        writable = [f.name for f in FORMATS.values() if any(k in f.parts for k in self.items)]
        return tuple(dict.fromkeys([*self.always, *writable]))

    def kind_for(self, fmt: str) -> str | None:
        """The item kind format ``fmt`` gets from this task (None: it takes none)."""
        from relx.io.registry import FORMATS

        spec = FORMATS.get(fmt)
        return next((k for k in self.items if spec and k in spec.parts), None)


TASKS: dict[str, Task] = {t.name: t for t in (
    Task(name="ppi", description="protein-protein interactions (pairs in a sentence)",
         default_model="ppi-default", model_kind="relation model", results="relations",
         counts=("candidates", "relations"), items=("relations", "documents"),
         always=("jsonl",),
         options=("spacy_model", "ground", "threshold", "types", "event_model", "mentions",
                  "orthologs", "same_gene_pairs", "max_doc_chars", "max_doc_seconds",
                  "sections"),
         runner="relx.ppi.task:InteractionRunner", extractor="relx:load_interactions",
         summary_line="{documents} documents, {sentences} sentences, {candidates} candidate "
                      "pairs -> [bold]{relations}[/] relations in {seconds} s; {errors} errors",
         mentions=("auto", "input", "relx", "both"), corpus="files",
         event_model="ge-events", record="relx.ppi.extract:ExtractedRelation"),
    Task(name="gene-relations", description="document-level gene relations (BioRED's types, "
         "novel vs background, evidence sentences)",
         default_model="gene-relations", model_kind="gene relation model",
         results="gene_relations", counts=("candidates", "relations"),
         items=("gene_relations", "gene_documents"), always=("jsonl",),
         options=("spacy_model", "ground", "types", "event_model", "mentions", "orthologs",
                  "max_doc_chars", "max_doc_seconds", "sections"),
         runner="relx.ppi.gene_task:GeneRelationRunner",
         extractor="relx.ppi.gene_relations:load",
         summary_line="{documents} documents, {sentences} sentences, {candidates} candidate "
                      "gene pairs -> [bold]{relations}[/] gene relations in {seconds} s; "
                      "{errors} errors",
         mentions=("auto", "input", "relx", "both"), corpus="lab",
         event_model="ge-events", record="relx.ppi.gene_relations:GeneRelation"),
    Task(name="events", description="GENIA bio-events (triggers with Theme/Cause arguments)",
         default_model="ge-events", model_kind="event model", results="events",
         counts=("triggers", "events"), items=("events", "event_documents"),
         always=("jsonl", "standoff"),
         options=("spacy_model", "ground", "mentions", "max_doc_chars", "max_doc_seconds",
                  "sections"),
         runner="relx.ge.task:EventRunner", extractor="relx.ge.extract:load",
         summary_line="{documents} documents, {sentences} sentences, {triggers} triggers -> "
                      "[bold]{events}[/] events in {seconds} s; {errors} errors",
         mentions=("auto", "input", "relx"), corpus="folders",
         aliases=("ge-events", "ge"), summary_names_task=True,
         record="relx.ge.extract:ExtractedEvent"),
)}


#: the task ``relx extract``, ``relx serve``, ``relx.load()`` and spaCy's ``"relx"``
#: component run unless told otherwise
DEFAULT_TASK = "gene-relations"


def get_task(name: str | Task) -> Task:
    """The task called ``name`` (an older spelling works, with a DeprecationWarning)."""
    if isinstance(name, Task):
        return name
    if name in TASKS:
        return TASKS[name]
    for task in TASKS.values():
        if name in task.aliases:
            warnings.warn(f"task name {name!r} is deprecated; use {task.name!r}",
                          DeprecationWarning, stacklevel=2)
            return task
    raise ConfigError(f"unknown task {name!r}: choose one of {', '.join(TASKS)}")


def task_names() -> tuple[str, ...]:
    """Every accepted task name, the current ones first."""
    return (*TASKS, *(a for t in TASKS.values() for a in t.aliases))
