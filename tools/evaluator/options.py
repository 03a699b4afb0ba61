"""How one evaluation is run: the one options model the CLI builds, a run's config embeds and the judge reads.

What is evaluated (the op, the backend, the candidate and the incumbent file) is an argument of its own;
everything here says how: which shapes and dtypes, against which yardsticks, on which device, within
which limits, and which stages run. `agent eval`, `agent bench` and `agent bench-agent` build one from
their arguments, `agent.config.RunConfig` keeps one for the whole run, and the loop, its Ray workers
and `tools.evaluator.evaluate` pass it whole.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tools.evaluator.records import Baseline

DEFAULT_TIMEOUT_S = 900.0
DEFAULT_BATCHES = 10


class EvalOptions(BaseModel):
    """The options of one evaluation; a model is never changed in place (`model_copy(update=...)` makes another)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    shapes: list[str] | None = Field(default=None, description="shape patterns; every named shape when None")
    dtypes: tuple[str, ...] = Field(default=("bf16",), description="dtypes checked and timed")
    baselines: tuple[Baseline, ...] = Field(
        default=("eager", "compiled"), description="what the candidate is timed against besides the copy"
    )
    graph: bool = Field(default=True, description="time the CUDA-graph scope too (GPU only)")
    device: Literal["auto", "cuda", "cpu"] = Field(default="auto", description="auto: cuda where PyTorch sees one")
    target: str = Field(default="auto", description="GPU platform (kernels/target.py); auto: detect")
    timeout_s: float = Field(default=DEFAULT_TIMEOUT_S, description="per evaluation, before the runners are killed")
    # A cap, so one pathological proposal cannot eat a run (benchmarks/probes/tilelang.md: a 278 s compile).
    compile_timeout_s: float | None = Field(
        default=None, description="the compile stage's limit (import and first calls); None: only timeout_s"
    )
    batches: int = Field(
        default=DEFAULT_BATCHES, description="timed rounds per shape (each: every contestant once per scope)"
    )
    static_check: bool = Field(
        default=True, description="lint the file first; the verdict must not depend on it (the adversarial tests)"
    )
    benchmark: bool = Field(default=True, description="time the candidate (False: stop after correctness)")
    other_dtypes: bool = Field(
        default=True, description="check the dtypes the op serves that were not timed (`agent bench` skips it)"
    )
    profile: bool = Field(default=False, description="ncu per shape after the verdict, for diagnosis only")
    stop_when_slower: bool | None = Field(
        default=None,
        description="end the benchmark at the first shape slower than the incumbent beyond noise, in a random shape "
        "order (the acceptance rule rejects on that alone); None: wherever there is an incumbent",
    )
    allow_unconfined: bool = Field(
        default=False, description="judge where candidate code cannot be confined (records say UNCONFINED)"
    )

    @field_validator("dtypes")
    @classmethod
    def _known_dtypes(cls, dtypes: tuple[str, ...]) -> tuple[str, ...]:
        from workbench.kernels.spec import (
            DTYPES,  # here, not at import: the spec loads torch, which `agent --help` need not
        )

        for name in dtypes:
            if name not in DTYPES:
                raise ValueError(f"unknown dtype {name!r}; choose from {', '.join(DTYPES)}")
        return dtypes

    @field_validator("batches")
    @classmethod
    def _enough_batches(cls, batches: int) -> int:
        if batches < 3:
            raise ValueError(f"batches must be at least 3 (a median needs rounds to compare); got {batches}")
        return batches

    def stage_limits(self) -> dict[str, float]:
        """Seconds per stage, for the stages with a limit of their own."""
        return {"compile": self.compile_timeout_s} if self.compile_timeout_s else {}
