"""The add_rms_norm operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from workbench.kernels.add_rms_norm.spec import SPEC
from workbench.kernels.llama import ModelPlan

# Where the op stands in tables, the CLI and test parameters (kernels/registry.py sorts by it).
ORDER = 4

# The Llama forward that calls it (tools/llama/model.py): each residual add fused into the norm after it. `agent
# optimize --e2e` runs this plan, so the candidate is on the model's path; an op folder without MODEL_PLAN is one the
# model never calls.
MODEL_PLAN = ModelPlan(norm="add_rms_norm")

__all__ = ["MODEL_PLAN", "ORDER", "SPEC"]
