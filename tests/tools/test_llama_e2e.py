"""tools/llama/e2e.py: greedy tokens with a candidate kernel against the torch backend's, in child processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.candidates import EXITS, HANGS
from tests.tools.tiny_llama import TINY, write_tiny_checkpoint
from tools.llama.e2e import E2ESettings, ModelRunFailed, check_tokens, first_mismatch, reference_tokens
from workbench.kernels.rms_norm.candidates import GOOD_RMS_NORM, RMS_NORM_TIMES_1_5
from workbench.kernels.rope.candidates import GOOD_ROPE, ROPE_WITHOUT_ROTATION, SYNTAX_ERROR

# The tiny config with its random init-scale weights: rms_norm changes the tokens, RoPE does not (see tiny_llama).
SETTINGS = E2ESettings(hf_config=TINY, prompt_len=8, max_new_tokens=6, device="cpu", dtype="fp32", op="rms_norm")
ROPE_SETTINGS = SETTINGS.model_copy(update={"op": "rope"})


def kernel_file(folder: Path, source: str, name: str = "kernel.py") -> Path:
    path = folder / name
    path.write_text(source)
    return path


@pytest.fixture(scope="module")
def reference_ids() -> list[int]:
    run = reference_tokens(SETTINGS)
    # The plan for an rms_norm candidate: rms_norm at every norm, the residual adds in torch.
    assert run.operators == {"rms_norm": "native", "rope_qk": "native", "silu_mul": "native"}
    assert len(run.generated_ids) == 6 and len(run.prompt_ids) == 8
    assert len(set(run.generated_ids)) > 1, "degenerate model: every step picks the same token"
    return run.generated_ids


@pytest.fixture(scope="module")
def rope_reference_ids() -> list[int]:
    run = reference_tokens(ROPE_SETTINGS)
    # The plan for a rope candidate: one rope call each for q and k, the residual adds fused into the norms.
    assert list(run.operators) == ["rms_norm", "rope", "add_rms_norm", "silu_mul"]
    return run.generated_ids


@pytest.mark.parametrize(
    ("op", "source", "settings"),
    [("rope", GOOD_ROPE, ROPE_SETTINGS), ("rms_norm", GOOD_RMS_NORM, SETTINGS)],
    ids=["rope", "rms"],
)
def test_a_correct_kernel_keeps_the_tokens(tmp_path, monkeypatch, op, source, settings):
    kernel_file(tmp_path, source)
    monkeypatch.chdir(tmp_path)  # a path relative to the caller's directory (the child runs elsewhere)
    result = check_tokens(op, "torch", "kernel.py", settings)  # no reference given: torch runs first
    assert result.ok, result.message
    assert result.generated_ids == result.reference_ids and result.first_mismatch is None
    assert result.message.startswith("greedy tokens match torch: 6 of 6")
    assert result.operators[op] == "native" and result.candidate_sha256 and result.settings == settings
    assert result.as_stage().status == "ok" and result.as_stage().name == "e2e"


def test_settings_for_another_op_are_refused(tmp_path, reference_ids):
    # SETTINGS are an rms_norm candidate's: under them a rope candidate need not run at all.
    with pytest.raises(ValueError, match=r"E2ESettings\.op is 'rms_norm' but the candidate is rope"):
        check_tokens("rope", "torch", kernel_file(tmp_path, GOOD_ROPE), SETTINGS, reference_ids)


def test_an_rms_norm_off_in_scale_changes_the_tokens_and_says_from_where(tmp_path, reference_ids):
    result = check_tokens("rms_norm", "torch", kernel_file(tmp_path, RMS_NORM_TIMES_1_5), SETTINGS, reference_ids)
    assert not result.ok
    position = result.first_mismatch
    assert position is not None
    assert result.generated_ids[:position] == reference_ids[:position]
    assert result.generated_ids[position] != reference_ids[position]
    assert f"greedy tokens differ from torch from position {position} of 6: " in result.message
    assert result.as_stage().status == "failed"


def test_a_rope_without_rotation_changes_the_tokens_of_a_checkpoint(tmp_path):
    # A checkpoint whose attention depends on position; no reference ids given: check_tokens runs torch first.
    checkpoint = write_tiny_checkpoint(tmp_path / "tiny")
    settings = E2ESettings(model=str(checkpoint), prompt_len=8, max_new_tokens=6, device="cpu", dtype="bf16", op="rope")
    good = check_tokens("rope", "torch", kernel_file(tmp_path, GOOD_ROPE, "good.py"), settings)
    assert good.ok, good.message
    wrong = check_tokens("rope", "torch", kernel_file(tmp_path, ROPE_WITHOUT_ROTATION, "wrong.py"), settings)
    assert not wrong.ok and wrong.first_mismatch is not None
    assert wrong.reference_ids == good.generated_ids
    assert f"from position {wrong.first_mismatch}" in wrong.message


@pytest.mark.parametrize(
    ("source", "timeout_s", "says"),
    [
        (EXITS, 300, "exited with status 3 before finishing"),
        (SYNTAX_ERROR, 300, "SyntaxError"),
        (HANGS, 10, "timed out and was killed"),
    ],
    ids=["exits", "syntax-error", "hangs"],
)
def test_a_candidate_that_dies_fails_the_check_with_the_reason(tmp_path, rope_reference_ids, source, timeout_s, says):
    result = check_tokens("rope", "torch", kernel_file(tmp_path, source), ROPE_SETTINGS, rope_reference_ids, timeout_s)
    assert not result.ok and result.generated_ids == [] and result.first_mismatch is None
    assert result.message.startswith("the model run with the candidate as rope[torch] ")
    assert says in result.message


def test_a_reference_that_cannot_run_raises_with_the_reason(tmp_path):
    settings = E2ESettings(model=str(tmp_path / "missing"), prompt_len=4, max_new_tokens=2, device="cpu")
    with pytest.raises(ModelRunFailed, match=r"the torch reference run .* has no config\.json"):
        reference_tokens(settings)


def test_first_mismatch():
    assert first_mismatch([1, 2, 3], [1, 2, 3]) is None
    assert first_mismatch([1, 5, 3], [1, 2, 3]) == 1
    assert first_mismatch([1, 2], [1, 2, 3]) == 2


def test_on_hugging_faces_model_the_check_runs_the_candidate(tmp_path):
    # The child builds transformers' LlamaForCausalLM with the same weights, patched with the backend's ops and
    # the candidate as rms_norm: a correct kernel keeps its tokens, one off in scale changes them.
    settings = SETTINGS.model_copy(update={"model_code": "hf"})
    reference = reference_tokens(settings)
    assert reference.operators == dict.fromkeys(("rms_norm", "rope_qk", "add_rms_norm", "silu_mul"), "native")
    good = check_tokens("rms_norm", "torch", kernel_file(tmp_path, GOOD_RMS_NORM), settings, reference.generated_ids)
    assert good.ok, good.message
    assert "Hugging Face's LlamaForCausalLM" in good.message
    bad = kernel_file(tmp_path, RMS_NORM_TIMES_1_5, "bad.py")
    assert not check_tokens("rms_norm", "torch", bad, settings, reference.generated_ids).ok


def test_on_hugging_faces_model_an_op_it_never_calls_is_refused():
    with pytest.raises(ValueError, match="not rope"):
        E2ESettings(hf_config=TINY, device="cpu", op="rope", model_code="hf")
