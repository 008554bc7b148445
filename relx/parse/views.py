"""A second parse of already-parsed sentences: relx's own pipeline next to a corpus's parses.

Features from two parsers are better than from either one (the corpus's Charniak-Lease
parses and relx's CRAFT + GENIA parser make different mistakes). :func:`relx_view` gives,
for each sentence, the same sentence (text, entities, relations) re-tagged and re-parsed by
relx's pipeline; a sentence that relx's pipeline parsed already is returned as it is, so raw
text (``relx extract``) is never parsed twice. Re-parses are cached per process (keyed by
the sentence's offset, text and entity boundaries), so cross-validation folds parse each
sentence once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from relx.doc import Document, Sentence

#: cached re-parsed sentences per process; cleared when full
MAX_CACHED = 200_000
_CACHE: dict[tuple, Sentence] = {}


@functools.lru_cache(maxsize=4)
def _parser(model: str | None):
    from relx.parse.pipeline import Parser

    return Parser(model)


@functools.lru_cache(maxsize=4)
def _source(model: str | None) -> str:
    from relx.parse.pipeline import default_source

    return default_source() if model is None else _parser(model).source


@functools.lru_cache(maxsize=4)
def _same_sources(model: str | None) -> frozenset[str]:
    """Sources whose parses this pipeline would repeat exactly (its own included)."""
    from relx.parse.pipeline import default_sources, same_parse_sources

    return default_sources() if model is None else same_parse_sources(_parser(model).nlp.meta)


def _key(s: Sentence, source: str) -> tuple:
    bounds = sorted({(sp.start - s.start, sp.end - s.start)
                     for e in s.entities for sp in e.spans})
    return source, s.start, s.text, tuple(bounds)


def relx_view(sentences: Sequence[Sentence], model: str | None = None) -> list[Sentence]:
    """``sentences`` re-parsed by relx's pipeline (``model``: ``None`` for the shipped one,
    or a spaCy pipeline name/path), one per input, same ids, entities and relations."""
    source, same = _source(model), _same_sources(model)
    out: list[Sentence | None] = [None] * len(sentences)
    todo: dict[tuple, list[int]] = {}
    for i, s in enumerate(sentences):
        if s.parse_source in same:
            out[i] = s
            continue
        key = _key(s, source)
        hit = _CACHE.get(key)
        if hit is not None:
            out[i] = _with_identity(hit, s)
        else:
            todo.setdefault(key, []).append(i)
    if todo:
        firsts = [sentences[idx[0]] for idx in todo.values()]
        doc = Document(id="relx-view", text="", sentences=firsts)
        parsed = next(_parser(model).reparse_sentences([doc])).sentences
        if len(_CACHE) + len(parsed) > MAX_CACHED:
            _CACHE.clear()
        for key, new, idx in zip(todo, parsed, todo.values(), strict=True):
            _CACHE[key] = new
            for i in idx:
                out[i] = _with_identity(new, sentences[i])
    return out  # type: ignore[return-value]


def relx_view_by_sentence(instances: Sequence, model: str | None = None) -> dict[int, Sentence]:
    """``id(sentence) -> relx's parse of it`` for the distinct sentences of ``instances``
    (objects with a ``sentence``, e.g. :class:`~relx.represent.instances.PairInstance`)."""
    sents = {id(x.sentence): x.sentence for x in instances}
    return dict(zip(sents, relx_view(list(sents.values()), model), strict=True))


def _with_identity(parsed: Sentence, s: Sentence) -> Sentence:
    """The parsed tokens/dependencies with ``s``'s own id, entities and relations."""
    return s.model_copy(update={"tokens": parsed.tokens, "dependencies": parsed.dependencies,
                                "parse_source": parsed.parse_source})
