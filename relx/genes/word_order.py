"""A gene's full name written in another word order than the lexicons write it.

Papers write ``alpha-smooth muscle actin``, ``skeletal muscle actin``, ``A1 adenosine
receptor``; HGNC and NCBI write ``actin alpha 2, smooth muscle``, ``actin alpha 1, skeletal
muscle``, ``adenosine A1 receptor``. :meth:`WordOrder.gene` finds the one gene whose
curated full name (``NAME_SOURCES``) has the mention's words in any order, with one Greek
letter more (``skeletal muscle actin``) and, when the mention has no number, its member
numbers left out (``actin alpha 2, smooth muscle`` for ``alpha-smooth muscle actin``).
Other designations are not read: too many of them are loose (``latent membrane
protein``). :func:`relx.genes.document.resolve` asks it for a mention of ``MIN_WORDS`` to
``MAX_WORDS`` words that grounds to nothing else (naming round 69, docs/genes.md).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from weakref import WeakKeyDictionary

from relx.array_cache import code_version
from relx.genes.lexicon import GENE_NAMESPACE, HUMAN, Grounder, normalize_key

__all__ = ["GREEK", "MAX_WORDS", "MIN_WORDS", "NAME_SOURCES", "WordOrder", "word_order"]

#: the lexicon sources of the full names searched
NAME_SOURCES = frozenset({"name", "ncbi_name"})
#: the mention's words searched in every order (5! = 120 orders at most)
MIN_WORDS, MAX_WORDS = 3, 5
#: a Greek letter the full name may add (``actin alpha 1, skeletal muscle``)
GREEK = ("alpha", "beta", "gamma", "delta")
_DIGITS = re.compile(r"\d+")
_WORD_SPLIT = re.compile(r"[\s\-/,]+")


class WordOrder:
    """The full names of a grounder's genes, by species: the lexicon's own keys, and the
    keys of numbered names without their numbers (derived once per species and lexicon)."""

    def __init__(self, grounder: Grounder) -> None:
        self.grounder = grounder
        self._unnumbered: dict[str, dict[str, tuple[str, ...]]] = {}

    def _rows(self, taxon: str) -> Mapping[str, list]:
        g = self.grounder
        return g.index if taxon == HUMAN else g.species_index(taxon)

    def _names(self, rows: Mapping[str, list], key: str, prefix: str) -> set[str]:
        return {cid for cid, source, _ in rows.get(key, ())
                if source in NAME_SOURCES and cid.startswith(prefix)}

    def _unnumbered_index(self, taxon: str) -> dict[str, tuple[str, ...]]:
        """Unnumbered key -> ids of the numbered full names of ``taxon``'s genes, derived
        once and kept in the start-up cache (``Grounder.derived_strings``)."""
        got = self._unnumbered.get(taxon)
        if got is None:
            def build() -> list[str]:
                rows, prefix = self._rows(taxon), f"{GENE_NAMESPACE[taxon]}:"
                index: dict[str, set[str]] = {}
                for key in rows:
                    if any(c.isdigit() for c in key):
                        ids = self._names(rows, key, prefix)
                        if ids:
                            index.setdefault(_DIGITS.sub("", key), set()).update(ids)
                return [f"{k}\t{','.join(sorted(v))}" for k, v in index.items()]

            lines = self.grounder.derived_strings(
                f"unnumbered-names-{taxon.rsplit(':', 1)[-1]}-{code_version(__file__)}", build)
            got = self._unnumbered[taxon] = {
                k: tuple(ids.split(",")) for k, _, ids in (x.partition("\t") for x in lines)}
        return got

    def gene(self, text: str, taxon: str | None) -> str | None:
        """The one gene of ``taxon`` (default human; a species with a lexicon) whose full
        name has the words of ``text`` in another order, else None."""
        taxon = taxon or HUMAN
        if taxon not in GENE_NAMESPACE:
            return None
        words = [w for w in (normalize_key(x) for x in _WORD_SPLIT.split(text)) if w]
        if not MIN_WORDS <= len(words) <= MAX_WORDS or len(set(words)) < len(words):
            return None
        rows, prefix = self._rows(taxon), f"{GENE_NAMESPACE[taxon]}:"
        unnumbered = {} if any(c.isdigit() for c in "".join(words)) else \
            self._unnumbered_index(taxon)
        greek = () if any(w in GREEK for w in words) else GREEK
        found: set[str] = set()
        for order in itertools.permutations(words):
            forms = ["".join(order)]
            forms += ["".join((*order[:i], letter, *order[i:]))
                      for letter in greek for i in range(len(order) + 1)]
            for form in forms:
                if form in rows:
                    found |= self._names(rows, form, prefix)
                if form in unnumbered:
                    found.update(unnumbered[form])
            if len(found) > 1:
                return None
        return next(iter(found)) if found else None


_BY_GROUNDER: WeakKeyDictionary[Grounder, WordOrder] = WeakKeyDictionary()


def word_order(grounder: Grounder) -> WordOrder:
    """The grounder's :class:`WordOrder` (one per grounder)."""
    got = _BY_GROUNDER.get(grounder)
    if got is None:
        got = _BY_GROUNDER[grounder] = WordOrder(grounder)
    return got
