"""Document-level gene relations in a batch (:class:`relx.tasks.TaskRunner` of task
``gene-relations``, ``relx extract``'s default): one record per related gene pair of a
document (:class:`relx.ppi.gene_relations.GeneRelation`). Formats get the relations
(``gene_relations``: JSONL, TSV, INDRA) or the documents with them (``gene_documents``:
BioC, PubTator); the batch summary writes the gene network (``network.graphml``,
``.cyjs``, ``.sif``) and the report draws it."""

from __future__ import annotations

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
        return {"gene_relations": [r for _, found, _ in done for r in found],
                "gene_documents": [(d, found) for d, found, _ in done]}

    def write_direct(self, done: Done, out: Path, owner: Callable[[int], str],
                     claim: Callable[[Path, str, str], str],
                     on_error: Callable[[str, str, str], None]) -> None:
        return None

    def summary(self, out: Path, records: list[dict[str, Any]], settings: Mapping[str, Any]
                ) -> dict[str, Any]:
        """The threshold applied, and the gene network across documents."""
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
        """The gene network and a row per gene relation (:mod:`relx.ppi.gene_report`)."""
        from relx.ppi.gene_report import write_gene_report

        write_gene_report(records, path, title=f"relx: {len(records)} gene relations",
                          summary=dict(summary))
