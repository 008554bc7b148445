"""Inference-only stand-ins for the scikit-learn classes in relx's shipped models.

relx's model files (skops format, read by :mod:`relx.skops_reader`) hold fitted scikit-learn
objects, and importing scikit-learn costs ~0.8 s (``sklearn.base`` pulls in ``scipy.stats``
and pandas). In place of each class named in :data:`SUBSTITUTES` the reader can build the
class of the same name here: it takes the very state scikit-learn pickles (``__setstate__``
of the estimator's ``__dict__``, ``_sklearn_version`` included, nothing dropped) and predicts
with numpy and scipy.sparse by scikit-learn 1.9's arithmetic (the same operations in the same
order on the same dtypes), so its outputs are bit-identical. Only prediction is here: fitting
stays scikit-learn's. :class:`FeatureHasher` replaces scikit-learn's (dict input), which relx
builds to predict, and :func:`from_sklearn` converts live scikit-learn objects (for tests).
This module imports neither scikit-learn nor ``scipy.stats`` nor pandas.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from relx.learn.predictors.calibration import (
    CalibratedClassifierCV,
    GroupKFold,
    IsotonicRegression,
    _CalibratedClassifier,
    _SigmoidCalibration,
)
from relx.learn.predictors.linear import (
    Bunch,
    FeatureUnion,
    LabelEncoder,
    LinearSVC,
    LogisticRegression,
    Pipeline,
    StandardScaler,
)
from relx.learn.predictors.text import FeatureHasher, TfidfTransformer, TfidfVectorizer
from relx.learn.predictors.trees import (
    CyHalfBinomialLoss,
    CyHalfMultinomialLoss,
    HalfBinomialLoss,
    HalfMultinomialLoss,
    HistGradientBoostingClassifier,
    Interval,
    LogitLink,
    MultinomialLogit,
    TreePredictor,
    _BinMapper,
)

__all__ = ["SUBSTITUTES", "FeatureHasher", "from_sklearn", "to_sklearn"]

_HGB = "sklearn.ensemble._hist_gradient_boosting."
#: scikit-learn's qualified class name -> the stand-in built in its place
SUBSTITUTES: dict[str, type] = {
    "sklearn.linear_model._logistic.LogisticRegression": LogisticRegression,
    "sklearn.svm._classes.LinearSVC": LinearSVC,
    "sklearn.pipeline.Pipeline": Pipeline,
    "sklearn.pipeline.FeatureUnion": FeatureUnion,
    "sklearn.preprocessing._label.LabelEncoder": LabelEncoder,
    "sklearn.preprocessing._data.StandardScaler": StandardScaler,
    "sklearn.feature_extraction.text.TfidfVectorizer": TfidfVectorizer,
    "sklearn.feature_extraction.text.TfidfTransformer": TfidfTransformer,
    _HGB + "gradient_boosting.HistGradientBoostingClassifier": HistGradientBoostingClassifier,
    _HGB + "predictor.TreePredictor": TreePredictor,
    _HGB + "binning._BinMapper": _BinMapper,
    "sklearn._loss.loss.HalfBinomialLoss": HalfBinomialLoss,
    "sklearn._loss.loss.HalfMultinomialLoss": HalfMultinomialLoss,
    "sklearn._loss.link.LogitLink": LogitLink,
    "sklearn._loss.link.MultinomialLogit": MultinomialLogit,
    "sklearn._loss.link.Interval": Interval,
    "sklearn._loss._loss.CyHalfBinomialLoss": CyHalfBinomialLoss,
    "sklearn._loss._loss.CyHalfMultinomialLoss": CyHalfMultinomialLoss,
    "sklearn.calibration.CalibratedClassifierCV": CalibratedClassifierCV,
    "sklearn.calibration._CalibratedClassifier": _CalibratedClassifier,
    "sklearn.calibration._SigmoidCalibration": _SigmoidCalibration,
    "sklearn.isotonic.IsotonicRegression": IsotonicRegression,
    "sklearn.model_selection._split.GroupKFold": GroupKFold,
    "sklearn.utils._bunch.Bunch": Bunch,
}


def from_sklearn(obj: Any) -> Any:
    """``obj`` with each scikit-learn object of :data:`SUBSTITUTES` replaced by its stand-in
    (given the state scikit-learn pickles), through lists, tuples, dicts and the states of
    relx's and scikit-learn's other objects; shared objects stay shared, and an object with
    nothing to replace is returned as it is."""
    def build(cls: type) -> Callable[[Any, Callable[[Any], Any]], Any] | None:
        sub = SUBSTITUTES.get(f"{cls.__module__}.{cls.__qualname__}")
        if sub is None:
            return None
        if sub is Bunch:
            return lambda o, conv: Bunch(**{k: conv(v) for k, v in o.items()})
        if issubclass(sub, CyHalfBinomialLoss):
            return lambda o, conv: sub()   # compiled: no state
        return lambda o, conv: _rebuilt(sub, o, conv)

    return _convert(obj, build, {})


def to_sklearn(obj: Any) -> Any:
    """The inverse of :func:`from_sklearn`: each stand-in replaced by the scikit-learn object
    of its state (imports scikit-learn), so a model loaded to predict can be saved again."""
    back = {cls: name for name, cls in SUBSTITUTES.items()}

    def build(cls: type) -> Callable[[Any, Callable[[Any], Any]], Any] | None:
        name = back.get(cls)
        if name is None:
            return None
        module, _, attr = name.rpartition(".")
        target = getattr(importlib.import_module(module), attr)
        if cls is Bunch:
            return lambda o, conv: target(**{k: conv(v) for k, v in o.items()})
        if issubclass(cls, CyHalfBinomialLoss):
            return lambda o, conv: target(*o._relx_args)
        return lambda o, conv: _rebuilt(target, o, conv)

    return _convert(obj, build, {})


def _rebuilt(cls: type, obj: Any, conv: Callable[[Any], Any]) -> Any:
    """A ``cls`` given ``obj``'s state, converted."""
    out = cls.__new__(cls)
    state = conv(obj.__getstate__() or {})
    if hasattr(out, "__setstate__"):
        out.__setstate__(state)
    else:
        out.__dict__.update(state)
    return out


def _convert(obj: Any, build: Callable[[type], Any], memo: dict[int, tuple[Any, Any]]
             ) -> Any:
    """``obj`` with every object whose class ``build`` gives a builder for rebuilt by it,
    through lists, tuples, dicts and relx's and scikit-learn's objects' states."""
    if id(obj) in memo:
        return memo[id(obj)][1]
    cls, out = type(obj), obj
    def conv(v: Any) -> Any:
        return _convert(v, build, memo)

    builder = build(cls)
    if builder is not None:
        out = builder(obj, conv)
    elif cls in (dict, list, tuple):
        pairs = list(obj.items() if cls is dict else enumerate(obj))
        new = [(k, conv(v)) for k, v in pairs]
        if any(n is not v for (_, n), (_, v) in zip(new, pairs, strict=True)):
            out = dict(new) if cls is dict else cls(n for _, n in new)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type) and \
            cls.__module__.split(".")[0] in ("relx", "sklearn"):
        state = obj.__getstate__()
        new_state = conv(state) if isinstance(state, dict) else state
        if new_state is not state:
            out = cls.__new__(cls)
            if hasattr(out, "__setstate__"):
                out.__setstate__(new_state)
            else:
                out.__dict__.update(new_state)
    memo[id(obj)] = (obj, out)
    return out
