"""The GENIA event task in a batch (:class:`relx.tasks.TaskRunner` of task ``events``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from relx.tasks import Done, Task


class EventRunner:
    """Events per document, and a BioNLP-ST standoff triple per document."""

    def __init__(self, task: Task) -> None:
        self.task = task

    def models(self, model: str | None, options: Mapping[str, Any]
               ) -> list[tuple[str, str, str]]:
        return [(model or self.task.default_model, self.task.model_kind, "--model")]

    def settings(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"types": None}

    def counts(self, done: Done) -> dict[str, int]:
        return {"triggers": sum(len(pred.triggers) for _, _, pred in done),
                "events": sum(len(evs) for _, evs, _ in done)}

    def record(self, extractor: Any) -> dict[str, Any]:
        return {}

    def items(self, done: Done) -> dict[str, list[Any]]:
        return {"events": [e for _, evs, _ in done for e in evs], "event_documents": done}

    def write_direct(self, done: Done, out: Path, owner: Callable[[int], str],
                     claim: Callable[[Path, str, str], str],
                     on_error: Callable[[str, str, str], None]) -> None:
        """``standoff/<stem>.txt/.a1/.a2`` per document, under a stem claimed for it."""
        from relx.ge.extract import write_standoff_triple
        from relx.io.brat import file_stems

        stems = file_stems(pred.id for _, _, pred in done)
        for k, ((_, _, pred), stem) in enumerate(zip(done, stems, strict=True)):
            try:
                write_standoff_triple(pred, out / "standoff", claim(out, stem, owner(k)))
            except (ValueError, UnicodeError) as exc:
                on_error(pred.id, "write:standoff", str(exc))

    def summary(self, out: Path, records: list[dict[str, Any]], settings: Mapping[str, Any]
                ) -> dict[str, Any]:
        return {}

    def write_report(self, records: list[dict[str, Any]], path: Path,
                     summary: Mapping[str, Any]) -> None:
        from relx.ge.report import write_event_report

        write_event_report(records, path, title=f"relx: {len(records)} events",
                           summary=dict(summary))

