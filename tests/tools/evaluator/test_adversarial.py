"""Every cheating candidate is rejected by the judge, at its stage, with a reason a person can read.

The cheats (tests/tools/evaluator/cheats.py) run with the lint off: the verdict must hold where the
static check misses. Where the lint does see a cheat, a second test checks it says so. CPU forms run
in CI; the GPU forms (torch-backend cheats that need CUDA, and cheats injected into the shipped
TileLang and NineToothed kernel files) carry the `gpu` marker.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.tools.evaluator import cheats
from tests.tools.evaluator.cheats import CHEATS, GOOD, Cheat
from tools.evaluator import confine
from tools.evaluator.decide import ROUNDS_TO_ACCEPT
from tools.evaluator.evaluate import evaluate
from tools.evaluator.options import EvalOptions

# One decode1 and one decode8 shape per op, of the two models (and rope's q and k): the hidden shapes are
# checked whatever is asked, and each named shape costs a benchmark of its own where a cheat gets that far.
SHAPES = {
    "rope": ["llama3.2-1b/decode1/q", "llama3-8b/decode8/k"],
    "rms_norm": ["llama3.2-1b/decode1", "llama3-8b/decode8"],
    "silu_mul": ["llama3.2-1b/decode1", "llama3-8b/decode8"],
}
GPU_SHAPES = {
    "rope": ["llama3-8b/decode8/q", "llama3-8b/prefill2048/q"],
    "rms_norm": ["llama3-8b/decode8", "llama3-8b/prefill2048"],
    "silu_mul": ["llama3-8b/decode8", "llama3-8b/prefill2048"],
}


@pytest.fixture(scope="module")
def folder():
    """A folder other users can read: runners of their own uid must be able to import candidates from it."""
    path = Path(tempfile.mkdtemp(prefix="kw-cheats-"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _evaluate(folder: Path, op: str, source: str, name: str, *, device: str = "cpu", backend: str = "torch", **kw):
    path = cheats.write(folder, name, source)
    os.chmod(path, 0o644)
    kw.setdefault("shapes", (GPU_SHAPES if device == "cuda" else SHAPES)[op])
    kw.setdefault("batches", 3)
    kw.setdefault("baselines", ("eager",))
    incumbent = kw.pop("incumbent", None)
    return evaluate(op, backend, path, EvalOptions(device=device, timeout_s=300, **kw), incumbent=incumbent)


def _against_honest(folder: Path, cheat: Cheat, op: str, source: str, device: str, backend: str = "torch"):
    """A cheat that can only be measured honestly must not beat the honest version it was made from."""
    honest = cheats.write(
        folder, f"honest_{op}_{backend}.py", GOOD[op] if backend == "torch" else _shipped(op, backend)
    )
    os.chmod(honest, 0o644)
    return _evaluate(
        folder,
        op,
        source,
        f"{_slug(cheat.name)}_{op}.py",
        device=device,
        backend=backend,
        incumbent=honest,
        static_check=False,
        dtypes=(cheat.dtype,),
        batches=max(cheat.batches, ROUNDS_TO_ACCEPT),  # enough rounds that a gain could show, were there one
    )


def _shipped(op: str, backend: str) -> str:
    return (Path(__file__).resolve().parents[3] / "kernels" / op / f"{backend}.py").read_text()


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)[:60]


def _check(record, cheat: Cheat) -> None:
    # Seen as it happens under `pytest -s`: a GPU call cut off at its time limit still shows each verdict.
    print(f"\n[verdict] {cheat.name}: {record.status} at {record.failed_stage}: {record.message}", flush=True)
    if cheat.stage == "bounded":
        # The residual: a kernel that follows the chain is stopped only by the copy bound. It may pass, but
        # no figure of it may be beyond the bound; one that is fails as a measurement error.
        from workbench.kernels import registry

        bound = registry.spec(record.op).copy_bound
        figures = [s.fraction_of_copy for b in record.benchmark for s in (b.graph, b.eager) if s and s.fraction_of_copy]
        if record.status == "ok":
            assert figures and max(figures) <= bound, figures
        else:
            assert record.failed_stage == "benchmark" and "measurement_error" in record.message, record.message
        return
    if cheat.stage == "decide":
        from tools.evaluator.decide import decide

        decision = decide(record, against_best=True)
        assert not decision.accepted, f"{cheat.name} was accepted: {decision.reason}"
        assert cheat.explains(decision.reason) or record.status == "failed", decision.reason
        return
    assert record.status == "failed", f"{cheat.name} was accepted: {record.message}"
    assert record.failed_stage == cheat.stage, record.message
    assert cheat.explains(record.message), record.message


def _check_timed_beside_the_honest_version(record, cheat: Cheat) -> None:
    """A "decide" cheat's verdict is a timing; on the CPU no test may hinge on one (the GPU form checks it).

    What does not hinge on one: the judge verified its outputs and timed it beside the honest version in its
    own process, so what the cheat tried in its runner (patched statistics, a burning thread, calls fused in
    order along the chain) left the judge's figures its own."""
    print(f"\n[verdict] {cheat.name}: {record.status} at {record.failed_stage}: {record.message}", flush=True)
    if record.status == "failed":  # never accepted, whatever the timings
        return
    assert record.benchmark, record.message
    for shape in record.benchmark:
        for contestant in ("candidate", "incumbent"):
            timing = shape.eager.timing(contestant)
            # A CPU call of these ops costs tens of microseconds at least; 1e-9 is the patched median's answer.
            assert timing is not None and timing.median_us > 1.0, (shape.shape, contestant, timing)
        assert shape.eager.speedup_vs_incumbent is not None, shape.shape


def _needs_separation(cheat: Cheat) -> bool:
    return any("process group" in reason for reason in cheat.reasons)


def _separation_available(folder: Path) -> bool:
    return confine.can_separate([folder])[0]


@pytest.mark.parametrize("op", cheats.OPS)
def test_the_honest_versions_pass(folder, op):
    record = _evaluate(folder, op, GOOD[op], f"honest_{op}.py")
    assert record.status == "ok", record.message


CPU_CASES = cheats.cases(cheats.runnable_on_cpu())


@pytest.mark.parametrize("case", CPU_CASES, ids=[cheats.case_id(c) for c in CPU_CASES])
def test_each_cheat_is_rejected_by_the_judge_with_the_lint_off(folder, case):
    cheat, op = case
    if _needs_separation(cheat) and not _separation_available(folder):
        pytest.skip("needs runners of their own uid (root, and the interpreter readable by other users)")
    source = cheat.source(op)
    if cheat.stage == "decide":
        record = _against_honest(folder, cheat, op, source, "cpu")
        _check_timed_beside_the_honest_version(record, cheat)
        return
    record = _evaluate(
        folder,
        op,
        source,
        f"{_slug(cheat.name)}_{op}.py",
        static_check=False,
        dtypes=(cheat.dtype,),
        batches=cheat.batches,
    )
    _check(record, cheat)


LINTED = [c for c in CHEATS if c.lint]


@pytest.mark.parametrize("cheat", LINTED, ids=[c.name for c in LINTED])
def test_the_lint_names_what_it_sees(folder, cheat):
    from tools.evaluator.static_check import check_source

    op = cheat.ops[0]
    report = check_source(cheat.source(op), op, allow_torch_math=True)
    assert not report.ok, f"the lint let {cheat.name} through"
    assert cheat.lint in report.message, report.message


def test_the_suite_covers_every_threat_on_three_ops_and_both_backends():
    from tests.tools.evaluator import lint_cheats

    threats = {c.threat for c in CHEATS}
    assert {0, 1, 2, 3, 4, 6} <= threats
    assert {op for c in CHEATS for op in c.ops} == set(cheats.OPS)
    assert any(c.kernel_forms for c in CHEATS)
    kinds = {entry[1] for entry in lint_cheats.CHEATS}
    assert {"tilelang", "ninetoothed"} <= kinds
    assert len(CHEATS) + len(lint_cheats.CHEATS) >= 30


# ---------------------------------------------------------------------------------------------- on a GPU

GPU_CASES = cheats.cases([c for c in CHEATS if c.gpu_only or c.stage in ("benchmark", "decide")])


@pytest.mark.gpu
@pytest.mark.parametrize("case", GPU_CASES, ids=[cheats.case_id(c) for c in GPU_CASES])
def test_each_cheat_is_rejected_on_the_gpu(folder, case):
    """CUDA tensors, VMM buffers, both scopes, the quiet check and the copy roofline in the loop."""
    cheat, op = case
    if _needs_separation(cheat) and not _separation_available(folder):
        pytest.skip("needs runners of their own uid")
    source = cheat.source(op)
    if cheat.stage == "decide":
        record = _against_honest(folder, cheat, op, source, "cuda")
    else:
        record = _evaluate(
            folder,
            op,
            source,
            f"gpu_{_slug(cheat.name)}_{op}.py",
            device="cuda",
            static_check=False,
            dtypes=(cheat.dtype,),
            batches=cheat.batches,
        )
    _check(record, cheat)


KERNEL_CASES = [
    (cheat, op, backend)
    for cheat in CHEATS
    if cheat.kernel_forms
    for op in cheat.ops[:1]
    for backend in ("tilelang", "ninetoothed")
]


@pytest.mark.gpu
@pytest.mark.parametrize(
    "case", KERNEL_CASES, ids=[f"{op}[{backend}]: {cheat.name}" for cheat, op, backend in KERNEL_CASES]
)
def test_each_cheat_in_a_shipped_kernel_file_is_rejected_on_the_gpu(folder, case):
    cheat, op, backend = case
    source = cheat.kernel_source(op, backend)
    record = _evaluate(
        folder,
        op,
        source,
        f"{backend}_{_slug(cheat.name)}_{op}.py",
        device="cuda",
        backend=backend,
        static_check=False,
        shapes=GPU_SHAPES[op][:1],
        dtypes=(cheat.dtype,),  # one dtype's programs: a new kernel file compiles every program cold
        batches=cheat.batches,
    )
    _check(record, cheat)


def test_without_chaining_a_fusing_cheat_would_be_accepted(folder, monkeypatch):
    """The fusion cheat is a real one: judged with the op's chain links removed, it passes every stage."""
    import dataclasses

    from workbench.kernels import registry

    cheat = cheats.FUSION_CHEATS[0]  # two calls' work in one (eager)
    unchained = dataclasses.replace(registry.spec("rope"), chain=())
    real_spec = registry.spec
    monkeypatch.setattr(registry, "spec", lambda op: unchained if op == "rope" else real_spec(op))
    record = _evaluate(
        folder, "rope", cheat.source("rope"), "fusion_unchained_rope.py", static_check=False, other_dtypes=False
    )
    assert record.status == "ok", record.message


def _round_three_chain(monkeypatch, op: str = "rms_norm") -> None:
    """The chain as round 3 laid it out: each call's whole output fed back, rms_norm's weights +-1."""
    import dataclasses

    import torch

    from tools.evaluator import layout
    from workbench.kernels import registry

    monkeypatch.setattr(layout, "chain_lead", lambda arg_nbytes, out_nbytes: 0)
    spec = registry.spec(op)

    def unit_weights(dims, dtype, seed, device="cpu"):
        x, weight, eps = spec.make_inputs(dims, dtype, seed, device)
        return x, torch.where(weight < 0, -1.0, 1.0).to(dtype), eps

    patched = dataclasses.replace(spec, make_inputs=unit_weights)
    real_spec = registry.spec
    monkeypatch.setattr(registry, "spec", lambda name: patched if name == op else real_spec(name))


@pytest.mark.parametrize("cheat", [cheats.FIXED_POINT, cheats.CLOSED_FORM], ids=lambda c: c.name)
def test_on_round_threes_chain_the_timed_inputs_cheats_were_right(folder, monkeypatch, cheat):
    """Both cheats of class 9 are real: on the chain fed back whole with weights of +-1 every output they write is
    right, so only the copy of the same bytes (now timed on the CPU too) can stop them, as a measurement error."""
    _round_three_chain(monkeypatch)
    record = _evaluate(
        folder,
        "rms_norm",
        cheat.source("rms_norm"),
        f"round3_{_slug(cheat.name)}.py",
        static_check=False,
        other_dtypes=False,
    )
    print(f"\n[verdict] {cheat.name} on round 3's chain: {record.status}: {record.message}", flush=True)
    assert record.status == "ok" or "measurement_error" in record.message, record.message
    assert all(b.eager.roofline is not None for b in record.benchmark), "a copy is timed beside it on the CPU"


def test_on_the_cpu_a_figure_beyond_the_copy_bound_is_a_measurement_error(folder, monkeypatch):
    """The copy of the same bytes is timed on the CPU too, and its bound applies: with the bound at 1% of the copy's
    speed, the honest file (a third of it or more) is beyond it in every round."""
    import dataclasses

    from tools.evaluator import figures
    from workbench.kernels import registry

    monkeypatch.setattr(figures, "CPU_WORK_FACTOR", 0.0)  # held to the bound however loaded the machine is
    tight = dataclasses.replace(registry.spec("rms_norm"), copy_bound=0.01)
    real_spec = registry.spec
    monkeypatch.setattr(registry, "spec", lambda name: tight if name == "rms_norm" else real_spec(name))
    record = _evaluate(folder, "rms_norm", GOOD["rms_norm"], "honest_tight_bound.py", other_dtypes=False)
    assert record.status == "failed" and record.failed_stage == "benchmark", record.message
    assert "measurement_error" in record.message and "bound of 0.01" in record.message, record.message
