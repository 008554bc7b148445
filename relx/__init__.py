"""relx: biomedical relation extraction with structured kernels.

    import relx
    ex = relx.load()          # shipped PPI model + relx's biomedical spaCy pipeline
    for rel in ex.extract("STAT5 is phosphorylated by JAK1 in T cells."):
        print(rel.entity1.text, rel.entity2.text, rel.score)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from relx.ppi.extract import Extractor


def load(model: str | None = None, **options: Any) -> Extractor:
    """The relation extractor for ``model`` (default: the shipped ``ppi-default``)."""
    from relx.ppi.extract import load as _load

    return _load(model, **options)


__all__ = ["__version__", "load"]
