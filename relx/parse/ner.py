"""Protein/gene mention tagging (one label, ``PROTEIN``) for relx's spaCy pipeline.

Training data (:func:`build_ner_corpus`): the ``Protein`` lines of the ``.a1`` files of
BioNLP-ST GE 2011 train and GE 2009 train (the 2009 abstracts are also in 2011 train; one copy
is kept, by document id) and the entities of the PPI corpora AIMed, BioInfer and IEPA.
GE 2011 full-text (PMC) documents are repeated (``full_text_repeat``, default 3): their
annotation is more inclusive than the abstracts' and they hold half of the dev mentions.
Development data: GE 2011 devel, never trained on. GE documents are cut at newlines
(title / paragraphs). Per text, overlapping mentions keep the longest (then the earliest) and
discontinuous mentions are skipped.

Tokenizer (:func:`make_tokenizer`): scispacy's ``combined_rule_tokenizer``, by default with
relx's *protein splits* -- a few infix/suffix rules (``anti-CD3/CD28`` -> ``anti - CD3 / CD28``,
``CD4+CD25-``, ``Runx3-/-``, ``IL-2-induced``) and whole ``A3G``-like tokens. With scispacy
alone 23% of the GE 2011 devel mentions end inside a token (an exact-match ceiling of 0.77
recall); with the splits 6%. A mention whose ends still fall inside a token is *misaligned*;
``misaligned`` decides what the training doc says about its tokens (``"missing"``: no
annotation, no gradient there -- default; ``"expand"``: the covering tokens become the
mention; ``"skip"``: the tokens are outside any mention).

    relx ner build --shared ../shared --out runs/ner/corpus   (make ner-corpus)
    python -m spacy train configs/ner.cfg --code relx/parse/ner.py ...   (see the config)
    relx ner evaluate --standoff ../shared/corpora/bionlp-st-ge/2011/devel \\
        --model runs/ner/model/model-best --json

``build --genes ../shared/corpora/genes`` adds the JSONL gene corpora (BC2GM, JNLPBA, CG,
CRAFT) with corpus weights (:mod:`relx.parse.ner_corpora`, ``configs/ner-genes.cfg``,
``docs/genes.md``).

:func:`evaluate_ner` scores any spaCy pipeline's ``doc.ents`` against ``.a1`` proteins;
:func:`propagate_mentions` (component ``relx_protein_propagation``) optionally tags the other
occurrences of a tagged name in the same document. spaCy and scispacy are imported lazily
(this module is imported by the ``relx`` command); ``spacy train --code relx/parse/ner.py``
imports it after spaCy, which registers the tokenizer callback ``relx.scispacy_tokenizer.v1``
used by ``configs/ner.cfg``. A trained model loads with plain ``spacy.load`` (its tokenizer
rules are saved with it).
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from relx.doc import StandoffDocument
from relx.errors import ConfigError
from relx.io.ppi_xml import read_ppi_xml
from relx.io.standoff import read_standoff_dir
from relx.parse.paper_mentions import mention_span

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

LABEL = "PROTEIN"
PPI_CORPORA = ("AImed", "BioInfer", "IEPA")
MISALIGNED_MODES = ("missing", "expand", "skip")
TOKENIZER_CALLBACK = "relx.scispacy_tokenizer.v1"
PROPAGATION = "relx_protein_propagation"

#: (start, end) character span, end exclusive
from relx.parse.spans import CharSpan, select_spans  # noqa: E402,F401 (re-export)

# -- tokenizer ---------------------------------------------------------------------------------

_GREEK = ("alpha|beta|gamma|delta|epsilon|kappa|lambda|sigma|theta|zeta|omega|iota|eta|mu|nu|"
          "xi|pi|rho|tau|phi|chi|psi")
#: Extra infixes of the protein-boundary tokenizer: mentions inside scispacy tokens.
PROTEIN_INFIXES = [
    r"/",                                                # p50/p65, anti-CD3/CD28, Smad1/5/8
    r"(?<=[A-Za-z0-9])\+(?=[A-Za-z0-9])",                # CD4+CD25
    r"(?<=[A-Za-z0-9])[-+](?=/)", r"(?<=/)[-+]",         # Runx3-/-, +/+
    # hyphen before a lowercase word (not a Greek letter): Fas-mediated, IL-10-producing;
    # not after a single letter (c-myc)
    rf"(?<=[A-Za-z0-9]{{2}}|-[A-Za-z0-9])-(?!(?:{_GREEK})\b)(?=[a-z]{{3,}}\b)",
    r"(?<=^anti)-", r"(?<=^Anti)-",                      # anti-CD28
    r"(?<=[A-Za-z0-9])\((?=[+-])",                       # CD4(+)
]
#: Extra suffixes of the protein-boundary tokenizer: CD4+, CD25-.
PROTEIN_SUFFIXES = [r"(?<=[A-Za-z0-9])\+", r"(?<=[A-Za-z0-9])-"]
#: Whole tokens the protein-boundary tokenizer keeps: letters, digits, one letter (A3G,
#: APOBEC3G), which scispacy's unit suffixes would cut (``A3 G`` as in ``3 G`` = giga).
PROTEIN_TOKEN_MATCH = r"^[A-Za-z]+[0-9]+[A-Za-z]$"


def make_tokenizer(nlp: Language, protein_splits: bool = True):
    """The runtime tokenizer: scispacy's ``combined_rule_tokenizer`` for ``nlp``'s vocab.

    ``protein_splits`` (default; the trained NER expects it) adds :data:`PROTEIN_INFIXES` / :data:`PROTEIN_SUFFIXES`, which split
    tokens where GE / PPI protein mentions end inside a scispacy token (``anti-CD3/CD28``
    -> ``anti - CD3 / CD28``, ``CD4+CD25-``, ``Runx3-/-``, ``IL-2-induced``), and keeps
    :data:`PROTEIN_TOKEN_MATCH` tokens whole.
    """
    from scispacy.custom_tokenizer import combined_rule_tokenizer
    from spacy.util import compile_infix_regex, compile_suffix_regex

    tok = combined_rule_tokenizer(nlp)
    if protein_splits:
        infix = tok.infix_finditer.__self__.pattern
        suffix = tok.suffix_search.__self__.pattern
        tok.infix_finditer = compile_infix_regex([infix, *PROTEIN_INFIXES]).finditer
        tok.suffix_search = compile_suffix_regex([*PROTEIN_SUFFIXES, suffix]).search
        tok.token_match = re.compile(PROTEIN_TOKEN_MATCH).match
    return tok


def blank_nlp(protein_splits: bool = True) -> Language:
    """A blank English pipeline with the runtime tokenizer (see :func:`make_tokenizer`)."""
    import spacy

    nlp = spacy.blank("en")
    nlp.tokenizer = make_tokenizer(nlp, protein_splits)
    return nlp


def propagate_mentions(doc: Doc, label: str = LABEL) -> Doc:
    """Tag every other occurrence of a mention's token sequence in ``doc`` as ``label``.

    One-document consistency: a name tagged once (``A3G``) is tagged wherever it recurs.
    Overlaps keep the longest span (then the earlier); entities of other labels are kept.
    """
    from spacy.tokens import Span
    from spacy.util import filter_spans

    by_first: dict[str, set[tuple[str, ...]]] = {}
    for e in doc.ents:
        if e.label_ == label:
            by_first.setdefault(e[0].text, set()).add(tuple(t.text for t in e))
    if not by_first:
        return doc
    words = [t.text for t in doc]
    spans = list(doc.ents)
    for i, w in enumerate(words):
        for name in by_first.get(w, ()):
            if tuple(words[i:i + len(name)]) == name:
                spans.append(Span(doc, i, i + len(name), label=label))
    doc.set_ents(filter_spans(spans), default="unmodified")
    return doc


def register() -> None:
    """Register the ``relx.scispacy_tokenizer.v1`` callback (``[initialize.before_init]``;
    argument ``protein_splits``, default true) and the ``relx_protein_propagation``
    component (:func:`propagate_mentions`; add it after ``ner``)."""
    import spacy
    from spacy.language import Language

    if TOKENIZER_CALLBACK in spacy.registry.callbacks:
        return

    Language.component(PROPAGATION, func=propagate_mentions)

    @spacy.registry.callbacks(TOKENIZER_CALLBACK)
    def _tokenizer_callback(protein_splits: bool = True) -> Callable[[Language], Language]:
        def replace(nlp: Language) -> Language:
            nlp.tokenizer = make_tokenizer(nlp, protein_splits)
            return nlp
        return replace


if "spacy" in sys.modules:   # imported by `spacy train --code relx/parse/ner.py`
    register()


# -- training corpus ---------------------------------------------------------------------------



def annotate(nlp: Language, text: str, spans: Iterable[CharSpan], stats: Counter,
             misaligned: str = "missing", missing: Iterable[CharSpan] = ()) -> Doc:
    """Tokenise ``text`` and mark ``spans`` (already non-overlapping) as ``PROTEIN``.

    Counts ``entities``, ``aligned`` and ``misaligned`` (and ``misaligned_collisions``:
    expanded spans that overlap an earlier mention) in ``stats``. ``missing``: character
    spans whose covering tokens get no annotation (no gradient), unless they overlap a
    mention's tokens (counted as ``missing_collisions``); ``missing_spans`` counts the rest.
    """
    if misaligned not in MISALIGNED_MODES:
        raise ConfigError(f"misaligned must be one of {MISALIGNED_MODES}, got {misaligned!r}")
    doc = nlp.make_doc(text)
    ents, loose = [], []
    for s, e in spans:
        stats["entities"] += 1
        span = doc.char_span(s, e, label=LABEL)
        if span is not None and len(span):
            stats["aligned"] += 1
            ents.append(span)
            continue
        stats["misaligned"] += 1
        wide = doc.char_span(s, e, label=LABEL, alignment_mode="expand")
        if wide is not None and len(wide):
            loose.append(wide)
    taken = {i for sp in ents for i in range(sp.start, sp.end)}
    holes = []
    for sp in loose:
        if any(i in taken for i in range(sp.start, sp.end)):
            stats["misaligned_collisions"] += 1
            continue
        if misaligned == "expand":
            ents.append(sp)
            taken.update(range(sp.start, sp.end))
        elif misaligned == "missing":
            holes.append(sp)
    for s, e in missing:
        sp = doc.char_span(s, e, alignment_mode="expand")
        if sp is None or not len(sp):
            continue
        if any(i in taken for i in range(sp.start, sp.end)):
            stats["missing_collisions"] += 1
            continue
        stats["missing_spans"] += 1
        holes.append(sp)
    holes.sort(key=lambda sp: sp.start)
    merged = []   # missing spans may overlap each other (p50/p65 -> one token twice)
    for sp in holes:
        if merged and sp.start < merged[-1].end:
            merged[-1] = doc[merged[-1].start:max(sp.end, merged[-1].end)]
        else:
            merged.append(sp)
    doc.set_ents(sorted(ents, key=lambda sp: sp.start), missing=merged, default="outside")
    return doc


def _pieces(text: str, spans: list[CharSpan], stats: Counter,
            ) -> Iterator[tuple[str, list[CharSpan]]]:
    """Cut ``text`` at newlines; yield each non-empty piece with its spans (piece offsets)."""
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        if line.strip():
            inside = [(s - start, e - start) for s, e in spans if start <= s and e <= end]
            yield line, inside
        start = end + 1
    crossing = sum(1 for s, e in spans if "\n" in text[s:e])
    stats["crossing_newline"] += crossing


def _ge_key(doc_id: str) -> str:
    return doc_id.removeprefix("PMID-")


def _mention_spans(mentions: Iterable[Any], stats: Counter) -> list[CharSpan]:
    """Continuous, non-overlapping ``(start, end)`` of annotations with ``spans``; counts
    mentions, skipped discontinuous ones and dropped overlaps in ``stats``."""
    spans = []
    for m in mentions:
        stats["mentions"] += 1
        if len(m.spans) > 1:
            stats["discontinuous"] += 1
            continue
        spans.append((m.start, m.end))
    kept, dropped = select_spans(spans)
    stats["overlap_dropped"] += dropped
    return kept


def _standoff_spans(doc: StandoffDocument, stats: Counter) -> list[CharSpan]:
    return _mention_spans((p for p in doc.proteins if p.type == "Protein"), stats)


def ge_texts(dirs: Iterable[Path], stats: Counter, exclude: Iterable[str] = (),
             full_text_repeat: int = 1) -> Iterator[tuple[str, list[CharSpan]]]:
    """Pieces of the GE documents in ``dirs``: first copy of each document id only.

    Pieces of full-text documents (ids ``PMC-...``; GE 2011 annotates them more inclusively
    than the 2009 abstracts, e.g. ``CD3``, ``luciferase``) are yielded ``full_text_repeat``
    times. Raises when a document id is in ``exclude`` (the development set).
    """
    excluded = {_ge_key(i) for i in exclude}
    seen: set[str] = set()
    for d in dirs:
        for doc in read_standoff_dir(d):
            key = _ge_key(doc.id)
            if key in excluded:
                raise ConfigError(f"{d}/{doc.id} is a development document or a held-out one")
            if key in seen:
                stats["duplicate_documents"] += 1
                continue
            seen.add(key)
            stats["documents"] += 1
            pieces = list(_pieces(doc.text, _standoff_spans(doc, stats), stats))
            if doc.id.startswith("PMC"):
                stats["full_text_documents"] += 1
                pieces = pieces * full_text_repeat
            yield from pieces


def ppi_texts(paths: Iterable[Path], stats: Counter) -> Iterator[tuple[str, list[CharSpan]]]:
    """One text per PPI-corpus document with its entity spans (all entity types)."""
    for path in paths:
        for doc in read_ppi_xml(path):
            stats["documents"] += 1
            ents = (e for sent in doc.sentences for e in sent.entities)
            yield doc.text, _mention_spans(ents, stats)


def _docbin(nlp: Language, texts: Iterable[tuple], stats: Counter, misaligned: str):
    """A DocBin of ``(text, spans)`` or ``(text, spans, missing)`` pieces (see
    :func:`annotate`)."""
    from spacy.tokens import DocBin

    db = DocBin(store_user_data=False)
    for piece in texts:
        db.add(_annotated(nlp, piece, stats, misaligned))
    return db


def _annotated(nlp: Language, piece: tuple, stats: Counter, misaligned: str) -> Doc:
    """:func:`annotate` a ``(text, spans[, missing])`` piece; counts ``docs``, ``tokens``."""
    doc = annotate(nlp, *piece[:2], stats, misaligned, *piece[2:])
    stats["docs"] += 1
    stats["tokens"] += len(doc)
    return doc


def build_ner_corpus(shared: Path, out: Path, *, misaligned: str = "missing",
                     protein_splits: bool = True, full_text_repeat: int = 3,
                     genes: Path | None = None, weights: dict[str, float] | None = None,
                     famplex: bool = True, ge_repeat: int = 1,
                     biored: Path | None = None, biored_weight: float = 4.0) -> dict:
    """Write ``train.spacy`` (GE 2011+2009 train, AIMed, BioInfer, IEPA) and ``dev.spacy``
    (GE 2011 devel) to ``out``, with ``stats.json``; return the statistics.

    Per source (``ge_train``, ``AImed``, ``BioInfer``, ``IEPA``, ``ge_dev``): ``documents``,
    ``mentions`` read, ``discontinuous`` and ``overlap_dropped`` (skipped), then of the
    ``entities`` left ``aligned`` / ``misaligned`` to token boundaries, and the spaCy
    ``docs`` and ``tokens`` written. ``protein_splits``: tokenise with the protein-boundary
    tokenizer (:func:`make_tokenizer`); the model must then be trained and run with it.
    ``full_text_repeat``: how often the GE full-text (PMC) training pieces are repeated;
    ``ge_repeat``: how often every GE training piece is (on top of ``full_text_repeat``).

    ``genes``: the JSONL gene corpora folder (``../shared/corpora/genes``); adds their
    training splits with corpus ``weights`` and their dev splits to ``dev.spacy``, removes
    overlapping documents and, with ``famplex``, marks FamPlex family/complex names in the
    GE and PPI documents as missing annotation (:mod:`relx.parse.ner_corpora`,
    ``docs/genes.md``).

    ``biored``: BioRED's ``Train.PubTator.gz``; adds its fit split's training part
    (``biored_weight`` times) to ``train.spacy`` and its held-out part to ``dev.spacy``
    (``GeneOrGeneProduct`` -> ``PROTEIN``; the development split is never read; ``docs/genes.md``,
    NER round 3). BioRED's kept PMIDs (its Dev/Test) are removed from every corpus.
    """
    shared, out = Path(shared), Path(out)
    ge = shared / "corpora" / "bionlp-st-ge"
    ppi = shared / "corpora" / "ppi"
    dev_dir = ge / "2011" / "devel"
    dev_ids = [p.stem for p in dev_dir.glob("*.txt")]
    if not dev_ids:
        raise FileNotFoundError(f"no GE 2011 devel documents in {dev_dir}")
    out.mkdir(parents=True, exist_ok=True)
    nlp = blank_nlp(protein_splits)
    stats: dict[str, Any] = {"misaligned_mode": misaligned, "protein_splits": protein_splits,
                             "full_text_repeat": full_text_repeat, "ge_repeat": ge_repeat,
                             "label": LABEL}
    counters: dict[str, Counter] = {}
    pattern = None
    from relx.parse import ner_corpora as nc

    excluded: dict[str, set[str]] = {"external": set(), "kept": nc.kept_pmids(shared)}
    if genes is not None:
        excluded = nc.excluded_pmids(shared, Path(genes))
        if famplex:
            pattern = nc.famplex_pattern(shared / "lexicons" / "famplex")
        stats.update(genes=str(genes), famplex=famplex,
                     weights={**nc.DEFAULT_WEIGHTS, **(weights or {})})

    def fam(texts, c):
        if pattern is None:
            return texts
        return nc.with_famplex(texts, pattern, c)

    c = counters.setdefault("ge_train", Counter())
    ge_pieces = list(ge_texts([ge / "2011" / "train", ge / "2009" / "train"], c,
                              [*dev_ids, *excluded["external"], *excluded["kept"]],
                              full_text_repeat))
    train = _docbin(nlp, fam(ge_pieces * ge_repeat, c), c, misaligned)
    for name in PPI_CORPORA:
        path = ppi / f"{name}-learning-format.xml.gz"
        if excluded["kept"] & nc._ppi_pmids(path):
            raise ConfigError(f"{path} holds BioRED Dev/Test documents (kept-pmids.txt)")
        c = counters.setdefault(name, Counter())
        db = _docbin(nlp, fam(ppi_texts([path], c), c), c, misaligned)
        train.merge(db)
    c = counters.setdefault("ge_dev", Counter())
    dev = _docbin(nlp, ge_texts([dev_dir], c), c, misaligned)
    if genes is not None:
        for name, piece in nc.gene_training_pieces(Path(genes), excluded, weights or {},
                                                   counters):
            train.add(_annotated(nlp, piece, counters[name], misaligned))
        for name, piece in nc.gene_dev_pieces(Path(genes), excluded, counters):
            dev.add(_annotated(nlp, piece, counters[name], misaligned))
    if biored is not None:
        stats.update(biored=str(biored), biored_weight=biored_weight)
        c = counters.setdefault("biored", Counter())
        for piece in nc.biored_pieces(Path(biored), "fit-train", excluded["kept"],
                                      biored_weight, c):
            train.add(_annotated(nlp, piece, c, misaligned))
        c = counters.setdefault("biored_dev", Counter())
        for piece in nc.biored_pieces(Path(biored), "fit-held", excluded["kept"], 1, c):
            dev.add(_annotated(nlp, piece, c, misaligned))
    train.to_disk(out / "train.spacy")
    dev.to_disk(out / "dev.spacy")
    total: Counter = Counter()
    for name, c in counters.items():
        for key in ("mentions", "discontinuous", "overlap_dropped", "entities", "aligned",
                    "misaligned"):
            c[key] += 0   # report zeros too
        stats[name] = dict(sorted(c.items()))
        if name != "ge_dev" and not name.endswith("_dev"):
            total.update(c)
    stats["train_total"] = dict(sorted(total.items()))
    stats["train_docs"], stats["dev_docs"] = len(train), len(dev)
    (out / "stats.json").write_text(json.dumps(stats, indent=1))
    return stats


# -- evaluation --------------------------------------------------------------------------------

def gold_spans(doc: StandoffDocument) -> set[CharSpan]:
    """Distinct ``(start, end)`` of a document's ``Protein`` text-bounds (envelope if split)."""
    return {(p.start, p.end) for p in doc.proteins if p.type == "Protein"}


def _prf(tp_p: int, n_pred: int, tp_g: int, n_gold: int) -> tuple[float, float, float]:
    p = tp_p / n_pred if n_pred else 0.0
    r = tp_g / n_gold if n_gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def score_spans(gold: list[set[CharSpan]], pred: list[set[CharSpan]]) -> dict:
    """Exact and overlap P/R/F1 of predicted against gold spans, document by document.

    Exact: a span is correct when gold and predicted have the same start and end.
    Overlap: precision is the fraction of predicted spans that overlap at least one gold span
    of their document, recall the fraction of gold spans overlapped by at least one
    predicted span; ``f1_overlap`` is their harmonic mean.
    """
    n_gold = sum(len(g) for g in gold)
    n_pred = sum(len(p) for p in pred)
    exact = sum(len(g & p) for g, p in zip(gold, pred, strict=True))
    pred_hit = gold_hit = 0
    for g, p in zip(gold, pred, strict=True):
        pred_hit += sum(any(s < ge and gs < e for gs, ge in g) for s, e in p)
        gold_hit += sum(any(s < pe and ps < e for ps, pe in p) for s, e in g)
    precision, recall, f1 = _prf(exact, n_pred, exact, n_gold)
    po, ro, fo = _prf(pred_hit, n_pred, gold_hit, n_gold)
    return {"precision": precision, "recall": recall, "f1": f1,
            "precision_overlap": po, "recall_overlap": ro, "f1_overlap": fo,
            "gold": n_gold, "predicted": n_pred, "correct": exact}


def evaluate_ner(nlp: Language, standoff_dir: Path, *, label: str | None = LABEL,
                 batch_size: int = 16) -> dict:
    """Score ``nlp``'s entities against the ``Protein`` lines of the ``.a1`` files of a
    BioNLP-ST directory.

    Each ``.txt`` goes whole through ``nlp``; the predicted spans are the character spans of
    ``doc.ents`` with label ``label`` (every entity when ``None``). Gold spans are the
    distinct Protein spans of the ``.a1`` file. Returns the figures of :func:`score_spans`
    (``precision``, ``recall``, ``f1`` for exact span match; ``precision_overlap``,
    ``recall_overlap``, ``f1_overlap`` for overlap) plus ``documents``,
    ``gold_token_aligned`` (gold spans whose ends fall on token boundaries of ``nlp``'s
    tokenizer: the ceiling of exact recall) and ``seconds``.
    """
    docs = read_standoff_dir(standoff_dir)
    gold = [gold_spans(d) for d in docs]
    t0 = time.perf_counter()
    pred: list[set[CharSpan]] = []
    aligned = 0
    for g, doc in zip(gold, nlp.pipe((d.text for d in docs), batch_size=batch_size),
                      strict=True):
        pred.append({mention_span(e) for e in doc.ents if label is None or e.label_ == label})
        starts = {t.idx for t in doc}
        ends = {t.idx + len(t) for t in doc}
        aligned += sum(s in starts and e in ends for s, e in g)
    scores = score_spans(gold, pred)
    scores.update(documents=len(docs), gold_token_aligned=aligned,
                  seconds=round(time.perf_counter() - t0, 2))
    return scores


def load_model(path: Path) -> Language:
    """Load a trained NER pipeline (registers relx's spaCy callbacks first)."""
    import spacy

    register()
    return spacy.load(path)


# -- command line ------------------------------------------------------------------------------

ner_app = typer.Typer(name="ner", help="Protein/gene NER: training corpus and evaluation.",
                      no_args_is_help=True, add_completion=False)


@ner_app.command("build")
def build_cmd(
    shared: Annotated[Path, typer.Option(help="shared data folder (has corpora/)")] = Path("../shared"),
    out: Annotated[Path, typer.Option(help="output folder")] = Path("runs/ner/corpus"),
    misaligned: Annotated[str, typer.Option(
        help="misaligned mentions: missing | expand | skip")] = "missing",
    protein_splits: Annotated[bool, typer.Option(
        help="tokenise with the protein-boundary tokenizer")] = True,
    full_text_repeat: Annotated[int, typer.Option(
        help="repeat GE full-text (PMC) training pieces this often")] = 3,
    genes: Annotated[Path | None, typer.Option(
        help="JSONL gene corpora folder (../shared/corpora/genes): add them (docs/genes.md)"
    )] = None,
    weights: Annotated[str | None, typer.Option(
        help="gene corpus weights, e.g. bc2gm=0.5,craft=0.3 (0 leaves one out)")] = None,
    famplex: Annotated[bool, typer.Option(
        help="with --genes: FamPlex family/complex names in GE/PPI documents are missing "
             "annotation")] = True,
    ge_repeat: Annotated[int, typer.Option(
        help="repeat every GE training piece this often")] = 1,
    biored: Annotated[Path | None, typer.Option(
        help="BioRED Train.PubTator.gz: train on its fit split's training part, hold out "
             "its fit-held part as dev (docs/genes.md, NER round 3)")] = None,
    biored_weight: Annotated[float, typer.Option(
        help="with --biored: repeats of its training part")] = 4.0,
) -> None:
    """Write the spaCy NER training/dev corpora (train.spacy, dev.spacy, stats.json)."""
    from relx.parse.ner_corpora import parse_weights

    stats = build_ner_corpus(shared, out, misaligned=misaligned, protein_splits=protein_splits,
                             full_text_repeat=full_text_repeat, genes=genes,
                             weights=parse_weights(weights), famplex=famplex,
                             ge_repeat=ge_repeat, biored=biored,
                             biored_weight=biored_weight)
    typer.echo(json.dumps(stats, indent=1))


@ner_app.command("evaluate")
def evaluate_cmd(
    standoff: Annotated[Path, typer.Option(help="BioNLP-ST directory (.txt + .a1)")],
    model: Annotated[Path | None, typer.Option(
        help="trained spaCy pipeline (default: the shipped models/relx_bio_sm)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    propagate: Annotated[bool, typer.Option(
        help="add relx_protein_propagation after the pipeline")] = False,
) -> None:
    """Score a trained pipeline's PROTEIN mentions against the .a1 Protein annotations."""
    if model is None:
        from relx.model_store import models_dir
        from relx.parse.pipeline import DEFAULT_PIPELINE, load_nlp

        model = models_dir() / DEFAULT_PIPELINE
        nlp = load_nlp(model)
    else:
        nlp = load_model(model)
    if propagate and PROPAGATION not in nlp.pipe_names:
        nlp.add_pipe(PROPAGATION)
    scores = evaluate_ner(nlp, standoff)
    scores.update(model=str(model), pipeline=nlp.pipe_names)
    if as_json:
        typer.echo(json.dumps(scores, indent=1))
        return
    typer.echo(f"{standoff}: {scores['documents']} documents, {scores['gold']} gold, "
               f"{scores['predicted']} predicted")
    typer.echo(f"exact    P {scores['precision']:.4f}  R {scores['recall']:.4f}  "
               f"F1 {scores['f1']:.4f}")
    typer.echo(f"overlap  P {scores['precision_overlap']:.4f}  "
               f"R {scores['recall_overlap']:.4f}  F1 {scores['f1_overlap']:.4f}")



if __name__ == "__main__":   # python -m relx.parse.ner build ... (the Makefile)
    ner_app()
