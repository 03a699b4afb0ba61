"""Run configuration: what the user asked for, fixed for the whole run (kept apart from the state)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from tools.evaluator.decide import ROUNDS_TO_ACCEPT
from tools.evaluator.options import EvalOptions

PolicyName = Literal["search", "llm"]

# A candidate's compile stage may take this many times the best's own compile, and at least COMPILE_FLOOR_S:
# a hung compile is cut in seconds, where the flat cap let one take most of a 270 s run (H200, rms_norm).
# Compile stages of the runs in examples/runs/ took 3-10 s; benchmarks/probes/tilelang.md has a 278 s one.
COMPILE_FACTOR = 4.0
COMPILE_FLOOR_S = 30.0
# A run's evaluations unless it says otherwise: on the GPU, against torch eager (torch.compile of every shape
# costs each iteration ~25 s), with the compile stage capped, so one pathological proposal cannot eat a run
# (benchmarks/probes/tilelang.md: a 278 s compile). Rounds per shape: each times the candidate and the best once
# per scope; more narrow the intervals the acceptance rule uses, at about 0.3 s per shape each.
RUN_EVALUATION = {"device": "cuda", "baselines": ("eager",), "compile_timeout_s": 180.0, "batches": 10}


class RunConfig(BaseModel):
    op: str = Field(description="operator to optimise, e.g. rope")
    backend: str = Field(description="tilelang, ninetoothed or maca_cpp (torch only in tests)")
    policy: PolicyName = Field(
        default="search", description="search walks the kernel file's knobs and the catalogue; llm asks a model"
    )
    search: Literal["walk", "optuna"] = Field(
        default="walk", description="the search policy's method: the measured walk, or Optuna's TPE sampler"
    )
    iterations: int = Field(default=10, ge=1, description="proposal rounds at most")
    time_budget_s: float | None = Field(default=None, description="stop starting new iterations after this")
    target_fraction: float | None = Field(default=None, description="stop once the median shape reaches this of copy")
    candidates: int = Field(default=1, ge=1, description="proposals per iteration (llm: K replies)")
    workers: int = Field(default=1, ge=1, description="candidates evaluated at once, one GPU each (Ray)")
    ray_address: str | None = Field(default=None, description="a running Ray cluster; default: one on this host")
    model: str | None = Field(default=None, description="chat model for the llm policy")
    evaluation: EvalOptions = Field(
        default_factory=lambda: EvalOptions(**RUN_EVALUATION),
        description="how each candidate is evaluated (tools/evaluator/options.py), the same for the whole run",
    )
    profile_best: bool | None = Field(
        default=None,
        description="profile each new best on its largest shape for the next prompt; None: wherever ncu runs",
    )
    # The earlier-iterations part of a proposal prompt (agent/policies/history.py), estimated as characters / 4.
    history_tokens: int = Field(
        default=12_000, ge=0, description="token budget of what a proposal prompt carries of earlier iterations"
    )
    price_in: float | None = Field(default=None, ge=0, description="price per million prompt tokens, for the cost")
    price_out: float | None = Field(default=None, ge=0, description="price per million completion tokens")
    start_source: str | None = Field(default=None, description="kernel file to start from (default: the working copy)")
    e2e: bool = Field(
        default=False, description="commit a version only if the Llama model's greedy tokens with it match torch's"
    )
    e2e_model: str | None = Field(
        default=None, description="local Hugging Face Llama directory for --e2e (default: random Llama-3.2-1B)"
    )
    e2e_config: dict[str, Any] | None = Field(
        default=None, description="Hugging Face config dict for random e2e weights instead (tests: a tiny model)"
    )
    e2e_prompt_len: int = Field(default=128, ge=1, description="seeded random prompt token ids for --e2e")
    e2e_new_tokens: int = Field(default=32, ge=1, description="greedy tokens compared by --e2e")
    # fp32: in bf16 an exact token match fails correct kernels (benchmarks/probes/inference.md).
    e2e_dtype: Literal["fp32", "bf16", "fp16"] = Field(
        default="fp32", description="dtype of the model in the --e2e check (the kernel runs in it too)"
    )

    e2e_model_code: Literal["workbench", "hf"] = Field(
        default="workbench",
        description="whose Llama runs the --e2e check: ours (tools/llama/model.py) or Hugging Face's, patched",
    )

    @model_validator(mode="before")
    @classmethod
    def _lift_evaluation_fields(cls, data: Any) -> Any:
        """The evaluation's fields given flat (run.json before `evaluation`, and keyword arguments) go into it."""
        if not isinstance(data, dict):
            return data
        flat = {key: data[key] for key in data if key in EvalOptions.model_fields}
        nested = data.get("evaluation")
        if isinstance(nested, EvalOptions) and not flat:
            return data
        nested = nested.model_dump() if isinstance(nested, EvalOptions) else dict(nested or {})
        rest = {key: value for key, value in data.items() if key not in EvalOptions.model_fields}
        return {**rest, "evaluation": {**RUN_EVALUATION, **nested, **flat}}

    @model_validator(mode="after")
    def _a_run_decides(self) -> RunConfig:
        if self.evaluation.device == "auto":
            raise ValueError("a run's device is cuda or cpu (its iterations must be judged on one)")
        if self.evaluation.batches < ROUNDS_TO_ACCEPT:
            raise ValueError(
                f"batches must be at least {ROUNDS_TO_ACCEPT} in a run: fewer rounds cannot show a gain at 95% "
                f"(tools/evaluator/decide.py); got {self.evaluation.batches}"
            )
        return self

    @model_validator(mode="after")
    def _one_e2e_model(self) -> RunConfig:
        if self.e2e_model is not None and self.e2e_config is not None:
            raise ValueError("give e2e_model (a checkpoint) or e2e_config (random weights), not both")
        return self

    @model_validator(mode="after")
    def _e2e_runs_the_candidate(self) -> RunConfig:
        if self.e2e:
            from tools.llama.model import plan_for

            plan_for(self.op)  # raises for an op the model never calls: its check would not run the kernel
        return self


def candidate_compile_limit(configured_s: float | None, best_compile_s: float | None) -> float | None:
    """The compile stage's limit for a candidate: COMPILE_FACTOR x the best's compile, at least COMPILE_FLOOR_S,
    never above the configured cap; the cap alone where the best's compile time is unknown, none without a cap."""
    if not configured_s or not best_compile_s or best_compile_s <= 0:
        return configured_s
    return min(configured_s, max(COMPILE_FLOOR_S, COMPILE_FACTOR * best_compile_s))
