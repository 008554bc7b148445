"""Calibrated ``norm_confidence``: the probability that a mention's best id is right.

Grounding scores its best id by rule (:func:`relx.genes.lexicon.confidence`, the ranker's
probability, a family member's share). :class:`ConfidenceMap` maps that raw score to the
share of best ids that were right at that score on BioRED train's fit split (isotonic
regression, ``lab/genes/confidence.py``; stored as JSON points,
``relx/data/confidence_calibration.json``, interpolated linearly between them).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from relx.doc import Document, Entity
from relx.errors import ConfigError
from relx.genes.lexicon import with_entity_updates
from relx.genes.shipped import shipped_json
from relx.ids import is_protein_type

__all__ = ["ConfidenceMap", "calibrated", "default_confidence_map"]

CALIBRATION_FORMAT = "relx-confidence-calibration/1"


class ConfidenceMap:
    """A monotone map [0, 1] -> [0, 1] through the points (``x``, ``y``), x increasing."""

    def __init__(self, x: list[float], y: list[float]) -> None:
        if len(x) != len(y) or len(x) < 2 or any(b < a for a, b in zip(x, x[1:], strict=False)):
            raise ConfigError("a confidence map needs >= 2 points with increasing x")
        self.x = np.asarray(x, dtype=np.float64)
        self.y = np.asarray(y, dtype=np.float64)

    def __call__(self, raw: float) -> float:
        return round(float(np.interp(raw, self.x, self.y)), 3)

    def to_json(self, **extra: object) -> dict:
        return {"format": CALIBRATION_FORMAT, "x": [round(float(v), 6) for v in self.x],
                "y": [round(float(v), 6) for v in self.y], **extra}

    @classmethod
    def from_json(cls, data: dict) -> ConfidenceMap:
        if data.get("format") != CALIBRATION_FORMAT:
            raise ConfigError("not a relx confidence calibration")
        return cls(list(data["x"]), list(data["y"]))


def calibrated(doc: Document, cmap: ConfidenceMap) -> Document:
    """``doc`` with every gene mention's ``norm_confidence`` mapped through ``cmap``."""

    def update(e: Entity) -> dict[str, object]:
        if e.norm_confidence is None or not e.norm_ids or not is_protein_type(e.type):
            return {}
        return {"norm_confidence": cmap(e.norm_confidence)}

    return with_entity_updates(doc, update)



def default_confidence_map(path: Path | str | None = None) -> ConfidenceMap | None:
    """The shipped map (``relx/data/confidence_calibration.json``) or the one at ``path``;
    None when none is shipped."""
    return shipped_json("confidence_calibration.json", ConfidenceMap.from_json, path)
