"""relx's GE event extractor with every lever measured and not shipped.

:class:`LabGEExtractor` reads the configs of relx's :class:`~relx.ge.pipeline.GEExtractor`
and also:

* ``[triggers]``: the levers of :class:`~lab.ge.triggers.LeverTriggerDetector`
  (``type_bias``, ``lexicon_variants``, ``vectors``/``neighbours``, ``dependency_classes``,
  ``dict_groups``, ``class_weight``, ``classifier = "logreg"``);
* ``[stacking] triggers = true`` (with ``folds``, ``slack``, ``C``, ``none_bias``,
  ``edge_scores``, ``groups``, ``type_bias``): a stacked trigger model
  (:class:`~lab.ge.stacking.StackedTriggerDetector`, event model format 4);
* ``[edges] context``: :class:`~lab.ge.edges.ContextEdgeDetector`;
* ``[assembly] binding``: every rule of :data:`lab.ge.binding.GROUPINGS` and ``learned``
  (:class:`~lab.ge.binding.BindingGrouper`, fitted on every training run so a sweep can
  compare it; ``binding_C``, ``binding_threshold``).

A config with none of these fits, predicts and saves as relx's (a saved model has the
``binding`` part beside, which relx ignores).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lab.ge.binding import GROUPINGS, BindingGrouper
from lab.ge.edges import ContextEdgeDetector
from lab.ge.stacking import StackedTriggerDetector
from lab.ge.triggers import LeverTriggerDetector
from relx.ge.assemble import Grouping
from relx.ge.pipeline import READABLE_FORMATS, GEExtractor, _section, checked
from relx.ge.sentences import SentenceView

#: format 4: a stacked trigger model (the stage-1 parts beside the rest)
STACKED_FORMAT = 4


class LabGEExtractor(GEExtractor):
    """:class:`~relx.ge.pipeline.GEExtractor` with the levers of the module docstring."""

    binding_strategies = (*GROUPINGS, "learned")
    readable_formats = (*READABLE_FORMATS, STACKED_FORMAT)

    def __init__(self, config: dict[str, Any]) -> None:
        acfg = _section(config, "assembly")
        self.grouper = BindingGrouper(C=float(acfg.pop("binding_C", 1.0)),
                                      threshold=float(acfg.pop("binding_threshold", 0.5)))
        super().__init__({**config, "assembly": acfg} if "assembly" in config else config)
        self.config = config

    def _check_sections(self, config: dict[str, Any]) -> None:
        super()._check_sections({k: v for k, v in config.items() if k != "stacking"})

    def _trigger_detector(self, config: dict[str, Any], seed: int) -> Any:
        tcfg = checked("triggers", _section(config, "triggers"), LeverTriggerDetector)
        scfg = _section(config, "stacking")
        if scfg.pop("triggers", False):   # a second-stage trigger classifier
            return StackedTriggerDetector(
                triggers=tcfg, edge_C=float(_section(config, "edges").get("C", 1.0)),
                **checked("stacking", scfg, StackedTriggerDetector), random_state=seed)
        return LeverTriggerDetector(**tcfg, random_state=seed)

    def _edge_detector(self, ecfg: dict[str, Any], seed: int) -> ContextEdgeDetector:
        return ContextEdgeDetector(**checked("edges", ecfg, ContextEdgeDetector),
                                   random_state=seed)

    def _fit_extra(self, views: Sequence[SentenceView]) -> None:
        self.grouper.fit(views)   # cheap; lets tuning compare

    def grouping(self, binding: str) -> Grouping:
        """The Binding grouping of a strategy name (``learned``: the fitted grouper)."""
        return self.grouper.groups if binding == "learned" else GROUPINGS[binding]

    def _extra_parts(self) -> tuple[dict[str, Any], dict[str, Any]]:
        parts: dict[str, Any] = {}
        meta: dict[str, Any] = {}
        if isinstance(self.triggers, StackedTriggerDetector):
            parts, meta = self.triggers.stage1_parts()
            meta["format_version"] = STACKED_FORMAT
        if self.grouper.model_ is not None:
            parts["binding"] = self.grouper.model_
        return parts, meta

    def _restore_extra(self, parts: dict[str, Any], meta: dict[str, Any]) -> None:
        if isinstance(self.triggers, StackedTriggerDetector):
            self.triggers.restore_stage1(parts, meta)
        self.grouper.model_ = parts.get("binding")
