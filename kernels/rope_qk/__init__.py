"""The rope_qk operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from workbench.kernels.llama import ModelPlan
from workbench.kernels.rope_qk.spec import SPEC

# Where the op stands in tables, the CLI and test parameters (kernels/registry.py sorts by it).
ORDER = 2

# The Llama forward that calls it (tools/llama/model.py): q and k rotated in one call in every layer. `agent optimize
# --e2e` runs this plan, so the candidate is on the model's path; an op folder without MODEL_PLAN is one the model
# never calls.
MODEL_PLAN = ModelPlan(rope="rope_qk")

__all__ = ["MODEL_PLAN", "ORDER", "SPEC"]
