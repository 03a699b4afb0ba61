"""Print `ncu --csv --page raw` output for two profiled shapes of rms_norm[tilelang] (GPU host only).

Used to refresh tests/tools/data/ncu_raw.csv, the parser's fixture:

    python benchmarks/probes/ncu_sample.py > tests/tools/data/ncu_raw.csv
"""

import os
import sys
import tempfile
from pathlib import Path

from tools.evaluator.evaluate import evaluate
from tools.evaluator.options import EvalOptions

with tempfile.TemporaryDirectory() as tmp:
    os.environ["KW_NCU_CSV"] = str(Path(tmp) / "ncu.csv")
    record = evaluate(
        "rms_norm",
        "tilelang",
        None,
        EvalOptions(shapes=["llama3-8b/decode8", "llama3-8b/prefill2048"], benchmark=False, profile=True, baselines=()),
    )
    print(record.message, file=sys.stderr)
    sys.stdout.write(Path(os.environ["KW_NCU_CSV"]).read_text())
