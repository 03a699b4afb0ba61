"""One `agent eval --profile --no-bench` with every event printed as it happens (where a profile run spends time).

python scripts/profile_one.py rope_qk tilelang 'llama3-8b/decode128' --json profile.json
"""

from __future__ import annotations

import argparse
import sys
import time

from tools.evaluator.evaluate import evaluate
from tools.evaluator.profile import summarise


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("op")
    parser.add_argument("backend")
    parser.add_argument("shapes", nargs="+")
    parser.add_argument("--json")
    args = parser.parse_args()
    start = time.monotonic()

    def show(event: dict) -> None:
        if event.get("event") in ("stage_start", "stage_end") or event.get("stage") == "profile":
            brief = {k: v for k, v in event.items() if k != "result"}
            print(f"{time.monotonic() - start:6.1f} s {brief}", flush=True)

    record = evaluate(args.op, args.backend, shapes=args.shapes, benchmark=False, profile=True, on_event=show)
    for stage in record.stages:
        print(f"{stage.name}: {stage.status} {stage.seconds or 0:.1f} s {stage.message[:300]}", flush=True)
    print(summarise(record.profile), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            f.write(record.model_dump_json(indent=1))
    return 0 if record.status == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
