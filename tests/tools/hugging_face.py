"""Run Hugging Face's code in a child process, where this repository's `kernels` package is not importable.

transformers >= 5 imports the `kernels` distribution at import time; with the repository root on sys.path
our `kernels/` shadows it and `transformers.LlamaForCausalLM` fails to import. `python -P` from another
folder, with PYTHONPATH cleared, sees only site-packages.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch


def require_transformers() -> None:
    if importlib.util.find_spec("transformers") is None:
        pytest.skip("transformers is not installed (pip install -e '.[test]')")


def run_hugging_face(workdir: Path, body: str, inputs: dict) -> dict:
    """Run `body` with `inputs` bound; it must bind `outputs` (a dict of tensors), which comes back."""
    require_transformers()
    inputs_path, outputs_path = workdir / "hf-inputs.pt", workdir / "hf-outputs.pt"
    torch.save(inputs, inputs_path)
    script = "import sys, torch\ninputs = torch.load(sys.argv[1])\n" + body + "\ntorch.save(outputs, sys.argv[2])\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-P", "-c", script, str(inputs_path), str(outputs_path)],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"Hugging Face child failed:\n{done.stderr[-3000:]}"
    return torch.load(outputs_path)
