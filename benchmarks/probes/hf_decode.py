"""Llama-3.2-1B decode tokens/s, batch 1: Hugging Face's generate with and without the patch, eager and compiled,
beside `agent infer` on our model (GPU).

    PYTHONPATH=$PWD python benchmarks/probes/hf_decode.py --backend tilelang --out OUT_DIR

One random model of the real configuration (tools/llama/load.py: weights are not needed for a speed figure),
the same weights in both models. Hugging Face's rows run `generate` (tools/llama/hf.py: eager with its dynamic
cache; compile: its static cache with the step under torch.compile(fullgraph=True, mode="reduce-overhead"),
CUDA graphs included), unpatched and patched with the backend's ops as custom ops. Our row is `agent infer
--backend B` (its decode step captured as one CUDA graph). Each row: warm-up generations first (compilation,
capture), then the median of the timed ones. Writes hf_decode.json and hf_decode.md to OUT_DIR.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import torch


def _hf_rows(args, prompt: torch.Tensor) -> list[dict]:
    from tools.llama.hf import generator, load_model, patch_llama
    from tools.llama.load import LLAMA_3_2_1B

    model = load_model(LLAMA_3_2_1B, None, args.seed, "cuda", torch.bfloat16)
    rows = []
    for mode in ("eager", "compile"):
        for patched in (False, True):
            torch._dynamo.reset()  # each compiled row traces its own forward
            patch = patch_llama(args.backend, model) if patched else None
            run = generator(model, mode)
            start = time.monotonic()
            for _ in range(args.warmup):
                run(prompt, args.new_tokens)
            warm_s = time.monotonic() - start
            runs = [run(prompt, args.new_tokens) for _ in range(args.iters)]
            statuses = {r.op: r.status for r in patch.report.replaced} if patch else {}
            if patch:
                patch.unpatch()
            rows.append(_row(f"Hugging Face generate, {mode}", args.backend if patched else "none", runs, warm_s))
            rows[-1]["ops"] = statuses
            print(_line(rows[-1]), flush=True)
    return rows


def _row(what: str, ops: str, runs, warm_s: float) -> dict:
    decode = statistics.median(run.decode_s for run in runs)
    return {
        "model": what,
        "kernels": ops,
        "decode_tokens_per_s": runs[0].decode_steps / decode,
        "decode_s": [run.decode_s for run in runs],
        "prefill_s": [run.prefill_s for run in runs],
        "warmup_s": round(warm_s, 2),
        "tokens": runs[0].tokens[0],
    }


def _line(row: dict) -> str:
    return f"{row['model']:<32} kernels {row['kernels']:<12} {row['decode_tokens_per_s']:8.1f} tokens/s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="tilelang", help="the kernels the patch and our model run")
    parser.add_argument("--prompt-len", type=int, default=32)
    parser.add_argument("--new-tokens", type=int, default=64)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--iters", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True, help="folder for hf_decode.json and hf_decode.md")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("hf_decode.py measures on a GPU; PyTorch sees none", file=sys.stderr)
        return 2
    from tools.env import collect_environment
    from tools.llama.infer import random_prompt_ids, run_inference
    from tools.llama.load import LLAMA_3_2_1B

    ids = random_prompt_ids(LLAMA_3_2_1B["vocab_size"], args.prompt_len, args.seed + 1)  # agent infer's prompt
    prompt = torch.tensor([ids], device="cuda")
    rows = _hf_rows(args, prompt)
    start = time.monotonic()
    ours = run_inference(
        args.backend,
        prompt_len=args.prompt_len,
        max_new_tokens=args.new_tokens,
        warmup=args.warmup,
        iters=args.iters,
        seed=args.seed,
        device="cuda",
        dtype="bf16",
        decode="graphs",
    )
    rows.append(
        {
            "model": "agent infer (ours), graphs",
            "kernels": args.backend,
            "decode_tokens_per_s": ours.decode_tokens_per_s,
            "decode_s": ours.decode_s,
            "prefill_s": ours.prefill_s,
            "warmup_s": round(time.monotonic() - start, 2),
            "tokens": ours.generated_ids,
            "ops": ours.operators,
        }
    )
    print(_line(rows[-1]), flush=True)
    env = collect_environment()
    result = {
        "device": env.device,
        "versions": env.versions,
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "rows": rows,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "hf_decode.json").write_text(json.dumps(result, indent=1) + "\n")
    base = rows[0]["decode_tokens_per_s"]
    table = [
        f"Llama-3.2-1B (random weights), batch 1, bf16, prompt {args.prompt_len}, {args.new_tokens} new tokens, "
        f"{env.device}; median of {args.iters} after {args.warmup} warm-up",
        "",
        "| model | kernels | decode tokens/s | vs HF eager | first tokens |",
        "|---|---|---:|---:|---|",
    ]
    for row in rows:
        first = ", ".join(map(str, row["tokens"][:6]))
        speed = row["decode_tokens_per_s"]
        table.append(f"| {row['model']} | {row['kernels']} | {speed:,.1f} | {speed / base:.2f}x | {first} |")
    (args.out / "hf_decode.md").write_text("\n".join(table) + "\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
