"""Re-save a shipped relation model in the current model format, and check it scores as before.

The same fitted model, stored smaller (model format 4: narrowed forest arrays, equal arrays
once, LZMA where it pays, no training-only state; ``relx/ppi/model.py``):

    python dev/repack_models.py repack models/ppi-default runs/repack/ppi-default \\
        --version 0.18.1
    python dev/repack_models.py pairs ../shared/corpora/bionlp-st-ge/2011/devel \\
        runs/repack/ge-devel-pairs.jsonl
    python dev/repack_models.py compare models/ppi-default runs/repack/ppi-default \\
        runs/repack/ge-devel-pairs.jsonl

``pairs`` parses and grounds a GE directory as ``relx extract`` does (the ``.a1`` proteins,
every candidate pair of each sentence) and writes the documents; ``compare`` scores those
pairs with both models (new-text and in-domain scores, full float64) and fails unless they
are bitwise equal, as are both thresholds. Then copy the directory over the shipped one.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from relx.io.jsonl import read_jsonl, write_jsonl
from relx.ppi.model import FORMAT_VERSION, load_model
from relx.represent.instances import PairInstance


def repack(src: Path, out: Path, version: str) -> None:
    """Load ``src`` and save it to ``out`` as ``version`` (same fitted model)."""
    model = load_model(src)
    old = model.version
    model.meta = {**model.meta, "version": version,
                  "repacked": f"{old} re-saved in model format {FORMAT_VERSION}: the same "
                              "fitted model, identical scores"}
    model.save(out)
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"{src} ({old}) -> {out} ({version}): {size / 1e6:.1f} MB")


def pairs(directory: Path, out: Path) -> None:
    """Parse and ground a GE directory (its ``.a1`` proteins) with every candidate pair."""
    from relx.io.standoff import read_standoff_dir
    from relx.ppi.extract import Extractor, candidate_pairs

    ex = Extractor()
    docs = [d.to_document() for d in read_standoff_dir(directory)]
    found, n = [], 0
    for d in ex.parser.parse_documents(docs, min_entities=2):
        d = ex._ground(d)  # noqa: SLF001  (exactly as Extractor.annotate)
        for s in d.sentences:
            s.relations = candidate_pairs(s, d.abbreviations)
            n += len(s.relations)
        found.append(d)
    write_jsonl(found, out)
    print(f"{out}: {len(found)} documents, {n} candidate pairs")


def scores(model_dir: Path, docs_file: Path) -> dict[str, np.ndarray | float]:
    """New-text and in-domain scores (N,) of every pair in ``docs_file``, thresholds, load s."""
    docs = list(read_jsonl(docs_file))
    inst = [PairInstance(d.id, s, r) for d in docs for s in d.sentences for r in s.relations]
    t0 = time.perf_counter()
    model = load_model(model_dir).sequential()
    load_s = time.perf_counter() - t0
    return {"new_text": model.scores(inst), "in_domain": model.scores(inst, in_domain=True),
            "threshold": model.threshold, "in_domain_threshold": model.in_domain_threshold,
            "load_s": load_s}


def compare(a: Path, b: Path, docs_file: Path) -> bool:
    """Print how two models' scores on the same pairs differ; True when bitwise equal."""
    sa, sb = scores(a, docs_file), scores(b, docs_file)
    same = True
    for key in ("new_text", "in_domain"):
        x, y = np.asarray(sa[key]), np.asarray(sb[key])
        equal = x.shape == y.shape and np.array_equal(x.view(np.uint64), y.view(np.uint64))
        same &= equal
        print(f"{key}: {len(x)} pairs, max abs diff {np.abs(x - y).max(initial=0.0):.3g}, "
              f"bitwise equal {equal}")
    for key in ("threshold", "in_domain_threshold"):
        same &= sa[key] == sb[key]
        print(f"{key}: {sa[key]!r} {sb[key]!r}")
    print(f"load_model: {sa['load_s']:.2f} s, {sb['load_s']:.2f} s (one load each)")
    return same


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("repack", help="re-save a relation model in the current format")
    r.add_argument("src", type=Path)
    r.add_argument("out", type=Path)
    r.add_argument("--version", required=True, help="the repacked model's version")
    p = sub.add_parser("pairs", help="parse a GE directory into candidate pairs")
    p.add_argument("directory", type=Path)
    p.add_argument("out", type=Path)
    c = sub.add_parser("compare", help="score the same pairs with two models")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("docs", type=Path)
    args = ap.parse_args(argv)
    if args.command == "repack":
        repack(args.src, args.out, args.version)
    elif args.command == "pairs":
        pairs(args.directory, args.out)
    else:
        return 0 if compare(args.a, args.b, args.docs) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
