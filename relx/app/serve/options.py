"""Per-request extraction options of ``relx serve``, as ``relx extract`` takes them:
``threshold``, ``sections``, ``mentions``, ``orthologs``.

:class:`Options` checks their types (a 422 naming the field); :func:`check` what depends
on the task and the names (an option the task does not take, an unknown section); and
:func:`configured` gives the loaded extractor with a request's options: a shallow copy
sharing the models, so one request's choice never reaches another's.
"""

from __future__ import annotations

import copy
import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from relx.tasks import Task

IN_DOMAIN = "in-domain"   # relx.ppi.model.IN_DOMAIN (not imported: the task's floor)
OPTION_NAMES = ("threshold", "sections", "mentions", "orthologs")


class Options(BaseModel):
    """What ``relx extract``'s ``--threshold``, ``--sections``, ``--mentions`` and
    ``--orthologs`` say, per request (None: the server's default, as the CLI's)."""

    model_config = ConfigDict(extra="forbid")
    threshold: float | Literal["in-domain"] | None = Field(
        default=None, description="report pairs scoring above this number (0 to 1), or "
                                  "'in-domain': the model's scores and threshold for text "
                                  "like its training corpus (ppi only; gene relations use "
                                  "their model's)")
    sections: str | None = Field(
        default=None, max_length=1000,
        description="parts of papers read, comma-separated: title, abstract, body, captions, "
                    "footnotes, refs, back, all, or section types (RESULTS, METHODS...)")
    mentions: Literal["auto", "input", "relx", "both"] | None = Field(
        default=None, description="whose protein mentions: the input's own (auto, input), "
                                  "relx's tagger's (relx) or both (ppi, gene-relations)")
    orthologs: Literal["human"] | None = Field(
        default=None, description="'human': each protein's ids start with its human "
                                  "orthologs (ppi, gene-relations)")

    @field_validator("threshold", mode="before")
    @classmethod
    def _in_unit_interval(cls, v: Any) -> Any:
        """One clear message for any bad threshold (a string, a number out of range)."""
        if v is None or v == IN_DOMAIN:
            return v
        try:
            number = float(v) if isinstance(v, str | int | float) and not isinstance(
                v, bool) else math.nan
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and 0.0 <= number <= 1.0):
            raise ValueError(f"the threshold is a number from 0 to 1 or '{IN_DOMAIN}', "
                             f"not {v!r}")
        return number

    def given(self) -> dict[str, Any]:
        """The options set (not None)."""
        return {k: v for k in OPTION_NAMES if (v := getattr(self, k)) is not None}


def merged(*layers: Options) -> Options:
    """The options of ``layers``, a later one's set options winning (the body over the
    query string)."""
    out: dict[str, Any] = {}
    for layer in layers:
        out.update(layer.given())
    return Options(**out)


def check(task: Task, options: Options) -> str | None:
    """Why ``options`` cannot be used with ``task`` (None: they can)."""
    from relx.errors import ConfigError
    from relx.io.papers import sections_option

    for name, value in options.given().items():
        if name != "sections" and name not in task.options:
            return f"{name} is not an option of task {task.name}"
        if name == "mentions" and value not in task.mentions:
            return (f"mentions must be one of {', '.join(task.mentions)} for task "
                    f"{task.name}, not {value!r}")
    if options.sections is not None:
        try:
            sections_option(options.sections)
        except ConfigError as exc:
            return str(exc)
    return None


class Calibrations:
    """The relation model's calibrators, new-text and in-domain, each read once."""

    def __init__(self, model: Any) -> None:
        self.model, self._got = model, {}

    def __call__(self, in_domain: bool) -> Any:
        if in_domain not in self._got:
            from relx.ppi.calibration import model_calibration

            self._got[in_domain] = model_calibration(self.model, in_domain)
        return self._got[in_domain]


def configured(extractor: Any, options: Options, calibrations: Calibrations) -> Any:
    """``extractor`` with ``options`` (checked by :func:`check`): itself when none is set,
    else a shallow copy with its own threshold, sections, mentions or orthologs (the
    models, the parse pipeline and the lexicons shared); for a gene relation extractor,
    a copy whose mention-level extractor (``pairs``) is so configured."""
    given = options.given()
    if not given:
        return extractor
    inner = getattr(extractor, "pairs", None)
    if inner is not None:   # gene relations: its mention-level extractor reads the documents
        view = copy.copy(extractor)
        view.__dict__.pop("_skipped", None)
        view.pairs = configured(inner, options, calibrations)
        return view
    from relx.io.papers import sections_option

    view = copy.copy(extractor)
    view.__dict__.pop("_skipped", None)   # counts of its own
    if "threshold" in given:
        threshold = given["threshold"]
        view.in_domain = threshold == IN_DOMAIN
        view.threshold = (view.model.in_domain_threshold if view.in_domain
                          else float(threshold))
        view.calibration = calibrations(view.in_domain)
    if "sections" in given:
        view.sections = sections_option(given["sections"])
    if "orthologs" in given:
        view.orthologs = given["orthologs"]
    if "mentions" in given:
        if isinstance(getattr(type(view), "mentions", None), property):
            view.parser = copy.copy(view.parser)   # the property sets the parser's
        view.mentions = given["mentions"]
    return view
