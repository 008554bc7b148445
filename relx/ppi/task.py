"""The interaction task in a batch (:class:`relx.tasks.TaskRunner` of task ``ppi``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from relx.model_store import model_meta
from relx.ppi.pair_typer import DEFAULT_PAIR_TYPER
from relx.tasks import Done, Task


class InteractionRunner:
    """Relations per sentence pair; typed by the pair typer and the event model unless
    ``types`` is off."""

    #: whether the typed pass types with the pair typer too (the gene relation task: no)
    pair_typer = True

    def __init__(self, task: Task) -> None:
        self.task = task

    def _event_model(self, options: Mapping[str, Any]) -> str | None:
        """The event model typing the pairs (None: untyped)."""
        if not options.get("types", True):
            return None
        return options.get("event_model") or self.task.event_model

    def models(self, model: str | None, options: Mapping[str, Any]
               ) -> list[tuple[str, str, str]]:
        found = [(model or self.task.default_model, self.task.model_kind, "--model")]
        event_model = self._event_model(options)
        if event_model:
            found.append((event_model, "event model", "--event-model (or --no-types)"))
            if self.pair_typer:
                found.append((DEFAULT_PAIR_TYPER, "pair typer", "--no-types"))
        return found

    def settings(self, options: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"types": bool(options.get("types", True))}
        event_model = self._event_model(options)
        if event_model:
            meta = model_meta(event_model)
            out.update(event_model=event_model, event_model_version=meta.get("version"),
                       event_model_created=meta.get("created"))
            if self.pair_typer:
                out.update(pair_typer=DEFAULT_PAIR_TYPER,
                           pair_typer_version=model_meta(DEFAULT_PAIR_TYPER).get("version"))
        return out

    def counts(self, done: Done) -> dict[str, int]:
        return {"candidates": sum(n for _, _, n in done),
                "relations": sum(len(found) for _, found, _ in done)}

    def record(self, extractor: Any) -> dict[str, Any]:
        return {"threshold": round(float(extractor.threshold), 4)}  # the cut applied

    def items(self, done: Done) -> dict[str, list[Any]]:
        return {"relations": [r for _, found, _ in done for r in found],
                "documents": [d for d, _, _ in done]}

    def write_direct(self, done: Done, out: Path, owner: Callable[[int], str],
                     claim: Callable[[Path, str, str], str],
                     on_error: Callable[[str, str, str], None]) -> None:
        return None

    def summary(self, out: Path, records: list[dict[str, Any]], settings: Mapping[str, Any]
                ) -> dict[str, Any]:
        """The threshold applied, and the network across documents (``relx network``) of
        the task's results file."""
        summary: dict[str, Any] = {"threshold": next(
            (r["threshold"] for r in records if r.get("threshold") is not None), None)}
        results = out / f"{self.task.results}.jsonl"
        if results.is_file():
            from relx.io.network import write_networks

            try:
                summary["network"] = {k: v for k, v in write_networks(
                    out, relations=results).items() if k != "files"}
            except (OSError, ValueError) as exc:   # the merged outputs stand without it
                summary["network"] = {"error": f"{type(exc).__name__}: {exc}"}
        return summary

    def write_report(self, records: list[dict[str, Any]], path: Path,
                     summary: Mapping[str, Any]) -> None:
        from relx.ppi.report import write_report

        write_report(records, path, title=f"relx: {len(records)} interactions",
                     summary=dict(summary))

