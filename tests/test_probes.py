"""relx names the genes of the probe abstracts (tests/fixtures/probes) as it did when they
were checked by hand: a guard against naming regressions on text unlike BioRED's."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "fixtures" / "probes"


def expected() -> dict[str, dict[tuple[int, int], tuple[str, str, str]]]:
    out: dict[str, dict[tuple[int, int], tuple[str, str, str]]] = {}
    with open(PROBES / "expected.tsv", encoding="utf-8") as fh:
        for row in csv.reader((line for line in fh if not line.startswith("#")),
                              delimiter="\t"):
            probe, start, end, text, ncbi, taxon = row
            out.setdefault(probe, {})[int(start), int(end)] = (text, ncbi, taxon)
    return out


@pytest.fixture(scope="module")
def named() -> dict[str, dict[tuple[int, int], tuple[str, str, str]]]:
    """Each probe's gene mentions as relx extracts them from the file's text."""
    import relx
    from relx.api import as_documents

    ex = relx.load(task="ppi", types=False)
    out: dict[str, dict[tuple[int, int], tuple[str, str, str]]] = {}
    for path in sorted(PROBES.glob("probe-*.txt")):
        doc = next(iter(as_documents([path.read_text(encoding="utf-8")])))
        for d, _, _ in ex.annotate([doc]):
            out[path.name] = {
                (e.spans[0].start, e.spans[0].end): (
                    e.text, (e.ncbi_ids or ["-"])[0], (e.taxon or "-").split(":")[-1])
                for s in d.sentences for e in s.entities}
    return out


def test_the_probe_list_is_what_the_readme_says() -> None:
    want = expected()
    assert len(want) == 62 and sum(len(v) for v in want.values()) == 1562
    for probe, mentions in want.items():
        text = (PROBES / probe).read_text(encoding="utf-8")
        assert all(text[a:b] == m[0] for (a, b), m in mentions.items()), probe


def test_the_hand_annotation_is_of_the_probe_texts() -> None:
    """``annotated.tsv`` (probes 29-62, ``python -m lab.genes.probes``): each row's span is
    its mention in the file as read, and its id one of the two species'."""
    with open(PROBES / "annotated.tsv", encoding="utf-8") as fh:
        rows = list(csv.reader((line for line in fh if not line.startswith("#")),
                               delimiter="\t"))
    assert len(rows) == 1205 and {r[0] for r in rows} == {f"probe-{n}.txt" for n in range(29, 63)}
    for probe, start, end, text, ncbi, taxon in rows:
        assert (PROBES / probe).read_text(encoding="utf-8")[int(start):int(end)] == text
        assert ncbi.startswith("NCBIGene:") and taxon in ("9606", "10090")


@pytest.mark.parametrize("probe", sorted(expected()))
def test_relx_names_the_probe_genes_it_named(probe: str, named) -> None:
    got = named[probe]
    wrong = {span: (want, got.get(span)) for span, want in expected()[probe].items()
             if got.get(span) != want}
    assert not wrong, wrong


#: mentions relx must not find: (probe, start, end, text) -- not genes (rounds 37, 41, 51)
NOT_GENES = [("probe-17.txt", 278, 281, "HFD"), ("probe-23.txt", 523, 530, "NRK-52E"),
             ("probe-29.txt", 694, 697, "CA1"), ("probe-29.txt", 1353, 1356, "CA1"),
             ("probe-32.txt", 1201, 1221, "transcription factor"),
             ("probe-33.txt", 528, 548, "transcription factor"),
             ("probe-38.txt", 141, 161, "transcription factor"),
             ("probe-53.txt", 1003, 1009, "statin"), ("probe-54.txt", 533, 535, "μM")]


@pytest.mark.parametrize(("probe", "start", "end", "text"), NOT_GENES)
def test_relx_finds_no_gene_where_the_text_names_none(probe: str, start: int, end: int,
                                                      text: str, named) -> None:
    assert (PROBES / probe).read_text(encoding="utf-8")[start:end] == text
    assert (start, end) not in named[probe]
