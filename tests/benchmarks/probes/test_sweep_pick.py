"""benchmarks/probes/sweep_pick.py: the sweep's pick, and adoption only of a file the judge accepted."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from tests.ui import judged
from tools.evaluator.decide import Decision, Rule

ROOT = Path(__file__).resolve().parents[3]
SPEC = importlib.util.spec_from_file_location("sweep_pick", ROOT / "benchmarks" / "probes" / "sweep_pick.py")
sweep_pick = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(sweep_pick)

VARIANT = "variant-rope_qk-ninetoothed-num_warps_2.json"


def _row(config: dict, *fractions: float | None) -> dict:
    shapes = [{"error": "wrong"} if f is None else {"fraction_of_copy": f} for f in fractions]
    known = [f for f in fractions if f is not None]
    return {"config": config, "shapes": shapes, "geomean_fraction": sum(known) / len(known)}


def test_pick_is_the_best_correct_tiling_clear_of_the_shipped_one():
    sweep = {
        "results": [
            _row({}, 0.70, 0.70),
            _row({"threads": 64}, 0.80, 0.80),
            _row({"threads": 128}, 0.99, None),  # fastest, but wrong on one shape
            _row({"threads": 256}, 0.75, 0.75),
        ]
    }
    assert sweep_pick.pick(sweep) == {"threads": 64}


def test_no_pick_within_the_margin_of_the_shipped_tiling():
    sweep = {"results": [_row({}, 0.840, 0.840), _row({"threads": 64}, 0.843, 0.843)]}
    assert sweep_pick.pick(sweep) is None


def _variant_folder(tmp_path: Path, candidate_text: str, recorded_text: str | None = None) -> Path:
    """A folder holding a variant's record the judge rejects (a shape slower), pointed at a candidate in tmp_path."""
    candidate = tmp_path / "variant.py"
    candidate.write_text(candidate_text)
    record = json.loads(judged.record(2, 1).model_dump_json())
    record["op"], record["backend"], record["candidate"] = "rope_qk", "ninetoothed", str(candidate)
    record["candidate_sha256"] = hashlib.sha256((recorded_text or candidate_text).encode()).hexdigest()
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / VARIANT).write_text(json.dumps(record))
    return folder


def _kernels(tmp_path: Path) -> Path:
    kernels = tmp_path / "kernels"
    (kernels / "rope_qk").mkdir(parents=True)
    shutil.copyfile(ROOT / "kernels" / "rope_qk" / "ninetoothed.py", kernels / "rope_qk" / "ninetoothed.py")
    return kernels


def test_a_rejected_variant_is_not_adopted(tmp_path):
    folder, kernels = _variant_folder(tmp_path, "CONFIG = {}\n"), _kernels(tmp_path)
    before = (kernels / "rope_qk" / "ninetoothed.py").read_text()
    message = sweep_pick.adopt("rope_qk", "ninetoothed", folder, kernels)
    assert "no variant" in message and "unchanged" in message
    assert (kernels / "rope_qk" / "ninetoothed.py").read_text() == before


def _accept_everything(monkeypatch):
    monkeypatch.setattr(
        sweep_pick, "decide", lambda record, against_best: Decision(rule=Rule.FIRST_VERSION, accepted=True)
    )


def test_an_accepted_variant_replaces_the_kernel_file(tmp_path, monkeypatch):
    _accept_everything(monkeypatch)
    folder, kernels = _variant_folder(tmp_path, "CONFIG = {'num_warps': 2}\n"), _kernels(tmp_path)
    message = sweep_pick.adopt("rope_qk", "ninetoothed", folder, kernels)
    assert "adopted" in message
    assert (kernels / "rope_qk" / "ninetoothed.py").read_text() == "CONFIG = {'num_warps': 2}\n"


def test_a_candidate_file_changed_since_the_judge_timed_it_is_refused(tmp_path, monkeypatch):
    _accept_everything(monkeypatch)
    folder = _variant_folder(tmp_path, "CONFIG = {'num_warps': 1}\n", recorded_text="CONFIG = {'num_warps': 2}\n")
    kernels = _kernels(tmp_path)
    with pytest.raises(SystemExit, match="not the file the judge timed"):
        sweep_pick.adopt("rope_qk", "ninetoothed", folder, kernels)
