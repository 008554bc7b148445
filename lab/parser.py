"""The recipes of relx's parse pipeline (``models/relx_bio_sm``): the parser's training
corpus from the treebanks (:func:`relx.parse.treebanks.build_corpus`; ``make
parser-corpus``, ``make parser-corpus-g8``) and the shipped pipeline assembled from the
trained parser and NER (:func:`lab.assemble_pipeline.assemble`; ``make pipeline``).

    python -m lab.parser corpus --shared ../shared --out runs/parser/corpus
    python -m lab.parser assemble --parser runs/parser/finetune/model-best \\
        --ner runs/ner/model/model-best --out models/relx_bio_sm [--version X --ner-source S]

(``--parser`` may be an assembled pipeline, ``models/relx_bio_sm``: its parser side is kept.)

(The NER corpus is ``relx ner build``, scores are ``relx parser evaluate`` and ``relx ner
evaluate``.)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m lab.parser", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("corpus", help="treebanks -> spaCy DocBin training corpus")
    c.add_argument("--shared", default="../shared", help="shared data folder (has treebanks/)")
    c.add_argument("--out", default="runs/parser/corpus", help="output folder")
    c.add_argument("--per-doc", type=int, default=10, help="sentences per training doc")
    c.add_argument("--genia-repeat", type=int, default=3)
    c.add_argument("--hyphen-merge", type=float, default=0.8)
    c.add_argument("--seed", type=int, default=0)
    a = sub.add_parser("assemble", help="the shipped pipeline from the trained parts")
    a.add_argument("--parser", type=Path, required=True)
    a.add_argument("--ner", type=Path)
    a.add_argument("--out", type=Path, required=True)
    a.add_argument("--performance", type=Path, help="JSON of measured scores to record")
    a.add_argument("--record-ner", type=Path, metavar="GE_DEVEL",
                   help="score the NER on this BioNLP-ST folder (.txt + .a1) and record it in "
                        "meta.json as relx_ge2011_devel_ner")
    a.add_argument("--version", default=None,
                   help="pipeline version (default lab.assemble_pipeline.PIPELINE_VERSION)")
    a.add_argument("--ner-source", action="append", dest="ner_sources",
                   help="the NER's training data, for the meta (repeatable)")
    args = ap.parse_args(argv)
    if args.cmd == "corpus":
        from relx.parse.treebanks import build_corpus

        stats = build_corpus(args.shared, args.out, per_doc=args.per_doc,
                             genia_repeat=args.genia_repeat, hyphen_merge=args.hyphen_merge,
                             seed=args.seed)
        print(json.dumps({k: v for k, v in stats.items() if k != "train_labels"}, indent=1))
    else:
        from lab.assemble_pipeline import PIPELINE_VERSION, assemble

        perf = json.loads(args.performance.read_text()) if args.performance else None
        nlp = assemble(args.parser, args.ner, args.out, performance=perf,
                       version=args.version or PIPELINE_VERSION, ner_sources=args.ner_sources)
        print(f"saved {args.out}: {nlp.pipe_names}")
        if args.record_ner:
            record_ner(args.out, args.record_ner)


def record_ner(pipeline: Path, standoff: Path) -> dict:
    """Score the assembled ``pipeline``'s NER on ``standoff`` and write the figures into
    its meta.json (``relx_ge2011_devel_ner``, as ``relx ner evaluate --json`` gives them)."""
    from relx.parse.ner import evaluate_ner
    from relx.parse.pipeline import load_nlp

    scores = evaluate_ner(load_nlp(pipeline), standoff)
    keep = {k: round(scores[k], 4) for k in ("precision", "recall", "f1", "f1_overlap")}
    keep["command"] = f"relx ner evaluate --standoff {standoff} --json"
    meta_path = pipeline / "meta.json"
    meta = json.loads(meta_path.read_text("utf-8"))
    meta["relx_ge2011_devel_ner"] = keep
    meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"GE NER on {standoff}: {keep}")
    return keep


if __name__ == "__main__":
    main()
