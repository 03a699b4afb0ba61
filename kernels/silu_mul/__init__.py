"""The silu_mul operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from workbench.kernels.llama import ModelPlan
from workbench.kernels.silu_mul.spec import SPEC

# Where the op stands in tables, the CLI and test parameters (kernels/registry.py sorts by it).
ORDER = 5

# The Llama forward that calls it (tools/llama/model.py): SwiGLU's silu(gate) * up in every layer, in every plan.
# `agent optimize --e2e` runs this plan, so the candidate is on the model's path; an op folder without MODEL_PLAN is
# one the model never calls.
MODEL_PLAN = ModelPlan()

__all__ = ["MODEL_PLAN", "ORDER", "SPEC"]
