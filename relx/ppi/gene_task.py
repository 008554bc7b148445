"""Document-level gene relations in a batch (:class:`relx.tasks.TaskRunner` of task
``gene-relations``, ``relx extract``'s default): one record per related gene pair of a
document (:class:`relx.ppi.gene_relations.GeneRelation`). Formats get the relations
(``gene_relations``: JSONL, TSV, INDRA) or the documents with them (``gene_documents``:
BioC, PubTator); the batch summary writes the gene network (``network.graphml``,
``.cyjs``, ``.sif``) and the report draws it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from relx.ppi.task import InteractionRunner
from relx.tasks import Done


class GeneRelationRunner(InteractionRunner):
    """The interaction runner's models and settings, plus the gene relation model (its
    pairs are typed by the event model alone: the model reads event types)."""

    pair_typer = False

    def models(self, model: str | None, options: Mapping[str, Any]
               ) -> list[tuple[str, str, str]]:
        found = super().models(model, options)
        found.insert(1, ("ppi-default", "relation model", "the gene relation model's pair scorer"))
        return found

    def items(self, done: Done) -> dict[str, list[Any]]:
        return {"gene_relations": [r for _, found, _ in done for r in found],
                "gene_documents": [(d, found) for d, found, _ in done]}

    def write_report(self, records: list[dict[str, Any]], path: Path,
                     summary: Mapping[str, Any]) -> None:
        """The gene network and a row per gene relation (:mod:`relx.ppi.gene_report`)."""
        from relx.ppi.gene_report import write_gene_report

        write_gene_report(records, path, title=f"relx: {len(records)} gene relations",
                          summary=dict(summary))
