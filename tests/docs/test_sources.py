"""Every citation key in the code resolves in docs/sources.md.

The code cites the founding research notes (FACTS.md, KUEUE_VALIDATION.md), which are not shipped with the
repository, with three kinds of key: fact sections after `FACTS` (`FACTS B.3`, `FACTS A.2 [S1], A.3 [S31]`),
source tags inside square brackets (`[S16, S17]`, `[S4 FutureReservation.name]`) and Kueue rule ids
(`R-CQ-10`, ranges such as `R-CQ-1..5`). docs/sources.md defines a key by a table row whose first cell is the key.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "docs" / "sources.md"
THIS_DIR = Path(__file__).resolve().parent

# Code folders (components/, policies/, gkecap/, stacks/ and whatever else holds code or notes), scanned as a tree
# so that files moved between folders stay covered. Skipped: virtualenvs, caches, build output, this test's folder
# (its docstrings show example keys) and the page under test.
SCANNED_SUFFIXES = {".py", ".md", ".yaml", ".yml"}
SKIPPED_DIRS = {".venv", "venv", ".git", "__pycache__", "node_modules", "build", "dist", "out", ".pytest_cache",
                ".hypothesis"}

# A fact section: A-F, optionally with a subsection number ("A", "B.3"); not followed by more word characters
# ("A3 Ultra" is a machine series, not a section).
_SECTION = r"[A-F](?:\.\d+)?(?![\w]|\.\d)"
# What may follow a section key before the next one: the word "table", a [...] source list, a (...) remark.
_ATTACHED = r"(?:\s+table)?(?:\s*\[[^\[\]]*\])?(?:\s*\([^()]*\))?"
_SEPARATOR = r"(?:\s*[,;]\s*(?:and\s+)?|\s+and\s+)"
SECTION_CHAIN = re.compile(
    rf"\bFACTS(?:\.md)?(?:\s+sections?)?\s+(?P<chain>{_SECTION}{_ATTACHED}(?:{_SEPARATOR}{_SECTION}{_ATTACHED})*)")
SECTION_KEY = re.compile(rf"(?<![\w.]){_SECTION}")
BRACKETED = re.compile(r"\[[^\[\]\n]*\]")
PARENTHESIZED = re.compile(r"\([^()]*\)")

# A source tag inside one [...] group: S + number + optional letter (S9b), standing alone as a word.
SOURCE_TAG = re.compile(r"(?<![\w\\./-])S\d+[a-z]?(?!\w)")

# A Kueue rule id, and a range of them ("R-CQ-1..5", "R-CQ-1..R-CQ-5", "R-CQ-19..23").
RULE_ID = re.compile(r"(?<![\w-])R-[A-Z]+-\d+(?!\d)")
RULE_RANGE = re.compile(r"(?<![\w-])(R-[A-Z]+)-(\d+)\.\.(?:\1-)?(\d+)(?!\d)")

# First cell of a Markdown table row.
ROW_KEY = re.compile(r"^\|\s*([^|]+?)\s*\|", re.M)


@lru_cache(maxsize=1)
def _scanned_files() -> tuple[Path, ...]:
    files = [ROOT / "README.md"]
    for folder, subfolders, names in os.walk(ROOT):
        here = Path(folder)
        subfolders[:] = sorted(d for d in subfolders if not (d in SKIPPED_DIRS or d.startswith(".")
                                                             or d.endswith(".egg-info") or here / d == THIS_DIR))
        files += [here / name for name in sorted(names)
                  if Path(name).suffix in SCANNED_SUFFIXES and here / name not in (SOURCES, ROOT / "README.md")]
    return tuple(f for f in files if f.is_file())


def _citations(extract) -> dict[str, set[str]]:
    """key -> files (relative to the repository) citing it."""
    found: dict[str, set[str]] = {}
    for path in _scanned_files():
        for key in extract(path.read_text(encoding="utf-8", errors="replace")):
            found.setdefault(key, set()).add(str(path.relative_to(ROOT)))
    return found


def section_keys(text: str) -> set[str]:
    keys = set()
    for match in SECTION_CHAIN.finditer(text):
        chain = PARENTHESIZED.sub(" ", BRACKETED.sub(" ", match.group("chain")))
        keys.update(SECTION_KEY.findall(chain))
    return keys


def source_tags(text: str) -> set[str]:
    return {tag for group in BRACKETED.findall(text) for tag in SOURCE_TAG.findall(group)}


def rule_ids(text: str) -> set[str]:
    ids = set(RULE_ID.findall(text))
    for prefix, first, last in RULE_RANGE.findall(text):
        ids.update(f"{prefix}-{n}" for n in range(int(first), int(last) + 1))
    return ids


def _defined_keys() -> set[str]:
    return {cell.strip("`* ") for cell in ROW_KEY.findall(SOURCES.read_text(encoding="utf-8"))}


def _missing(cited: dict[str, set[str]]) -> list[str]:
    """One line per cited key without a row in docs/sources.md, with the files citing it."""
    defined = _defined_keys()
    return [f"  {key}: cited in {', '.join(sorted(files))}" for key, files in sorted(cited.items())
            if key not in defined]


def test_every_cited_fact_section_has_a_row():
    missing = _missing(_citations(section_keys))
    assert not missing, "fact sections cited in the code but not defined in docs/sources.md:\n" + "\n".join(missing)


def test_every_cited_source_tag_has_a_row():
    missing = _missing(_citations(source_tags))
    assert not missing, "source tags cited in the code but not defined in docs/sources.md:\n" + "\n".join(missing)


def test_every_cited_kueue_rule_id_has_a_row():
    missing = _missing(_citations(rule_ids))
    assert not missing, "Kueue rule ids cited in the code but not defined in docs/sources.md:\n" + "\n".join(missing)


def test_the_scan_finds_citations_of_each_kind():
    # Guards the three tests above against passing vacuously (a regex or path that silently stops matching).
    assert {"A.1", "B.3", "C", "D", "E"} <= set(_citations(section_keys))
    assert {"S1", "S9b", "S17"} <= set(_citations(source_tags))
    assert {"R-CQ-10", "R-CO-2"} <= set(_citations(rule_ids))


def test_section_keys_are_read_from_facts_chains_only():
    assert section_keys("FACTS A.2 [S1 L285-296]; A.3 [S13: default node count = chips / chips per VM].") == {
        "A.2", "A.3"}
    assert section_keys("(FACTS B.1, B.2, B.4): flags") == {"B.1", "B.2", "B.4"}
    assert section_keys("FACTS B.1 [S14] (GPU flex/queued), B.3 [S17] (TPU flex), A.3 [S34] (TPU7x)") == {
        "B.1", "B.3", "A.3"}
    assert section_keys("FACTS A.2 table [S1]; pod FACTS A.3 [S34]") == {"A.2", "A.3"}
    assert section_keys("(FACTS.md C). FACTS.md section D; FACTS A.4 and the CSV; A3 Ultra (FACTS A.4).") == {
        "C", "D", "A.4"}
    assert section_keys("the minimums FACTS.md quotes for flex-start; B.3 without the FACTS prefix") == set()


def test_source_tags_are_read_inside_square_brackets_only():
    assert source_tags("FACTS B.3 [S16, S17]; [S4 FutureReservation.name]; [S1 (8g types), S9b (1g), S3]") == {
        "S16", "S17", "S4", "S1", "S9b", "S3"}
    assert source_tags("# noqa: S506 -- not a citation; x[S1_INDEX]; re.compile(r'[\\S1]')") == set()


def test_rule_ids_and_ranges_are_read():
    assert rule_ids("R-CO-2: and (KUEUE_VALIDATION R-CQ-10); R-CQ-1..5; R-RF-1..R-RF-3") == {
        "R-CO-2", "R-CQ-10", "R-CQ-1", "R-CQ-2", "R-CQ-3", "R-CQ-4", "R-CQ-5", "R-RF-1", "R-RF-2", "R-RF-3"}
    assert rule_ids("PR-CQ-1, R-cq-1, R-CQ-") == set()
