"""Re-save a shipped relation model in the current model format, and check it scores as before.

The same fitted model, stored smaller (model format 4: narrowed forest arrays, equal arrays
once, LZMA where it pays, no training-only state; ``relx/ppi/model.py``):

    python -m lab.repack_models repack models/ppi-default runs/repack/ppi-default \\
        --version 0.18.1
    python -m lab.repack_models pairs ../shared/corpora/bionlp-st-ge/2011/devel \\
        runs/repack/ge-devel-pairs.jsonl
    python -m lab.repack_models compare models/ppi-default runs/repack/ppi-default \\
        runs/repack/ge-devel-pairs.jsonl

``pairs`` parses and grounds a GE directory as ``relx extract`` does (the ``.a1`` proteins,
every candidate pair of each sentence) and writes the documents; ``compare`` scores those
pairs with both models (new-text and in-domain scores, full float64) and fails unless they
are bitwise equal, as are both thresholds. Then copy the directory over the shipped one.

The spaCy parse pipeline's weights are float32 arrays that compress poorly; how far fewer
mantissa bits would shrink them, and whether the parses stay the same:

    python -m lab.repack_models spacy-round models/relx_bio_sm runs/repack/sm-m13 --bits 13
    python -m lab.repack_models parses models/relx_bio_sm GE_DIR runs/repack/parse-base
    python -m lab.repack_models parses runs/repack/sm-m13 GE_DIR runs/repack/parse-m13
    python -m lab.repack_models compare-parses runs/repack/parse-base runs/repack/parse-m13

The GE event model, re-saved in the current event model format (``relx/ge/pipeline.py``)
and checked the same way (every fitted array bitwise equal, and the same predicted events,
scores included, on a GE directory):

    python -m lab.repack_models repack-events models/ge-events runs/repack/ge-events \\
        --version 0.4.1
    python -m lab.repack_models compare-events models/ge-events runs/repack/ge-events \\
        ../shared/corpora/bionlp-st-ge/2011/devel

``spacy-round`` writes a copy whose weights keep ``--bits`` mantissa bits (still float32
files: a measurement, not a smaller pipeline) and prints the bytes the weights would take as
compressed byte planes; ``parses`` parses a GE directory with its ``.a1`` proteins and from
raw text (proteins from the NER); ``compare-parses`` counts differing tokens (text, tag,
lemma), dependencies and entities.
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


def repack_events(src: Path, out: Path, version: str) -> None:
    """Load the GE event model ``src`` and save it to ``out`` as ``version`` (same fit)."""
    from relx.ge.pipeline import FORMAT_VERSION as EVENT_FORMAT
    from relx.ge.pipeline import GEExtractor

    model = GEExtractor.load(src)
    own = {"format", "format_version", "relx_version", "config", "trigger_classes",
           "trigger_dictionary", "edge_vocab", "train_seconds", "modification_thresholds"}
    extra = {k: v for k, v in model.meta.items() if k not in own}
    old = extra.get("version")
    extra.update(version=version, repacked=f"{old} re-saved in event model format "
                                          f"{EVENT_FORMAT}: the same fitted model")
    model.save(out, extra_meta=extra)
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"{src} ({old}) -> {out} ({version}): {size:,} bytes")


def _state(obj: object, path: str, out: dict[str, bytes], seen: set[int]) -> None:
    """Every array and value reachable from ``obj``'s attributes, as bytes by path."""
    if isinstance(obj, np.ndarray):
        out[path] = f"{obj.dtype.str}{obj.shape}".encode() + np.ascontiguousarray(obj).tobytes()
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _state(v, f"{path}[{k!r}]", out, seen)
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            _state(v, f"{path}[{i}]", out, seen)
    elif isinstance(obj, float):
        out[path] = np.float64(obj).tobytes()
    elif obj is None or isinstance(obj, str | int | bool | np.generic | type):
        out[path] = repr(obj).encode()
    elif id(obj) not in seen and hasattr(obj, "__dict__"):
        seen.add(id(obj))
        out[path] = type(obj).__qualname__.encode()
        for k, v in sorted(vars(obj).items()):
            if not k.startswith("_cache"):
                _state(v, f"{path}.{k}", out, seen)


def compare_events(a: Path, b: Path, directory: Path) -> bool:
    """True when two GE event models hold bitwise equal fitted state and predict the same
    standoff (events, arguments, modifications, scores) on the GE ``directory``."""
    from relx.ge.data import load_ge
    from relx.ge.pipeline import GEExtractor

    ma, mb = GEExtractor.load(a), GEExtractor.load(b)
    states = []
    for m in (ma, mb):
        out: dict[str, bytes] = {}
        _state({"triggers": m.triggers, "edges": m.edges, "modifications": m.modifications,
                "dictionary": m.triggers.dictionary_.to_json(),
                "encoder": m.edges.encoder_.to_dict()}, "model", out, set())
        states.append(out)
    keys = set(states[0]) | set(states[1])
    differ = sorted(k for k in keys if states[0].get(k) != states[1].get(k))
    print(f"fitted state: {len(keys)} values, {len(differ)} differ {differ[:10]}")
    docs = load_ge(directory)
    pa, pb = ma.predict(docs), mb.predict(docs)
    same_docs = sum(x.model_dump_json() == y.model_dump_json() for x, y in zip(pa, pb, strict=True))
    n_events = sum(len(d.events) for d in pa)
    print(f"predictions on {directory}: {len(docs)} documents, {n_events} events, "
          f"{same_docs} documents identical")
    return not differ and same_docs == len(docs)


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


SPACY_WEIGHTS = ("tok2vec", "ner", "parser", "tagger")  # components with a thinc model file


def _round_mantissa(a: np.ndarray, bits: int) -> np.ndarray:
    """float32 values rounded (to nearest, ties to even) to ``bits`` mantissa bits."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    drop = 23 - bits
    if drop <= 0:
        return np.asarray(a, dtype=np.float32)
    half = (1 << (drop - 1)) - 1 + ((u >> drop) & 1)
    return (((u + half) >> drop) << drop).astype(np.uint32).view(np.float32).reshape(a.shape)


def spacy_round(src: Path, out: Path, bits: int) -> None:
    """Copy a spaCy pipeline with its float32 weights rounded to ``bits`` mantissa bits."""
    import lzma
    import shutil

    import srsly

    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(src, out)
    weights = []
    for comp in SPACY_WEIGHTS:
        file = out / comp / "model"
        if not file.is_file():
            continue
        msg = srsly.msgpack_loads(file.read_bytes())
        for params in msg["params"]:
            for name, value in (params or {}).items():
                if np.asarray(value).dtype == np.float32:
                    params[name] = _round_mantissa(np.asarray(value), bits)
                    weights.append(params[name].reshape(-1))
        file.write_bytes(srsly.msgpack_dumps(msg))
    w = np.concatenate(weights).view(np.uint32)
    n_planes = (9 + bits + 7) // 8  # sign, exponent, mantissa bits, in whole bytes
    packed = sum(len(lzma.compress(((w >> (24 - 8 * i)) & 0xFF).astype(np.uint8).tobytes()))
                 for i in range(n_planes))
    print(f"{out}: {w.size} weights ({w.size * 4 / 1e6:.1f} MB as float32), {bits} mantissa "
          f"bits as {n_planes} LZMA byte planes: {packed / 1e6:.2f} MB")


def parses(model: Path, directory: Path, prefix: Path) -> None:
    """``prefix``.given.jsonl (the ``.a1`` proteins) and ``prefix``.ner.jsonl (raw text)."""
    from relx.doc import Document
    from relx.io.standoff import read_standoff_dir
    from relx.parse.pipeline import Parser

    docs = [d.to_document() for d in read_standoff_dir(directory)]
    parser = Parser(model)
    write_jsonl(parser.parse_documents(docs), Path(f"{prefix}.given.jsonl"))
    write_jsonl(parser.parse_documents(Document(id=d.id, text=d.text) for d in docs),
                Path(f"{prefix}.ner.jsonl"))


def compare_parses(a: Path, b: Path) -> bool:
    """Print differing tokens, dependencies and entities; True when there are none."""
    import json

    same = True
    for kind in ("given", "ner"):
        docs_a = list(read_jsonl(Path(f"{a}.{kind}.jsonl")))
        docs_b = list(read_jsonl(Path(f"{b}.{kind}.jsonl")))
        tokens = diff_tokens = diff_deps = diff_ents = n_ents = 0
        for da, db in zip(docs_a, docs_b, strict=True):
            for sa, sb in zip(da.sentences, db.sentences, strict=True):
                tokens += len(sa.tokens)
                diff_tokens += sum((x.text, x.start, x.pos, x.lemma) != (y.text, y.start, y.pos,
                                                                          y.lemma)
                                   for x, y in zip(sa.tokens, sb.tokens, strict=True))
                deps = [{json.dumps(d.model_dump(), sort_keys=True) for d in s.dependencies}
                        for s in (sa, sb)]
                ents = [{json.dumps(e.model_dump(), sort_keys=True) for e in s.entities}
                        for s in (sa, sb)]
                diff_deps += len(deps[0] ^ deps[1])
                diff_ents += len(ents[0] ^ ents[1])
                n_ents += len(ents[0])
        same &= diff_tokens == diff_deps == diff_ents == 0
        print(f"{kind}: {len(docs_a)} documents, {tokens} tokens, {n_ents} entities; "
              f"differing tokens {diff_tokens}, dependencies {diff_deps}, entities {diff_ents}")
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
    re_ = sub.add_parser("repack-events", help="re-save a GE event model in the current format")
    re_.add_argument("src", type=Path)
    re_.add_argument("out", type=Path)
    re_.add_argument("--version", required=True, help="the repacked model's version")
    ce = sub.add_parser("compare-events", help="compare two GE event models")
    ce.add_argument("a", type=Path)
    ce.add_argument("b", type=Path)
    ce.add_argument("directory", type=Path, help="a GE directory (.txt/.a1) to predict")
    sr = sub.add_parser("spacy-round", help="a spaCy pipeline with fewer mantissa bits")
    sr.add_argument("src", type=Path)
    sr.add_argument("out", type=Path)
    sr.add_argument("--bits", type=int, required=True)
    ps = sub.add_parser("parses", help="parse a GE directory (given proteins, and NER)")
    ps.add_argument("model", type=Path)
    ps.add_argument("directory", type=Path)
    ps.add_argument("prefix", type=Path)
    cp = sub.add_parser("compare-parses", help="compare two `parses` outputs")
    cp.add_argument("a", type=Path)
    cp.add_argument("b", type=Path)
    args = ap.parse_args(argv)
    if args.command == "repack":
        repack(args.src, args.out, args.version)
    elif args.command == "repack-events":
        repack_events(args.src, args.out, args.version)
    elif args.command == "compare-events":
        return 0 if compare_events(args.a, args.b, args.directory) else 1
    elif args.command == "pairs":
        pairs(args.directory, args.out)
    elif args.command == "spacy-round":
        spacy_round(args.src, args.out, args.bits)
    elif args.command == "parses":
        parses(args.model, args.directory, args.prefix)
    elif args.command == "compare-parses":
        return 0 if compare_parses(args.a, args.b) else 1
    else:
        return 0 if compare(args.a, args.b, args.docs) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
