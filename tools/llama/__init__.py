"""A compact Llama-3 forward whose RMSNorm and RoPE come from `workbench.kernels.registry`, for end-to-end checks.

model.py   the forward pass, KV cache and greedy decoding
load.py    weights from a local Hugging Face directory, or seeded random Llama-3.2-1B weights
infer.py   `agent infer` (timed prefill and decode) and `agent compare` (speedup of two runs)
e2e.py     the check before a commit (`agent optimize --e2e`): greedy tokens with a candidate kernel vs torch's
"""
