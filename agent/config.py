"""Run configuration: what the user asked for, fixed for the whole run (kept apart from the state)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

PolicyName = Literal["search", "llm"]


class RunConfig(BaseModel):
    op: str = Field(description="operator to optimise, e.g. rope")
    backend: str = Field(description="tilelang or ninetoothed (torch only in tests)")
    policy: PolicyName = Field(
        default="search", description="search walks SEARCH_SPACE and the catalogue; llm asks a model"
    )
    iterations: int = Field(default=10, ge=1, description="proposal rounds at most")
    time_budget_s: float | None = Field(default=None, description="stop starting new iterations after this")
    target_fraction: float | None = Field(default=None, description="stop once the median shape reaches this of copy")
    candidates: int = Field(default=1, ge=1, description="proposals per iteration (llm: K replies)")
    model: str | None = Field(default=None, description="chat model for the llm policy")
    shapes: list[str] | None = Field(default=None, description="shape patterns; all named shapes when empty")
    dtypes: list[str] = Field(default_factory=lambda: ["bf16"])
    device: Literal["cuda", "cpu"] = "cuda"
    target: str = "auto"
    timeout_s: float = Field(default=900.0, description="per evaluation, before the child is killed")
    profile: bool = Field(default=False, description="ncu per evaluation; its summary goes into the next prompt")
    baselines: list[Literal["eager", "compiled"]] = Field(default_factory=lambda: ["eager"])
    start_source: str | None = Field(default=None, description="kernel file to start from (default: the working copy)")
    # Fewer timed calls than agent eval's 400 keep an iteration short; the acceptance rule widens its
    # noise band with the measured p10-p90 spread, so a noisier median only raises the bar.
    max_reps: int = Field(default=100, ge=20, description="timed calls per variant and shape at most")
