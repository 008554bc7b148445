"""Linear classifiers, pipelines and the preprocessing steps relx's models hold."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.sparse as sp

from relx.estimator import check_array
from relx.learn.predictors._common import (
    _FLOATS,
    _column_or_1d,
    _expit,
    _Holder,
    _softmax,
)


class _LinearClassifier(_Holder):
    """``LinearClassifierMixin``: ``safe_sparse_dot(X, coef_.T) + intercept_``."""

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if sp.issparse(getattr(self, "coef_", None)):
            raise NotImplementedError(f"{type(self).__name__} with a sparse coef_")

    def decision_function(self, X: Any) -> np.ndarray:
        """Scores: (n,) for two classes, else (n, n_classes)."""
        X = check_array(X, self)
        scores = X @ (self.coef_.T if self.coef_.ndim == 2 else self.coef_) + self.intercept_
        return scores.reshape(-1) if scores.ndim > 1 and scores.shape[1] == 1 else scores

    def predict(self, X: Any) -> np.ndarray:
        """The class of the highest score (two classes: score > 0)."""
        scores = self.decision_function(X)
        indices = (scores > 0).astype(np.intp) if scores.ndim == 1 else scores.argmax(axis=1)
        return np.take(self.classes_, indices, axis=0)


class LogisticRegression(_LinearClassifier):
    """``sklearn.linear_model.LogisticRegression``."""

    def predict_proba(self, X: Any) -> np.ndarray:
        """Two classes: expit of the score (``_predict_proba_lr``); else softmax."""
        if np.size(self.classes_) > 2:
            return _softmax(self.decision_function(X), copy=False)
        prob = self.decision_function(X)
        prob = _expit(prob, out=prob)
        return np.stack([1 - prob, prob], axis=1)


class LinearSVC(_LinearClassifier):
    """``sklearn.svm.LinearSVC``."""


class Bunch(dict):
    """``sklearn.utils.Bunch``: a dict whose keys are also attributes."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __setstate__(self, state: Any) -> None:
        """Ignored, as scikit-learn's Bunch ignores it (the items are the dict's)."""


def _is(step: Any, word: str) -> bool:
    return isinstance(step, str) and step == word


class Pipeline(_Holder):
    """``sklearn.pipeline.Pipeline`` (without metadata routing)."""

    def _iter(self, with_final: bool = True) -> Iterator[Any]:
        for _, step in self.steps[:len(self.steps) - (not with_final)]:
            if step is not None and not _is(step, "passthrough"):
                yield step

    def _head(self, X: Any) -> Any:
        for step in self._iter(with_final=False):
            X = step.transform(X)
        return X

    def transform(self, X: Any) -> Any:
        """Every step's ``transform`` in turn."""
        for step in self._iter():
            X = step.transform(X)
        return X

    def predict(self, X: Any, **params: Any) -> Any:
        """The last step's ``predict`` of the others' transform."""
        return self.steps[-1][1].predict(self._head(X), **params)

    def predict_proba(self, X: Any, **params: Any) -> Any:
        """The last step's ``predict_proba`` of the others' transform."""
        return self.steps[-1][1].predict_proba(self._head(X), **params)

    def decision_function(self, X: Any) -> Any:
        """The last step's ``decision_function`` of the others' transform."""
        return self.steps[-1][1].decision_function(self._head(X))

    @property
    def named_steps(self) -> Bunch:
        """The steps by name."""
        return Bunch(**dict(self.steps))

    @property
    def classes_(self) -> Any:
        """The last step's classes."""
        return self.steps[-1][1].classes_

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, ind: int | str | slice) -> Any:
        if isinstance(ind, slice):
            if ind.step not in (1, None):
                raise ValueError("Pipeline slicing only supports a step of 1")
            sub = Pipeline()
            sub.__setstate__({**self.__dict__, "steps": self.steps[ind]})
            return sub
        try:
            return self.steps[ind][1]
        except TypeError:
            return self.named_steps[ind]


class FeatureUnion(_Holder):
    """``sklearn.pipeline.FeatureUnion``."""

    def transform(self, X: Any) -> Any:
        """Each transformer's output (times its weight), side by side."""
        get_weight = (self.transformer_weights or {}).get
        Xs = []
        for name, trans in self.transformer_list:
            if not _is(trans, "drop"):
                res = X if _is(trans, "passthrough") else trans.transform(X)
                weight = get_weight(name)
                Xs.append(res if weight is None else res * weight)
        if not Xs:
            return np.zeros((X.shape[0], 0))
        for Xt, (name, _) in zip(Xs, self.transformer_list, strict=False):
            if hasattr(Xt, "shape") and len(Xt.shape) != 2:
                raise ValueError(f"Transformer '{name}' returned an array or dataframe with "
                                 f"{len(Xt.shape)} dimensions, but expected 2 dimensions.")
        if any(sp.issparse(f) for f in Xs):
            return sp.hstack(Xs).tocsr()
        return np.concatenate(Xs, axis=1)


class LabelEncoder(_Holder):
    """``sklearn.preprocessing.LabelEncoder``."""

    def transform(self, y: Any) -> np.ndarray:
        """The index of each label in ``classes_``."""
        y, uniques = _column_or_1d(y, dtype=self.classes_.dtype), self.classes_
        if y.shape[0] == 0:
            return np.asarray([])
        if y.dtype.kind not in "iufc":   # not numeric: a table (``_map_to_integer``)
            table = {val: i for i, val in enumerate(uniques)}
            try:
                return np.asarray([table[v] for v in y])
            except KeyError as e:
                raise ValueError(f"y contains previously unseen labels: {e}") from None
        diff = np.setdiff1d(np.unique(y), uniques, assume_unique=True)
        if diff.size and np.isnan(uniques).any():
            diff = diff[~np.isnan(diff)]
        if diff.size:
            raise ValueError(f"y contains previously unseen labels: {list(diff)}")
        return np.searchsorted(uniques, y)

    def inverse_transform(self, y: Any) -> np.ndarray:
        """The labels of indices into ``classes_``."""
        y = _column_or_1d(y)
        if y.shape[0] == 0:
            return np.asarray([])
        diff = np.setdiff1d(y, np.arange(self.classes_.shape[0]))
        if diff.shape[0]:
            raise ValueError(f"y contains previously unseen labels: {diff}")
        return np.take(self.classes_, y, axis=0)


class StandardScaler(_Holder):
    """``sklearn.preprocessing.StandardScaler``."""

    def transform(self, X: Any, copy: bool | None = None) -> Any:
        """``(X - mean_) / scale_`` (sparse ``X``: scaled, with ``with_mean=False``)."""
        copy = copy if copy is not None else self.copy
        X = check_array(X, self, dtype=_FLOATS, copy=copy, finite="allow-nan")
        if sp.issparse(X):
            if self.with_mean:
                raise ValueError("Cannot center sparse matrices: pass `with_mean=False` "
                                 "instead.")
            if self.scale_ is not None:
                X.data *= (1 / self.scale_).take(X.indices, mode="clip")
        else:
            if self.with_mean:
                X -= self.mean_.astype(X.dtype)
            if self.with_std:
                X /= self.scale_.astype(X.dtype)
        return X
