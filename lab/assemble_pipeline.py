"""Assemble the shipped runtime pipeline from the trained parser and NER.

    python -m lab.parser assemble --parser runs/parser/model/model-best \\
        --ner runs/ner/model/model-best --out models/relx_bio_sm   (make pipeline)

``--parser`` may also be an assembled pipeline (``models/relx_bio_sm``): its parser side is
kept and its sentencizer, NER and abbreviation detector are replaced.

The result: scispacy's ``combined_rule_tokenizer`` (with relx's protein-boundary splits,
see :func:`relx.parse.ner.make_tokenizer`) and ``pysbd_sentencizer``, the trained
tok2vec/tagger/attribute_ruler/lemmatizer/parser, the NER (with its own tok2vec) and
scispacy's ``abbreviation_detector``, saved with a versioned ``meta.json`` and compacted
(:mod:`relx.parse.compact_pipeline`: the same parses from fewer bytes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from relx import __version__
from relx.parse.compact_pipeline import compact_pipeline
from relx.parse.pipeline import DEFAULT_PIPELINE, _register_scispacy

PIPELINE_VERSION = "0.5.0"  # 0.3.0: parser fine-tuned with GENIA weighted 8x (configs/parser-finetune.cfg)
# 0.3.1: NER tok2vec width 64 (configs/ner.cfg), same F1, 30% faster; parser unchanged
# 0.3.2: 0.3.1 saved compact (relx.parse.compact_pipeline: packed weights, no strings.json
#        entries, alphabetic lemma index), 25.0 -> 20.4 MB; byte-identical parses
# 0.4.0: NER retrained for today's literature (docs/genes.md, variant g3; make
#        train-ner-genes), parser side unchanged: the same parses as 0.3.2
# 0.4.1: 0.4.0's NER with an entity-start bias of 0.5 chosen on dev (docs/genes.md, round
#        2b; python -m lab.genes.ner_bias write), parser side unchanged
# 0.5.0: 0.4.1's NER trained 2000 more steps with BioRED train's fit split added (docs/genes.md,
#        NER round 3b; make train-ner-genes-r3), the same start bias; parser side unchanged
SAME_PARSES_AS = ["0.4.1", "0.4.0", "0.3.2", "0.3.1"]  # versions that parse exactly as this one (relx.parse.views)
SPACY_VERSIONS = ">=3.7.5,<3.9.0"


NER_SOURCES = ["BioNLP-ST GE 2009/2011 train .a1 (x2)", "AIMed, BioInfer, IEPA entities",
               "BC2GM train GENE", "JNLPBA protein",
               "BioNLP-ST 2013 CG train Gene_or_gene_product (x4)", "CRAFT v5 train PR (x0.3)",
               "BioRED train fit split GeneOrGeneProduct (240 abstracts, x4; fine-tuned from "
               "0.4.1's NER)"]
#: what --parser may already hold (a shipped pipeline): replaced, not duplicated
REPLACED = ("pysbd_sentencizer", "relx_sentencizer", "ner", "abbreviation_detector")


def assemble(parser: Path, ner: Path | None, out: Path, *, performance: dict | None = None,
             version: str = PIPELINE_VERSION, ner_sources: list[str] | None = None) -> Any:
    """Build the runtime pipeline and save it to ``out``; returns the ``nlp``.

    ``parser``: a trained parser pipeline, or an assembled one (``models/relx_bio_sm``), whose
    sentencizer, NER and abbreviation detector are then replaced. ``version``: the
    pipeline's version; another than :data:`PIPELINE_VERSION` lists no ``same_parses_as``
    (a new NER gives other documents). ``ner_sources``: the NER's training data, for the
    meta (default :data:`NER_SOURCES`).
    """
    import spacy

    from relx.parse.ner import make_tokenizer

    _register_scispacy()
    nlp = spacy.load(parser, exclude=list(REPLACED))
    # scispacy's combined_rule_tokenizer + relx's protein-boundary splits (as the NER's)
    nlp.tokenizer = make_tokenizer(nlp, protein_splits=True)
    nlp.add_pipe("pysbd_sentencizer", first=True)
    start_bias = None
    if ner is not None:
        from relx.parse.ner import register

        register()  # the NER config names relx's tokenizer callback
        source = spacy.load(ner)
        nlp.add_pipe("ner", source=source, last=True)
        start_bias = source.meta.get("ner_start_bias")   # lab/genes/ner_bias.py write
    nlp.add_pipe("abbreviation_detector", config={"make_serializable": True}, last=True)
    ner_sources = list(ner_sources or NER_SOURCES)
    nlp.meta.update({
        "name": DEFAULT_PIPELINE,
        "version": version,
        "same_parses_as": SAME_PARSES_AS if version == PIPELINE_VERSION else [],
        "description": "relx biomedical pipeline: scispacy tokenizer + pysbd sentences, "
                       "CNN tagger and dependency parser (CRAFT + GENIA, CRAFT/ClearNLP "
                       "labels), rule lemmatizer, protein NER (own CNN tok2vec; "
                       f"{'; '.join(ner_sources)}), abbreviation detector",
        "author": "relx",
        "license": "CC BY 3.0 (CRAFT), GENIA license (see ../shared/treebanks)",
        "requirements": ["scispacy>=0.5.5"],
        # trained with 3.8; the same weights give identical parses under 3.7.5, the version
        # relx installs (its wheels parse ~3x faster, see docs/methods.md)
        "spacy_version": SPACY_VERSIONS,
        "relx_version": __version__,
        "sources": [{"name": "CRAFT treebank"}, {"name": "GENIA treebank (train part)"},
                    *({"name": n} for n in ner_sources)],
        "trained_from": {"parser": str(parser), "ner": str(ner) if ner else None},
    })
    if start_bias is not None:
        nlp.meta["ner_start_bias"] = start_bias
    if performance:
        nlp.meta["performance"] = performance
    out.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(out)
    compact_pipeline(out)
    return nlp
