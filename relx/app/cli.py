"""The ``relx`` command line."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from relx.app import cli_serve, cli_train  # noqa: F401  (register serve, evaluate, train)
from relx.app.cli_common import app, err, task_option, user_errors
from relx.errors import ConfigError, RelxError
from relx.io.format_docs import label, readable, streams, taking, with_mentions
from relx.io.registry import FORMATS
from relx.tasks import DEFAULT_TASK, TASKS, Task

_INPUT_FORMAT = f"Input format (default: detect): one of {', '.join(readable())}."


def _output_formats() -> str:
    """Per task, the ``--format`` choices and what is always written (from FORMATS)."""
    out = []
    for t in TASKS.values():
        always = [n for n in t.always if n in FORMATS]
        extra = [n for n in taking(t.items) if n not in always]
        out.append(f"with --task {t.name}: {', '.join(extra)} ({', '.join(always)} always "
                   "written)")
    return "; ".join(out)


@app.command(rich_help_panel="Extract")
def extract(
    inputs: Annotated[list[str], typer.Argument(
        help="Files, folders or globs of a format relx reads, detected from the content: "
             f"{', '.join(readable())}. A file of a folder that relx does not read (a "
             "LICENSE, a README) is passed over: named once on stderr and in summary.json "
             "(files_skipped).")],
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("relx-out"),
    format: Annotated[list[str] | None, typer.Option(
        "--format", help=f"Output format (repeatable): {_output_formats()}. brat folders "
                         "include annotation.conf (gene relations: each an R line between "
                         "its genes' strongest mention pair, NCBI Gene ids as N lines, "
                         "tools.conf). Every gene-relations and ppi batch also "
                         "writes network.graphml, .cyjs and .sif.")
    ] = None,
    input_format: Annotated[str | None, typer.Option(help=_INPUT_FORMAT)] = None,
    task: Annotated[str, typer.Option(
        help="'gene-relations' (the default: document-level relations between genes, "
             "BioRED's type, novel or background, evidence sentences: "
             "gene_relations.jsonl), 'ppi' (mention-level protein pairs in a sentence: "
             "relations.jsonl) or 'events' (GENIA events: events.jsonl and a .txt/.a1/.a2 "
             "per document in --out/standoff; 'ge-events' is an older name).")
    ] = DEFAULT_TASK,
    model: Annotated[str | None, typer.Option(help="Model name or directory (default: the "
                                                   "shipped gene-relations; ppi-default "
                                                   "with --task ppi, ge-events with "
                                                   "--task events).")] = None,
    spacy_model: Annotated[str | None, typer.Option(
        help="spaCy/scispacy pipeline for parsing and NER (default: relx's).")] = None,
    threshold: Annotated[str | None, typer.Option(
        metavar="NUMBER|in-domain",
        help="--task ppi: report pairs scoring above this number, or 'in-domain': the "
             "model's scores and threshold for text like its training corpus (default: its "
             "threshold for new text). Gene relations use their model's threshold.")
    ] = None,
    ground: Annotated[bool, typer.Option(help="Ground proteins to HGNC/FamPlex.")] = True,
    types: Annotated[bool, typer.Option(
        help="Type and direct each reported pair (Complex, Phosphorylation, Activation, "
             "Inhibition...; who acts on whom) with the event model, on the same parse; "
             "--no-types: undirected 'Interaction' pairs, faster. Gene relations carry the "
             "strongest typed pair's type and direction beside BioRED's type.")] = True,
    event_model: Annotated[str | None, typer.Option(
        help="Event model for --types (default: the shipped ge-events).")] = None,
    mentions: Annotated[str, typer.Option(
        help="Whose protein mentions: 'auto' (an input's own when its format carries them: "
             f"{', '.join(with_mentions())} -- every document of it, with or without; a "
             "standoff .a1 even when empty; "
             "relx's tagger for the others), 'input', 'relx' "
             "(the tagger's only), 'both' (the input's, plus the tagger's that overlap none; "
             "ppi only). Recorded in summary.json.")] = "auto",
    orthologs: Annotated[str | None, typer.Option(
        help="'human': each protein's ids start with its human orthologs (a mouse or rat "
             "gene's own MGI/RGD ids follow), so networks, INDRA Statements and the report "
             "use human ids; each entity's taxon still says whose gene it is.")] = None,
    same_gene_pairs: Annotated[bool, typer.Option(
        "--same-gene-pairs", help="Also report pairs of two names of one gene (synonyms, "
                                  "an abbreviation and its long form, a family and its "
                                  "member), flagged in 'same_gene'; by default they are "
                                  "not interactions and are left out (--task ppi).")] = False,
    sections: Annotated[str | None, typer.Option(
        metavar="LIST",
        help="Parts of papers read, comma-separated groups or types: title, abstract, "
             "body, captions, footnotes, refs, back (acknowledgements, funding, authors, "
             "competing interests), all; or RESULTS, METHODS, FIG... Default: all but "
             "refs and back. Recorded in summary.json.")] = None,
    pdf_max_pages: Annotated[int, typer.Option(
        help="Read at most this many pages of a PDF (counted in summary.json as "
             "truncated).")] = 300,
    pdf_max_seconds: Annotated[float, typer.Option(
        help="Stop reading a PDF after this many seconds (counted as truncated).")] = 120.0,
    table_cells: Annotated[bool, typer.Option(
        help="Read the cells of JATS tables as text (captions are always read).")] = False,
    jobs: Annotated[int, typer.Option(help="Local worker processes (0: one per core).")] = 1,
    engine: Annotated[str, typer.Option(help="'local' or 'dask'.")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address "
                                                       "(with --engine dask).")] = None,
    report: Annotated[Path | None, typer.Option(
        help="Also write a self-contained HTML report here: the gene (with --task ppi, "
             "interaction) network and a sortable table (with --task events, of the "
             "events).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary.")]
    = False,
    chunk_size: Annotated[int, typer.Option(
        help="Documents per unit of work (scheduled, written and resumed alone).")] = 1000,
    max_input_mb: Annotated[float, typer.Option(
        help="Stop reading an input after this many MiB (decompressed); reported as an "
             "error.")] = 4096,
    max_doc_chars: Annotated[int, typer.Option(
        help="A document longer than this many characters is not extracted (an error of "
             "stage extract, counted in summary.json as documents_over_cap).")] = 2_000_000,
    max_doc_seconds: Annotated[float, typer.Option(
        help="A document still being worked on after this many CPU seconds is given up (as "
             "above).")] = 300.0,
    max_sentence_tokens: Annotated[int, typer.Option(
        help="Sentences with more tokens are not scored (counted in summary.json).")] = 150,
    max_sentence_pairs: Annotated[int, typer.Option(
        help="At most this many candidate pairs scored per sentence, the closest first "
             "(the rest counted in summary.json).")] = 100,
) -> None:
    """Extract document-level gene relations (with **--task ppi**, mention-level
    protein-protein interactions; with **--task events**, GENIA events) from papers and
    abstracts.

    By default each related gene pair of a document is one record: its genes (NCBI Gene
    ids), BioRED's type (Association, Positive_Correlation, Negative_Correlation, Bind)
    beside relx's GENIA-derived type and direction, novel or background, probabilities and
    evidence sentences.

    Writes one output per input file under **--out** (atomically), then
    gene_relations.jsonl (one relation per line; relations.jsonl with --task ppi,
    events.jsonl with --task events), errors.jsonl
    (bad inputs and documents, with the stage and reason) and summary.json. Rerunning with
    the same --out skips finished inputs (unchanged size and time, or content).

    Exit codes: 0 every input done without error; 3 done, but some inputs or documents
    failed (see errors.jsonl); 2 before any work: bad options, an unusable model or
    pipeline, an unwritable --report or --out in use; 1 the run stopped mid-way (a full
    disk, a lost Dask scheduler: rerun to resume) or crashed.
    """
    from rich.progress import Progress, TimeElapsedColumn

    from relx.heap import paused_gc

    with paused_gc():   # the batch's imports (scikit-learn...), meeting no full collection
        from relx.app.batch import (
            BatchOptions,
            check_options,
            cores,
            input_keys,
            list_inputs,
            run_batch,
        )

        given_threshold = _threshold_option(threshold)
    the_task = task_option(task)
    if not (math.isfinite(max_input_mb) and max_input_mb > 0):
        raise typer.BadParameter(f"--max-input-mb must be a positive number, not {max_input_mb}")
    if jobs < 0:
        raise typer.BadParameter(f"--jobs must be 1 or more (0: one per core), not {jobs}")
    jobs = jobs or cores()
    formats = tuple(dict.fromkeys([*the_task.always, *(format or [])]))
    opts = BatchOptions(out=str(out), formats=formats, input_format=input_format, model=model,
                        spacy_model=spacy_model, threshold=given_threshold,
                        ground=ground, task=the_task, chunk_size=chunk_size,
                        max_input_bytes=int(max_input_mb * 2**20),
                        max_sentence_tokens=max_sentence_tokens,
                        max_sentence_pairs=max_sentence_pairs, types=types,
                        event_model=event_model, mentions=mentions, orthologs=orthologs,
                        same_gene_pairs=same_gene_pairs, max_doc_chars=max_doc_chars,
                        max_doc_seconds=max_doc_seconds, sections=sections,
                        pdf_max_pages=pdf_max_pages, pdf_max_seconds=pdf_max_seconds,
                        table_cells=table_cells)
    try:
        check_options(opts, jobs=jobs, engine=engine, scheduler=scheduler)
    except ConfigError as exc:
        raise typer.BadParameter(str(exc)) from None
    with user_errors():
        inputs = _spool_streams(inputs, opts.max_input_bytes)
    skipped: list[tuple[Path, str]] = []
    try:
        files, roots = list_inputs(inputs, with_roots=True, skipped=skipped,
                                   detect=input_format is None)
    except FileNotFoundError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    if not files:
        why = "".join(f"\n  {p}: {r}" for p, r in skipped[:10])
        err.print(f"[red]error:[/] no input files of a known format{why}", highlight=False)
        raise typer.Exit(2)
    console = Console(stderr=True, quiet=quiet)
    progress = Progress("{task.description}", TimeElapsedColumn(), console=console,
                        transient=True, disable=quiet or not console.is_terminal)
    found = the_task.results
    counts = {"documents": 0, found: 0}

    def advance(rec: dict) -> None:
        for k in counts:
            counts[k] += rec.get(k, 0)
        progress.update(bar, description=f"extracting: {counts['documents']:,} documents, "
                                         f"{counts[found]:,} {found}")

    if report is not None:
        _check_writable(report)
    with user_errors(), _aborted():
        with progress:
            bar = progress.add_task("extracting", total=None)
            summary = run_batch(files, opts, jobs=jobs, engine=engine, scheduler=scheduler,
                                on_done=advance, keys=input_keys(files, roots),
                                skipped_files=skipped)
    report_error = None
    if report is not None:
        try:
            _write_report(out, report, summary, the_task)
        except OSError as exc:          # the batch's outputs stand: say so, exit 1 below
            report_error = f"--report {report}: {exc.strerror or exc}"
    if summary["files_skipped"]:
        typer.echo(_skipped_line(summary["files_skipped"]), err=True)
    if summary["errors"]:
        typer.echo(f"relx extract: {summary['errors']} errors in "
                   f"{len(summary['inputs_with_errors'])} of {summary['inputs']} "
                   f"inputs; see {out / 'errors.jsonl'}", err=True)
    _print_summary(console, summary, out, None if report_error else report, the_task)
    if report_error:
        err.print(f"[red]error:[/] the report was not written: {report_error}; the batch's "
                  f"outputs are complete in {out} (`relx extract` again with the same --out "
                  "writes the report without redoing any input)", highlight=False)
        raise typer.Exit(1)
    if summary["errors"]:
        raise typer.Exit(EXIT_SOME_FAILED)


def _skipped_line(skipped: list[dict[str, str]], shown: int = 5) -> str:
    """The files of the input folders passed over (no input format), on one line."""
    names = "; ".join(f"{Path(s['file']).name} ({s['reason']})" for s in skipped[:shown])
    more = f"; and {len(skipped) - shown} more" if len(skipped) > shown else ""
    return (f"relx extract: {len(skipped)} files not read, of no input format: {names}{more} "
            "(summary.json: files_skipped)")


def _spool_streams(inputs: list[str], max_bytes: int | None) -> list[str]:
    """Inputs that can be read only once (``-``, a pipe, a FIFO, ``<(...)``) copied once
    into a temporary file (at most ``max_bytes``), removed when the process ends; a pipe
    no one writes to is refused (never a hang)."""
    import atexit

    from relx.io import source
    from relx.io.source import is_stream, spooled

    if not any(a == "-" or is_stream(a) for a in inputs):
        return inputs
    stack = ExitStack()
    atexit.register(stack.close)
    wait = source.WRITER_WAIT_SECONDS
    return [str(stack.enter_context(spooled(a, max_bytes=max_bytes, wait_seconds=wait)))
            if a == "-" or is_stream(a) else a for a in inputs]


@contextmanager
def _aborted() -> Iterator[None]:
    """A batch stopped mid-run for a reason outside its inputs: exit code 1, and how to
    resume (no traceback: it is not a bug)."""
    from relx.errors import RunAborted

    try:
        yield
    except RunAborted as exc:
        err.print(f"[red]error:[/] the batch stopped: {exc}", highlight=False)
        raise typer.Exit(1) from None


def _check_writable(report: Path) -> None:
    """--report must be writable before any work (its folder exists or can be made)."""
    folder = report.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise typer.BadParameter(f"--report {report}: cannot create its folder: "
                                 f"{exc.strerror or exc}") from None
    if report.is_dir() or not os.access(folder, os.W_OK) or (
            report.exists() and not os.access(report, os.W_OK)):
        raise typer.BadParameter(f"--report {report}: not a writable file")


def _print_summary(console: Console, summary: dict, out: Path, report: Path | None,
                   task: Task) -> None:
    """The closing lines of `relx extract` (counts, where the results are)."""
    if summary.get("skipped_pairs"):
        console.print(f"over the per-sentence caps: {summary['skipped_sentences']} sentences "
                      f"and {summary['skipped_pairs']} candidate pairs not scored")
    console.print(task.summary_line.format(**summary))
    if summary.get("truncated"):
        console.print(f"{summary['truncated']} PDFs read only in part (--pdf-max-pages, "
                      "--pdf-max-seconds): see summary.json")
    where = [f"results: {out / f'{task.results}.jsonl'}"]
    if "standoff" in task.always:
        where.append(f"standoff: {out / 'standoff'}")
    if summary["errors"]:
        where.append(f"errors: {out / 'errors.jsonl'}")
    if report:
        where.append(f"report: {report}")
    console.print("  ".join(where))


def _write_report(out: Path, report: Path, summary: dict, task: Task) -> None:
    """The HTML report of a finished batch, from its merged JSONL."""
    import json

    lines = (out / f"{task.results}.jsonl").read_text(encoding="utf-8").splitlines()
    task.runner_().write_report([json.loads(line) for line in lines], report, summary)


@app.command(rich_help_panel="Extract")
def models(
    path: Annotated[Path | None, typer.Option(help="Folder to list (default: relx's models/).")]
    = None,
    clear_cache: Annotated[bool, typer.Option(
        "--clear-cache", help="Delete the start-up cache (arrays derived from the lexicon "
                              "and the models, rebuilt by the next run).")] = False,
) -> None:
    """List the installed models (relation, event, parse pipeline): version, size, training
    data and where they are; and the start-up cache (``RELX_CACHE_DIR``; ``0``: off)."""
    from relx import array_cache
    from relx.model_store import installed_models, models_dir

    if clear_cache:
        err.print(f"deleted {array_cache.clear()} start-up cache entries")

    t = Table(title=f"relx models in {path or models_dir()}")
    for col in ("name", "kind", "task", "version", "MB"):
        t.add_column(col, no_wrap=True)
    t.add_column("trained on", overflow="fold")
    found = installed_models(path)
    for m in found:
        t.add_row(m["name"], m["kind"], str(m["task"]), str(m["version"]), str(m["size_mb"]),
                  m["trained_on"])
    Console().print(t)
    folder, kept = array_cache.cache_dir(), array_cache.entries()
    size = sum(p.stat().st_size for p in kept) / 1e6
    Console().print(f"start-up cache: {folder} ({len(kept)} entries, {size:.0f} MB)"
                    if folder is not None else "start-up cache: off")
    if not found:
        raise typer.Exit(1)


@app.command("network", rich_help_panel="Extract")
def network_command(
    out_dir: Annotated[Path, typer.Argument(
        help="A relx extract output folder (holding relations.jsonl, or the default "
             "task's gene_relations.jsonl).")],
    keep_negated: Annotated[bool, typer.Option(
        "--keep-negated", help="Count negated relations as evidence of edges (default: left "
                               "out, counted apart in each edge's 'negated').")] = False,
    top: Annotated[int, typer.Option(help="Evidence sentences kept per edge (highest "
                                          "probability first).")] = 3,
) -> None:
    """Aggregate a finished batch's relations across documents into one network:
    **network.graphml**, **network.cyjs** (Cytoscape.js JSON) and **network.sif** in OUT_DIR.

    One edge per grounded protein pair, relation type and direction (gene relations: per
    gene pair and BioRED type, with how many are novel), with its number of documents,
    the PMIDs, the best evidence sentences and the max and mean probability.
    """
    from relx.io.network import write_networks

    try:
        res = write_networks(out_dir, keep_negated=keep_negated, top=top)
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    err.print(f"{res['relations']} relations -> {res['nodes']} proteins, {res['edges']} "
              f"edges; {res['negated_left_out']} negated relations left out")
    err.print("written: " + "  ".join(res["files"]))


def _threshold_option(value: str | None) -> float | str | None:
    """--threshold: a finite number, ``in-domain`` or nothing (the model's new-text
    threshold)."""
    import math

    from relx.ppi.model import IN_DOMAIN

    if value is None or value == IN_DOMAIN:
        return value
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise typer.BadParameter(f"--threshold must be a number or '{IN_DOMAIN}', "
                                 f"not {value!r}")
    return number


#: `relx extract` exit code: the batch finished, but some inputs or documents failed
EXIT_SOME_FAILED = 3


parser_app = typer.Typer(help="relx's tagger and dependency parser.", no_args_is_help=True)
app.add_typer(parser_app, name="parser", rich_help_panel="Parse")


def _mount_ner() -> None:
    from relx.parse.ner import ner_app

    app.add_typer(ner_app, name="ner", help="Protein/gene NER: training corpus and evaluation.",
                  rich_help_panel="Parse")


_mount_ner()


@app.command(rich_help_panel="Parse")
def parse(
    files: Annotated[list[Path], typer.Argument(help="Input files (any format relx reads).",
                                                exists=True, dir_okay=False)],
    format: Annotated[str, typer.Option(
        "--format", help="Output: " + "; ".join(f"{n} ({label(n)})"
                                                for n in streams()) + ".")] = "conllu",
    input_format: Annotated[str | None, typer.Option(help=_INPUT_FORMAT)] = None,
    out: Annotated[Path | None, typer.Option(help="Output file (default: stdout).")] = None,
    spacy_model: Annotated[str | None, typer.Option(
        help="spaCy/scispacy pipeline name or path (default: relx's shipped pipeline).")] = None,
) -> None:
    """Split, tag and parse documents; write CoNLL-U, relx JSONL or sentence graphs."""
    from relx.io.atomic import atomic_open
    from relx.io.registry import load_spec
    from relx.parse.pipeline import Parser, parse_files

    choices = sorted(streams())
    if format not in choices:
        raise typer.BadParameter(f"--format must be one of {', '.join(choices)}")
    write = load_spec(FORMATS[format].stream or "")
    with user_errors():
        docs = parse_files(files, Parser(spacy_model), input_format)
        with (atomic_open(out, "w") if out else _stdout()) as fh:
            for doc in docs:
                write(doc, fh)


def _stdout():
    from contextlib import nullcontext

    return nullcontext(sys.stdout)


@parser_app.command("evaluate")
def parser_evaluate(
    conllu: Annotated[Path, typer.Option(help="Gold treebank, CoNLL-U or CoNLL-X (10 columns).",
                                         exists=True, dir_okay=False)],
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
    scheme: Annotated[str, typer.Option(help="Gold labels: auto, craft or stanford (converted "
                                             "to CRAFT).")] = "auto",
    spacy_model: Annotated[str | None, typer.Option(
        help="Pipeline to score (default: relx's shipped pipeline).")] = None,
) -> None:
    """Score tagging and parsing on a gold treebank with gold tokenisation (UAS, LAS, POS)."""
    import json

    from relx.parse.evaluate_parser import evaluate_conllu
    from relx.parse.pipeline import load_nlp

    try:
        res = evaluate_conllu(load_nlp(spacy_model), conllu, scheme=scheme)
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    if json_out:
        typer.echo(json.dumps(res))
        return
    Console().print(f"{conllu.name}: UAS {res['uas']:.4f}  LAS {res['las']:.4f}  "
                    f"POS {res['pos_acc']:.4f}  ({res['sentences']} sentences, "
                    f"{res['tokens']} tokens)")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())

