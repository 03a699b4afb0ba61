"""Print `ncu --csv --page raw` output for two profiled shapes of rms_norm[tilelang] (GPU host only).

Used to refresh tests/tools/data/ncu_raw.csv, the parser's fixture.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.candidate import PROJECT_ROOT, default_candidate
from tools.profile import ncu_command
from tools.records import EvalRequest

request = EvalRequest(
    op="rms_norm",
    backend="tilelang",
    candidate=str(default_candidate("rms_norm", "tilelang")),
    shapes=["llama3-8b/decode8", "llama3-8b/prefill2048"],
    hidden_shapes=[],
    dtypes=["bf16"],
    seeds=[1],
    device="cuda",
    stages=["compile"],
)
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "request.json"
    path.write_text(json.dumps(request.model_dump()))
    command = [
        *ncu_command(),
        sys.executable,
        "-m",
        "tools.profile_worker",
        str(path),
        str(Path(tmp) / "ev.jsonl"),
    ]
    done = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, check=False)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
