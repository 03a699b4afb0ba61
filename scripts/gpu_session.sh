#!/usr/bin/env bash
# One call on the GPU host: run the given steps, logs and results under $OUT.
#   source .gpu-bundle/enter.sh && bash scripts/gpu_session.sh gpu-tests eval-twice profile bench
# Steps print a short summary each so the reply's output tail is readable; everything they
# write is packed into $OUT/session.tgz at the end (the device tool returns at most 8 files).
set -uo pipefail
FINAL=${OUT:-/tmp/out}
OUT=$(mktemp -d)
mkdir -p "$FINAL"
export PYTHONUNBUFFERED=1
step() { echo "== $1 ($(date +%T))"; }

for s in "$@"; do
  case "$s" in
    env)
      step env
      python3 -m agent env > "$OUT/env.txt" 2>&1; head -12 "$OUT/env.txt" ;;
    gpu-tests)
      step gpu-tests
      python3 -m pytest -q -m gpu tests -p no:cacheprovider --durations=5 > "$OUT/gpu-tests.log" 2>&1
      tail -8 "$OUT/gpu-tests.log" ;;
    nt-tests)
      step nt-tests
      python3 -m pytest -q -m gpu tests/kernels/test_ninetoothed_gpu.py -p no:cacheprovider --maxfail=5 \
        --durations=5 > "$OUT/nt-tests.log" 2>&1
      tail -12 "$OUT/nt-tests.log" ;;
    eval-twice)
      # Cold (first compile on this machine) then warm (TileLang's kernel cache on disk).
      for run in cold warm; do
        step "eval rope tilelang ($run)"
        /usr/bin/time -f "wall %e s" python3 -m agent eval rope --backend tilelang \
          --json "$OUT/eval-rope-tilelang-$run.json" > "$OUT/eval-rope-tilelang-$run.txt" 2>&1
        tail -3 "$OUT/eval-rope-tilelang-$run.txt"
      done ;;
    ncu-sample)
      # A real `ncu --csv --page raw` output, kept as a parser test fixture.
      step ncu-sample
      python3 scripts/ncu_sample.py > "$OUT/ncu-sample.csv" 2> "$OUT/ncu-sample.err"; tail -3 "$OUT/ncu-sample.err"
      wc -l "$OUT/ncu-sample.csv" ;;
    profile)
      step profile
      python3 -m agent eval rms_norm --backend tilelang --profile --shapes 'llama3-8b/prefill*' --no-compile \
        --json "$OUT/profile-rms_norm.json" > "$OUT/profile-rms_norm.txt" 2>&1
      tail -12 "$OUT/profile-rms_norm.txt" ;;
    bench)
      step bench
      python3 -m agent bench rope rms_norm > "$OUT/bench.txt" 2>&1
      grep -E "^(OK|FAILED)|wrote" "$OUT/bench.txt"
      cp -r benchmarks/results "$OUT/results" 2>/dev/null ;;
    *) echo "unknown step $s" ;;
  esac
done
tar czf "$FINAL/session.tgz" -C "$OUT" .
