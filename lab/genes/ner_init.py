"""A shipped pipeline's NER as a one-component spaCy pipeline, its start bias taken out: the
starting point of NER round 3 (issue 50, ``docs/genes.md``; ``configs/ner-genes-r3.cfg``
sources its ``ner`` from it).

    python -m lab.genes.ner_init --pipeline models/relx_bio_sm --out runs/ner-genes-r3/g3-init

The ``ner`` weights of ``--pipeline`` are loaded into a blank pipeline with relx's tokenizer
and the architecture of ``configs/ner-genes.cfg``; the entity-start bias recorded in its
meta.json (``ner_start_bias``, :mod:`lab.genes.ner_bias`) is added back to the ``O``
action, which gives the trained model's own weights (g3 for 0.4.1).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ner_pipeline(pipeline: Path, config: Path = ROOT / "configs" / "ner-genes.cfg"):
    """A blank pipeline holding ``pipeline``'s ``ner`` without its start bias."""
    from spacy.util import load_config

    from lab.genes.ner_bias import set_start_bias
    from relx.parse.ner import LABEL, blank_nlp, register

    register()
    cfg = dict(load_config(config, interpolate=True)["components"]["ner"])
    cfg.pop("factory", None)
    nlp = blank_nlp()
    ner = nlp.add_pipe("ner", config=cfg)
    ner.add_label(LABEL)
    nlp.initialize()
    ner.from_disk(Path(pipeline) / "ner", exclude=["vocab"])
    meta = json.loads((Path(pipeline) / "meta.json").read_text("utf-8"))
    bias = float(meta.get("ner_start_bias", 0.0))
    if bias:
        set_start_bias(nlp, -bias)
    return nlp


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pipeline", type=Path, default=ROOT / "models" / "relx_bio_sm")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    ner_pipeline(a.pipeline).to_disk(a.out)
    print(f"saved {a.out}")


if __name__ == "__main__":
    main()
