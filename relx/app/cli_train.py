"""The ``relx`` commands that evaluate and train models: ``evaluate``, ``score-events``,
``train``, ``silver-ppi`` and ``train-vectors`` (registered on :data:`relx.app.cli.app`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from relx.app.cli_common import SetOption, app, err, task_option
from relx.app.cli_common import results_table as _table
from relx.errors import ConfigError, RelxError


@app.command(rich_help_panel="Evaluate and train")
def evaluate(
    config: Annotated[Path, typer.Option(help="Pipeline config (TOML), e.g. configs/ppi-klsh-rf.toml.",
                                         exists=True, dir_okay=False)],
    report: Annotated[Path, typer.Option(help="Write the JSON report here.")],
    train: Annotated[list[Path] | None, typer.Option(help="Training corpus (repeatable).")] = None,
    test: Annotated[Path | None, typer.Option(help="Test corpus.")] = None,
    cv: Annotated[int | None, typer.Option(help="k-fold cross-validation by document.")] = None,
    corpus: Annotated[Path | None, typer.Option(help="Corpus to cross-validate on (with --cv).")] = None,
    extra_train: Annotated[list[Path] | None, typer.Option(
        help="relx JSONL of extra training pairs, e.g. from `relx silver-ppi` (repeatable): "
             "added to the training side of every setting and fold, never tested on; read "
             "as stored (their own parses).")] = None,
    parses: Annotated[str, typer.Option(help="'corpus': the parses shipped in the corpus; "
                                             "'relx': relx's own parser.")] = "corpus",
    corpus_parse: Annotated[str, typer.Option(help="Which shipped parse: split_parse or "
                                                   "Charniak-Lease.")] = "split_parse",
    spacy_model: Annotated[str | None, typer.Option(
        help="With --parses relx: a spaCy/scispacy pipeline name or path instead of relx's.")]
    = None,
    set_: SetOption = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: the config's).")] = None,
    task: Annotated[str, typer.Option(help="'ppi' or 'events' (BioNLP-ST GENIA; --train "
                                           "and --test are directories).")] = "ppi",
    cache_dir: Annotated[Path | None, typer.Option(
        help="With --task events: keep the corpus parses here (relx JSONL) and reuse them "
             "on the next run.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Train and test a pipeline: on **--train** vs **--test** corpora, or by
    **--cv** k-fold cross-validation (folds by document) on **--corpus**.

    PPI corpora are learning-format XML (.xml / .xml.gz) or relx JSONL files; GE event
    corpora (--task events) are BioNLP-ST directories (.txt, .a1, .a2). CV test folds
    come from the training corpus, so an ensemble with an in-domain rule decides by it
    there (the report also gives its new-text rule's figures).
    """
    _cli_trained(task)
    if task_option(task).corpus == "folders":     # BioNLP-ST standoff folders: events
        if set_:
            raise typer.BadParameter("--set applies to PPI pipeline configs (--task ppi)")
        _evaluate_events(config, train, test, report, quiet, cache_dir)
        return
    from relx.ppi.evaluate import (
        cross_validation_report,
        load_corpus,
        train_test_report,
        write_json,
    )
    from relx.registry import apply_overrides, load_config

    out = Console(quiet=quiet)
    try:
        cfg = apply_overrides(load_config(config), set_ or [])
        seed = int(cfg["pipeline"].get("seed", 0)) if seed is None else seed
        extra = [d for p in extra_train or [] for d in load_corpus(p)]
        if cv is not None:
            if corpus is None or train or test:
                raise typer.BadParameter("--cv needs --corpus (and no --train/--test)")
            docs = load_corpus(corpus, parses, corpus_parse, spacy_model)

            def progress(f: int, r: dict) -> None:
                out.print(f"fold {f + 1}/{cv}: P {r['precision']:.3f} R {r['recall']:.3f} "
                          f"F1 {r['f1']:.3f} AUC {r['roc_auc']:.3f} ({r['train_seconds']:.1f} s)")

            res, folds = cross_validation_report(cfg, docs, cv, seed, progress, extra)
            fold_file = report.with_name(report.stem + ".folds.json")
            write_json({"seed": seed, "k": cv, "corpus": str(corpus), "folds": folds}, fold_file)
            res.update(corpus=str(corpus), fold_file=str(fold_file))
            title = f"{cv}-fold CV by document on {corpus.name}"
        else:
            if not train or test is None:
                raise typer.BadParameter("give --train FILE [--train FILE ...] --test FILE, "
                                         "or --cv K --corpus FILE")
            train_docs = [d for p in train for d in load_corpus(p, parses, corpus_parse, spacy_model)]
            test_docs = load_corpus(test, parses, corpus_parse, spacy_model)
            res = train_test_report(cfg, train_docs, test_docs, seed, extra)
            res.update(train=[str(p) for p in train], test=str(test))
            title = f"{'+'.join(p.name for p in train)} -> {test.name}"
    except (RelxError, NotImplementedError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    res.update(parse_source=f"{parses}:{corpus_parse}" if parses == "corpus"
               else f"relx:{spacy_model or 'relx_bio_sm'}",
               seed=seed, config=cfg, extra_train=[str(p) for p in extra_train or []])
    write_json(res, report)
    out.print(_table(title, [(cfg["pipeline"].get("name", config.stem), res)]))
    lo, hi = res["f1_ci95"]
    out.print(f"F1 95 % interval, test documents resampled: {lo:.3f}-{hi:.3f}")
    if cv is not None:
        out.print(f"F1 mean ± sd over folds: {res['f1_mean']:.3f} ± {res['f1_std']:.3f}")
        if "new_text_rule" in res:
            nt = res["new_text_rule"]
            out.print(f"decided by the model's in-domain rule; its new-text rule gives P "
                      f"{nt['precision']:.3f} R {nt['recall']:.3f} F1 {nt['f1']:.3f} "
                      f"({nt['f1_ci95'][0]:.3f}-{nt['f1_ci95'][1]:.3f})")
    out.print(f"report: {report}")


def _evaluate_events(config: Path, train: list[Path] | None, test: Path | None, report: Path,
                     quiet: bool, cache_dir: Path | None = None) -> None:
    from relx.ge.cli import evaluate_ge

    if not train or test is None:
        raise typer.BadParameter("--task events needs --train DIR [--train DIR] --test DIR")
    out = Console(quiet=quiet)
    try:
        with out.status("parsing, training and predicting GE events"):
            res = evaluate_ge(config, train, test, report=report, cache_dir=cache_dir)
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    t = Table(title=f"GE events {'+'.join(p.name for p in train)} -> {test.name} "
                    "(approximate recursive matching)")
    for col in ("type", "gold", "pred", "P", "R", "F1"):
        t.add_column(col, justify="left" if col == "type" else "right")
    for name, r in res["per_type"].items():
        t.add_row(name, str(r["gold"]), str(r["pred"]), f"{r['precision']:.3f}",
                  f"{r['recall']:.3f}", f"{r['f1']:.3f}")
    out.print(t)
    out.print(f"P {res['precision']:.3f} R {res['recall']:.3f} F1 {res['f1']:.3f}; "
              f"train {res['train_seconds']:.0f} s; report: {report}")


@app.command("score-events", rich_help_panel="Evaluate and train")
def score_events(
    gold: Annotated[Path, typer.Option(help="Gold BioNLP-ST directory (.txt, .a1, .a2).",
                                       exists=True, file_okay=False)],
    pred: Annotated[Path, typer.Option(help="Predicted .a2 files (same base names).",
                                       exists=True, file_okay=False)],
    matching: Annotated[str, typer.Option(help="approx-recursive, approx-span or strict.")]
    = "approx-recursive",
    task: Annotated[int, typer.Option(help="Shared-task task 1 (core) or 2 (sites, locations).")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Score predicted GENIA events against gold with the shared task's matching rules.

    A predicted file that cannot be read is named with its line and reason on stderr and
    scored as wrong (its document's gold events missed, each of its event lines a wrong
    prediction); the rest are scored and the exit code is 3. A bad gold folder exits 2."""
    import json

    from relx.ge.evaluate import score_event_dirs

    try:
        res = score_event_dirs(gold, pred, matching=matching, task=task)
    except RelxError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    bad = res["unreadable"]
    for u in bad:      # markup off: file names and reasons may hold [brackets]
        err.print(f"error: {u['file']}: {u['where']}: {u['error']}", markup=False,
                  highlight=False)
    if json_out:
        typer.echo(json.dumps(res, indent=2))
    else:
        _print_event_scores(res, matching, task)
    if bad:
        err.print(f"{len(bad)} of the predicted files could not be read: scored as wrong "
                  f"({sum(u['events'] for u in bad)} event lines counted as wrong "
                  "predictions, their documents' gold events as missed)", markup=False,
                  highlight=False)
        raise typer.Exit(3)


def _print_event_scores(res: dict, matching: str, task: int) -> None:
    """The per-type table of :func:`relx.ge.evaluate.evaluate_events`' result."""
    t = Table(title=f"GE events, {matching} matching, task {task}")
    for col in ("type", "gold", "pred", "P", "R", "F1"):
        t.add_column(col, justify="left" if col == "type" else "right")
    for name, r in res["per_type"].items():
        t.add_row(name, str(r["gold"]), str(r["pred"]), f"{r['precision']:.3f}",
                  f"{r['recall']:.3f}", f"{r['f1']:.3f}")
    mods = res.get("modifications") or {}
    if any(r["gold"] or r["pred"] for r in mods.values()):   # task 3: Negation, Speculation
        t.add_section()
        for name, r in mods.items():
            t.add_row(f"{name} (modification)", str(r["gold"]), str(r["pred"]),
                      f"{r['precision']:.3f}", f"{r['recall']:.3f}", f"{r['f1']:.3f}")
    Console().print(t)


@app.command(rich_help_panel="Evaluate and train")
def train(
    config: Annotated[Path, typer.Option(help="Pipeline config (TOML).", exists=True,
                                         dir_okay=False)],
    train: Annotated[list[Path], typer.Option(help="Training corpus (repeatable): PPI XML or "
                                                   "relx JSONL.")],
    out: Annotated[Path, typer.Option(help="Model directory to write.")],
    name: Annotated[str | None, typer.Option(help="Model name (default: the directory name).")]
    = None,
    version: Annotated[str, typer.Option(help="Model version.")] = "0.1.0",
    parses: Annotated[str, typer.Option(help="'relx' (default: parse like `relx extract` "
                                             "does) or 'corpus' (the corpus's parses).")]
    = "relx",
    corpus_parse: Annotated[str, typer.Option(help="With --parses corpus: split_parse or "
                                                   "Charniak-Lease.")] = "split_parse",
    spacy_model: Annotated[str | None, typer.Option(help="With --parses relx: the spaCy "
                                                         "pipeline (default: relx's).")] = None,
    set_: SetOption = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default: the config's).")] = None,
    task: Annotated[str, typer.Option(help="'ppi' or 'events' (--train BioNLP-ST "
                                           "directories).")] = "ppi",
    cache_dir: Annotated[Path | None, typer.Option(
        help="With --task events: keep the corpus parses here (relx JSONL) and reuse them "
             "on the next run.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Train a relation-extraction model and save it (no pickle: skops + JSON + TOML)."""
    _cli_trained(task)
    if task_option(task).corpus == "folders":     # BioNLP-ST standoff folders: events
        if set_:
            raise typer.BadParameter("--set applies to PPI pipeline configs (--task ppi)")
        _train_events(config, train, out, name, version, cache_dir, quiet)
        return
    from relx.ppi.evaluate import load_corpus
    from relx.ppi.model import train_model
    from relx.registry import apply_overrides, load_config

    out_console = Console(quiet=quiet)
    try:
        cfg = apply_overrides(load_config(config), set_ or [])
        with out_console.status("reading and parsing the training corpora"):
            docs = [d for p in train for d in load_corpus(p, parses, corpus_parse, spacy_model)]
        with out_console.status(f"training on {len(docs)} documents"):
            model = train_model(cfg, docs, name=name or out.name, version=version, seed=seed,
                                trained_on=[p.name for p in train],
                                parse_source=f"corpus:{corpus_parse}" if parses == "corpus"
                                else f"relx:{spacy_model or 'relx_bio_sm'}")
        model.save(out)
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    m = model.meta
    out_console.print(f"saved {out}: {m['n_train']} pairs ({m['n_positive']} positive) from "
                      f"{m['n_documents']} documents, {m['train_seconds']} s, threshold "
                      f"{model.threshold:.3f}")


def _train_events(config: Path, train: list[Path], out: Path, name: str | None, version: str,
                  cache_dir: Path | None, quiet: bool) -> None:
    import json
    import time

    from relx.ge.cli import train_ge

    console = Console(quiet=quiet)
    t0 = time.perf_counter()
    try:
        with console.status("parsing and training GE event extraction"):
            path = train_ge(config, train, out, cache_dir=cache_dir, name=name, version=version)
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    size = sum(f.stat().st_size for f in path.iterdir() if f.is_file()) / 1e6
    console.print(f"saved {path}: {meta['n_documents']} documents, training "
                  f"{meta['train_seconds']:.0f} s (with parsing {time.perf_counter() - t0:.0f} s)"
                  f", {size:.1f} MB")


@app.command("silver-ppi", rich_help_panel="Evaluate and train")
def silver_ppi(
    ge: Annotated[list[Path], typer.Argument(metavar="GE_DIR",
                                             help="BioNLP-ST GE directories (*.txt, *.a1, "
                                                  "*.a2), e.g. ../shared/corpora/"
                                                  "bionlp-st-ge/2011/train.")],
    out: Annotated[Path, typer.Option(help="relx JSONL to write (a --train input).")],
    exclude: Annotated[list[Path] | None, typer.Option(
        help="Drop GE documents sharing a sentence with this corpus (repeatable; the corpora "
             "you will evaluate on).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Silver PPI training pairs from GENIA event annotation (a --train/--extra-train input).

    Every same-sentence protein pair, positive when a Binding or a regulation (Cause -> Theme)
    event connects the two (relx.ge.ppi_pairs). The pairs are marked silver: with
    decision_rows = "gold" in the ensemble they help rank, and only the gold corpora's pairs
    set the threshold."""
    from relx.ge.data import load_ge
    from relx.ge.ppi_pairs import drop_shared_documents, silver_ppi_documents
    from relx.io.jsonl import write_jsonl
    from relx.ppi.evaluate import load_corpus

    console = Console(quiet=quiet)
    try:
        docs, repeated = [], []
        for d in ge:
            seen = {x.id for x in docs}  # a document in two editions: the first directory's
            with console.status(f"parsing {d}"):
                pairs = load_ge(d, skip_ids=seen)
                repeated += [t.stem for t in sorted(Path(d).glob("*.txt")) if t.stem in seen]
            if pairs and not any(g.standoff.events for g in pairs):
                raise ConfigError(f"{d}: no events (.a2 files) to derive labels from")
            docs += silver_ppi_documents([g.standoff for g in pairs], [g.parsed for g in pairs])
        others = [x for p in exclude or [] for x in load_corpus(p)]
        docs, dropped = drop_shared_documents(docs, others)
        write_jsonl(docs, out)
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    rels = [r for d in docs for s in d.sentences for r in s.relations]
    console.print(f"saved {out}: {len(rels)} pairs ({sum(bool(r.label) for r in rels)} positive)"
                  f" from {len(docs)} documents; {len(dropped)} dropped as shared with "
                  f"--exclude corpora{': ' + ', '.join(dropped) if dropped else ''}"
                  + (f"; {len(repeated)} skipped as already read from an earlier directory"
                     if repeated else ""))


@app.command("train-vectors", rich_help_panel="Evaluate and train")
def train_vectors(
    out: Annotated[Path, typer.Option(help="Vectors file to write (.npz).")]
    = Path("runs/vectors/eigenwords.npz"),
    dim: Annotated[int, typer.Option(help="Dimensions (top eigenvectors).")] = 100,
    window: Annotated[int, typer.Option(help="Co-occurrence window (tokens each side).")] = 5,
    alpha: Annotated[float, typer.Option(help="PMI threshold: keep PMI > alpha.")] = -2.5,
    min_count: Annotated[int, typer.Option(help="Minimum word count.")] = 2,
    lsk_rank: Annotated[int, typer.Option(help="Latent semantic smoothing: rank of the term x "
                                               "sentence SVD (0 = off).")] = 0,
    lsk_weight: Annotated[float, typer.Option(help="Weight of the smoothed vectors.")] = 0.5,
    seed: Annotated[int, typer.Option(help="Seed of the eigensolver / SVD start.")] = 1,
    dtype: Annotated[str, typer.Option(help="Stored precision: float16 or float32.")]
    = "float16",
    shared: Annotated[Path, typer.Option(help="Shared data folder (corpora/ppi, "
                                              "corpora/bionlp-st-ge).")] = Path("../shared"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Train EigenWord / SVD-NS word vectors on corpus text (entities blinded).

    The vectors feed the path kernel's vector token kernels and the pair-vector features
    (config: vectors = "runs/vectors/eigenwords.npz")."""
    import time
    from collections import Counter

    from relx.vectors import corpus_sentences
    from relx.vectors import train_vectors as train

    console = Console(quiet=quiet)
    t0 = time.perf_counter()
    try:
        stats: Counter = Counter()
        with console.status(f"reading corpus text under {shared}"):
            sentences = corpus_sentences(shared, stats)
        t1 = time.perf_counter()
        with console.status(f"training on {stats['tokens']} tokens"):
            vectors = train(sentences, dim=dim, window=window, alpha=alpha,
                            min_count=min_count, lsk_rank=lsk_rank, lsk_weight=lsk_weight,
                            seed=seed)
        vectors.settings["read_seconds"] = round(t1 - t0, 1)
        vectors.settings["sources"] = {k: int(v) for k, v in sorted(stats.items())}
        vectors.save(out, dtype=dtype)
    except (RelxError, OSError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from None
    s = vectors.settings
    console.print(f"saved {out}: {len(vectors)} words x {vectors.dim} from {s['n_tokens']} "
                  f"tokens in {s['n_sentences']} sentences; reading {t1 - t0:.0f} s, training "
                  f"{s['train_seconds']:.0f} s, {out.stat().st_size / 1e6:.1f} MB")


def _cli_trained(task: str) -> None:
    """A task trained by its lab recipe (``corpus == "lab"``) has no ``relx train`` /
    ``relx evaluate``: say where it is trained instead."""
    if task_option(task).corpus == "lab":
        raise typer.BadParameter(f"--task {task} is trained and measured by its lab recipe "
                                 "(python -m lab.relations.ship, python -m "
                                 "lab.relations.biored; docs/relations.md)")
