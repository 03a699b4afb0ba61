"""Target selection (docs/targets.md): auto, cuda, maca."""

from __future__ import annotations

import pytest
import torch

from workbench.kernels import target


def test_cuda_build_of_torch_is_not_metax():
    assert not target.is_metax_torch() or getattr(torch.version, "maca", None)


def test_metax_is_detected_from_torch_version(monkeypatch):
    monkeypatch.setattr(torch.version, "maca", "2.33.0", raising=False)
    assert target.detect() == "maca"
    info = target.resolve("auto")
    assert (info.smi, info.profiler, info.tilelang_kind, info.warp_size) == (
        "mx-smi",
        "mcProfiler",
        "maca",
        64,
    )


def test_explicit_target_wins_over_detection():
    assert target.resolve("maca").name == "maca"
    assert target.resolve("cuda").smi == "nvidia-smi"


def test_unknown_target():
    with pytest.raises(ValueError, match="auto, cuda, maca"):
        target.resolve("rocm")


def test_lowering_target_without_a_gpu_is_a_cuda_dict():
    assert target.tilelang_lower_target() == {"kind": "cuda", "arch": "sm_90"}


def test_tilelang_target_helpers_are_found_in_the_installed_version():
    assert hasattr(target._tilelang_target_module(), "determine_target")


def test_resolving_a_target_changes_nothing_the_process_compiles_for(monkeypatch):
    monkeypatch.delenv(target.TARGET_ENV, raising=False)
    detected = target.current()
    other = "maca" if detected.name == "cuda" else "cuda"
    assert target.resolve(other).name == other
    assert target.current() == detected  # a value handed back, no state kept


def test_the_process_compiles_for_the_target_its_environment_names(monkeypatch):
    monkeypatch.setenv(target.TARGET_ENV, "maca")
    assert target.current().name == "maca"
    monkeypatch.setenv(target.TARGET_ENV, "rocm")
    with pytest.raises(ValueError, match="KERNELS_TARGET='rocm' names no target"):
        target.current()
