"""Does `agent infer --decode compile` give the eager tokens on this machine's torch? (CPU, tiny model.)

    python scripts/compile_decode_check.py

torch.compile of code traced under inference_mode fails in AOT autograd on batched matmuls in some
releases (pytorch/pytorch#181512: torch 2.11, as on the GPU host, not 2.13), so the compiled decode
step is traced under no_grad (tools/llama/decode.py). This runs that path with any torch, no GPU
needed: the tiny model's compiled decode against its eager decode, at batch 1 and 3.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tools.tiny_llama import TINY
from tools.llama.decode import generator
from tools.llama.load import random_model
from tools.llama.model import generate


def main() -> int:
    print(f"torch {torch.__version__}")
    ok = True
    for batch in (1, 3):
        model = random_model(0, "native", "cpu", torch.float32, hf_config=TINY)
        prompt = torch.randint(0, TINY["vocab_size"], (batch, 20), generator=torch.Generator().manual_seed(batch))
        expected = generate(model, prompt, 8).tokens
        start = time.perf_counter()
        run = generator(model, "compile", batch, 20 + 8)  # compiles here
        same = [run(prompt, 8).tokens == expected for _ in range(2)]
        print(
            f"batch {batch}: compiled decode gives the eager tokens: {all(same)} ({time.perf_counter() - start:.1f} s)"
        )
        ok = ok and all(same)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
