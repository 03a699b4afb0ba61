"""The end-to-end check: the Llama model's greedy tokens with a candidate kernel against the torch backend's.

A kernel can pass every shape of its spec and still change what the model says (a head_dim or a layout
the shape set lacks, an error that grows through the layers). So before the loop commits a version
(`agent optimize --e2e`), the model generates greedily twice, each time in a child process:

    reference   every op from the torch backend (the fp32 reference, rounded once)
    candidate   op[backend] from the candidate file; the backend's other ops as registered

both with the model plan that calls op wherever it can (`E2ESettings.op`, model.plan_for), and the
token ids must be the same. The child, `python -m tools.llama.e2e REQUEST.json RESULT.json`, is
the only process that imports the candidate; `check_tokens` runs it confined as the evaluator's runners
are (tools/evaluator/confine.py: its own uid when root, no network, an allow-listed environment) through
tools/child_process.py with a timeout, so a crash or a hang is a failed check with the reason, never an
exception in the caller. Its tokens are the child's word: the check can only add a rejection to the
judge's verdict, never an acceptance.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from tools.child_process import run_child
from tools.evaluator import confine, sandbox
from tools.evaluator.records import StageResult
from tools.llama.infer import InferenceOptions
from tools.llama.model import plan_for
from tools.paths import sha256_file

DEFAULT_TIMEOUT_S = 900.0
SHOWN_TOKENS = 6  # tokens quoted from each side after the first mismatch


class E2ESettings(BaseModel):
    """The model run both sides share: tokens are compared only between runs with equal settings."""

    model: str | None = Field(default=None, description="local Hugging Face Llama directory; None: random weights")
    hf_config: dict[str, Any] | None = Field(
        default=None, description="config of the random weights (default Llama-3.2-1B); tests pass a tiny one"
    )
    seed: int = Field(default=0, description="random weights and prompt ids")
    prompt_len: int = Field(default=128, ge=1)
    max_new_tokens: int = Field(default=32, ge=1)
    device: Literal["cuda", "cpu"] = "cuda"
    dtype: Literal["bf16", "fp16", "fp32"] = "bf16"
    op: str | None = Field(
        default=None,
        description="the op under test: the model runs the plan that calls it everywhere it can (model.plan_for)",
    )
    model_code: Literal["workbench", "hf"] = Field(
        default="workbench",
        description="whose forward runs: tools/llama/model.py, or transformers' LlamaForCausalLM patched with the "
        "backend's ops (tools/llama/hf.py), whose fused plan calls rms_norm, rope_qk, add_rms_norm and silu_mul",
    )

    @model_validator(mode="after")
    def _hf_runs_the_op(self) -> E2ESettings:
        from tools.llama.hf import PATCHED_OPS

        if self.model_code == "hf" and self.op is not None and self.op not in PATCHED_OPS:
            # A check that never runs the candidate would pass it.
            raise ValueError(
                f"Hugging Face's Llama, patched, calls {', '.join(PATCHED_OPS)}, not {self.op}: run the check on "
                "our model (model_code workbench)"
            )
        return self

    def inference_options(self) -> InferenceOptions:
        """The one greedy generation the check runs: untimed (no warm-up, one iteration)."""
        fields = self.model_dump(exclude={"model_code", "op"})
        op = None if self.model_code == "hf" else self.op  # Hugging Face's model runs its one (fused) plan
        return InferenceOptions(**fields, op=op, model_code=self.model_code, warmup=0, iters=1)

    def describe(self) -> str:
        if self.model:
            weights = f"model {self.model}"
        elif self.hf_config:
            weights = f"random weights of a {self.hf_config.get('num_hidden_layers', '?')}-layer config"
        else:
            weights = "random Llama-3.2-1B weights"
        ops = plan_for(None if self.model_code == "hf" else self.op).describe()
        code = ", Hugging Face's LlamaForCausalLM" if self.model_code == "hf" else ""
        run = f"seed {self.seed}, {self.dtype} on {self.device}, prompt {self.prompt_len} tokens, ops {ops}"
        return f"{weights}{code}, {run}"


class E2ERequest(BaseModel):
    """What the parent asks the child: which kernels the model runs, and how."""

    backend: str
    op: str | None = Field(default=None, description="the op whose kernel is `candidate`")
    candidate: str | None = Field(default=None, description="kernel file for op[backend]; None: registered kernels")
    settings: E2ESettings


class TokenRun(BaseModel):
    """What the child writes: the greedy tokens and the kernels that produced them."""

    prompt_ids: list[int]
    generated_ids: list[int]
    operators: dict[str, str]
    """registered_operators(backend) in the child: native or torch_fallback per op."""
    model: str
    seconds: float


class E2EResult(BaseModel):
    """The outcome of one check; e2e.json in the loop's iteration folder."""

    ok: bool
    message: str
    generated_ids: list[int] = Field(default_factory=list)
    reference_ids: list[int] = Field(default_factory=list)
    first_mismatch: int | None = Field(default=None, description="first position where the tokens differ")
    seconds: float = 0.0
    operators: dict[str, str] = Field(default_factory=dict)
    candidate_sha256: str = ""
    settings: E2ESettings | None = None

    def as_stage(self) -> StageResult:
        return StageResult(name="e2e", status="ok" if self.ok else "failed", message=self.message, seconds=self.seconds)


class ModelRunFailed(RuntimeError):
    """A model run ended without tokens; the message says how (status, signal, timeout, last output)."""


# ---------------------------------------------------------------------------------------------- child side


def generate_tokens(request: E2ERequest) -> TokenRun:
    """Build the model with the requested kernels and generate greedily (in the child: it imports the candidate)."""
    from tools.llama.infer import run_inference
    from workbench.kernels.registry import use_kernel_file

    start = time.monotonic()
    if request.candidate is not None:
        if request.op is None:
            raise ValueError("a candidate kernel file needs the op it implements")
        use_kernel_file(request.op, request.backend, request.candidate)
    record = run_inference(request.backend, request.settings.inference_options())
    return TokenRun(
        prompt_ids=record.prompt_ids,
        generated_ids=record.generated_ids,
        operators=record.operators,
        model=record.model,
        seconds=time.monotonic() - start,
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m tools.llama.e2e REQUEST.json RESULT.json", file=sys.stderr)
        return 2
    request = E2ERequest.model_validate_json(Path(args[0]).read_text())
    run = generate_tokens(request)
    result = Path(args[1])
    # Written whole or not at all: the parent must never read half a result as a short token list.
    temp = result.with_name(f".{result.name}.tmp")
    temp.write_text(run.model_dump_json() + "\n")
    os.replace(temp, result)
    return 0


# ---------------------------------------------------------------------------------------------- parent side


def _tail(text: str, lines: int = 3) -> str:
    kept = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(kept[-lines:])[-600:]


def run_model(
    backend: str,
    settings: E2ESettings,
    op: str | None = None,
    candidate: str | Path | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> TokenRun:
    """One greedy generation in a child process; raises ModelRunFailed when it ends without tokens."""
    # The child runs in the project root: paths relative to the caller's directory would point elsewhere there.
    if settings.model is not None:
        settings = settings.model_copy(update={"model": str(Path(settings.model).resolve())})
    request = E2ERequest(
        backend=backend,
        op=op,
        candidate=str(Path(candidate).resolve()) if candidate is not None else None,
        settings=settings,
    )
    setup = sandbox.setup()
    model = (Path(settings.model),) if settings.model is not None else ()
    # A model folder other users cannot read (root's, say) keeps the child at the judge's uid: it still
    # runs in the sandbox, and a uid of its own could not read the weights it is there to run.
    own_uid = setup.uid_per_runner and not confine.separation_blockers(list(model))
    identity = confine.prepare(
        f"e2e-{backend}-{sha256_file(Path(candidate) if candidate else None)[:16]}",
        uids=confine.UidPool() if own_uid else None,
    )
    identity.policy = setup.runner_policy(readable=model)
    try:
        if request.candidate is not None:  # the child imports its own copy, in the only folder it may write
            copy = identity.scratch / "candidate.py"
            shutil.copyfile(request.candidate, copy)
            request = request.model_copy(update={"candidate": str(copy)})
        # Request and result in the child's own scratch folder: the only place a confined child may write.
        request_path, result_path = identity.scratch / "request.json", identity.scratch / "result.json"
        request_path.write_text(request.model_dump_json())
        if identity.uid is not None:
            for path in identity.scratch.iterdir():
                os.chown(path, identity.uid, identity.uid)
        with tempfile.TemporaryDirectory(prefix="kw-e2e-") as tmp:
            confined = [*identity.args(direct_child=not setup.wrap()), "--", "tools.llama.e2e"]
            outcome = run_child(
                "tools.evaluator.confined",
                [*confined, str(request_path), str(result_path)],
                Path(tmp) / "events.jsonl",
                timeout_s,
                env=confine.runner_env(identity),
                prefix=setup.wrap(readable=model),
            )
        finished = outcome.returncode == 0 and not outcome.timed_out
        if finished and result_path.exists():
            return TokenRun.model_validate_json(result_path.read_text())
    finally:
        confine.release(identity)
    how = "exited without writing its tokens" if finished else outcome.how_it_ended
    tail = _tail(outcome.stderr_tail)
    raise ModelRunFailed(f"{how} after {outcome.seconds:.1f} s" + (f"; last output: {tail}" if tail else ""))


def reference_tokens(settings: E2ESettings, timeout_s: float = DEFAULT_TIMEOUT_S) -> TokenRun:
    """The torch backend's greedy tokens; ModelRunFailed here means the setup is wrong, not a candidate."""
    try:
        return run_model("torch", settings, timeout_s=timeout_s)
    except ModelRunFailed as err:
        raise ModelRunFailed(f"the torch reference run ({settings.describe()}) {err}") from None


def first_mismatch(generated: list[int], reference: list[int]) -> int | None:
    """The first position where two token lists differ (a shorter list differs where it ends); None if equal."""
    for position, (a, b) in enumerate(zip(generated, reference, strict=False)):
        if a != b:
            return position
    return None if len(generated) == len(reference) else min(len(generated), len(reference))


def _shown(ids: list[int], start: int) -> str:
    part = ids[start : start + SHOWN_TOKENS]
    return "[" + ", ".join(map(str, part)) + (", ...]" if len(ids) > start + SHOWN_TOKENS else "]")


def check_tokens(
    op: str,
    backend: str,
    candidate_path: str | Path,
    settings: E2ESettings,
    reference_ids: list[int] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> E2EResult:
    """Do the model's greedy tokens with `candidate_path` as op[backend] match the torch backend's?

    `reference_ids` are the torch tokens for these settings when the caller has them (the loop keeps
    them per run); without them the reference runs first, and its failure raises ModelRunFailed.
    A candidate that crashes, hangs or changes a token gives ok=False and the reason.
    """
    if settings.op != op:
        # The model runs the plan that calls settings.op (model.plan_for); with another op there, the
        # candidate could sit on no path of the model, and the check would pass without running it.
        raise ValueError(
            f"E2ESettings.op is {settings.op!r} but the candidate is {op}: set op={op!r} in the settings "
            "(and take the reference tokens with those settings)"
        )
    start = time.monotonic()
    if reference_ids is None:
        reference_ids = reference_tokens(settings, timeout_s).generated_ids
    common = dict(
        reference_ids=list(reference_ids), candidate_sha256=sha256_file(Path(candidate_path)), settings=settings
    )
    try:
        run = run_model(backend, settings, op=op, candidate=candidate_path, timeout_s=timeout_s)
    except ModelRunFailed as err:
        message = f"the model run with the candidate as {op}[{backend}] {err}"
        return E2EResult(ok=False, message=message, seconds=time.monotonic() - start, **common)
    others = ", ".join(f"{name} {status}" for name, status in run.operators.items() if name != op)
    where = f"{settings.describe()}; other ops of {backend}: {others or 'none'}"
    position = first_mismatch(run.generated_ids, reference_ids)
    if position is None:
        message = f"greedy tokens match torch: {len(reference_ids)} of {len(reference_ids)} ({where})"
    else:
        message = (
            f"greedy tokens differ from torch from position {position} of {len(reference_ids)}: "
            f"candidate {_shown(run.generated_ids, position)} vs torch {_shown(reference_ids, position)} ({where})"
        )
    return E2EResult(
        ok=position is None,
        message=message,
        generated_ids=run.generated_ids,
        first_mismatch=position,
        seconds=time.monotonic() - start,
        operators=run.operators,
        **common,
    )


if __name__ == "__main__":
    sys.exit(main())
