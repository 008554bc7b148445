"""The spaCy factories relx's pipelines name, registered where spaCy can find them alone.

``models/relx_bio_sm`` names scispacy's ``pysbd_sentencizer`` and
``abbreviation_detector``, which scispacy registers only as a side effect of importing its
modules; relx's loader swaps in ``relx_sentencizer`` and ``relx_pos_lemma``
(:mod:`relx.parse.fast`). pyproject.toml declares them all as ``spacy_factories`` entry
points: spaCy imports every such entry point's module when it creates a pipeline, so
``spacy.load("models/relx_bio_sm")`` works in a plain Python process. Importing this module
must stay cheap (spaCy does it for every pipeline in the environment): the components' code
is imported when a factory is called.
"""

# no `from __future__ import annotations`: spaCy validates factory arguments from the
# signature's real types
from collections.abc import Callable
from typing import Any

import scispacy.custom_sentence_segmenter  # noqa: F401  (registers pysbd_sentencizer)
from spacy.language import Language

import relx.parse.compact_pipeline  # noqa: F401  (srsly decoder of the packed weights)

__all__ = ["make_pos_lemma", "make_pysbd_sentencizer", "make_relx_sentencizer"]


def make_pysbd_sentencizer(nlp: Any, name: str) -> Callable[[Any], Any]:
    """scispacy's ``pysbd_sentencizer`` component (registered by scispacy on import)."""
    from scispacy.custom_sentence_segmenter import pysbd_sentencizer

    return pysbd_sentencizer


@Language.factory("relx_sentencizer")
def make_relx_sentencizer(nlp: Any, name: str) -> Callable[[Any], Any]:
    """:func:`relx.parse.fast.relx_sentencizer`: pysbd's sentences, several times faster."""
    from relx.parse.fast import relx_sentencizer

    return relx_sentencizer


@Language.factory("relx_pos_lemma", default_config={"tag_map": {}})
def make_pos_lemma(nlp: Any, name: str, tag_map: dict[str, str]) -> Any:
    """:class:`relx.parse.fast.TagPosLemma` (tag map -> POS, then rule lemmas, memoised);
    :func:`relx.parse.fast.fuse_pos_lemma` hands it the pipeline's lemmatizer."""
    from relx.parse.fast import TagPosLemma

    return TagPosLemma(dict(tag_map), None)
