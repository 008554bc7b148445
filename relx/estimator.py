"""relx's estimator base classes: scikit-learn's estimator contract without importing it.

Every learnable relx stage follows scikit-learn's contract (``__init__`` stores the
hyper-parameters, ``fit`` returns ``self``, learned attributes end in ``_``; ``get_params``,
``set_params``, ``clone``, the estimator checks). Subclassing ``sklearn.base.BaseEstimator``
gives that, but importing it imports most of scikit-learn (``sklearn.utils.fixes`` imports
``scipy.stats``, and pandas where installed: ~0.8 s of every start), which a process that
only predicts never needs (:mod:`relx.learn.predictors` predicts for the scikit-learn parts
of relx's models). So relx's estimators subclass the classes here: the same parameter
introspection as scikit-learn's, and everything that needs scikit-learn itself (cloning,
tags, ``score``, the input checks of ``fit``) imports it when called.

:func:`validate_data` is scikit-learn's own when scikit-learn is loaded (fitting, the
estimator checks) and otherwise :func:`check_array`, a minimal equivalent that the stand-ins
of :mod:`relx.learn.predictors` use too: the same array for valid input, a ``ValueError``
for input of the wrong shape, width or with NaN / inf.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

import numpy as np

__all__ = ["BaseEstimator", "ClassifierMixin", "TransformerMixin", "check_array",
           "check_is_fitted", "check_random_state", "sklearn_loaded", "validate_data"]


def sklearn_loaded() -> bool:
    """Whether this process has imported scikit-learn's input validation."""
    return "sklearn.utils.validation" in sys.modules


class BaseEstimator:
    """Parameters introspected from ``__init__`` (scikit-learn's ``get_params`` /
    ``set_params``), cloning and tags through scikit-learn when it is asked for them."""

    @classmethod
    def _get_param_names(cls) -> list[str]:
        init = cls.__init__
        if init is object.__init__:
            return []
        params = [p for p in inspect.signature(init).parameters.values()
                  if p.name != "self" and p.kind != p.VAR_KEYWORD]
        if any(p.kind == p.VAR_POSITIONAL for p in params):
            raise RuntimeError(f"{cls.__name__}: estimators take no *args")
        return sorted(p.name for p in params)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Parameter name -> value; with ``deep``, those of estimator-valued parameters as
        ``<name>__<parameter>`` too."""
        out: dict[str, Any] = {}
        for key in self._get_param_names():
            value = getattr(self, key)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{key}__{k}", v) for k, v in value.get_params().items())
            out[key] = value
        return out

    def set_params(self, **params: Any) -> BaseEstimator:
        """Set parameters (``<component>__<parameter>`` for nested estimators); returns
        ``self``."""
        if not params:
            return self
        valid = self.get_params(deep=True)
        nested: dict[str, dict[str, Any]] = {}
        for key, value in params.items():
            key, delim, sub_key = key.partition("__")
            if key not in valid:
                raise ValueError(f"Invalid parameter {key!r} for estimator {self}. "
                                 f"Valid parameters are: {self._get_param_names()!r}.")
            if delim:
                nested.setdefault(key, {})[sub_key] = value
            else:
                setattr(self, key, value)
                valid[key] = value
        for key, sub in nested.items():
            valid[key].set_params(**sub)
        return self

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __sklearn_clone__(self) -> BaseEstimator:
        from sklearn.base import _clone_parametrized

        return _clone_parametrized(self)

    def __sklearn_tags__(self) -> Any:
        from sklearn.utils import Tags, TargetTags

        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    transformer_tags=None, regressor_tags=None, classifier_tags=None)

    def __repr__(self) -> str:
        """``Name(param=value, ...)`` with the parameters that differ from the defaults."""
        defaults = {name: p.default for name, p in
                    inspect.signature(type(self).__init__).parameters.items()}
        shown = []
        for key in self._get_param_names():
            value = getattr(self, key, None)
            default = defaults.get(key, inspect.Parameter.empty)
            try:
                same = value is default or bool(value == default)
            except Exception:   # arrays and other values without a truth value
                same = False
            if not same:
                shown.append(f"{key}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"


class ClassifierMixin:
    """A classifier (scikit-learn's ``ClassifierMixin``: tags, ``score`` as accuracy)."""

    _estimator_type = "classifier"

    def __sklearn_tags__(self) -> Any:
        from sklearn.utils import ClassifierTags

        tags = super().__sklearn_tags__()   # type: ignore[misc]
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags.required = True
        return tags

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Mean accuracy of ``predict(X)`` against ``y``."""
        from sklearn.metrics import accuracy_score

        return float(accuracy_score(y, self.predict(X), sample_weight=sample_weight))


class TransformerMixin:
    """A transformer (scikit-learn's ``TransformerMixin``: tags, ``fit_transform``)."""

    def __sklearn_tags__(self) -> Any:
        from sklearn.utils import TransformerTags

        tags = super().__sklearn_tags__()   # type: ignore[misc]
        tags.transformer_tags = TransformerTags()
        return tags

    def fit_transform(self, X: Any, y: Any = None, **fit_params: Any) -> Any:
        """``fit`` then ``transform`` of the same ``X``."""
        if y is None:
            return self.fit(X, **fit_params).transform(X)
        return self.fit(X, y, **fit_params).transform(X)


def check_is_fitted(estimator: Any, attributes: str | list[str] | tuple[str, ...]) -> None:
    """Raise scikit-learn's ``NotFittedError`` unless ``estimator`` has ``attributes``."""
    names = [attributes] if isinstance(attributes, str) else list(attributes)
    if all(hasattr(estimator, a) for a in names):
        return
    from sklearn.exceptions import NotFittedError

    raise NotFittedError(f"This {type(estimator).__name__} instance is not fitted yet. Call "
                         "'fit' with appropriate arguments before using this estimator.")


def check_random_state(seed: Any) -> np.random.RandomState:
    """scikit-learn's ``check_random_state``: a ``RandomState`` from None, an int or one."""
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, int | np.integer):
        return np.random.RandomState(seed)
    if isinstance(seed, np.random.RandomState):
        return seed
    raise ValueError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")


def validate_data(estimator: Any, X: Any, y: Any = "no_validation", *, reset: bool = True,
                  accept_sparse: str | bool = False, dtype: Any = "numeric",
                  order: str | None = None, **check_params: Any) -> Any:
    """scikit-learn's ``validate_data`` where scikit-learn is loaded or ``reset`` (fitting);
    else, for prediction, :func:`check_array`."""
    if reset or sklearn_loaded() or not isinstance(y, str):
        from sklearn.utils.validation import validate_data as sk_validate

        return sk_validate(estimator, X, y, reset=reset, accept_sparse=accept_sparse,
                           dtype=dtype, order=order, **check_params)
    return check_array(X, estimator, dtype=None if dtype == "numeric" else dtype,
                       accept_sparse=accept_sparse, order=order)


def check_array(X: Any, estimator: Any = None, *, dtype: Any = None,
                accept_sparse: str | bool = "csr", order: str | None = None,
                finite: bool | str = True, copy: bool = False, ensure_2d: bool = True) -> Any:
    """Input to predict from, as scikit-learn's ``check_array`` gives it for valid input.

    ``X`` as an array (2-d unless not ``ensure_2d``) or a sparse matrix of format
    ``accept_sparse`` (False: ``TypeError``); ``dtype``: None keeps a numeric dtype (objects
    become float64), else a dtype or a tuple of accepted ones (else the first); ``order``
    ``"C"`` / ``"F"``; NaN and infinity refused (``finite="allow-nan"``: infinity only,
    False: neither); ``estimator.n_features_in_`` columns. ``ValueError`` otherwise."""
    import scipy.sparse as sp

    accepted = None if dtype is None else \
        tuple(np.dtype(d) for d in (dtype if isinstance(dtype, tuple | list) else (dtype,)))
    if sp.issparse(X):
        if not accept_sparse:
            raise TypeError("Sparse data was passed, but dense data is required.")
        fmt = accept_sparse if isinstance(accept_sparse, str) else X.format
        changed = X.format != fmt
        X = X.asformat(fmt) if changed else X
        if accepted is not None and X.dtype not in accepted:
            X = X.astype(accepted[0])
        elif copy and not changed:
            X = X.copy()
        values = X.data
    else:
        orig, X = X, np.asarray(X)
        if accepted is None and X.dtype.kind == "O":
            X = X.astype(np.float64)
        elif accepted is not None and X.dtype not in accepted:
            X = X.astype(accepted[0])
        if order is not None:
            X = np.asarray(X, order=order)
        if copy and np.may_share_memory(X, orig):
            X = X.copy()
        if ensure_2d and X.ndim != 2:
            raise ValueError(f"Expected a 2D array, got {X.ndim}D array instead.")
        values = X
    if finite and values.dtype.kind in "fc":
        if finite != "allow-nan" and np.isnan(values).any():
            raise ValueError("Input X contains NaN.")
        if np.isinf(values).any():
            raise ValueError(f"Input X contains infinity or a value too large for {X.dtype}.")
    n_in = getattr(estimator, "n_features_in_", None)
    if ensure_2d and n_in is not None and X.shape[1] != n_in:
        raise ValueError(f"X has {X.shape[1]} features, but {type(estimator).__name__} is "
                         f"expecting {n_in} features as input.")
    return X
