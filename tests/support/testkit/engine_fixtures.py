"""Paths of the offline engine's test fixtures (tests/fixtures: programs, packs, stack exports)."""

from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"  # tests/fixtures
PROGRAMS = FIXTURES / "programs"
PACKS = FIXTURES / "packs"
STATES = FIXTURES / "states"
MINI_PACK = PACKS / "mini_pack"
