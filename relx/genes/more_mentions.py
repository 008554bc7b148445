"""Gene mentions the tagger left out: the other occurrences of a name it tagged, the
numbers of a series after a slash, gene symbols and one-gene names written as such, the
long forms of abbreviations (:func:`with_long_forms`) and their short forms
(:func:`with_short_forms`), genes' full names (:func:`with_full_names`) and the genes of
Cre drivers and reporters (:func:`with_construct_genes`) (names written with Greek letters:
:mod:`relx.genes.greek_names`); and, last, the mentions that name nothing and are
something else, taken out (:func:`without_other_things`).

The tagger reads one sentence at a time and misses a gene in one sentence that it finds in
the next (``CCR2`` tagged twice of its twelve occurrences), and it misses approved symbols
it has rarely seen (``GADD45A``, ``FASN``, ``P2RX7``). :func:`more_mentions` adds, to a
text block's tagged mentions:

1. **one sense per document**: every other occurrence of a tagged mention's text (whole
   words, not inside another mention; for a mention that begins a sentence with a capital
   and then a lower-case letter, also written with a lower-case first letter: ``factor
   XI`` of a title's ``Factor XI``) when that text grounds to a gene or FamPlex entry
   (:func:`relx.genes.document.resolve`, human): a tagged disease or drug name is not
   copied around;
2. **symbols as written**: a word that is, case for case, an approved HGNC symbol of three
   characters or more with a digit or three capitals (``FASN``, ``SOD1``, not ``Was``;
   with its hyphen where HGNC writes one: ``HLA-B``, ``CDKN2B-AS1``; or with a hyphen
   before its closing number: ``LAG-3`` for LAG3) --
   or, with :data:`WRITTEN_SOURCES` (none by default), such a previous or alias symbol of
   one gene that names nothing else (``CTGF``: :func:`written_symbols`) -- unless the
   text defines it as the short form of a long form that does not ground to that gene
   (``coronary artery disease (CAD)``); the same for a mouse or rat symbol in rodent
   nomenclature (``Srebf1``, ``Pparg``: :func:`relx.genes.symbol_sets.rodent_symbols`) of
   three characters or more, one with no digit only where it does not begin a sentence;
   and a mature microRNA written with its arm (``miR-195-5p``, ``hsa-let-7a-3p``) whose
   gene name grounds (naming round 77);
3. **one-gene names**: a word of five letters or more written as a lexicon form of a key
   that names one HGNC gene (:func:`single_gene_names`: ``ghrelin``, ``Parkin``), or as
   that key with a capital where it does not begin a sentence (``Klotho``); not ending as
   a disease or an adjective does;
4. **numbers after a slash**: the ``2`` of ``ERK1/2`` after a mention ``ERK1`` (tagged or
   added above), when the name it stands for (``ERK2``:
   :func:`relx.genes.slash_series.series_name`) is a gene's.

Measured on BioRED train's fit split (docs/genes.md, "Mention completion"): gene mention
overlap recall 0.765 -> 0.855 at precision 0.879 -> 0.86.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from relx.array_cache import code_version
from relx.genes.lexicon import Grounder, default_grounder
from relx.genes.mention import CALCIUM_SLASH, HEAD_WORDS, MIRNA
from relx.genes.slash_series import member_numbers, series_name
from relx.genes.symbol_sets import approved_symbols, hyphenated_symbols, rodent_symbols
from relx.genes.variants import SUBSTITUTION
from relx.ids import GENE_NAMESPACES, NAME_NAMESPACES, namespace_of

__all__ = ["approved_symbols", "full_name_keys", "gene_ids", "more_mentions", "single_gene_names",
           "take_span",
           "with_construct_genes", "with_full_names", "with_long_forms",
           "with_short_forms", "without_other_things", "written_symbols"]

#: a word that may be a symbol: a letter first, letters/digits/hyphens, not inside a word
_WORD = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9](?![\w-])")
#: an upper-case symbol written with a hyphen before its closing number (``LAG-3``,
#: ``IL-17F``, ``IGF-1R``; naming round 95)
_HYPHEN_NUMBER = re.compile(r"([A-Z][A-Z0-9]*[A-Z])-(\d+[A-Z]?)")
#: a lower-case or capitalised word that may be a protein's name
_NAME_WORD = re.compile(r"(?<![\w-])[A-Za-z][a-z]{4,}(?![\w-])")
#: a microRNA as a word (a mature one has its arm: ``miR-195-5p``; naming round 77)
_MIRNA_WORD = re.compile(rf"(?<![\w-]){MIRNA}(?![\w-])")
#: endings of diseases and adjectives, never taken for a name
_NOT_A_NAME = re.compile(r"(?:osis|itis|emia|aemia|opathy|oma|sis|al|ic|ous|ive|ed|ing|ly)$")
#: grounding routes by which a long form names a gene as a whole (not a part, not two genes)
_WHOLE_ROUTES = frozenset({"lexicon", "spelling"})
#: the hippocampus and its fields, which carbonic anhydrases' symbols spell (``CA1``)
_HIPPOCAMPUS = re.compile(r"hippocamp|\bSchaffer\b|\bdentate gyrus\b", re.IGNORECASE)
_BRAIN_FIELD = re.compile(r"CA[1-4]$")
#: a name, a hyphen and a Cre driver's or reporter's tag as one word (``Nphs1-Cre``)
_CONSTRUCT = re.compile(
    r"(?<![\w-])([A-Za-z][A-Za-z0-9]{1,12})-(?:Cre|CreER|CreERT2|iCre|GFP|EGFP|YFP|RFP|"
    r"mCherry|tdTomato|lacZ|LacZ|luc|Luc|rtTA|tTA)(?![\w-])")
#: a class of drugs the tagger takes for a protein (round 51a)
_DRUG_CLASS = re.compile(r"[Ss]tatins?")
#: a run of letters and digits (Greek letters too): the words of a written full name
_ALNUM_RUN = re.compile(r"[^\W_]+")
#: lexicon sources of a gene's curated full names (not NCBI's other designations)
_FULL_NAME_SOURCES = frozenset({"name", "previous", "alias", "ncbi_name", "famplex"})
#: what joins the words of a written full name (``Ca2+/calmodulin-dependent``, ``Ca2+``
#: read as ``calcium``: round 63)
_FULL_NAME_JOINS = frozenset({" ", "-", "/", "+/"})
#: the fewest characters of a full name's lexicon key; the most words of a full name
_FULL_NAME_KEY, _FULL_NAME_WORDS = 10, 8
#: lexicon sources a lower-case name may come from
_NAME_SOURCES = frozenset({"symbol", "name", "alias", "previous", "famplex", "designation"})
#: lexicon sources of the other symbols a gene is written with, taken as mentions: none
#: (docs/genes.md, round 13: previous and alias symbols cost more precision than they
#: gain recall on BioRED's fit split; ``lab.genes.biored --written-sources`` measures them)
WRITTEN_SOURCES: tuple[str, ...] = ()


def written_symbols(grounder: Grounder, sources: tuple[str, ...] | None = None
                    ) -> frozenset[str]:
    """Previous and alias symbols (``sources``, default :data:`WRITTEN_SOURCES`) of one HGNC
    gene as written (``CTGF``, ``PD-L1``): symbol-like, not an approved symbol, and their
    lexicon key names that gene and nothing else (made once per grounder and sources)."""
    sources = WRITTEN_SOURCES if sources is None else tuple(sources)

    def build() -> Iterator[str]:
        approved = approved_symbols(grounder)
        return (form for _, (cid, _, form) in grounder.index.rows_of_sources(sources, one_id=True)
                if cid.startswith("HGNC:") and form not in approved and _symbol_like(form))

    return grounder.derived_strings(
        f"written-symbols-{'+'.join(sources)}-{code_version(__file__)}", build)


def single_gene_names(grounder: Grounder) -> frozenset[str]:
    """Words that name exactly one HGNC gene and nothing else in ``grounder``'s lexicon
    (made once per grounder): for each lower-case lexicon key of five letters or more whose
    rows name one HGNC gene through :data:`_NAME_SOURCES`, the forms the lexicon writes it
    in (``ghrelin``, ``Parkin``, ``parkin``) and, marked by a leading ``^``, the key with a
    capital first letter where the lexicon does not write it so (``^Klotho``): a mention
    only where it does not begin a sentence."""

    def build() -> Iterator[str]:
        index = grounder.index
        for k in index:
            if k.isalpha() and k.islower() and len(k) >= 5 and _single_gene_name(index[k]):
                forms = {form for _, _, form in index[k] if form.lower() == k}
                yield from forms
                if k.capitalize() not in forms:
                    yield "^" + k.capitalize()

    return grounder.derived_strings(f"single-gene-names-{code_version(__file__)}", build)


def _single_gene_name(rows: list[tuple[str, str, str]]) -> bool:
    """``rows`` (of one lexicon key) name one HGNC gene through :data:`_NAME_SOURCES`
    only."""
    return len({cid for cid, _, _ in rows}) == 1 and all(
        cid.startswith("HGNC:") and source in _NAME_SOURCES for cid, source, _ in rows)


def _symbol_like(word: str) -> bool:
    return len(word) >= 3 and (any(c.isdigit() for c in word) or
                               sum(c.isupper() for c in word) >= 3)


def _rodent_symbol(word: str, text: str, start: int, rodent: frozenset[str]) -> bool:
    """``word`` (at ``start`` in ``text``) is a rodent symbol as written of three characters
    or more; with no digit, not at a sentence's start (``Clock``, ``Rest``)."""
    if len(word) < 3 or word not in rodent:
        return False
    return any(c.isdigit() for c in word) or not _begins_sentence(text, start)


def _begins_sentence(text: str, start: int) -> bool:
    """What ends at ``start`` in ``text`` is the text's start or ``.``, ``?``, ``!`` and
    spaces."""
    i = start
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i == 0 or text[i - 1] in ".?!"


def _overlaps(span: tuple[int, int], spans: Iterable[tuple[int, int]]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in spans)


def _in_word(c: str) -> bool:
    """``c`` is what ``[\\w-]`` matches (``re``'s Unicode ``\\w``: alphanumeric or ``_``)."""
    return c.isalnum() or c in "_-"


def _whole_words(name: str, text: str) -> Iterator[tuple[int, int]]:
    """The spans of ``name`` in ``text`` as a whole word, left to right, not overlapping:
    what ``re.finditer(r"(?<![\\w-])" + re.escape(name) + r"(?![\\w-])", text)`` finds,
    without compiling a pattern per name."""
    n, size = len(name), len(text)
    i = text.find(name)
    while i >= 0:
        j = i + n
        if (i == 0 or not _in_word(text[i - 1])) and (j == size or not _in_word(text[j])):
            yield i, j
            i = text.find(name, j)
        else:
            i = text.find(name, i + 1)


#: a hyphenated word: letters and digits (Greek letters too) joined by hyphens, and a
#: knockout's ``-/-`` (ASCII or Unicode minus) at its end
_HYPHENATED = re.compile(
    r"(?<![\w-])(?P<word>[^\W_]+(?:-[^\W_]+)*)(?P<knockout>[-\u2212]/[-\u2212])?(?![\w-])")
#: a floxed allele written onto a name (``Scarb1fl/fl``, ``Bmal1flox/flox``, ``Sox9fl``)
_FLOXED = re.compile(r"(?P<name>[^\W_]+?)(?:fl|flox)")
_FLOXED_AFTER = re.compile(r"/(?:fl|flox|\+|-)(?![\w])|(?![/\w])")
#: a protein substitution written onto a name (``KrasG12D``, ``BRAFV600E``, ``SOD1G93A``;
#: BioRED: the gene, then a SequenceVariant)
_SUBSTITUTION_ONTO = re.compile(rf"(?P<name>[^\W_]+?){SUBSTITUTION}")
#: a protein substitution alone (``V600E``), joined to a name by a hyphen (``BRAF-V600E``,
#: ``D90A-SOD1``; round 102)
_SUBSTITUTION_PART = re.compile(SUBSTITUTION)
#: attributes written onto a gene's name with a hyphen (``FoxO3-dependent``,
#: ``Rbm20-null``, ``Sirt6-LKO``): the name is the words before it
_ATTRIBUTE_AFTER = frozenset({
    "containing", "related", "mediated", "dependent", "induced", "expressing", "positive",
    "negative", "specific", "derived", "associated", "regulated", "stimulated", "activated",
    "targeted", "deficient", "null", "knockout", "ko", "cko", "lko", "driven", "depleted"})


def attached_names(text: str, takes: Callable[[str], bool]) -> Iterator[tuple[int, int]]:
    """Spans of the names that hyphens join to other words in ``text``: the name before an
    attribute (:data:`_ATTRIBUTE_AFTER`: ``myostatin-driven``, ``Tox-deficient``) or a
    knockout's ``-/-`` (``Arc-/-``), the name after ``anti-`` (``anti-PD-L1``), each
    name of a chain of names (``BDNF-TrkB-CREB``), a name with a floxed allele written
    onto it (``Scarb1fl/fl``, ``Alb-Cre;Bmal1flox/flox``) and one with a protein
    substitution written onto it (``LSL-KrasG12D``, ``SOD1G93A``; not a word ``takes``
    whole, ``GADD45A``) or joined to it by a hyphen (``D90A-SOD1``, ``BRAF-V600E``); a
    name only when ``takes`` it."""
    for m in _HYPHENATED.finditer(text):
        word, start = m.group("word"), m.start()
        if m.group("knockout"):
            if takes(word):
                yield m.span("word")
            continue
        floxed = _FLOXED.fullmatch(word.rpartition("-")[2])
        if floxed is not None and _FLOXED_AFTER.match(text, m.end()) and \
                takes(floxed.group("name")):
            at = m.end() - len(floxed.group(0))
            yield at, at + len(floxed.group("name"))
            continue
        last = word.rpartition("-")[2]
        mutant = _SUBSTITUTION_ONTO.fullmatch(last)
        if mutant is not None and not takes(last) and takes(mutant.group("name")):
            at = m.end() - len(last)
            yield at, at + len(mutant.group("name"))
            continue
        if "-" not in word:
            continue
        head, _, last = word.rpartition("-")
        first, _, rest = word.partition("-")
        changed = _changed_name(word, start, takes)
        if changed is not None:
            yield from changed
            continue
        if last.lower() in _ATTRIBUTE_AFTER and takes(head):
            yield start, start + len(head)
        elif first.lower() == "anti" and takes(rest):
            yield start + len(first) + 1, m.end()
        else:
            parts = word.split("-")
            if all(takes(part) for part in parts):
                yield from _part_spans(parts, start)


def _changed_name(word: str, start: int, takes: Callable[[str], bool]
                  ) -> list[tuple[int, int]] | None:
    """For a hyphenated ``word`` (at ``start``) whose first or last part is a protein
    substitution (``D90A-SOD1``, ``BRAF-V600E``): the span of the rest when ``takes`` it
    whole, else of each part when it takes every part (``[]``: none); None for another
    word."""
    first, _, after = word.partition("-")
    before, _, last = word.rpartition("-")
    if _SUBSTITUTION_PART.fullmatch(first) and not takes(first):
        rest, at = after, start + len(first) + 1
    elif _SUBSTITUTION_PART.fullmatch(last) and not takes(last):
        rest, at = before, start
    else:
        return None
    if takes(rest):
        return [(at, at + len(rest))]
    parts = rest.split("-")
    if len(parts) < 2 or not all(takes(part) for part in parts):
        return []
    return _part_spans(parts, at)


def _part_spans(parts: list[str], at: int) -> list[tuple[int, int]]:
    """The spans of the hyphen-joined ``parts`` of a word that starts at ``at``."""
    spans = []
    for part in parts:
        spans.append((at, at + len(part)))
        at += len(part) + 1
    return spans


def more_mentions(text: str, tagged: list[tuple[int, int]],
                  abbreviations: Iterable[tuple[str, str]] = (), *,
                  grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """The ``(start, end)`` spans (offsets in ``text``) of gene mentions to add to the
    ``tagged`` ones, in text order, none overlapping a tagged span or each other.
    ``abbreviations``: the block's ``(short form, long form)`` pairs."""
    from relx.genes.document import resolve

    g = grounder or default_grounder()

    def is_gene(name: str) -> bool:
        return bool(gene_ids(g, name))

    taken = list(tagged)
    added: list[tuple[int, int]] = []
    forms: dict[str, tuple[str, ...]] = {}
    for a, b in tagged:
        name = text[a:b]
        if b - a >= 2:
            forms.setdefault(name, (name,))
            if name[0].isupper() and name[1].islower() and _begins_sentence(text, a):
                forms[name] = (name, name[0].lower() + name[1:])   # "Factor XI": "factor XI"
    copied = [name for name in sorted(forms, key=lambda t: (-len(t), t)) if is_gene(name)]
    for name in copied:
        for span in (s for form in forms[name] for s in _whole_words(form, text)):
            if not _overlaps(span, taken):
                taken.append(span)
                added.append(span)
    symbols = approved_symbols(g)
    hyphenated = hyphenated_symbols(g)
    written = written_symbols(g) if WRITTEN_SOURCES else frozenset()
    rodent = rodent_symbols(g)
    long_of = {short.strip(): long for short, long in abbreviations}

    def symbol_as_written(word: str) -> bool:
        if (m := _HYPHEN_NUMBER.fullmatch(word)) and m[1] + m[2] in symbols:
            return not _wholly_cell_line(word)   # "LAG-3": LAG3, not "HK-2" cells
        return ((word in symbols or word in hyphenated) and _symbol_like(word)) or \
            word in written

    def long_form_agrees(word: str) -> bool:
        """The text defines no long form for ``word`` that grounds elsewhere (``CAD``)."""
        long = long_of.get(word)
        return long is None or set(resolve(word, grounder=g).ids[:1]) <= \
            set(resolve(long, grounder=g).ids)

    for m in _WORD.finditer(text):
        word = m.group()
        if not (symbol_as_written(word) or _rodent_symbol(word, text, m.start(), rodent)):
            continue
        span = m.span()
        if _overlaps(span, taken) or not long_form_agrees(word):
            continue
        taken.append(span)
        added.append(span)
    for m in _MIRNA_WORD.finditer(text):
        span = m.span()
        if m["arm"] and not _overlaps(span, taken) and is_gene(m["gene"]):
            taken.append(span)
            added.append(span)
    names = single_gene_names(g)
    for m in _NAME_WORD.finditer(text):
        word = m.group()
        if word not in names and not (word[0].isupper() and "^" + word in names and
                                      not _begins_sentence(text, m.start())):
            continue
        span = m.span()
        if not _NOT_A_NAME.search(word) and not _overlaps(span, taken):
            taken.append(span)
            added.append(span)
    tagged_names = set(copied)

    def takes(word: str) -> bool:
        """Completion would take ``word`` as a whole word anywhere in the text."""
        if word in tagged_names:
            return True
        if symbol_as_written(word) or (len(word) >= 3 and word in rodent):
            return long_form_agrees(word)
        return word in names or (word[0].isupper() and "^" + word in names)

    for span in attached_names(text, takes):
        if not _overlaps(span, taken):
            taken.append(span)
            added.append(span)
    for _, b in sorted(taken):
        for span in member_numbers(text, b):
            name = series_name(text, *span)
            if name is None or _overlaps(span, taken) or not is_gene(name):
                break
            taken.append(span)
            added.append(span)
    return sorted(added)


def with_long_forms(text: str, tagged: list[tuple[int, int]],
                    long_forms: Iterable[tuple[str, int, int]], *,
                    grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``tagged`` (``(start, end)`` spans in ``text``) with the long forms of the block's
    abbreviations as mentions, in text order. ``long_forms``: ``(short form, start, end)``
    of each abbreviation's long form in ``text``.

    A long form whose short form is tagged or grounds to a gene or FamPlex entry becomes a
    mention, unless a tagged span reaches outside it:

    - when all of its text grounds to a gene or FamPlex entry (human lexicon, lexicon or
      spelling route): added when no tagged span overlaps it (``Mitofusin 2 (MFN2)``);
      replacing the tagged spans inside it when one of them ends where it ends
      (``homeobox 1`` of ``Pancreatic and duodenal homeobox 1 (PDX1)``) or when the short
      form's best id is among its ids (``CD2`` of ``CD2-associated protein (CD2AP)``);
    - when it grounds to nothing and its short form to exactly one gene: replacing a tagged
      tail that grounds to nothing (``vanilloid 1`` of ``Transient receptor potential
      vanilloid 1 (TRPV1)``), to be named through its short form."""
    from relx.genes.document import resolve

    g = grounder or default_grounder()
    spans = sorted(set(tagged))
    tagged_texts = {text[a:b] for a, b in spans}
    for short, start, end in sorted(set(long_forms), key=lambda f: (f[1], f[2], f[0])):
        short = short.strip()
        if not 0 <= start < end <= len(text):
            continue
        short_ids = gene_ids(g, short)
        if not (short in tagged_texts or short_ids):
            continue
        touching = [(a, b) for a, b in spans if a < end and start < b]
        if (start, end) in touching or any(a < start or b > end for a, b in touching):
            continue
        tail = [(a, b) for a, b in touching if b == end]
        long_ids = gene_ids(g, text[start:end], whole=True)
        if long_ids:
            if touching and not tail and not (short_ids and short_ids[0] in long_ids):
                continue
        elif not (tail and len(short_ids) == 1 and len(touching) == 1 and
                  not resolve(text[tail[0][0]:end], grounder=g).ids and
                  not resolve(text[start:end], grounder=g).ids):
            continue
        spans = sorted({*(s for s in spans if s not in touching), (start, end)})
    return spans


def full_name_keys(grounder: Grounder) -> frozenset[str]:
    """Lexicon keys of at least ten characters whose rows name one HGNC gene and nothing
    else, one of them from a curated full name (:data:`_FULL_NAME_SOURCES`; made once per
    grounder, kept in the start-up cache)."""

    def build() -> Iterator[str]:
        for k, (cid, _, _) in grounder.index.rows_of_sources(_FULL_NAME_SOURCES, one_id=True):
            if len(k) >= _FULL_NAME_KEY and cid.startswith("HGNC:"):
                yield k

    return grounder.derived_strings(f"full-name-keys-{code_version(__file__)}", build)


def _word_inside(text: str, i: int) -> bool:
    """``text[i]`` exists and continues a word (:func:`_in_word`)."""
    return 0 <= i < len(text) and _in_word(text[i])


def take_span(spans: list[tuple[int, int]], span: tuple[int, int]) -> list[tuple[int, int]]:
    """``spans`` (sorted) with ``span`` added when no span reaches outside it, replacing
    the spans inside it; else ``spans``."""
    start, end = span
    touching = [(a, b) for a, b in spans if a < end and start < b]
    if any(a < start or b > end for a, b in touching):
        return spans
    return sorted({*(s for s in spans if s not in touching), span})


def _head_word_after(text: str, words: list[tuple[int, int, str]], j: int) -> bool:
    """The word after ``words[j]`` (one space between) makes another thing of the name
    that ends there (:data:`relx.genes.mention.HEAD_WORDS`: ``TNF receptor``)."""
    return j + 1 < len(words) and text[words[j][1]:words[j + 1][0]] == " " and \
        text[words[j + 1][0]:words[j + 1][1]].lower() in HEAD_WORDS


def with_full_names(text: str, spans: list[tuple[int, int]], *,
                    grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) with the genes' full names the text writes
    (``low-density lipoprotein receptor``, ``dedicator of cytokinesis 8``), in text order:
    runs of two to eight words, joined by one space, hyphen or slash, from a word's start to a
    word's end, whose lexicon key is one of :func:`full_name_keys`, not followed by a word
    that makes another thing of it (``tumor necrosis factor`` of ``tumor necrosis factor
    receptor-associated factors``). The longest run at a position is taken; it is added
    when no mention reaches outside it, replacing the mentions inside it."""
    from relx.genes.lexicon import normalize_key

    g = grounder or default_grounder()
    keys = full_name_keys(g)
    words = [(m.start(), m.end(), "calcium" if CALCIUM_SLASH.match(text, m.start())
              else w.lower() if w.isascii() else normalize_key(w))
             for m in _ALNUM_RUN.finditer(text) for w in (m.group(),)]
    out = sorted(set(spans))
    i = 0
    while i < len(words):
        start, _, key = words[i]
        best = None
        if not _word_inside(text, start - 1):
            for j in range(i + 1, min(i + _FULL_NAME_WORDS, len(words))):
                if text[words[j - 1][1]:words[j][0]] not in _FULL_NAME_JOINS:
                    break
                key += words[j][2]
                if key in keys and not _word_inside(text, words[j][1]) and \
                        not _head_word_after(text, words, j):
                    best = j
        if best is None:
            i += 1
            continue
        out = take_span(out, (start, words[best][1]))
        i = best + 1
    return out


def with_short_forms(text: str, spans: list[tuple[int, int]],
                     abbreviations: Iterable[tuple[int, int, int, int]], *,
                     grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) with the short form of each abbreviation whose
    long form is one of them, at its definition and wherever the text writes it again
    (whole words, not overlapping a mention), in text order, when the short form grounds to
    a gene of the long form or to nothing (``PSD-95`` of ``postsynaptic density protein 95
    (PSD-95)``, ``TH`` of ``tyrosine hydroxylase (TH)-positive``). ``abbreviations``:
    ``(short start, short end, long start, long end)`` in ``text``."""
    from relx.genes.document import resolve

    g = grounder or default_grounder()
    out = sorted(set(spans))
    mentions = set(out)
    for ss, se, ls, le in sorted(set(abbreviations)):
        if (ls, le) not in mentions or _overlaps((ss, se), out):
            continue
        short = text[ss:se]
        ids = gene_ids(g, short)
        if ids and ids[0] not in resolve(text[ls:le], grounder=g).ids:
            continue
        out = sorted({*out, *(s for s in _whole_words(short, text) if not _overlaps(s, out))})
    return out


def _wholly_cell_line(name: str) -> bool:
    """``name`` is, as a whole, a cell line or expression host of the species finder's
    curated lists (``NRK-52E``, ``HK-2``, ``COS-7``)."""
    from relx.genes.species import find_species

    return any(h.kind in ("cell_line", "host") and h.start == 0 and h.end == len(name)
               for h in find_species(name))


def without_other_things(text: str, spans: list[tuple[int, int]],
                         abbreviations: Iterable[tuple[str, int, int]], *,
                         grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) without those that name nothing and are
    something else: a mention whose text grounds to nothing out of context (no gene, no
    family) goes when the text defines it as the short form of a long form that grounds to
    nothing either and is no mention (``HFD`` of ``high-fat diet (HFD)``), or when its text
    is wholly a cell line (``NRK-52E``: :func:`relx.genes.species.find_species`) or a class
    of drugs (``statins``: round 51a); and, in a
    text that names the hippocampus, its fields ``CA1``-``CA4`` (not carbonic anhydrases).
    ``abbreviations``: ``(short form, long start, long end)`` in ``text``."""
    from relx.genes.document import resolve

    g = grounder or default_grounder()
    mentions = set(spans)
    other_shorts = {short.strip() for short, ls, le in abbreviations
                    if (ls, le) not in mentions and 0 <= ls < le <= len(text)
                    and not resolve(text[ls:le], grounder=g).ids}

    def other_thing(name: str) -> bool:
        if resolve(name, grounder=g).ids:
            return False
        return name in other_shorts or _DRUG_CLASS.fullmatch(name) is not None or \
            _wholly_cell_line(name)

    fields = _HIPPOCAMPUS.search(text) is not None
    return [(a, b) for a, b in spans if not other_thing(text[a:b])
            and not (fields and _BRAIN_FIELD.match(text[a:b]))]


def with_construct_genes(text: str, spans: list[tuple[int, int]], *,
                         grounder: Grounder | None = None) -> list[tuple[int, int]]:
    """``spans`` (gene mentions in ``text``) with the gene of each Cre driver or reporter
    written as one word (``Nphs1`` of ``Nphs1-Cre``, ``Oct4`` of ``Oct4-GFP``), in text
    order, when the name as a whole grounds to a gene (human lexicon, lexicon or spelling
    route): added when no mention overlaps it; a mention of the whole word is cut to it."""
    g = grounder or default_grounder()
    out = sorted(set(spans))
    for m in _CONSTRUCT.finditer(text):
        name = m.span(1)
        if not gene_ids(g, m.group(1), whole=True, families=False):
            continue
        if m.span() in out:
            out = sorted({*(s for s in out if s != m.span()), name})
        elif not _overlaps(name, out):
            out = sorted({*out, name})
    return out


def gene_ids(grounder: Grounder, name: str, *, whole: bool = False,
             families: bool = True) -> tuple[str, ...]:
    """The ids ``name`` grounds to out of context (human lexicon) when its best is a gene's
    (or, with ``families``, a FamPlex entry's), else ``()``; with ``whole``, only when all
    of ``name`` grounds through :data:`_WHOLE_ROUTES` (not a part, not two genes)."""
    from relx.genes.document import resolve

    found = resolve(name, grounder=grounder)
    kinds = NAME_NAMESPACES if families else GENE_NAMESPACES
    if not found.ids or namespace_of(found.ids[0]) not in kinds or (
            whole and (found.span is not None or found.route not in _WHOLE_ROUTES)):
        return ()
    return found.ids
