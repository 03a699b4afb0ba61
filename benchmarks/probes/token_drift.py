"""Why two backends' greedy tokens part: logit differences against the top-2 margin, step by step.

    python benchmarks/probes/token_drift.py --backend tilelang [--dtype bf16] [--prompt-len 128] [--new-tokens 32]

Both models (torch and BACKEND, the same seeded random Llama-3.2-1B weights) are fed the torch
model's greedy tokens (teacher forcing), so every step compares the same context. Per step it
prints torch's top-1 and top-2 logit margin, the largest logit difference between the backends
and whether their argmax agrees. A flip where the margin is below the logit difference is rounding
(two correct kernels round differently); a flip with a wide margin, or large differences
everywhere, is a kernel computing something else.
"""

from __future__ import annotations

import argparse
import json

import torch

from tools.llama.infer import DTYPES, random_prompt_ids
from tools.llama.load import random_model
from tools.llama.model import KVCache


@torch.inference_mode()
def drift(backend: str, dtype: str, prompt_len: int, new_tokens: int, seed: int) -> list[dict]:
    torch_dtype = DTYPES[dtype]
    reference = random_model(seed, "torch", "cuda", torch_dtype)
    other = random_model(seed, backend, "cuda", torch_dtype)
    prompt = torch.tensor([random_prompt_ids(reference.config.vocab_size, prompt_len, seed)], device="cuda")
    caches = [KVCache.empty(m.config, 1, prompt_len + new_tokens, torch_dtype, "cuda") for m in (reference, other)]
    step_input = prompt
    rows = []
    for step in range(new_tokens):
        ref_logits = reference(step_input, caches[0], last_only=True)[0, -1].float()
        oth_logits = other(step_input, caches[1], last_only=True)[0, -1].float()
        top2 = ref_logits.topk(2)
        token = int(top2.indices[0])
        rows.append(
            {
                "step": step,
                "torch_token": token,
                "backend_token": int(oth_logits.argmax()),
                "margin": float(top2.values[0] - top2.values[1]),
                "max_logit_diff": float((ref_logits - oth_logits).abs().max()),
                "logit_scale": float(ref_logits.std()),
            }
        )
        step_input = torch.tensor([[token]], device="cuda")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", required=True)
    parser.add_argument("--dtype", default="bf16", choices=list(DTYPES))
    parser.add_argument("--prompt-len", type=int, default=128)
    parser.add_argument("--new-tokens", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the rows as JSON")
    args = parser.parse_args()
    rows = drift(args.backend, args.dtype, args.prompt_len, args.new_tokens, args.seed)
    print(f"torch vs {args.backend}, {args.dtype}, random Llama-3.2-1B seed {args.seed}, teacher-forced")
    print("step  torch   backend  agree  top-2 margin  max |logit diff|")
    for r in rows:
        agree = "yes" if r["torch_token"] == r["backend_token"] else "NO"
        print(
            f"{r['step']:>4}  {r['torch_token']:>6}  {r['backend_token']:>7}  {agree:>5}  "
            f"{r['margin']:>12.4f}  {r['max_logit_diff']:>16.4f}"
        )
    flips = [r for r in rows if r["torch_token"] != r["backend_token"]]
    print(
        f"{len(flips)} of {len(rows)} steps pick another token; median margin "
        f"{sorted(r['margin'] for r in rows)[len(rows) // 2]:.4f}, largest logit diff "
        f"{max(r['max_logit_diff'] for r in rows):.4f}"
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
