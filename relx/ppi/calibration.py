"""Calibrated probabilities for relation scores: a monotone map from a model's score to the
probability that the pair is an annotated interaction, stored beside the model
(``calibration.json``) and applied by :class:`Calibrator`.

How the map is made (the repository's ``lab/calibration.py``, ``make calibration``): it is
fitted on *out-of-fold* scores of the shipped model's own recipe: the gold
training documents (AIMed, BioInfer, IEPA) are split k-fold by document; the whole
recipe (every ensemble member, its quantile maps, its Platt step and threshold; silver pairs
in every fold's training set) is trained on k-1 folds and scores the held-out fold. The
calibrator (isotonic regression, or Platt's logistic map on the score's logit) is then
fitted on those held-out scores, and stored as a small JSON file beside the model
(``calibration.json``: breakpoints or coefficients, and what they were fitted on); no
pipeline file is touched. (The shipped ``models/ppi-default/calibration.json`` was fitted
on the cheaper held-out scores of ``python -m lab.calibration internal`` - the ensemble's own 3-fold
document out-of-fold member probabilities - because one outer fold of the full recipe took
49 min on the shared 2-core machine; that fold's held-out AUC, 0.840, matches theirs, 0.844.)

The probability is calibrated for the mixture of the gold corpora (their positive rate,
about 19 %); on text with another positive rate it is still a monotone, well-ordered
probability, but not exact. Reported figures: the expected calibration error (ECE, 10
equal-width bins, weighted by bin size) of *cross-fitted* probabilities - the calibrator
fitted on the other folds' held-out scores, applied to one fold's - so the ECE is not
measured on the calibrator's own training points.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from relx.errors import ConfigError

CALIBRATION_FILE = "calibration.json"
METHODS = ("isotonic", "platt")
MODES = ("new_text", "in_domain")


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, float), 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


@dataclass
class Calibrator:
    """A monotone score -> probability map: piecewise-linear through ``x``/``y`` breakpoints
    (isotonic) or ``σ(a·logit(score) + b)`` (Platt)."""

    method: str
    x: list[float] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    a: float = 1.0
    b: float = 0.0

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        """(N,) probabilities of (N,) scores."""
        s = np.asarray(scores, float)
        if self.method == "isotonic":
            return np.interp(s, self.x, self.y)
        return 1.0 / (1.0 + np.exp(-np.clip(self.a * _logit(s) + self.b, -500, 500)))

    def to_json(self) -> dict[str, Any]:
        if self.method == "isotonic":
            return {"method": "isotonic", "x": [round(v, 6) for v in self.x],
                    "y": [round(v, 6) for v in self.y]}
        return {"method": "platt", "a": self.a, "b": self.b}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Calibrator:
        method = obj.get("method")
        if method == "isotonic":
            x, y = [float(v) for v in obj["x"]], [float(v) for v in obj["y"]]
            if len(x) != len(y) or not x or np.any(np.diff(x) < 0) or np.any(np.diff(y) < 0):
                raise ConfigError("isotonic calibration needs matching, non-decreasing x and y")
            return cls("isotonic", x=x, y=y)
        if method == "platt":
            return cls("platt", a=float(obj["a"]), b=float(obj["b"]))
        raise ConfigError(f"unknown calibration method {method!r} (expected one of {METHODS})")


def load_calibration(model_dir: str | Path, mode: str = "new_text") -> Calibrator | None:
    """The ``mode`` calibrator stored beside a model (``calibration.json``), or None."""
    from relx.model_store import reading_model_file

    path = Path(model_dir) / CALIBRATION_FILE
    if not path.is_file():
        return None
    with reading_model_file(path, "calibration"):
        obj = json.loads(path.read_text(encoding="utf-8"))
        entry = obj.get("calibrators", {}).get(mode)
        return None if entry is None else Calibrator.from_json(entry)


def model_calibration(model: Any, in_domain: bool = False) -> Calibrator | None:
    """The calibrator of a model given as a directory, an installed model's name, None (the
    default model) or a loaded ``RelationModel`` (its ``calibration`` attribute, if set)."""
    from relx.model_store import ModelError, find_model_dir
    from relx.ppi.model import DEFAULT_MODEL, RelationModel

    mode = "in_domain" if in_domain else "new_text"
    if isinstance(model, RelationModel):
        cal = getattr(model, "calibration", None)
        return cal.get(mode) if isinstance(cal, dict) else cal
    try:
        directory = find_model_dir(DEFAULT_MODEL if model is None else str(model))
    except ModelError:
        return None
    return load_calibration(directory, mode)
