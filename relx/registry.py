"""Registered pipeline components: a pipeline is a TOML config, not code.

Each config section with a ``component`` key builds one registered component; a string
parameter that names another such section is replaced by that built component (so steps
share one kernel definition). ``[pipeline] steps`` lists the sections chained into an
sklearn ``Pipeline``.
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relx.kernels.nonstationary import NonstationaryPathKernel
from relx.kernels.structure import PathKernel, SumKernel, TreeKernel
from relx.learn.ensemble import ProbabilityEnsemble
from relx.learn.flda import MSEFLDA
from relx.learn.forest import RandomSubspaceForest
from relx.learn.frequent_features import FrequentFeatureSelector
from relx.learn.kernel_svm import KernelSVM
from relx.learn.nb_scaling import NaiveBayesScaler
from relx.learn.optimise import MIOptimisedKLSH
from relx.learn.packed_trees import PackedExtraTrees
from relx.represent.g2p import G2PEmbedding
from relx.represent.instances import StructureExtractor
from relx.represent.klsh import KLSHEncoder
from relx.represent.pair_features import PairFeatureExtractor
from relx.represent.pair_vectors import PairVectorFeatures
from relx.represent.similarity import SimilarityFeatures
from relx.represent.trees import TreeStructureExtractor

if TYPE_CHECKING:
    from sklearn.pipeline import FeatureUnion, Pipeline

COMPONENTS: dict[str, Callable[..., Any]] = {}


def register(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(factory: Callable[..., Any]) -> Callable[..., Any]:
        COMPONENTS[name] = factory
        return factory
    return deco


def _sklearn(path: str) -> Callable[..., Any]:
    """The scikit-learn estimator ``module:Class``, imported when a config builds one (a
    process that only predicts never imports scikit-learn: :mod:`relx.estimator`)."""
    module, _, name = path.partition(":")

    def build(**params: Any) -> Any:
        return getattr(importlib.import_module(module), name)(**params)

    build.__name__ = build.__qualname__ = name
    return build


register("structure_extractor")(StructureExtractor)
register("path_kernel")(PathKernel)
register("tree_structure_extractor")(TreeStructureExtractor)
register("tree_kernel")(TreeKernel)
register("klsh")(KLSHEncoder)
register("random_subspace_forest")(RandomSubspaceForest)
register("kernel_svm")(KernelSVM)
register("knn")(_sklearn("sklearn.neighbors:KNeighborsClassifier"))
register("similarity_features")(SimilarityFeatures)
register("g2p")(G2PEmbedding)
register("mse_flda")(MSEFLDA)
register("nonstationary_path_kernel")(NonstationaryPathKernel)
register("mi_klsh")(MIOptimisedKLSH)
register("ensemble")(ProbabilityEnsemble)
register("pair_features")(PairFeatureExtractor)
register("logistic_regression")(_sklearn("sklearn.linear_model:LogisticRegression"))
# rows scaled to unit norm (sparse pair features)
register("normalizer")(_sklearn("sklearn.preprocessing:Normalizer"))
register("naive_bayes_scaler")(NaiveBayesScaler)  # NB log-count ratios (sparse pair features)
register("frequent_features")(FrequentFeatureSelector)  # top-k columns, dense (for trees)
register("pair_vectors")(PairVectorFeatures)  # mean word vectors of a pair's contexts (dense)
register("hist_gradient_boosting")(
    _sklearn("sklearn.ensemble:HistGradientBoostingClassifier"))
register("extra_trees")(PackedExtraTrees)  # randomised trees, packed (dense frequent features)


@register("pipeline")
def _sub_pipeline(steps: list) -> Pipeline:
    """A nested pipeline of already-built components (e.g. an ensemble member)."""
    from sklearn.pipeline import Pipeline

    if not steps:
        raise ConfigError("a pipeline component needs steps = [...]")
    return Pipeline(_named(steps))


def _named(parts: list) -> list[tuple[str, Any]]:
    """``(name, component)`` pairs for a nested Pipeline or FeatureUnion: index + class name."""
    return [(f"{i}_{type(p).__name__.lower()}", p) for i, p in enumerate(parts)]


@register("feature_union")
def _feature_union(parts: list) -> FeatureUnion:
    """Already-built transformers side by side: their outputs concatenated column-wise."""
    from sklearn.pipeline import FeatureUnion

    if not parts:
        raise ConfigError("a feature_union component needs parts = [...]")
    return FeatureUnion(_named(parts))


@register("sum_kernel")
def _sum_kernel(kernels: list, weights: list[float] | None = None) -> SumKernel:
    return SumKernel(kernels=kernels, weights=weights)


from relx.errors import ConfigError  # noqa: E402,F401  (its home before relx.errors)


def load_config(path: str | Path) -> dict[str, Any]:
    """Read a pipeline TOML; the file name is kept under ``[pipeline] source``."""
    path = Path(path)
    try:
        cfg = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    cfg.setdefault("pipeline", {}).setdefault("source", str(path))
    return cfg


def apply_overrides(cfg: dict[str, Any], overrides: Mapping[str, Any] | Sequence[str]
                    ) -> dict[str, Any]:
    """Set ``section.key`` values on a loaded config, in place; returns it.

    ``overrides``: ``{"section.key": value}`` or CLI strings ``"section.key=value"``, whose
    value is read as a TOML value (``3``, ``0.5``, ``true``, ``"x"``, ``[1, 2]``) or else
    taken as a bare string (``ensemble.prior_shift=none``).
    """
    items = overrides.items() if isinstance(overrides, Mapping) else map(_split_override,
                                                                          overrides)
    for dotted, value in items:
        section, dot, key = dotted.rpartition(".")
        if not dot or not section or not key:
            raise ConfigError(f"override {dotted!r}: expected section.key")
        target = cfg.setdefault(section, {})
        if not isinstance(target, dict):
            raise ConfigError(f"override {dotted!r}: {section!r} is not a config section")
        target[key] = value
    return cfg


def _split_override(item: str) -> tuple[str, Any]:
    dotted, eq, raw = item.partition("=")
    if not eq:
        raise ConfigError(f"override {item!r}: expected section.key=value")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return dotted.strip(), value


def _resolve(cfg: dict[str, Any], value: Any, seen: tuple[str, ...]) -> Any:
    if isinstance(value, str) and isinstance(cfg.get(value), dict) and "component" in cfg[value]:
        return build_component(cfg, value, seen)
    if isinstance(value, list):
        return [_resolve(cfg, v, seen) for v in value]
    return value


def build_component(cfg: dict[str, Any], section: str, seen: tuple[str, ...] = ()) -> Any:
    if section in seen:
        raise ConfigError(f"config sections refer to each other in a cycle: {' -> '.join(seen)}")
    spec = dict(cfg.get(section) or {})
    name = spec.pop("component", None)
    if name not in COMPONENTS:
        raise ConfigError(f"[{section}] component {name!r} is not registered; "
                          f"known: {sorted(COMPONENTS)}")
    kwargs = {k: _resolve(cfg, v, (*seen, section)) for k, v in spec.items()}
    try:
        return COMPONENTS[name](**kwargs)
    except TypeError as exc:
        raise ConfigError(f"[{section}] {exc}") from None


def build_pipeline(cfg: dict[str, Any], random_state: int | None = None) -> Pipeline:
    """Chain the ``[pipeline] steps`` sections; ``random_state`` overrides every step's seed."""
    from sklearn.pipeline import Pipeline

    steps = cfg.get("pipeline", {}).get("steps")
    if not steps:
        raise ConfigError("config needs [pipeline] steps = [...]")
    pipe = Pipeline([(s, build_component(cfg, s)) for s in steps])
    if random_state is not None:
        for _, est in pipe.steps:
            if "random_state" in est.get_params(deep=False):
                est.set_params(random_state=random_state)
    return pipe
