"""Document-level gene relations in a batch (:class:`relx.tasks.TaskRunner` of task
``gene-relations``): one record per related gene pair of a document
(:class:`relx.ppi.gene_relations.GeneRelation`), written as JSONL."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from relx.ppi.task import InteractionRunner
from relx.tasks import Done


class GeneRelationRunner(InteractionRunner):
    """The interaction runner's models and settings, plus the gene relation model."""

    def models(self, model: str | None, options: Mapping[str, Any]
               ) -> list[tuple[str, str, str]]:
        found = [(model or self.task.default_model, self.task.model_kind, "--model"),
                 ("ppi-default", "relation model", "the gene relation model's pair scorer")]
        event_model = self._event_model(options)
        if event_model:
            found.append((event_model, "event model", "--event-model (or --no-types)"))
        return found

    def record(self, extractor: Any) -> dict[str, Any]:
        return {"threshold": round(float(extractor.threshold), 4)}

    def items(self, done: Done) -> dict[str, list[Any]]:
        return {"gene_relations": [r for _, found, _ in done for r in found]}

    def write_direct(self, done: Done, out: Path, owner: Callable[[int], str],
                     claim: Callable[[Path, str, str], str],
                     on_error: Callable[[str, str, str], None]) -> None:
        return None

    def summary(self, out: Path, records: list[dict[str, Any]], settings: Mapping[str, Any]
                ) -> dict[str, Any]:
        return {"threshold": next((r["threshold"] for r in records
                                   if r.get("threshold") is not None), None)}

    def write_report(self, records: list[dict[str, Any]], path: Path,
                     summary: Mapping[str, Any]) -> None:
        """A one-table HTML page: a row per gene relation, its best evidence sentence."""
        rows = []
        for r in records:
            ev = r.get("evidence") or [{}]
            rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in (
                r["document_id"], "/".join(r["gene1"]["names"][:2]) + f" ({r['gene1']['id']})",
                "/".join(r["gene2"]["names"][:2]) + f" ({r['gene2']['id']})", r["type"],
                "novel" if r["novel"] else "background", f"{r['probability']:.2f}",
                ev[0].get("sentence", ""))) + "</tr>")
        head = "".join(f"<th>{h}</th>" for h in ("document", "gene 1", "gene 2", "type",
                                                 "novelty", "probability", "evidence"))
        path.write_text("<!doctype html><meta charset=utf-8><title>relx: gene relations"
                        f"</title><h1>relx: {len(records)} gene relations</h1><table>"
                        f"<tr>{head}</tr>{''.join(rows)}</table>\n", encoding="utf-8")
