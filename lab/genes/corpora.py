"""Convert public gene/protein, species and gene-normalisation corpora to one JSONL format.

    python lab/genes/corpora.py <corpus> --src <snapshot git dir or folder> [--src ...] \\
        --out ../shared/corpora/genes/<corpus>
    python lab/genes/corpora.py readme --out ../shared/corpora/genes

Each ``<corpus>`` writes ``train.jsonl`` / ``devel.jsonl`` / ``test.jsonl`` (the splits the
corpus defines; a split it lacks is not written), ``stats.json`` and ``SOURCE.md`` under
``--out``. One document per line::

    {"id": "...", "text": "...", "source": "<corpus>", "pmid": "..." (when known),
     "mentions": [{"start": 0, "end": 5, "text": "...", "type": "<original label>",
                   "ids": ["NCBIGene:7157", "NCBITaxon:10090", ...], "taxon": "NCBITaxon:10090" | null}],
     "doc_ids": [...document-level gold ids, normalisation corpora only...],
     "doc_taxa": {"NCBIGene:16590": "NCBITaxon:10090", ...} (gnat100-bc1 only),
     "alternatives": [...BC2GM ALTGENE spans, same shape as mentions...]}

Offsets are Python ``str`` indices into ``text``, end exclusive. Every mention is checked
(``text[start:end]`` must equal the mention text the source gives); mismatches, and
discontinuous spans, are counted in ``stats.json`` and dropped. Exact duplicates (same span
and type) are merged, their ids united. Overlapping mentions are all kept.

A ``--src`` is either a bare git directory (a ``fetch`` snapshot; the converter reads the
pinned commit below with ``git cat-file``, falling back to ``HEAD`` with a warning when that
commit is absent) or an extracted folder laid out as in that repository.

Snapshots (repository @ commit : path) -- the ``--src`` order matters where there are two:

- ``bc2gm``: spyysalo/bc2gm-corpus @ 018161681145daf751af037cb890f3a54f62a74d :
  ``original-data/{train,test}/{train,test}.in``, ``GENE.eval``, ``ALTGENE.eval`` (the
  official BioCreative II GM release, bc2GMtrain_1.1 / bc2GMtest_1.0); devel = the 2500
  sentence ids of ``devel-split/devel/devel.in`` (taken out of the official train set).
- ``jnlpba``: spyysalo/jnlpba @ 4455122de861c6e448e2e8c7f19ef8f49dbc32b2 :
  ``standoff/{train,test}/*.txt|.ann`` (JNLPBA 2004 aligned to the PubMed title+abstract);
  devel = train documents whose id hash bucket is 0 (10%; the corpus has no devel split).
- ``bionlp13cg``: openbiocorpora/bionlp-st-2013-cg @ b4a603dee25bd6ac5636017c2be41fd2edc52a3e :
  ``original-data/{train,devel,test}/PMID-*.txt|.a1``.
- ``bionlp13pc``: openbiocorpora/bionlp-st-2013-pc @ ef65fe2f44ee701be857f0cb362e3233abfb8e07 :
  ``original-data/{train,devel,test}/PMID-*.txt|.a1``.
- ``craft``: UCDenver-ccp/CRAFT @ 2abe82b8bb8089448b84937d5f61d8c218011322 (v5) :
  ``articles/txt/*.txt``, ``concept-annotation/PR/PR/knowtator`` and
  ``concept-annotation/NCBITaxon/NCBITaxon/knowtator``; splits ``articles/ids/craft-ids-*.txt``.
- ``s800``: (1) spyysalo/s800-revision-data @ 3f41fbb3e6a0d1056e939541dc35a26a8a659862 :
  ``original-standoff/*.txt|.ann`` (the original S800 1.0 annotation, not the revision);
  (2) spyysalo/s800 @ f5425e7498930757c8577828eabc41cf88d80348 : ``split/*.txt``.
- ``linnaeus``: (1) spyysalo/linnaeus-corpus-data @ 274ef6ed11178320832f58f8cca158a93889aeda :
  ``txt/*.txt``, ``tags.tsv`` (LINNAEUS 1.1 = 1.0 + CC BY 4.0), ``filtered_tags.tsv``;
  (2) spyysalo/linnaeus-corpus @ f75269c93b887d256061faf1339628b1c7e472db : ``split/*.txt``.
- ``loctext``: Rostlab/LocText @ 9d297a2d7023e68bacbe86100ee6af2419c4eb7c :
  ``resources/corpora/LocText/LocText_PubAnnotation_with_normalizations/*.json``; no split
  defined: deterministic 80/10/10 by id hash.
- ``gnat100-bc1``: miroculus/GNAT @ 189d6962755222793c9d86f56e30898404b0bc41 :
  ``texts/test100.genelist``, ``texts/test100/*.txt``; only the BioCreative I task 1B
  documents (mouse, yeast, fly); the 26 BioCreative II GN documents are left out (see README:
  BioRED reuses GNormPlus, which re-annotates BioCreative II GN). Document-level only, all test.

Never converted here: BioRED and anything derived from it, GNormPlus, NLM-Gene, BioCreative II
GN (see ``../shared/corpora/genes/README.md``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

SPLITS = ("train", "devel", "test")


# -- sources -----------------------------------------------------------------------------------

class Source:
    """Files of a snapshot: a bare git dir (read at ``rev``) or an extracted folder."""

    def __init__(self, path: str | Path, rev: str | None = None):
        self.path = Path(path)
        self.git = (self.path / "HEAD").is_file() and (self.path / "objects").is_dir()
        self.commit: str | None = None
        self._proc: subprocess.Popen | None = None
        if self.git:
            self.rev = self._resolve(rev)
            self.commit = self._run("rev-parse", self.rev).strip()
        elif not self.path.is_dir():
            raise FileNotFoundError(f"{self.path}: neither a git dir nor a folder")

    def _run(self, *args: str) -> str:
        return subprocess.run(["git", f"--git-dir={self.path}", *args], check=True,
                              capture_output=True, text=True).stdout

    def _resolve(self, rev: str | None) -> str:
        if rev:
            ok = subprocess.run(["git", f"--git-dir={self.path}", "cat-file", "-e",
                                 f"{rev}^{{commit}}"], capture_output=True).returncode == 0
            if ok:
                return rev
            print(f"warning: {self.path} has no commit {rev}; reading HEAD", file=sys.stderr)
        return "HEAD"

    def list(self, prefix: str) -> list[str]:
        """Paths (repository-relative, sorted) of the files under ``prefix``."""
        prefix = prefix.rstrip("/")
        if self.git:
            out = self._run("ls-tree", "-r", "--name-only", self.rev, "--", prefix)
            return sorted(p for p in out.splitlines() if p)
        root = self.path / prefix
        if root.is_file():
            return [prefix]
        return sorted(str(PurePosixPath(p.relative_to(self.path)))
                      for p in root.rglob("*") if p.is_file())

    def exists(self, path: str) -> bool:
        return bool(self.list(path)) if self.git else (self.path / path).is_file()

    def read(self, path: str) -> str:
        if not self.git:
            return (self.path / path).read_bytes().decode("utf-8")
        if self._proc is None:
            self._proc = subprocess.Popen(["git", f"--git-dir={self.path}", "cat-file", "--batch"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._proc.stdin and self._proc.stdout
        self._proc.stdin.write(f"{self.rev}:{path}\n".encode())
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().decode().split()
        if len(header) < 3 or header[1] == "missing":
            raise FileNotFoundError(f"{self.path}@{self.rev}:{path}")
        data = self._proc.stdout.read(int(header[2]))
        self._proc.stdout.read(1)  # trailing newline
        return data.decode("utf-8")

    def describe(self) -> str:
        return f"{self.path} @ {self.commit}" if self.git else f"{self.path} (folder)"

    def close(self) -> None:
        if self._proc is not None:
            assert self._proc.stdin
            self._proc.stdin.close()
            self._proc.wait()
            self._proc = None


# -- documents -----------------------------------------------------------------------------------

@dataclass
class Doc:
    id: str
    text: str
    mentions: list[dict] = field(default_factory=list)
    pmid: str | None = None
    doc_ids: list[str] | None = None
    doc_taxa: dict[str, str] | None = None
    alternatives: list[dict] | None = None

    def to_json(self, source: str) -> dict:
        d: dict = {"id": self.id, "text": self.text, "source": source}
        if self.pmid:
            d["pmid"] = self.pmid
        d["mentions"] = self.mentions
        if self.doc_ids is not None:
            d["doc_ids"] = self.doc_ids
        if self.doc_taxa is not None:
            d["doc_taxa"] = self.doc_taxa
        if self.alternatives is not None:
            d["alternatives"] = self.alternatives
        return d


def mention(start: int, end: int, text: str, type_: str, ids: Iterable[str] = (),
            taxon: str | None = None) -> dict:
    return {"start": start, "end": end, "text": text, "type": type_,
            "ids": sorted(set(ids)), "taxon": taxon}


def check_mentions(doc: Doc, stats: Counter, key: str = "mentions") -> None:
    """Keep the mentions whose span gives their text; merge exact duplicates; sort."""
    merged: dict[tuple, dict] = {}
    for m in getattr(doc, key) or []:
        s, e = m["start"], m["end"]
        if not (0 <= s < e <= len(doc.text)) or doc.text[s:e] != m["text"]:
            stats[f"{key}_mismatch"] += 1
            continue
        k = (s, e, m["type"])
        if k in merged:
            stats[f"{key}_duplicate_merged"] += 1
            old = merged[k]
            old["ids"] = sorted(set(old["ids"]) | set(m["ids"]))
            old["taxon"] = old["taxon"] or m["taxon"]
        else:
            merged[k] = dict(m)
    kept = sorted(merged.values(), key=lambda m: (m["start"], m["end"], m["type"]))
    if getattr(doc, key) is not None:
        setattr(doc, key, kept)


def hash_bucket(doc_id: str, n: int = 10) -> int:
    return int(hashlib.sha1(doc_id.encode("utf-8")).hexdigest(), 16) % n


def hash_split(doc_id: str) -> str:
    """Deterministic 80/10/10 split by document id."""
    b = hash_bucket(doc_id)
    return "test" if b == 9 else "devel" if b == 8 else "train"


# -- brat / BioNLP standoff ------------------------------------------------------------------------

_SPAN = re.compile(r"^(\S+) (\d+ \d+(?:;\d+ \d+)*)$")


def read_standoff(text: str, ann: str, stats: Counter, id_map=None) -> list[dict]:
    """Text-bound annotations (``T`` lines) of a ``.a1``/``.ann`` file; ``N`` lines
    (``N1<TAB>Reference T1 Taxonomy:882104``) become ids through ``id_map(ref) -> (id, taxon)``."""
    ments: dict[str, dict] = {}
    norms: dict[str, list[str]] = defaultdict(list)
    for line in ann.splitlines():
        if line.startswith("T"):
            tid, info, mtext = (line.split("\t") + ["", ""])[:3]
            m = _SPAN.match(info)
            if not m:
                stats["unparsed_lines"] += 1
                continue
            type_, spans = m.group(1), m.group(2)
            if ";" in spans:
                stats["discontinuous_skipped"] += 1
                continue
            s, e = map(int, spans.split())
            ments[tid] = mention(s, e, mtext, type_)
        elif line.startswith("N"):
            parts = line.split("\t")
            fields = parts[1].split() if len(parts) > 1 else []
            if len(fields) >= 3:
                norms[fields[1]].append(fields[2])
    if id_map is not None:
        for tid, refs in norms.items():
            if tid in ments:
                for ref in refs:
                    nid, taxon = id_map(ref)
                    ments[tid]["ids"] = sorted(set(ments[tid]["ids"]) | {nid})
                    ments[tid]["taxon"] = ments[tid]["taxon"] or taxon
    return list(ments.values())


def pmid_of(name: str) -> str | None:
    m = re.search(r"(\d{5,9})", name)
    return m.group(1) if m else None


# -- converters ----------------------------------------------------------------------------------

def _bc2gm_pmid(sid: str) -> str | None:
    m = re.match(r"P(\d{8})[TA]\d+$", sid)
    return str(int(m.group(1))) if m else None


def convert_bc2gm(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    src = srcs[0]

    def sentences(path: str) -> dict[str, str]:
        out = {}
        for line in src.read(path).splitlines():
            if line.strip():
                sid, _, sent = line.partition(" ")
                out[sid] = sent
        return out

    def spans(path: str, sents: dict[str, str], type_: str) -> dict[str, list[dict]]:
        """BC2GM offsets count non-whitespace characters; the end offset is inclusive."""
        out: dict[str, list[dict]] = defaultdict(list)
        nonws: dict[str, list[int]] = {}
        for line in src.read(path).splitlines():
            if not line.strip():
                continue
            sid, offs, mtext = line.split("|", 2)
            if sid not in sents:
                stats["eval_lines_without_sentence"] += 1
                continue
            if sid not in nonws:
                nonws[sid] = [i for i, c in enumerate(sents[sid]) if not c.isspace()]
            pos = nonws[sid]
            a, b = map(int, offs.split())
            if b >= len(pos):
                stats[f"{type_}_offset_out_of_range"] += 1
                continue
            out[sid].append(mention(pos[a], pos[b] + 1, mtext, type_))
        return out

    devel_ids = set(sentences("devel-split/devel/devel.in"))
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    for part in ("train", "test"):
        sents = sentences(f"original-data/{part}/{part}.in")
        genes = spans(f"original-data/{part}/GENE.eval", sents, "GENE")
        alts = spans(f"original-data/{part}/ALTGENE.eval", sents, "ALTGENE")
        for sid, sent in sents.items():
            doc = Doc(sid, sent, genes.get(sid, []), pmid=_bc2gm_pmid(sid),
                      alternatives=alts.get(sid, []))
            split = "test" if part == "test" else ("devel" if sid in devel_ids else "train")
            out[split].append(doc)
    return out


def convert_jnlpba(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    src = srcs[0]
    muid2pmid = dict(line.split("\t")[:2] for line in
                     src.read("conversion/MUID-PMID-map.txt").splitlines() if "\t" in line)
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    for part in ("train", "test"):
        for path in src.list(f"standoff/{part}"):
            if not path.endswith(".txt"):
                continue
            base = path[:-4]
            name = base.rsplit("/", 1)[1]
            text = src.read(path)
            if not text.strip():
                stats["empty_documents_skipped"] += 1
                continue
            ann = src.read(base + ".ann") if src.exists(base + ".ann") else ""
            muid = name.split("-")[0]
            if muid not in muid2pmid:
                stats["documents_without_pmid"] += 1
            doc = Doc(name, text, read_standoff(text, ann, stats), pmid=muid2pmid.get(muid))
            split = part
            # the "-2" copies of duplicated JNLPBA ids follow their first copy
            if part == "train" and hash_bucket(name.split("-")[0]) == 0:
                split = "devel"
            out[split].append(doc)
    # a few test abstracts are also training abstracts: the official test copy is kept
    test_ids = {d.id for d in out["test"]}
    for split in ("train", "devel"):
        keep = [d for d in out[split] if d.id not in test_ids]
        stats["train_documents_also_in_test_dropped"] += len(out[split]) - len(keep)
        out[split] = keep
    return out


def _convert_bionlp13(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    src = srcs[0]
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    for split in SPLITS:
        for path in src.list(f"original-data/{split}"):
            if not path.endswith(".txt"):
                continue
            base = path[:-4]
            name = base.rsplit("/", 1)[1]
            text = src.read(path)
            ments = read_standoff(text, src.read(base + ".a1"), stats)
            out[split].append(Doc(name, text, ments, pmid=pmid_of(name)))
    return out


convert_bionlp13cg = _convert_bionlp13
convert_bionlp13pc = _convert_bionlp13


def _knowtator(xml_text: str, type_: str, stats: Counter) -> list[dict]:
    root = ET.fromstring(xml_text)
    classes = {cm.get("id"): cm.find("mentionClass").get("id")
               for cm in root.iter("classMention")}
    out = []
    for ann in root.iter("annotation"):
        mid = ann.find("mention").get("id")
        spans = ann.findall("span")
        if len(spans) != 1:
            stats["discontinuous_skipped"] += 1
            continue
        s, e = int(spans[0].get("start")), int(spans[0].get("end"))
        cls = classes.get(mid)
        if cls is None:
            stats["annotation_without_class"] += 1
            continue
        taxon = cls if cls.startswith("NCBITaxon:") else None
        out.append(mention(s, e, ann.findtext("spannedText") or "", type_, [cls], taxon))
    return out


def convert_craft(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    src = srcs[0]
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    for split, fname in (("train", "train"), ("devel", "dev"), ("test", "test")):
        for pmid in src.read(f"articles/ids/craft-ids-{fname}.txt").split():
            text = src.read(f"articles/txt/{pmid}.txt")
            ments = []
            for typ, folder in (("PR", "PR/PR"), ("NCBITaxon", "NCBITaxon/NCBITaxon")):
                ments += _knowtator(src.read(
                    f"concept-annotation/{folder}/knowtator/{pmid}.txt.knowtator.xml"), typ, stats)
            out[split].append(Doc(pmid, text, ments, pmid=pmid))
    return out


def _taxonomy_ref(ref: str) -> tuple[str, str]:
    tid = ref.split(":", 1)[1]
    return f"NCBITaxon:{tid}", f"NCBITaxon:{tid}"


def _split_lists(src: Source) -> dict[str, str]:
    where = {}
    for split in SPLITS:
        for i in src.read(f"split/{split}.txt").split():
            where[i] = split
    return where


def convert_s800(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    if len(srcs) < 2:
        raise SystemExit("s800 needs --src <s800-revision-data> --src <spyysalo/s800>")
    data, splits = srcs
    where = _split_lists(splits)
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    for path in data.list("original-standoff"):
        if not path.endswith(".txt"):
            continue
        base = path[:-4]
        name = base.rsplit("/", 1)[1]
        text = data.read(path)
        ments = read_standoff(text, data.read(base + ".ann"), stats, _taxonomy_ref)
        if name not in where:
            stats["documents_not_in_split_lists"] += 1
            continue
        out[where[name]].append(Doc(name, text, ments, pmid=name))
    return out


def convert_linnaeus(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    if len(srcs) < 2:
        raise SystemExit("linnaeus needs --src <linnaeus-corpus-data> --src <linnaeus-corpus>")
    data, splits = srcs
    where = _split_lists(splits)

    def tags(path: str) -> dict[str, list[tuple]]:
        out: dict[str, list[tuple]] = defaultdict(list)
        for line in data.read(path).splitlines():
            if not line or line.startswith("#"):
                continue
            sid, doc, s, e, mtext, *rest = line.split("\t")
            out[doc].append((sid, int(s), int(e), mtext, rest[0] if rest else ""))
        return out

    filtered = {(d, s, e) for d, ts in tags("filtered_tags.tsv").items() for _, s, e, _, _ in ts}
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    all_tags = tags("tags.tsv")
    for path in data.list("txt"):
        name = path.rsplit("/", 1)[1][:-4]
        text = data.read(path)
        ments = []
        for sid, s, e, mtext, _code in all_tags.get(name, []):
            ids = [f"NCBITaxon:{x.rsplit(':', 1)[1]}" for x in sid.split("|")]
            # "species" = an NCBI Taxonomy name (in filtered_tags.tsv); "species_clue" = a
            # word such as "patient" or "women" that the annotators also tagged with a taxon
            type_ = "species" if (name, s, e) in filtered else "species_clue"
            ments.append(mention(s, e, mtext, type_, ids, ids[0] if len(ids) == 1 else None))
        if name not in where:
            stats["documents_not_in_split_lists"] += 1
            continue
        out[where[name]].append(Doc(name, text, ments))
    return out


def convert_loctext(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    src = srcs[0]
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    prefix = {"uniprot": ("protein", "UniProtKB"), "taxonomy": ("organism", "NCBITaxon"),
              "go": ("location", "")}
    for path in src.list("resources/corpora/LocText/LocText_PubAnnotation_with_normalizations"):
        d = json.loads(src.read(path))
        text = d["text"]
        ments = []
        for den in d.get("denotations", []):
            ns, _, local = den["obj"].partition(":")
            if ns not in prefix:
                stats[f"unknown_namespace_{ns}"] += 1
                continue
            type_, pre = prefix[ns]
            nid = f"{pre}:{local}" if pre else local
            s, e = den["span"]["begin"], den["span"]["end"]
            taxon = nid if ns == "taxonomy" else None
            ments.append(mention(s, e, text[s:e], type_, [nid], taxon))
        pmid = str(d["sourceid"])
        out[hash_split(pmid)].append(Doc(pmid, text, ments, pmid=pmid))
    return out


#: Species words of the GNAT gene list comments -> NCBI Taxonomy (Entrez Gene's taxon ids)
GNAT_TAXA = {
    "mouse": "10090", "human": "9606", "r.norv": "10116", "rat": "10116", "x.laev": "8355",
    "s.pombe": "284812", "a.thal": "3702", "arabidopsis": "3702", "drosophila": "7227",
    "d.mel": "7227", "caenorhabditis elegans": "6239", "saccharomyces cerevisiae": "559292",
    "rabbit": "9986", "oryctolagus": "9986",
}
GNAT_SECTIONS = {"#From BC1B-yeast-test:": "559292", "#missing annotations in yeast-test:": "559292",
                 "# from BC1 mouse test and train": "10090",
                 "#missing human annotations in above mouse abstracts": "9606",
                 "#fly annotations": "7227"}
GNAT_EXCLUDED = ("#From BC2 human test:", "#missing annotations from other species:")


def convert_gnat100_bc1(srcs: list[Source], stats: Counter) -> dict[str, list[Doc]]:
    src = srcs[0]
    section = None
    genes: dict[str, dict[str, str]] = defaultdict(dict)
    excluded: set[str] = set()
    for line in src.read("texts/test100.genelist").splitlines():
        if not line.strip():
            continue
        if line.startswith("#"):
            section = line.strip()
            if section not in GNAT_SECTIONS and section not in GNAT_EXCLUDED:
                raise ValueError(f"unknown section {section!r}")
            continue
        fields = line.split("\t")
        pmid, gid = fields[0].strip(), fields[1].strip()
        if section in GNAT_EXCLUDED:
            excluded.add(pmid)
            continue
        if gid == "0":
            stats["genes_without_entrez_id"] += 1
            continue
        comment = " ".join(f for f in fields[2:] if f.startswith("#")).lower()
        taxon = GNAT_SECTIONS[section]
        for word, tid in GNAT_TAXA.items():
            if word in comment:
                taxon = tid
                break
        genes[pmid][f"NCBIGene:{gid}"] = f"NCBITaxon:{taxon}"
    out: dict[str, list[Doc]] = {s: [] for s in SPLITS}
    for pmid in sorted(genes):
        if pmid in excluded:
            stats["bc2gn_documents_excluded"] += 1
            continue
        text = src.read(f"texts/test100/{pmid}.txt")
        doc = Doc(pmid, text, [], pmid=pmid, doc_ids=sorted(genes[pmid]),
                  doc_taxa=dict(sorted(genes[pmid].items())))
        out["test"].append(doc)
    stats["bc2gn_documents_excluded"] = len(excluded)
    return out


# -- registry --------------------------------------------------------------------------------------

@dataclass
class Corpus:
    name: str
    convert: object
    repos: list[tuple[str, str]]  # (owner/name, pinned commit), in --src order
    paths: str
    licence: str
    licence_quote: str
    converted: str
    labels: str
    splits: str
    quirks: str
    text: str = "original text with character offsets"


CORPORA: dict[str, Corpus] = {c.name: c for c in [
    Corpus(
        "bc2gm", convert_bc2gm,
        [("spyysalo/bc2gm-corpus", "018161681145daf751af037cb890f3a54f62a74d")],
        "original-data/{train,test}/{train.in,test.in,GENE.eval,ALTGENE.eval}; devel ids from "
        "devel-split/devel/devel.in",
        "Public domain (United States Government Work, NLM); repository tools MIT",
        "This software/database is a \"United States Government Work\" under the terms of the "
        "United States Copyright Act. [...] This software/database is freely available to the "
        "public for use. The National Library of Medicine and the U.S. Government have not "
        "placed any restriction on its use or reproduction. (original-data/NOTICE)",
        "BioCreative II gene mention task, official train (15,000 sentences) and test (5,000) "
        "in the original untokenised text; GENE.eval gold mentions; ALTGENE.eval acceptable "
        "alternative spans in each document's `alternatives`.",
        "`GENE` (gene or gene product, BC2GM guidelines); `ALTGENE` in `alternatives` only.",
        "official train / test; devel = the 2500 train sentences of spyysalo's devel-split "
        "(train.jsonl + devel.jsonl = the official training set).",
        "Documents are single MEDLINE sentences (ids like P00001606T0076 = PMID 00001606, title "
        "or abstract sentence). Source offsets count non-whitespace characters with an "
        "inclusive end; they are mapped to str offsets here. An ALTGENE span is an accepted "
        "alternative boundary of a GENE mention (evaluate a prediction as correct if it "
        "matches a GENE or an ALTGENE span). BC2GM sentences come from GENETAG "
        "(openbiocorpora/genetag, not converted to avoid duplicates).",
        "original sentence text; offsets mapped from BC2GM non-whitespace offsets"),
    Corpus(
        "jnlpba", convert_jnlpba,
        [("spyysalo/jnlpba", "4455122de861c6e448e2e8c7f19ef8f49dbc32b2")],
        "standoff/{train,test}/*.txt, *.ann",
        "GENIA Project License for Annotated Corpora (annotations CC BY 3.0); abstracts "
        "under PubMed terms",
        "Annotations created by the GENIA Project are licensed under the Creative Commons "
        "Attribution 3.0 Unported License. (LICENSE)",
        "JNLPBA 2004 shared task (GENIA 3.02 subset: 2,000 training abstracts, 404 test) in "
        "spyysalo's standoff version, whose text is the PubMed title+abstract aligned to the "
        "JNLPBA tokens, so mentions carry real character offsets.",
        "all five original labels kept: `protein`, `DNA`, `RNA`, `cell_type`, `cell_line`. "
        "For a gene/protein tagger use `protein` (GENIA protein = gene products); `DNA` "
        "mentions include gene names used as genes (e.g. 'IL-2 gene', 'promoter') and `RNA` "
        "mRNAs -- map them to a gene label only deliberately; `cell_type`/`cell_line` are not "
        "genes.",
        "official train / test; devel = train documents whose sha1(id) % 10 == 0 "
        "(JNLPBA has no devel split).",
        "Document ids are the JNLPBA MEDLINE UIDs (MUIDs); `pmid` is the PubMed id from the "
        "repository's conversion/MUID-PMID-map.txt. One training abstract occurs twice "
        "(second copy `<id>-2`). 10 test abstracts are also in the JNLPBA training file: "
        "they are kept in test and dropped from train (stats). The abstracts are "
        "GENIA abstracts: they overlap the BioNLP-ST GE 2009/2011 documents relx already "
        "trains on and evaluates with (see stats.json `overlap_with_ge`)."),
    Corpus(
        "bionlp13cg", convert_bionlp13cg,
        [("openbiocorpora/bionlp-st-2013-cg", "b4a603dee25bd6ac5636017c2be41fd2edc52a3e")],
        "original-data/{train,devel,test}/PMID-*.txt, *.a1",
        "annotations CC BY-SA 3.0 (NaCTeM); abstracts under PubMed terms",
        "Annotations are licensed under the Creative Commons Attribution-ShareAlike 3.0 "
        "Unported (CC BY-SA 3.0) license. (LICENSE)",
        "BioNLP Shared Task 2013 Cancer Genetics: all entity annotations of the .a1 files "
        "(the test set has .a1 only; .a2 triggers/secondary entities are not used).",
        "18 original CG labels kept; `Gene_or_gene_product` is the gene/protein label "
        "(others: Cancer, Cell, Organism, Simple_chemical, tissues, anatomy...).",
        "official train / devel / test.",
        "Two-line documents (title, abstract); ids `PMID-<pmid>`."),
    Corpus(
        "bionlp13pc", convert_bionlp13pc,
        [("openbiocorpora/bionlp-st-2013-pc", "ef65fe2f44ee701be857f0cb362e3233abfb8e07")],
        "original-data/{train,devel,test}/PMID-*.txt, *.a1",
        "annotations CC BY-SA 3.0 (NaCTeM, KISTI); abstracts under PubMed terms",
        "Annotations are licensed under the Creative Commons Attribution-ShareAlike 3.0 "
        "Unported (CC BY-SA 3.0) license. (LICENSE)",
        "BioNLP Shared Task 2013 Pathway Curation: all entity annotations of the .a1 files.",
        "original labels `Gene_or_gene_product` (gene/protein), `Complex` (protein "
        "complexes; FamPlex-like), `Simple_chemical`, `Cellular_component`.",
        "official train / devel / test.",
        "Two-line documents (title, abstract); ids `PMID-<pmid>`."),
    Corpus(
        "craft", convert_craft,
        [("UCDenver-ccp/CRAFT", "2abe82b8bb8089448b84937d5f61d8c218011322")],
        "articles/txt/<pmid>.txt; concept-annotation/PR/PR/knowtator and "
        "concept-annotation/NCBITaxon/NCBITaxon/knowtator; articles/ids/craft-ids-*.txt",
        "CC BY 3.0",
        "The CRAFT annotations are licensed under the Creative Commons BY 3.0 license. "
        "(LICENSE.txt)",
        "CRAFT v5 full-text articles (PMC OA) with the Protein Ontology (PR, core, without "
        "extension classes) and NCBI Taxonomy (core) concept annotations.",
        "`PR` mentions (ids `PR:...`, mostly species-agnostic gene-level PR classes -- CRAFT v5 "
        "has no Entrez Gene annotation; taxon null) and `NCBITaxon` mentions (ids and taxon "
        "`NCBITaxon:...`, including higher taxa such as Mus, Mammalia).",
        "train 60 / devel 7 / test 30 from articles/ids (train+dev = the original 67 "
        "articles; test = the 30 of the CRAFT Shared Task 2019).",
        "Full texts (~50k characters each). The mouse-heavy Entrez Gene annotation of CRAFT "
        "1.0 is not in the GitHub history. The CRAFT dependency treebank in "
        "../../treebanks/craft covers the same 97 articles."),
    Corpus(
        "s800", convert_s800,
        [("spyysalo/s800-revision-data", "3f41fbb3e6a0d1056e939541dc35a26a8a659862"),
         ("spyysalo/s800", "f5425e7498930757c8577828eabc41cf88d80348")],
        "original-standoff/*.txt, *.ann (S800 1.0 in standoff); split/{train,devel,test}.txt",
        "no explicit licence in S800-1.0 (abstracts under PubMed terms); bigbio lists it as "
        "'other, subject to Medline restrictions'",
        "(no licence file in the S800-1.0 package; see README)",
        "Species-800: 800 PubMed abstracts (8 taxonomic categories x 100) with organism "
        "mentions normalised to NCBI Taxonomy -- the original 1.0 annotation "
        "(`original-standoff`), not the later revision in the same repository.",
        "`Species` with ids/taxon `NCBITaxon:...`.",
        "train 560 / devel 80 / test 160 from spyysalo/s800 split lists (the common split).",
        "Original S800 only annotated names it could normalise, and was evaluated with "
        "relaxed boundaries, so exact-span scores understate taggers (see spyysalo/"
        "s800-revision-docs)."),
    Corpus(
        "linnaeus", convert_linnaeus,
        [("spyysalo/linnaeus-corpus-data", "274ef6ed11178320832f58f8cca158a93889aeda"),
         ("spyysalo/linnaeus-corpus", "f75269c93b887d256061faf1339628b1c7e472db")],
        "txt/*.txt, tags.tsv, filtered_tags.tsv; split/{train,devel,test}.txt",
        "CC BY 4.0",
        "The LINNAEUS corpus is released under the Creative Commons Attribution 4.0 "
        "International (CC BY 4.0) license. (LICENSE.txt)",
        "LINNAEUS 1.1 (= 1.0 with an open licence): 100 PMC full-text documents with species "
        "mentions normalised to NCBI Taxonomy.",
        "`species` (in filtered_tags.tsv: an NCBI Taxonomy name) and `species_clue` (tags.tsv "
        "only: words like 'patients', 'women' tagged with a taxon); ids `NCBITaxon:...` "
        "(several when the annotators gave alternatives, then taxon null).",
        "spyysalo/linnaeus-corpus split lists (train/devel/test by document).",
        "Full texts of varying OCR quality (tags.tsv category codes mark OCR errors, "
        "misspellings); ids like pmcA102792."),
    Corpus(
        "loctext", convert_loctext,
        [("Rostlab/LocText", "9d297a2d7023e68bacbe86100ee6af2419c4eb7c")],
        "resources/corpora/LocText/LocText_PubAnnotation_with_normalizations/*.json",
        "no data licence file; repository Apache-2.0 (code); corpus published with "
        "Cejuela et al. 2018 (Bioinformatics, open access)",
        "(repository LICENSE: Apache License, Version 2.0)",
        "LocText: 100 PubMed abstracts (human, yeast, Arabidopsis) with proteins (UniProtKB), "
        "organisms (NCBI Taxonomy) and subcellular locations (GO).",
        "`protein` (ids `UniProtKB:...`; taxon null -- derive it from UniProt), `organism` "
        "(`NCBITaxon:...`), `location` (`GO:...`).",
        "no split defined: sha1(pmid) % 10 -> 0-7 train, 8 devel, 9 test.",
        "PubAnnotation spans without mention text: mention text is taken from the span. "
        "Proteins are UniProt, not NCBI Gene: map through UniProt to compare with gene ids."),
    Corpus(
        "gnat100-bc1", convert_gnat100_bc1,
        [("miroculus/GNAT", "189d6962755222793c9d86f56e30898404b0bc41")],
        "texts/test100.genelist, texts/test100/<pmid>.txt",
        "BSD-style (GNAT package, (c) Joerg Hakenberg); abstracts under PubMed terms; "
        "BioCreative I data",
        "Redistribution and use in source and binary forms, with or without modification, are "
        "permitted provided that the following conditions are met: [...] (COPYING.txt)",
        "GNAT's 100-abstract gene normalisation test set: BioCreative I task 1B abstracts "
        "(mouse test+train, yeast test, fly) re-annotated by the GNAT authors with Entrez Gene "
        "ids for every species mentioned (not the official MGI/SGD/FlyBase lists). Only the "
        "74 BioCreative I documents are converted; the 26 BioCreative II GN documents are left "
        "out (BioRED overlap, see README).",
        "no mentions; `doc_ids` = `NCBIGene:...` for the document, `doc_taxa` = each gene's "
        "taxon from the list's section (yeast 559292, mouse 10090, fly 7227) or its species "
        "comment (#human, #r.norv., #s.pombe, ...).",
        "all test (a test set; too small to split).",
        "Document-level gold only. Texts are abstracts without title, hard-wrapped. Genes "
        "with no Entrez id (id 0) are dropped (stats). Yeast taxon 559292 (S. cerevisiae "
        "S288C, Entrez Gene's yeast taxon), S. pombe 284812.",
        "original abstract text (no title)"),
]}


# -- writing ---------------------------------------------------------------------------------------

def split_stats(docs: list[Doc]) -> dict:
    by_type = Counter(m["type"] for d in docs for m in d.mentions)
    with_ids = sum(1 for d in docs for m in d.mentions if m["ids"])
    taxa = Counter(m["taxon"] for d in docs for m in d.mentions if m["taxon"])
    out = {"docs": len(docs), "mentions": sum(by_type.values()),
           "mentions_by_type": dict(sorted(by_type.items())), "mentions_with_ids": with_ids,
           "top_taxa": dict(taxa.most_common(8))}
    if any(d.doc_ids for d in docs):
        out["doc_ids"] = sum(len(d.doc_ids or []) for d in docs)
        out["doc_taxa"] = dict(Counter(t for d in docs for t in (d.doc_taxa or {}).values())
                               .most_common(10))
    if any(d.alternatives for d in docs):
        out["alternatives"] = sum(len(d.alternatives or []) for d in docs)
    return out


def ge_pmids(shared: Path) -> dict[str, set[str]]:
    """PMID -> the BioNLP-ST GE sets (``2011/devel``, ...) relx already uses that hold it."""
    out: dict[str, set[str]] = defaultdict(set)
    ge = shared / "corpora" / "bionlp-st-ge"
    if ge.is_dir():
        for p in ge.rglob("*.txt"):
            m = re.fullmatch(r"(?:PMID-)?(\d{5,9})\.txt", p.name)
            if m:
                out[m.group(1)].add(f"{p.parent.parent.name}/{p.parent.name}")
    return out


def write_corpus(name: str, srcs: list[Source], out_dir: Path) -> dict:
    corpus = CORPORA[name]
    stats: Counter = Counter()
    splits = corpus.convert(srcs, stats)
    for docs in splits.values():
        for d in docs:
            check_mentions(d, stats)
            check_mentions(d, stats, "alternatives")
    seen: dict[str, str] = {}
    for split, docs in splits.items():
        for d in docs:
            if d.id in seen:
                raise ValueError(f"{name}: document {d.id} in {seen[d.id]} and {split}")
            seen[d.id] = split
    out_dir.mkdir(parents=True, exist_ok=True)
    for split in SPLITS:
        path = out_dir / f"{split}.jsonl"
        docs = sorted(splits.get(split, []), key=lambda d: d.id)
        if not docs:
            if path.exists():
                path.unlink()
            continue
        with path.open("w", encoding="utf-8") as f:
            for d in docs:
                f.write(json.dumps(d.to_json(name), ensure_ascii=False) + "\n")
    info = {
        "corpus": name,
        "sources": [{"repo": repo, "commit": s.commit or "(folder)", "pinned": pin,
                     "path": str(s.path)} for (repo, pin), s in zip(corpus.repos, srcs, strict=True)],
        "splits": {s: split_stats(splits[s]) for s in SPLITS if splits.get(s)},
        "dropped": {k: v for k, v in sorted(stats.items())},
    }
    shared = out_dir.resolve().parents[2] if len(out_dir.resolve().parents) > 2 else None
    ge = ge_pmids(shared) if shared else set()
    if ge:
        info["overlap_with_ge"] = {
            s: dict(sorted(Counter(g for d in splits[s] if d.pmid for g in ge.get(d.pmid, ()))
                           .items())) for s in SPLITS if splits.get(s)}
    (out_dir / "stats.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    (out_dir / "SOURCE.md").write_text(source_md(corpus, info), encoding="utf-8")
    return info


def _table(info: dict) -> list[str]:
    types = sorted({t for s in info["splits"].values() for t in s["mentions_by_type"]})
    head = ["split", "docs", "mentions", *types, "with ids"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for split, s in info["splits"].items():
        row = [split, f"{s['docs']:,}", f"{s['mentions']:,}",
               *(f"{s['mentions_by_type'].get(t, 0):,}" for t in types),
               f"{s['mentions_with_ids']:,}"]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def source_md(c: Corpus, info: dict) -> str:
    src = "\n".join(f"- `{s['repo']}` @ `{s['commit']}`" for s in info["sources"])
    lines = [
        f"# {c.name}", "",
        "Converted by `lab/genes/corpora.py` in the relx repository:", "",
        f"    python lab/genes/corpora.py {c.name} "
        + " ".join(f"--src <{s['repo']} snapshot>" for s in info["sources"])
        + f" --out ../shared/corpora/genes/{c.name}", "",
        "## Source", "", src, "", f"Paths: {c.paths}", "",
        f"Text: {c.text}.", "",
        "## Licence", "", c.licence, "", f"> {c.licence_quote}", "",
        "## What was converted", "", c.converted, "",
        "## Labels", "", c.labels, "",
        "## Splits", "", c.splits, "",
        "## Counts", "", *_table(info), "",
    ]
    extra = {s: {k: v for k, v in st.items() if k in ("doc_ids", "doc_taxa", "alternatives",
                                                      "top_taxa") and v}
             for s, st in info["splits"].items()}
    if any(extra.values()):
        lines += ["```", json.dumps(extra, indent=1), "```", ""]
    lines += ["Dropped / merged while checking `text[start:end] == mention text`: "
              + (", ".join(f"{k} {v}" for k, v in info["dropped"].items()) or "none") + ".", ""]
    if "overlap_with_ge" in info:
        ov = "; ".join(f"{k}: " + (", ".join(f"GE {g} {n}" for g, n in v.items()) or "none")
                       for k, v in info["overlap_with_ge"].items())
        lines += ["Documents (by PMID) that are also BioNLP-ST GE documents in "
                  "../../bionlp-st-ge (which relx trains its tagger on and evaluates with): "
                  + ov + ".", ""]
    lines += ["## Known quirks", "", c.quirks, ""]
    return "\n".join(lines)


# -- README ----------------------------------------------------------------------------------------

README_HEAD = """# Gene/protein, species and gene-normalisation corpora (JSONL)

Converted by `lab/genes/corpora.py` (relx repository) from public GitHub snapshots; one
folder per corpus with `train/devel/test.jsonl` (only the splits the corpus defines),
`stats.json` and `SOURCE.md` (repository, commit, paths, licence, label mapping, counts,
quirks). Format: see the module docstring of `lab/genes/corpora.py`. Offsets are Python str
indices, end exclusive, and every mention was checked against the text.

"""

README_GE = """## Overlap with the GE data relx already uses

Documents (by PMID) that are also BioNLP-ST GE documents in `../bionlp-st-ge` -- relx's
current tagger trains on GE train and is evaluated on GE 2011 devel, so a tagger trained on
these corpora and scored on GE devel (or the reverse) must drop them first (`pmid` field).
JNLPBA is GENIA: 150 of its training abstracts are GE 2011 devel abstracts.

"""

README_BIORED = """## BioRED overlap (why GNormPlus, NLM-Gene and BioCreative II GN are absent)

BioRED (and BioRED-BC8, LitCoin, anything derived from it) is relx's sealed external test
set: nothing from it was fetched or opened. Its 600 abstracts were partly drawn from earlier
corpora. The paper itself (Luo et al. 2022, Briefings in Bioinformatics, PMC9487702 /
arXiv 2204.04263) is in the `pages` search corpus, but that tool returns only each page's
opening (title, abstract, availability; tried with eight queries, also the arXiv markdown
copy and PMC table pages), so the selection sentence could NOT be quoted from the paper
itself. The list below comes from a secondary source: a public research notebook on BioRED
in the GitHub text index (`find_string` "NLM-Gene, GNormPlus", file id 63441491824; its
repository name is not shown by the index), which answers "How were the papers selected in
the BioRED dataset?" with:

> Randomly sampled articles from several existing datasets (i.e. NCBI Disease, NLM-Gene,
> GNormPlus, BC5CDR and tmVar)

This agrees with the brief's recollection except for NLM-Chem, which this source does not
list (whoever may read the paper's methods section should confirm the list and whether
NLM-Chem is on it; neither changes the gene decisions below). Consequences applied here:

- **GNormPlus** and **NLM-Gene** (the two gene corpora on that list): not fetched, not
  converted, not to be used for training or evaluation.
- **BioCreative II GN** (human, Entrez Gene): GNormPlus *is* a re-annotation of the
  BioCreative II GN train+test abstracts plus NLM-IAT ("We re-annotated two existing gene
  corpora. The BioCreative II GN corpus ..." -- bigbio GNormPlus dataset card; "The
  GNormPlus corpus consists of three sub-parts: BC2GN-Train, BC2GN-Test and NLMIAT" --
  bigscience-workshop/biomedical PR #872), so BioRED may contain BC2GN documents: BC2GN is
  excluded too, including the 26 BC2GN abstracts inside GNAT's test100 set.
- NCBI Disease, BC5CDR, tmVar (and NLM-Chem): not gene-mention corpora for this task;
  not converted. Note for later work: the `pmid` field is kept wherever known so that a
  future overlap check against BioRED's PMID list (done by whoever may open it) is a join.

None of the converted corpora is known to draw on these sources (BC2GM = GENETAG MEDLINE
sentences, JNLPBA = GENIA, BioNLP-ST 2013 CG/PC, CRAFT, S800, LINNAEUS, LocText, BioCreative
I task 1B), but no PMID-level check against BioRED was possible without opening it.

"""

README_MISSING = """## Not obtained

- **Europe PMC annotated full-text corpus** (Yang et al. 2023, 300 OA papers): not in any
  GitHub repository reachable here (ML4LitS repositories hold code and models only); it is
  distributed from Europe PMC / figshare, which this machine cannot reach.
- **BioID** (BioCreative VI track 1): the only public copy found is a PubTator gold file in
  hu-ner/hunflair2-experiments, which is not in the file index and whose repository also
  holds HunFlair2's other test corpora (possibly BioRED); it was not fetched.
- **BioCreative I task 1B official data** (MGI / FlyBase / SGD gene lists): not found on
  GitHub. Only GNAT's Entrez-Gene re-annotation of 74 of its abstracts (gnat100-bc1) was
  obtainable.
- **CRAFT Entrez Gene annotation** (CRAFT 1.0): not in the CRAFT GitHub history (v3-v5
  replaced it with Protein Ontology classes); the PR annotation is converted instead.
- **DECA**, **ProGene**, a rat gene normalisation corpus: not found in the index.
- **GENETAG**: available (openbiocorpora/genetag) but BC2GM is drawn from it; not converted
  to avoid duplicate sentences across BC2GM's test split.
- **BioCreative II GN, GNormPlus, NLM-Gene**: excluded on purpose (BioRED overlap, above).

"""


def write_readme(out: Path) -> None:
    rows = ["| corpus | kind | docs (train/devel/test) | mentions | gene/protein labels | ids | licence |",
            "|---|---|---|---|---|---|---|"]
    kinds = {"bc2gm": "gene mention", "jnlpba": "gene/protein mention (GENIA)",
             "bionlp13cg": "entities incl. genes", "bionlp13pc": "entities incl. genes",
             "craft": "full-text PR + taxa", "s800": "species", "linnaeus": "species (full text)",
             "loctext": "protein + organism normalisation", "gnat100-bc1": "doc-level gene normalisation"}
    genes = {"bc2gm": "GENE", "jnlpba": "protein (+DNA, RNA)", "bionlp13cg": "Gene_or_gene_product",
             "bionlp13pc": "Gene_or_gene_product, Complex", "craft": "PR", "s800": "-",
             "linnaeus": "-", "loctext": "protein", "gnat100-bc1": "-"}
    ids = {"bc2gm": "-", "jnlpba": "-", "bionlp13cg": "-", "bionlp13pc": "-",
           "craft": "PR, NCBITaxon", "s800": "NCBITaxon", "linnaeus": "NCBITaxon",
           "loctext": "UniProtKB, NCBITaxon, GO", "gnat100-bc1": "NCBIGene (doc level), taxa"}
    for name, c in CORPORA.items():
        p = out / name / "stats.json"
        if not p.exists():
            continue
        info = json.loads(p.read_text(encoding="utf-8"))
        sp = info["splits"]
        docs = "/".join(f"{sp[s]['docs']:,}" if s in sp else "-" for s in SPLITS)
        if name == "gnat100-bc1":
            ments = f"{sum(s.get('doc_ids', 0) for s in sp.values()):,} doc ids"
        else:
            ments = f"{sum(s['mentions'] for s in sp.values()):,}"
        rows.append(f"| [{name}]({name}/SOURCE.md) | {kinds[name]} | {docs} | {ments} | "
                    f"{genes[name]} | {ids[name]} | {c.licence.split(';')[0]} |")
    ge_lines = []
    for name in CORPORA:
        p = out / name / "stats.json"
        if p.exists():
            ov = json.loads(p.read_text(encoding="utf-8")).get("overlap_with_ge", {})
            parts = [f"{split}: " + ", ".join(f"GE {g} {n}" for g, n in v.items())
                     for split, v in ov.items() if v]
            if parts:
                ge_lines.append(f"- **{name}** -- " + "; ".join(parts))
    ge = (README_GE + "\n".join(ge_lines) + "\n\n") if ge_lines else ""
    text = README_HEAD + "\n".join(rows) + "\n\n" + ge + README_BIORED + README_MISSING
    (out / "README.md").write_text(text, encoding="utf-8")


# -- CLI -------------------------------------------------------------------------------------------

def _snapshot(root: Path, repo: str) -> Path:
    """The snapshot of ``owner/name`` under ``root``: ``owner+name/repo/.git``, ``.../repo``
    or ``owner+name`` itself, whichever exists first."""
    base = root / repo.replace("/", "+")
    for cand in (base / "repo" / ".git", base / "repo", base):
        if cand.exists():
            return cand
    raise FileNotFoundError(f"no snapshot of {repo} under {root}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", choices=[*CORPORA, "readme", "all"],
                    help="one corpus; readme; or all (every corpus from --snapshots, then the "
                         "README)")
    ap.add_argument("--snapshots", type=Path,
                    help="with all: the folder of snapshots named owner+name/ (a git dir, a "
                         "repo/.git or a repo/ folder in each)")
    ap.add_argument("--src", action="append", default=[],
                    help="snapshot git dir or extracted folder (repeat in the documented order)")
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args(argv)
    if args.corpus == "readme":
        write_readme(args.out)
        return 0
    if args.corpus == "all":
        if args.snapshots is None:
            ap.error("all takes --snapshots")
        for name, c in CORPORA.items():
            srcs = [str(_snapshot(args.snapshots, repo)) for repo, _ in c.repos]
            print(f"== {name}", file=sys.stderr)
            main([name, *(a for s in srcs for a in ("--src", s)),
                  "--out", str(args.out / name)])
        write_readme(args.out)
        return 0
    corpus = CORPORA[args.corpus]
    if len(args.src) != len(corpus.repos):
        ap.error(f"{args.corpus} takes {len(corpus.repos)} --src: "
                 + ", ".join(r for r, _ in corpus.repos))
    srcs = [Source(p, pin) for p, (_, pin) in zip(args.src, corpus.repos, strict=True)]
    try:
        info = write_corpus(args.corpus, srcs, args.out)
    finally:
        for s in srcs:
            s.close()
    print(json.dumps({k: info[k] for k in ("splits", "dropped")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
