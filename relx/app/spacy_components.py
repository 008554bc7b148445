"""relx as spaCy pipeline components: ``nlp.add_pipe("relx_ppi")`` and
``nlp.add_pipe("relx_events")`` add relx's interactions and GENIA events to any spaCy
``Doc``.

    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("relx_ppi")
    doc = nlp("STAT5 is phosphorylated by JAK1 in T cells.")
    for rel in doc._.relations:
        print(rel.entity1.text, rel.entity2.text, rel.score)

What a component needs from the ``Doc``: only its text. relx parses the text again with
its own pipeline (sentences, tokens, protein NER, dependency parse), so ``doc._.relations``
equals ``relx.load().extract(doc.text)`` and ``doc._.events`` equals
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

from relx.tasks import TASKS, Task

__all__ = ["RelxComponent", "make_relx_events", "make_relx_ppi"]

DEFAULT_ID = "text"   # as relx.load().extract(text) names a lone text


class RelxComponent:
    """A spaCy component that runs the extractor of a relx ``task`` (:data:`relx.tasks.TASKS`)
    on each Doc's text and stores the typed results in ``doc._.<attr>``."""

    def __init__(self, task: Task, attr: str, *, model: str | None = None,
                 spacy_model: str | None = None, threshold: float | str | None = None,
                 ground: bool = True, types: bool = True, batch_size: int = 32) -> None:
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
    ``types``: typed and directed by the event model, as ``relx.load()``)."""
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
