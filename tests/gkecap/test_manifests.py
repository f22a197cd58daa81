"""gkecap.manifests: one YAML file per kind, numbered in apply order, that loads back to the same objects."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, settings, strategies as st

from gkecap.components.kubernetes_objects.build import KIND_ORDER, kueue_objects_for_spec
from gkecap.components.spec import load_environment
from gkecap.manifests import file_name, manifest_files, to_yaml_document, write_manifests
from testkit.spec_data import NOW, prod


def _objects() -> list[dict]:
    return kueue_objects_for_spec(load_environment(prod(), project="acme-ml-prod", now=NOW))


def test_files_are_numbered_in_apply_order():
    names = list(manifest_files(_objects(), kueue_version="v0.19.2"))
    assert names == sorted(names)
    assert names[0] == "00-namespaces.yaml" and names[-1] == "13-validatingadmissionpolicybindings.yaml"
    kinds = [next(d for d in yaml.safe_load_all(text) if d)["kind"] for text in
             manifest_files(_objects(), kueue_version="v0.19.2").values()]
    assert [KIND_ORDER.index(k) for k in kinds] == sorted(KIND_ORDER.index(k) for k in kinds)


def test_each_file_loads_back_to_the_objects_of_its_kind_in_order():
    objects = _objects()
    files = manifest_files(objects, kueue_version="v0.19.2")
    loaded = [doc for name in sorted(files) for doc in yaml.safe_load_all(files[name]) if doc]
    assert loaded == objects


def test_files_say_which_kueue_they_need_and_how_to_apply():
    text = manifest_files(_objects(), kueue_version="v0.19.2", directory="out/prod/manifests")[file_name("ClusterQueue")]
    assert "Kueue v0.19.2" in text and "kubectl apply -f out/prod/manifests/" in text


def test_writing_replaces_files_of_kinds_no_longer_generated(tmp_path: Path):
    (tmp_path / file_name("Topology")).write_text("stale")
    (tmp_path / "notes.yaml").write_text("kept")
    written = write_manifests(_objects(), tmp_path, kueue_version="v0.19.2")
    assert not (tmp_path / file_name("Topology")).exists()
    assert (tmp_path / "notes.yaml").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.glob("[0-9]*.yaml")) == sorted(p.name for p in written)


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.text(max_size=12),
                    st.sampled_from(["true", "No", "1e3", "0x1f", "4x4", "936Gi", "500m", "12:30", "~", "", "- a",
                                     "a: b", "#x", "null", ".inf", "2026-12-07", "1_000", "on"]))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=4)), max_leaves=20)


@settings(max_examples=100, deadline=None)
@given(doc=st.dictionaries(st.text(min_size=1, max_size=8), documents, min_size=1, max_size=5))
def test_yaml_reads_back_exactly_what_was_written(doc):
    assert yaml.safe_load(to_yaml_document(doc)) == doc


def test_strings_written_once_are_kept_up_to_a_bound(monkeypatch):
    # Strings repeat across thousands of objects: each is written once, and the kept ones stay bounded.
    from gkecap import manifests

    monkeypatch.setattr(manifests, "_STRINGS", {})
    monkeypatch.setattr(manifests, "_STRINGS_KEPT", 2)
    doc = {"a": "yes", "b": "on", "c": "x y"}  # each needs quoting: the kept form must be the quoted one
    assert yaml.safe_load(to_yaml_document(doc)) == doc
    assert len(manifests._STRINGS) == 2
    assert yaml.safe_load(to_yaml_document(doc)) == doc  # written again, from what was kept and what was not


def test_flux_finds_the_folder_at_its_path_relative_to_the_repository_root(tmp_path: Path, monkeypatch):
    from gkecap.manifests import default_repo_path

    monkeypatch.chdir(tmp_path)
    assert default_repo_path(Path("out/gke-capacity/prod/manifests")) == "./out/gke-capacity/prod/manifests"
    assert default_repo_path(tmp_path / "out" / "m") == "./out/m"
    assert default_repo_path(Path("/elsewhere/manifests")) == "./manifests"  # never an absolute path
