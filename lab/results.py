"""Regenerate ``docs/results.md``: cross-corpus matrix and 10-fold CV for each method.

``python -m lab.results --shared ../shared --out docs/results.md --runs docs/runs``
(``make results``)
Each run's JSON report is kept under ``--runs``; a rerun skips finished runs (resume), so
the page can be rebuilt after an interruption without recomputing (``--render-only``
rebuilds it from the finished reports alone; missing cells show as a dash). The issue-4
ablation table takes its rows from ``configs/ablation.toml`` (a row whose config or report
is missing shows "not run"; ``--ablation-only`` runs just the missing ablation cells).
"""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

from lab.calibration import render_results as render_hedging_calibration
from lab.genes.eval_species import markdown as grounding_markdown
from lab.raw_eval import gold_entity_report, raw_text_report
from lab.results_chart import ablation_svg, speed_svg
from relx.io.atomic import atomic_open
from relx.ppi.evaluate import cross_validation_report, load_corpus, train_test_report, write_json
from relx.ppi.model import train_model
from relx.registry import apply_overrides, load_config

CORPORA = {"AIMed": "AImed", "BioInfer": "BioInfer", "IEPA": "IEPA"}
METHODS = {"KLSH-RF": "configs/ppi-klsh-rf.toml", "SVM": "configs/ppi-svm.toml",
           "KLSH-kNN": "configs/ppi-klsh-knn.toml",
           "KLSH-RF, relx parses": "configs/ppi-klsh-rf.toml"}
# methods that re-parse the corpora with relx's own pipeline (models/relx_bio_sm)
RELX_PARSED = {"KLSH-RF, relx parses"}
_CORPUS_CACHE: dict[tuple[Path, str], list] = {}


def _load(path: Path, parses: str) -> list:
    if (path, parses) not in _CORPUS_CACHE:
        _CORPUS_CACHE[path, parses] = load_corpus(path, parses)
    return _CORPUS_CACHE[path, parses]


def settings() -> list[tuple[str, str | None]]:
    """(train, test) pairs; test None means 10-fold CV on train."""
    names = list(CORPORA)
    cross = [(a, b) for a in names for b in names if a != b]
    by_size = ["IEPA", "AIMed", "BioInfer"]  # cheapest CV first: SVM on BioInfer takes longest
    return cross + [(a, None) for a in by_size]


def run_one(method: str, train: str, test: str | None, shared: Path, runs: Path) -> dict:
    key = f"{_slug(method)}__{train}__{test or 'cv10'}"
    parses = "relx" if method in RELX_PARSED else "corpus"
    return _run(METHODS[method], method, train, test, shared, runs / f"{key}.json", parses)


def _run(config: str, method: str, train: str, test: str | None, shared: Path, out: Path,
         parses: str = "corpus", overrides: dict | None = None,
         extra_train: list[str] | None = None) -> dict:
    """One train/test or 10-fold CV run of ``config`` (``overrides``: ``{"section.key":
    value}`` set on the loaded config; ``extra_train``: relx JSONL files of extra training
    pairs, e.g. ``make silver``'s); its report is kept at ``out``."""
    if out.exists():
        return json.loads(out.read_text())
    cfg = apply_overrides(load_config(config), overrides or {})
    seed = int(cfg["pipeline"].get("seed", 0))
    for p in extra_train or []:
        if not Path(p).is_file():
            raise FileNotFoundError(f"{p}: extra training pairs missing (run `make silver`)")
    extra = [d for p in extra_train or [] for d in load_corpus(p)]

    def path(name: str) -> Path:
        return shared / "corpora" / "ppi" / f"{CORPORA[name]}-learning-format.xml.gz"

    if test is None:
        res, folds = cross_validation_report(cfg, _load(path(train), parses), 10, seed,
                                             extra_train=extra)
        write_json({"seed": seed, "k": 10, "folds": folds}, out.with_suffix(".folds.json"))
    else:
        res = train_test_report(cfg, _load(path(train), parses), _load(path(test), parses), seed,
                                extra)
    res.update(method=method, train=train, test=test or "10-fold CV", extra_train=extra_train or [],
               parse_source="corpus:split_parse" if parses == "corpus" else _relx_source(),
               config_file=config, config=cfg)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(res, out)
    return res


# -- ablation table (issue 4): rows from a data file, so rows can be added without code ------
ABLATION_FILE = Path("configs/ablation.toml")
CHART_NAME = "results-ablation.svg"  # written beside the page
SPEED_CHART = "results-speed.svg"     # written beside the page when speed.json exists
ABLATION_SETTINGS: list[tuple[str, str | None]] = [
    ("AIMed", "BioInfer"), ("BioInfer", "AIMed"), ("AIMed", None), ("BioInfer", None),
    ("IEPA", None)]


def ablation_rows(path: Path | None = None) -> list[dict]:
    """The ``[[row]]`` entries of the ablation data file (none if it is missing)."""
    path = ABLATION_FILE if path is None else path
    if not path.exists():
        return []
    return list(tomllib.loads(path.read_text(encoding="utf-8")).get("row", []))


def ablation_config(row: dict, train: str) -> str:
    """The row's config when training on ``train`` (``config_<train>`` overrides)."""
    return row.get(f"config_{train}", row["config"])


def ablation_report(row: dict, train: str, test: str | None, runs: Path) -> Path:
    """Where the row's report for (train, test) lives: the main matrix's report for rows
    with ``method``, else ``runs/ablation/<key>__<train>__<test|cv10>.json``."""
    stem = f"{train}__{test or 'cv10'}"
    if "method" in row:
        return runs / f"{_slug(row['method'])}__{stem}.json"
    return runs / "ablation" / f"{row['key']}__{stem}.json"


def load_ablation(rows: list[dict], runs: Path) -> dict[tuple[str, str, str | None], dict]:
    """Finished ablation reports keyed by (row key, train, test)."""
    found = {}
    for row in rows:
        for a, b in ABLATION_SETTINGS:
            f = ablation_report(row, a, b, runs)
            if f.exists():
                found[row["key"], a, b] = json.loads(f.read_text())
    return found


def run_ablation(rows: list[dict], shared: Path, runs: Path,
                 results: dict[tuple[str, str, str | None], dict],
                 on_report: Callable[[], None] | None = None) -> None:
    """Run every missing ablation cell whose config exists (cheapest settings first);
    ``on_report`` is called after each finished cell (e.g. to rewrite the page)."""
    for a, b in sorted(ABLATION_SETTINGS, key=lambda s: (s[1] is None, s[0] != "IEPA")):
        for row in rows:
            config = ablation_config(row, a)
            if (row["key"], a, b) in results or not Path(config).exists():
                continue
            t0 = time.perf_counter()
            r = _run(config, row.get("method", row["name"]), a, b, shared,
                     ablation_report(row, a, b, runs), overrides=row.get("set"),
                     extra_train=row.get("extra_train"))
            results[row["key"], a, b] = r
            print(f"ablation {row['key']:10s} {a:8s} -> {b or 'CV10':8s} F1 {r['f1']:.3f} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
            if on_report is not None:
                on_report()


def render_ablation(rows: list[dict], results: dict[tuple[str, str, str | None], dict]
                    ) -> list[str]:
    """Markdown table: F1 per setting, training seconds on BioInfer; "not run" if missing."""
    if not rows:
        return []
    head = ["AIMed→BioInfer", "BioInfer→AIMed", "CV AIMed", "CV BioInfer", "CV IEPA"]
    lines = ["## Ablation (issue 4)", "",
             f"![F1 of each configuration per setting]({CHART_NAME})", "",
             "F1 (P, R and AUC are in each run report); CV: 10-fold by "
             "document, pooled F1. *train s*: seconds to train on all of BioInfer (the "
             "BioInfer→AIMed run; 2 shared cores). Rows and configs: `configs/ablation.toml`; "
             "*not run*: no report yet (or no config). The EM prior-shift and positive-rate "
             "rows change only the decision threshold, using the unlabelled test inputs "
             "(`relx/learn/ensemble.py`). Seed noise: the KLSH-RF row's AIMed→BioInfer F1 "
             "is 0.376 / 0.453 / 0.442 with pipeline seeds 0 / 1 / 2 (AUC 0.751-0.755), so "
             "cross-corpus F1 differences below ~0.08 are not significant; the θ, σ and "
             "reference-set rows optimise a CorEx MI estimate that varies by 1.5-2 nats "
             "between restarts on 1000-bit codes (`relx/learn/optimise.py`), and none of them "
             "raises AUC. Train seconds of those rows were measured on loaded cores. The "
             "*Youden* rows decide at the threshold maximising TPR - FPR on out-of-fold "
             "training scores instead of the F1-best one. The ensemble rows "
             "(`configs/ppi-ensemble-lr.toml`, `configs/ppi-best-0.3.toml`, then "
             "`configs/ppi-best.toml`, each on the way to the current best) were chosen with "
             "IEPA as the development corpus (`lab/experiments/select_ppi_best.py`, "
             "`lab/experiments/eval_ensemble.py`), so their IEPA cells are not independent of that "
             "choice; AIMed↔BioInfer are. Rows on two parses take the second parse from relx's "
             "shipped pipeline (parser 0.3.0, unchanged in pipeline 0.3.1). The `best-et`, "
             "`best-sc` and `best-vec` reports were written by `lab/experiments/eval_ensemble.py`: one fit per setting or "
             "fold serves both decision rules (same folds, seeds and decision code as `relx "
             "evaluate`; field `produced_by`). Rows with an *in-domain rule* decide the CV "
             "cells by it (`in_domain_threshold`, and with `in_domain_combiner = stacked` "
             "member weights learned on the training corpus: text drawn from the training "
             "corpus) and the cross-corpus cells by the new-text rule; their CV reports also "
             "hold the "
             "new-text rule's figures (`new_text_rule`).", "",
             "| configuration | config | " + " | ".join(head) + " | train s |",
             "|---|---|" + "---|" * (len(head) + 1)]
    for row in rows:
        cells = []
        for a, b in ABLATION_SETTINGS:
            r = results.get((row["key"], a, b))
            cells.append("not run" if r is None else f"{r['f1']:.3f}")
        r = results.get((row["key"], "BioInfer", "AIMed"))
        secs = "not run" if r is None else f"{r['train_seconds']:.0f}"
        configs = sorted({ablation_config(row, a) for a, _ in ABLATION_SETTINGS})
        cfg = ", ".join(f"`{c.removeprefix('configs/')}`" for c in configs)
        lines.append(f"| {row['name']} | {cfg} | " + " | ".join(cells) + f" | {secs} |")
    return [*lines, ""]


RAW_SETTINGS = [("AIMed", "BioInfer"), ("BioInfer", "AIMed")]
# raw-text rows: KLSH-RF, and the shipped model's config
RAW_METHODS = {"KLSH-RF": "configs/ppi-klsh-rf.toml", "ppi-best": "configs/ppi-best.toml"}


def raw_report_path(runs: Path, method: str, train: str, test: str) -> Path:
    prefix = "raw" if method == "KLSH-RF" else f"raw-{method}"
    return runs / f"{prefix}__{train}__{test}.json"


def run_raw(train: str, test: str, shared: Path, runs: Path, method: str = "KLSH-RF") -> dict:
    """``method`` trained with relx parses, applied to the raw test sentences (relx NER), and
    to the test corpus's gold entities re-parsed by relx (same model)."""
    out = raw_report_path(runs, method, train, test)
    if out.exists():
        return json.loads(out.read_text())
    cfg = load_config(RAW_METHODS[method])

    def path(name: str) -> Path:
        return shared / "corpora" / "ppi" / f"{CORPORA[name]}-learning-format.xml.gz"

    model = train_model(cfg, _load(path(train), "relx"), name="raw-eval", parse_source="relx")
    res = raw_text_report(model, _load(path(test), "corpus"))
    res["gold_entities_relx_parses"] = gold_entity_report(model, _load(path(test), "relx"))
    res.update(method=method, config_file=RAW_METHODS[method], config=cfg, train=train, test=test,
               parse_source=_relx_source(),
               train_seconds=model.meta["train_seconds"], n_train=model.meta["n_train"])
    write_json(res, out)
    return res


def _run_json(runs: Path, name: str) -> dict | None:
    """The figures file ``runs/name`` (a results section's source), None when it is absent."""
    path = runs / name
    return json.loads(path.read_text()) if path.is_file() else None


def render_pipeline(runs: Path) -> list[str]:
    """The parse pipeline's own scores, from ``parser.json`` / ``ner.json`` / ``bench_*.json``
    reports in ``runs`` (written by ``relx parser evaluate --json`` etc.)."""
    lines: list[str] = []
    parser, ner = runs / "parser.json", runs / "ner.json"
    if parser.exists():
        r = json.loads(parser.read_text())
        lines += ["## relx's parse pipeline (`models/relx_bio_sm`)", "",
                  "GENIA treebank `dev` (never trained on; basic Stanford dependencies "
                  "converted to CRAFT labels), gold tokenisation, `relx parser evaluate`:", "",
                  "| UAS | LAS | POS acc. | UAS (with punct.) | LAS (with punct.) | sentences | "
                  "tokens |", "|---|---|---|---|---|---|---|",
                  f"| {r['uas']:.4f} | {r['las']:.4f} | {r['pos_acc']:.4f} | "
                  f"{r.get('uas_all', float('nan')):.4f} | {r.get('las_all', float('nan')):.4f} "
                  f"| {r['sentences']} | {r['tokens']} |", "",
                  "UAS/LAS exclude punctuation, as spaCy's and scispacy's published scores do.",
                  ""]
    if ner.exists():
        r = json.loads(ner.read_text())
        lines += ["Protein NER on BioNLP-ST GE 2011 `devel` (`relx ner evaluate`):", "",
                  "| P (exact) | R (exact) | F1 (exact) | F1 (overlap) | gold | predicted |",
                  "|---|---|---|---|---|---|",
                  f"| {r['precision']:.4f} | {r['recall']:.4f} | {r['f1']:.4f} | "
                  f"{r['f1_overlap']:.4f} | {r['gold']} | {r['predicted']} |", ""]
    return lines


GENE_SETS = (("pc_test", "BioNLP-ST 2013 PC test (external)"),
             ("loctext", "LocText, 100 abstracts (external)"),
             ("bc2gm_devel", "BC2GM devel"), ("cg_devel", "BioNLP-ST 2013 CG devel"),
             ("craft_devel", "CRAFT devel"), ("ge11_devel", "GE 2011 devel"),
             ("ge11_devel_famplex", "GE 2011 devel, FamPlex-adjusted"),
             ("ge11_devel_proteins", "GE 2011 devel, relx's `Protein` type only"))


def render_genes(runs: Path) -> list[str]:
    """Gene/protein mentions, the shipped tagger against the one before it, from
    ``genes.json`` (``benchmarks/bench_genes.py --json``; protocol in docs/genes.md)."""
    r = _run_json(runs, "genes.json")
    if r is None:
        return []
    old, new = r["old"], r["new"]
    lines = ["## Gene/protein mentions (issue 41)", "",
             f"{old['model']} vs {new['model']} (`benchmarks/bench_genes.py`; training data, "
             "selection and the external sets in [genes.md](genes.md)). Exact and overlap "
             "span matches:", "",
             "| set | P old / new | R old / new | F1 old / new | overlap R old / new | "
             "overlap F1 old / new |", "|---|---|---|---|---|---|"]
    for key, name in GENE_SETS:
        if key not in old or key not in new:
            continue
        a, b = old[key], new[key]
        cells = [f"{a[k]:.3f} / {b[k]:.3f}" if k in a and k in b else "-"
                 for k in ("precision", "recall", "f1", "recall_overlap", "f1_overlap")]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def render_grounding(runs: Path) -> list[str]:
    """Species and grounding of gene mentions, from ``grounding.json``
    (``benchmarks/bench_genes.py --parts grounding --json``; protocol in docs/genes.md)."""
    r = _run_json(runs, "grounding.json")
    if r is None:
        return []
    fig = r["grounding"]
    return ["## Species and grounding of gene mentions (issue 41)", "",
            "Organism mentions relx finds, and LocText's gold protein mentions grounded by "
            "`relx.genes.document.ground_document`. LocText train is the development split of "
            "the species and grounding rules; devel+test is held out "
            "([genes.md](genes.md)).", "", grounding_markdown(fig), ""]


def render_naming(runs: Path) -> list[str]:
    """Gene naming on BioRED train's development split, before and after issue 50, from
    ``naming.json`` (``{"columns": {name: report}, "note": ..., "unicode": {"columns": ...,
    "note": ...}}``; reports of ``benchmarks/bench_genes.py --parts biored`` and, for the
    Greek and hyphen copies, ``python -m lab.genes.greek``; protocol in docs/genes.md)."""
    r = _run_json(runs, "naming.json")
    if r is None:
        return []
    from lab.genes.biored import compare_markdown

    lines = ["## Naming genes: BioRED train, development split (issue 50)", "",
             r["note"], "", compare_markdown(r["columns"]), ""]
    last, report = list(r["columns"].items())[-1]
    if report.get("intervals"):
        from lab.genes.intervals import interval_markdown

        lines += [f"95% intervals by document, {last}:", "",
                  interval_markdown(report["intervals"]), ""]
    if r.get("unicode"):
        lines += ["### The same abstracts with Greek letters and Unicode hyphens", "",
                  r["unicode"]["note"], "", compare_markdown(r["unicode"]["columns"]), ""]
    return lines


def render_relations(runs: Path) -> list[str]:
    """Document-level gene relations on BioRED train, from ``gene-relations.json``
    (``{"cv": ..., "dev": ..., "dev2": ..., "dev4": ...}``: reports of ``python -m
    lab.relations.biored --cv`` and of the registered development looks, the first for
    0.1.0, the second for 0.2.0, the fourth for 0.2.1 (``python -m
    lab.relations.ligand_receptor --dev-look``); protocol in docs/relations.md)."""
    r = _run_json(runs, "gene-relations.json")
    if r is None:
        return []
    from lab.relations.biored import markdown

    looks = [markdown(r[k]) for k in ("dev4", "dev2", "dev") if k in r]
    return ["## Document-level gene relations: BioRED train (issue 51)", "",
            "Given the gold gene mentions; the model `models/gene-relations`, fitted on the "
            "fit split ([relations.md](relations.md)). The development split's looks, newest "
            "first: for 0.2.1 (0.2.0 and its ligand-receptor rule; the fourth look), 0.2.0 (the "
            "second) and 0.1.0 (the first); the third, for a model not shipped, is in "
            "relations.md.", "", *(x for look in looks for x in (look, "")),
            "Fit split, 5-fold CV by document (the settings compared):", "",
            markdown(r["cv"]), ""]


def render_speed(runs: Path) -> list[str]:
    """Extraction speed on this machine, from ``speed.json`` (``python -m lab.speed_report``:
    ``benchmarks/bench_extract.py`` per task and process count, ``benchmarks/bench_start.py``)."""
    r = _run_json(runs, "speed.json")
    if r is None:
        return []
    lines = ["## Speed (issue 52)", "",
             f"Measured {r['measured']} on {r['cpus']} cores with nothing else running "
             "(`python -m lab.speed_report`): the GE abstracts of `benchmarks/bench_extract.py` "
             "(each process loads the shipped models as a batch worker does, then parses its "
             "share, then extracts from it); targets: typed pairs ≥ 85% and plain pairs ≥ 90% "
             "of parse-only throughput, two processes ≥ 1.8× one. Each row's parse-only "
             "figure is measured in the same processes as its extraction, on the same "
             "abstracts; it varies between rows with what else those processes hold (the "
             "typed run's is the lowest), so compare a share within its row; on this "
             "virtual machine one tree's shares differ by as much as 20 points between runs, "
             + (f"so each row is the median of {r['rounds']} rounds over the benchmarks "
                "(the rounds' range in brackets), and " if r.get("rounds", 1) > 1 else "so ")
             + "trees are compared in one interleaved run (`dev/bench_ab.sh`). Peak RSS: "
             "the largest worker's (target ≤ 1 GB), then the sum over the workers and the "
             "parent.", "",
             f"![throughput against parse-only]({SPEED_CHART})", "",
             "| task | processes | parse only, abstracts/s | extraction, abstracts/s | share "
             "| peak RSS, MB (worker / sum) | load before / after |",
             "|---|---|---|---|---|---|---|"]
    for x in r["extract"]:
        spread = (f" ({min(x['shares']):.0%}-{max(x['shares']):.0%})"
                  if len(x.get("shares", ())) > 1 else "")
        lines.append(f"| {x['task']} | {x['processes']} | {x['parse_only_abstracts_per_s']} | "
                     f"{x['abstracts_per_s']} | "
                     f"{x['abstracts_per_s'] / x['parse_only_abstracts_per_s']:.0%}{spread} | "
                     f"{x.get('worker_peak_rss_mb', '-')} / {x['peak_rss_mb']} | "
                     f"{x['load_before']} / {x['load_after']} |")
    s = r["start"]
    lines += ["", f"Start-up, median of {s['repeat']} (`benchmarks/bench_start.py`, task "
              f"`{s.get('task', 'ppi')}`{', bytecode compiled as installed' if s.get('bytecode') else ''}): "
              f"`relx.load()` {s['load_s']['median']:.2f} s, `relx extract one.txt` "
              f"{s['extract_one_s']['median']:.2f} s wall; the stack's floor (importing "
              f"what relx imports) {s['floor_s']['median']:.2f} s. Targets: 2.5 s and 4 s.", ""]
    return lines


def render_events(runs: Path) -> list[str]:
    """GE event extraction, from ``ge-events.json`` (``python -m lab.ge evaluate``)."""
    r = _run_json(runs, "ge-events.json")
    if r is None:
        return []
    train = " + ".join(f"GE {Path(d).parent.name} {Path(d).name}" for d in r.get("train", [])) \
        or "GE 2011 train"
    test = Path(str(r.get("test", "2011/devel")))
    lines = [f"## GENIA events (BioNLP-ST {train} → GE {test.parent.name} {test.name})", "",
             f"`configs/ge-events.toml`, proteins from `.a1`, parses by `models/relx_bio_sm`; "
             f"approximate recursive matching, task 1. Training {r['train_seconds']:.0f} s "
             f"(2 loaded cores, parsing excluded), prediction {r['predict_seconds']:.0f} s for "
             f"{r['n_test_docs']} documents.", "",
             "| type | gold | predicted | P | R | F1 |", "|---|---|---|---|---|---|"]
    for name, t in r["per_type"].items():
        lines.append(f"| {name} | {t['gold']} | {t['pred']} | {t['precision']:.3f} | "
                     f"{t['recall']:.3f} | {t['f1']:.3f} |")
    s, a = r["strict"], r["approx_span"]
    lines += ["", f"Total: P {r['precision']:.3f}, R {r['recall']:.3f}, **F1 {r['f1']:.3f}**; "
              f"approximate span F1 {a['f1']:.3f}, strict F1 {s['f1']:.3f}.", ""]
    mods = r.get("modifications") or {}
    if any(m["pred"] for m in mods.values()):
        lines += ["Negation and Speculation of the predicted events (task 3 modifications, "
                  "scored on matched events): " + "; ".join(
                      f"{k} P {m['precision']:.3f}, R {m['recall']:.3f}, F1 {m['f1']:.3f}"
                      for k, m in mods.items()) + ".", ""]
    lines += ["Issue 54 (an empty `.a1` tagged by relx under `--mentions auto`; `relx "
              "score-events` stopping at an unreadable file) cannot move these figures: they "
              "use the gold `.a1` proteins, no tagger, and score in memory ([ge-events.md]"
              "(ge-events.md#empty-a1-files-and-unreadable-predictions-issue-54)).", ""]
    before = runs / "ge-events-2011train.json"   # the report of the earlier recipe
    if before.exists():
        b = json.loads(before.read_text())
        lines += [f"Trained on GE 2011 train alone (`{before.name}`, the shipped model until "
                  f"ge-events 0.2.0): P {b['precision']:.3f}, R {b['recall']:.3f}, "
                  f"F1 {b['f1']:.3f}.", ""]
    ablation = runs / "ge-events-ablation.md"   # written by hand from the CV runs' figures
    if ablation.exists():
        lines += [*ablation.read_text(encoding="utf-8").rstrip("\n").splitlines(), ""]
    return lines


def render_typed(runs: Path) -> list[str]:
    """Typed, directed pairs, from ``typed-pairs.json`` (``python -m lab.typed_eval``)."""
    r = _run_json(runs, "typed-pairs.json")
    if r is None:
        return []
    lines = ["## Typed, directed interactions (GE 2011 devel)", "",
             "The typed pass (`relx extract --task ppi`, `relx.load(task=\"ppi\")`) types "
             "each reported pair with the pair typer "
             f"({r.get('pair_typer', 'pair-typer')} {r.get('pair_typer_version', '')}: the "
             "pair scorer's features, `relx.ppi.pair_typer`) where its best class has "
             "probability >= 0.5, and from the events of the event model "
             f"({r['event_model']} {r['event_model_version']}) on the pair scorer's parse "
             "elsewhere (`relx.ge.interactions`; chosen in relations.md, pair typer round "
             "2). Reference: "
             "gold-protein pairs connected by gold events, with the types and directions "
             "those events give (`Complex`, `Phosphorylation`, `Activation`, `Inhibition`, "
             "`IncreaseAmount`, `DecreaseAmount`, `Regulation`). A type is right when it is "
             "one of the pair's gold types (an untyped pair counts as wrong); a direction "
             "when the predicted agent is a gold agent. Typing biases chosen on held-out GE "
             "2011 train documents (`lab/experiments/typed_bias.py`).", "",
             "| pairs | n | type P | R | F1 | direction P | R | F1 | majority type | "
             "direction where both direct: relx / text order |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    names = {"gold_pairs": "all gold-connected pairs",
             "events_only": "the same, typed by the event model alone (before pair-typer)",
             "found_pairs": f"those {r.get('ppi_model', '')} reports (optimistic: it trained "
                            "on GE 2011 devel silver pairs)"}
    for k, name in names.items():
        if k not in r:
            continue
        x = r[k]
        t, d, b = x["type"], x["direction"], x["baseline"]
        lines.append(f"| {name} | {x['pairs']} | {t['precision']:.3f} | {t['recall']:.3f} | "
                     f"**{t['f1']:.3f}** | {d['precision']:.3f} | {d['recall']:.3f} | "
                     f"**{d['f1']:.3f}** | {b['majority_type']} {b['majority_type_accuracy']:.3f}"
                     f" | {d['accuracy_on_both_directed']:.3f} / "
                     f"{b['text_order_on_both_directed']:.3f} ({d['both_directed']}) |")
    top = list(r["gold_pairs"]["confusion"].items())[:8]
    lines += ["", "Most frequent (gold -> predicted) types: " +
              ", ".join(f"{k} {v}" for k, v in top) + ".", ""]
    return lines


def render_raw(raw: dict[tuple[str, str, str], dict], results: dict) -> list[str]:
    """Raw-text rows keyed by (method, train, test)."""
    if not raw:
        return []
    lines = ["## Extraction from raw text vs gold entities", "",
             "Each model trained on the training corpus re-parsed by relx: KLSH-RF "
             "(`configs/ppi-klsh-rf.toml`) and the shipped model's config (`configs/"
             "ppi-best.toml`). *Gold entities*: the test corpus's entities and pairs, re-parsed "
             "by relx (KLSH-RF: the *KLSH-RF, relx parses* row above; ppi-best: the same "
             "fitted model, each sentence scored as its own document). *Raw text*: each test "
             "sentence given as plain text; relx's NER finds the proteins and every pair is "
             "scored; a predicted pair is correct when both mentions overlap the two entities "
             "of a gold interacting pair (each gold pair counted once). Pipeline: "
             + ", ".join(sorted({f"`{r.get('parse_source', '?')}`" for r in raw.values()}))
             + ".", "",
             "| model | train → test | gold entities P / R / F1 | raw text P / R / F1 | raw: "
             "predicted / gold entities |", "|---|---|---|---|---|"]
    for (m, a, b), r in sorted(raw.items()):
        g = r.get("gold_entities_relx_parses") or results.get(("KLSH-RF, relx parses", a, b))
        gcell = f"{g['precision']:.3f} / {g['recall']:.3f} / {g['f1']:.3f}" if g else "—"
        lines.append(f"| {m} | {a} → {b} | {gcell} | {r['precision']:.3f} / {r['recall']:.3f}"
                     f" / {r['f1']:.3f} | {r['predicted_entities']} / {r['gold_entities']} |")
    return [*lines, ""]


def _slug(method: str) -> str:
    return method.replace(", ", "-").replace(" ", "-")


def _relx_source() -> str:
    from relx.parse.pipeline import Parser

    return "relx:" + Parser().source


def _cell(r: dict | None) -> str:
    if r is None:
        return "—"
    return f"{r['f1']:.3f}"


def render(results: dict[tuple[str, str, str | None], dict],
           raw: dict[tuple[str, str], dict] | None = None,
           ablation: dict[tuple[str, str, str | None], dict] | None = None,
           runs: Path = Path("docs/runs")) -> str:
    """The page, from the finished reports (``runs``: where the pipeline, events, typed,
    hedging reports are read)."""
    lines = ["# relx results", "",
             "Generated by `make results` (`python -m lab.results`); every number below comes "
             "from a run report in `docs/runs/` made by that command. Parses: the corpus "
             "Charniak-Lease parses (`split_parse`, collapsed Stanford dependencies), except "
             "the rows marked *relx parses*: every sentence re-tagged and re-parsed by relx's "
             "own pipeline (`models/relx_bio_sm`, CRAFT/ClearNLP labels), the corpus's "
             "entities and pairs kept. Folds: "
             "by document, seed 0, fold files saved beside the reports.", "",
             "## F1 matrix (rows: training corpus; columns: test corpus; diagonal: 10-fold CV)", ""]
    names = list(CORPORA)
    for method in METHODS:
        lines += [f"### {method}", "", "| train \\ test | " + " | ".join(names) + " |",
                  "|---|" + "---|" * len(names)]
        for a in names:
            cells = [_cell(results.get((method, a, None if a == b else b))) for b in names]
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
        lines.append("")
    missing = [f"{m} {a} -> {b or '10-fold CV'}" for m in METHODS for a, b in settings()
               if (m, a, b) not in results]
    if missing:
        lines += ["**Not run yet** (shown as —): " + "; ".join(missing) + ".", ""]
    lines += render_ablation(ablation_rows(), ablation or {})
    lines += render_pipeline(runs)
    lines += render_genes(runs)
    lines += render_grounding(runs)
    lines += render_naming(runs)
    lines += render_relations(runs)
    lines += render_raw(raw or {}, results)
    lines += render_events(runs)
    lines += render_typed(runs)
    lines += render_hedging_calibration(runs)
    lines += render_speed(runs)
    lines += ["## All runs", "",
              "| method | train | test | P | R | F1 | F1 mean ± sd (CV) | AUC | n_train | n_test "
              "| train s | predict s |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (method, a, b), r in sorted(results.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or "")):
        cv = f"{r['f1_mean']:.3f} ± {r['f1_std']:.3f}" if "f1_mean" in r else ""
        lines.append(f"| {method} | {a} | {b or '10-fold CV'} | {r['precision']:.3f} | "
                     f"{r['recall']:.3f} | {r['f1']:.3f} | {cv} | {r['roc_auc']:.3f} | "
                     f"{r['n_train']} | {r['n_test']} | {r['train_seconds']:.1f} | "
                     f"{r['predict_seconds']:.1f} |")
    lines += ["", "CV rows: P/R/F1 pooled over the 10 test folds, AUC the mean of fold AUCs, "
              "train/predict seconds summed over folds. Machine: 2 cores.", "", SETTINGS_NOTE]
    return "\n".join(lines)


SETTINGS_NOTE = """## How settings were chosen

The KLSH and forest sizes are the paper's defaults (M=100, H=1000, alpha=2, RMM, R=250,
eta=30). The remaining choices were made on validation data only, never on a test corpus
of the table above for the setting it decides:

- kernel: mean of the shortest-path kernel and the token-sequence kernel rather than either
  alone (AIMed, 10% document validation split: AUC 0.846 vs 0.799 path / 0.810 sequence);
  path `lam=0.8`; sequence window 1 and path `edge_mismatch=1.0` (mean AUC over
  AIMed->IEPA, BioInfer->IEPA and 10% document validation splits of AIMed and BioInfer:
  0.781 vs 0.762 with window 3, 0.777 with window 0);
- class-balanced reference set and leaves of >= 3 samples (AIMed 20% document validation
  split: AUC 0.825 vs 0.813, F1 0.537 vs 0.524);
- decision threshold: chosen inside `fit` to maximise F1 on 3-fold out-of-fold
  probabilities of the training data (`threshold = "auto"`).

IEPA served as an unseen-corpus development target for the two cross-corpus choices, so the
IEPA columns are not fully independent of those two choices; AIMed<->BioInfer are.

`configs/ppi-best.toml` (KLSH-RF + pair-feature logistic regression on two parses, with
competition and path-structure features, + the same regression on naive-Bayes-scaled
features) was chosen the same way
(`python -m lab.experiments.select_ppi_best --members ...`, `lab/experiments/eval_ensemble.py`):
members, feature groups, score combination, member weights, decision rule and the second
parse by IEPA AUC and F1 when training on AIMed and on BioInfer, and by 5-fold document
out-of-fold AUC on the training corpus (which also gives the thresholds); the logistic
regression's C = 0.03 by IEPA and out-of-fold AUC on AIMed and BioInfer. The candidates
and their figures, kept or not, are in the config's header. A change was kept or dropped
before its AIMed<->BioInfer runs.
"""


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=Path("../shared"))
    ap.add_argument("--out", type=Path, default=Path("docs/results.md"))
    ap.add_argument("--runs", type=Path, default=Path("docs/runs"))
    ap.add_argument("--methods", default=";".join(METHODS),
                    help="';'-separated method names")
    ap.add_argument("--raw", action="store_true",
                    help="also run raw-text extraction (relx NER) vs gold entities")
    ap.add_argument("--render-only", action="store_true",
                    help="rebuild the page from the finished run reports, run nothing")
    ap.add_argument("--no-ablation", action="store_true",
                    help="do not run the missing ablation rows (configs/ablation.toml)")
    ap.add_argument("--ablation-only", action="store_true",
                    help="run only the missing ablation rows, then rebuild the page")
    ap.add_argument("--rows", default="",
                    help="with --ablation-only: ','-separated row keys to run (default: all)")
    args = ap.parse_args(argv)
    args.runs.mkdir(parents=True, exist_ok=True)
    results: dict = {}
    raw: dict = {}
    for m in RAW_METHODS:
        for a, b in RAW_SETTINGS:
            f = raw_report_path(args.runs, m, a, b)
            if f.exists():
                raw[(m, a, b)] = json.loads(f.read_text())
    rows = ablation_rows()
    ablation = load_ablation(rows, args.runs)

    def write() -> None:
        with atomic_open(args.out.with_name(CHART_NAME)) as fh:
            fh.write(ablation_svg(rows, ablation, ABLATION_SETTINGS))
        speed = args.runs / "speed.json"
        if speed.exists():
            with atomic_open(args.out.with_name(SPEED_CHART)) as fh:
                fh.write(speed_svg(json.loads(speed.read_text())["extract"]))
        with atomic_open(args.out) as fh:
            fh.write(render(results, raw, ablation, args.runs))

    for method in METHODS:  # finished reports of every method: the page shows them all
        for a, b in settings():
            f = args.runs / f"{_slug(method)}__{a}__{b or 'cv10'}.json"
            if f.exists():
                results[(method, a, b)] = json.loads(f.read_text())
    if args.render_only or args.ablation_only:
        if args.ablation_only:
            keys = {k for k in args.rows.split(",") if k}
            unknown = keys - {r["key"] for r in rows}
            if unknown:
                ap.error(f"--rows: no ablation rows {sorted(unknown)}")
            run_ablation([r for r in rows if not keys or r["key"] in keys], args.shared,
                         args.runs, ablation, write)
        write()
        return
    for method in args.methods.split(";"):
        for a, b in settings():
            t0 = time.perf_counter()
            results[(method, a, b)] = r = run_one(method, a, b, args.shared, args.runs)
            print(f"{method:9s} {a:8s} -> {b or 'CV10':8s} P {r['precision']:.3f} "
                  f"R {r['recall']:.3f} F1 {r['f1']:.3f} AUC {r['roc_auc']:.3f} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
            write()
    ablation.update(load_ablation(rows, args.runs))  # method rows share the matrix reports
    if not args.no_ablation:
        run_ablation(rows, args.shared, args.runs, ablation, write)
        write()
    if args.raw:
        for m in RAW_METHODS:
            for a, b in RAW_SETTINGS:
                raw[(m, a, b)] = r = run_raw(a, b, args.shared, args.runs, m)
                print(f"raw text {m} {a} -> {b}: P {r['precision']:.3f} R {r['recall']:.3f} "
                      f"F1 {r['f1']:.3f}", flush=True)
                write()


if __name__ == "__main__":
    main()
