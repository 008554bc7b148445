"""relx's user errors: one base class, caught by type by the CLI, the batch and the API.

``RelxError`` is a ``ValueError`` (so code that caught ``ValueError`` before still does);
what is not a ``RelxError`` (or an ``OSError``) is a bug and keeps its traceback.

- :class:`ModelError`: a model (relation, event, vectors, parse pipeline) that cannot be
  used: missing, damaged, wrong format version, untrusted types.
- :class:`ConfigError`: a pipeline config or option that is not valid.
- :class:`ReaderError`: malformed input; names the file, the place and, when known, the
  document.
- :class:`BatchError`: a batch cannot start or go on (its output folder in use, a worker
  that cannot work at all).
- :class:`RunAborted`: a running batch stopped for a reason outside its inputs (a full
  disk, a lost Dask scheduler); the CLI exits with code 1 (the run resumes), not 2.
"""

from __future__ import annotations

from pathlib import Path


class RelxError(ValueError):
    """The base of every error relx raises for its user (not for a bug)."""


class ModelError(RelxError):
    """A model directory or file that cannot be used (missing, damaged, wrong format
    version, untrusted)."""


class ConfigError(RelxError):
    """A pipeline config, a ``--set`` override or an option that is not valid."""


class BatchError(RelxError):
    """A batch that cannot start or go on (its ``--out`` in use, no worker can work)."""


class RunAborted(RelxError):
    """A running batch had to stop for a reason outside its inputs (disk full, the Dask
    scheduler lost); what is finished is kept and a rerun of the same command resumes."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"{what}; the finished inputs are kept: rerun the same command "
                         "(same --out) to resume")

    def __reduce__(self) -> tuple:       # crosses a worker's pipe as itself
        return (type(self), (self.what,))


class ReaderError(RelxError):
    """Malformed input; the message names the file and the element id or line.

    ``document``: the id of the document the error is about, when known (the rest of the
    file may still be readable: readers given an ``on_error`` callback report such errors
    and go on with the next document).
    """

    def __init__(self, path: str | Path, where: str, message: str,
                 document: str | None = None) -> None:
        self.path = str(path)
        self.where = where
        self.reason = message
        self.document = document
        super().__init__(f"{path}: {where}: {message}")

    def __reduce__(self) -> tuple:       # crosses a worker's pipe as itself
        return (type(self), (self.path, self.where, self.reason, self.document))


__all__ = ["BatchError", "ConfigError", "ModelError", "ReaderError", "RelxError", "RunAborted"]
