"""What every ``relx`` command shares: the typer app, stderr, the error handler and tables."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from relx import __version__
from relx.errors import ConfigError, RelxError
from relx.tasks import Task, get_task

# `--set section.key=value` of `relx evaluate` and `relx train`
SetOption = Annotated[list[str] | None, typer.Option(
    "--set", metavar="SECTION.KEY=VALUE",
    help="Override a config value, e.g. --set ensemble.prior_shift=none (repeatable; the "
         "value is read as TOML, else as a string).")]

app = typer.Typer(
    name="relx",
    help="Extract biomedical relations (protein-protein interactions, bio-events) with "
         "structured kernels, and evaluate extraction models on the benchmark corpora.",
    no_args_is_help=True, add_completion=False, rich_markup_mode="markdown",
)
err = Console(stderr=True, soft_wrap=True)   # paths in messages stay whole


def _version(value: bool) -> None:
    if value:
        typer.echo(f"relx {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                               help="Print the version and exit.")] = False) -> None:
    """relx: biomedical relation extraction with structured kernels."""


def results_table(title: str, rows: list[tuple[str, dict]]) -> Table:
    t = Table(title=title)
    for col in ("", "P", "R", "F1", "AUC", "n_train", "n_test", "train s", "predict s"):
        t.add_column(col, justify="right" if col else "left")
    for name, r in rows:
        t.add_row(name, f"{r['precision']:.3f}", f"{r['recall']:.3f}", f"{r['f1']:.3f}",
                  f"{r['roc_auc']:.3f}", str(r.get("n_train", "")), str(r.get("n_test", "")),
                  f"{r.get('train_seconds', 0):.1f}", f"{r.get('predict_seconds', 0):.1f}")
    return t


@contextmanager
def user_errors() -> Iterator[None]:
    """relx's user errors (:class:`relx.errors.RelxError`) and OS errors as one ``error:``
    line on stderr and exit code 2; anything else is a bug and keeps its traceback."""
    try:
        yield
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(2) from None


def task_option(name: str) -> Task:
    """``--task``: a task name (an older spelling is accepted, with a note on stderr)."""
    import warnings

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DeprecationWarning)
            task = get_task(name)
    except ConfigError as exc:
        raise typer.BadParameter(str(exc)) from None
    for w in caught:
        err.print(f"note: {w.message}", highlight=False)
    return task
