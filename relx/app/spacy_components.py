"""relx as spaCy pipeline components: ``nlp.add_pipe("relx")`` adds the results of relx's
default task (:data:`relx.tasks.DEFAULT_TASK`, document-level gene relations, as ``relx
extract`` and ``relx.load()``) to any spaCy ``Doc``; ``nlp.add_pipe("relx", config={"task":
"ppi"})`` those of another task. Each task's results go to ``doc._.<its results>``:

- ``doc._.gene_relations``: ``GeneRelation`` records (``"relx_gene_relations"``, or
  ``"relx"``), the document's related gene pairs: BioRED's type, novelty, probability,
  evidence sentences (the records of ``gene_relations.jsonl``);
- ``doc._.relations``: ``ExtractedRelation`` records (``"relx_ppi"``), mention-level pairs;
- ``doc._.events``: ``ExtractedEvent`` records (``"relx_events"``), GENIA events.

Several can sit in one pipeline (``doc._.gene_relations`` beside ``doc._.relations``).

    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("relx")
    doc = nlp("MDM2 binds p53 and promotes its ubiquitination. ATM acts on p53.")
    for rel in doc._.gene_relations:
        print(rel.gene1.names, rel.gene2.names, rel.type, rel.novel, rel.probability)

What a component needs from the ``Doc``: only its text. relx parses the text again with
its own pipeline (sentences, tokens, protein NER, dependency parse), so
``doc._.gene_relations`` equals ``relx.load().extract(doc.text)``, ``doc._.relations``
``relx.load(task="ppi").extract(doc.text)`` and ``doc._.events``
``relx.load(task="events").extract(doc.text)``, whatever the ``Doc``'s own tokenisation,
sentences or entities. Offsets in the results are character offsets into ``doc.text``
(``doc.char_span(rel.entity1.start, rel.entity1.end)`` gives the spaCy span when token
boundaries agree). The document id of the results is ``doc.user_data["id"]`` when set, else
``"text"`` (as for ``extract(text)``).

The factories are ``spacy_factories`` entry points (pyproject.toml), so spaCy finds them
without importing relx first; importing this module stays cheap (relx loads its models when
a component is created).
"""

# no `from __future__ import annotations`: spaCy validates factory arguments from the
# signature's real types
from collections.abc import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc

from relx.errors import ConfigError
from relx.tasks import DEFAULT_TASK, TASKS, Task, get_task

__all__ = ["RelxComponent", "make_relx", "make_relx_events", "make_relx_gene_relations",
           "make_relx_ppi"]

DEFAULT_ID = "text"   # as relx.load().extract(text) names a lone text


class RelxComponent:
    """A spaCy component that runs the extractor of a relx ``task`` (:data:`relx.tasks.TASKS`)
    on each Doc's text and stores the typed results in ``doc._.<attr>`` (default: the
    task's :attr:`~relx.tasks.Task.results`: ``gene_relations``, ``relations``, ``events``).
    A ``threshold`` the task does not take is a :class:`~relx.errors.ConfigError`."""

    def __init__(self, task: Task, attr: str | None = None, *, model: str | None = None,
                 spacy_model: str | None = None, threshold: float | str | None = None,
                 ground: bool = True, types: bool = True, batch_size: int = 32) -> None:
        if threshold is not None and "threshold" not in task.options:
            raise ConfigError(f"threshold is not an option of task {task.name}")
        attr = attr or task.results
        given = {"spacy_model": spacy_model, "ground": ground, "threshold": threshold,
                 "types": types}
        self.extractor = task.load(model, **{k: v for k, v in given.items()
                                             if k in task.options})
        self.attr = attr
        self.batch_size = batch_size
        if not Doc.has_extension(attr):
            Doc.set_extension(attr, default=None)

    def _items(self, docs: Iterable[Doc]) -> Iterator[tuple[str, str]]:
        for doc in docs:
            yield str(doc.user_data.get("id", DEFAULT_ID)), doc.text

    def __call__(self, doc: Doc) -> Doc:
        setattr(doc._, self.attr, self.extractor.extract(list(self._items([doc]))))
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int | None = None) -> Iterator[Doc]:
        """Docs in order, each with its results (relx parses them in batches)."""
        size = batch_size or self.batch_size
        batch: list[Doc] = []
        for doc in docs:
            batch.append(doc)
            if len(batch) >= size:
                yield from self._run(batch)
                batch = []
        if batch:
            yield from self._run(batch)

    def _run(self, docs: list[Doc]) -> Iterator[Doc]:
        for doc, found in zip(docs, self.extractor.pipe(self._items(docs),
                                                        batch_size=len(docs)), strict=True):
            setattr(doc._, self.attr, found)
            yield doc


@Language.factory("relx_ppi", default_config={"model": None, "spacy_model": None,
                                              "threshold": None, "ground": True,
                                              "types": True, "batch_size": 32})
def make_relx_ppi(nlp: Language, name: str, model: str | None, spacy_model: str | None,
                  threshold: float | str | None, ground: bool, types: bool,
                  batch_size: int) -> RelxComponent:
    """Protein-protein interactions in ``doc._.relations`` (``ExtractedRelation`` list;
    ``types``: typed and directed by the event model, as ``relx.load(task="ppi")``)."""
    return RelxComponent(TASKS["ppi"], "relations", model=model, spacy_model=spacy_model,
                         threshold=threshold, ground=ground, types=types,
                         batch_size=batch_size)


@Language.factory("relx_events", default_config={"model": None, "spacy_model": None,
                                                 "ground": True, "batch_size": 32})
def make_relx_events(nlp: Language, name: str, model: str | None, spacy_model: str | None,
                     ground: bool, batch_size: int) -> RelxComponent:
    """GENIA events in ``doc._.events`` (``ExtractedEvent`` list)."""
    return RelxComponent(TASKS["events"], "events", model=model, spacy_model=spacy_model,
                         ground=ground, batch_size=batch_size)


@Language.factory("relx", default_config={"task": DEFAULT_TASK, "model": None,
                                          "spacy_model": None, "threshold": None,
                                          "ground": True, "types": True, "batch_size": 32})
def make_relx(nlp: Language, name: str, task: str, model: str | None, spacy_model: str | None,
              threshold: float | str | None, ground: bool, types: bool,
              batch_size: int) -> RelxComponent:
    """The results of ``task`` (default :data:`relx.tasks.DEFAULT_TASK`: gene relations in
    ``doc._.gene_relations``; ``"ppi"``: ``doc._.relations``; ``"events"``:
    ``doc._.events``)."""
    return RelxComponent(get_task(task), model=model, spacy_model=spacy_model,
                         threshold=threshold, ground=ground, types=types,
                         batch_size=batch_size)


@Language.factory("relx_gene_relations", default_config={"model": None, "spacy_model": None,
                                                         "ground": True, "types": True,
                                                         "batch_size": 32})
def make_relx_gene_relations(nlp: Language, name: str, model: str | None,
                             spacy_model: str | None, ground: bool, types: bool,
                             batch_size: int) -> RelxComponent:
    """Document-level gene relations in ``doc._.gene_relations`` (``GeneRelation`` list, as
    ``relx.load()`` gives them)."""
    return RelxComponent(TASKS["gene-relations"], "gene_relations", model=model,
                         spacy_model=spacy_model, ground=ground, types=types,
                         batch_size=batch_size)
