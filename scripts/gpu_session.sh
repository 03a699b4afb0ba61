#!/usr/bin/env bash
# One call on the GPU host: run the given steps, logs and results under $OUT.
#   source .gpu-bundle/enter.sh && bash scripts/gpu_session.sh env tools-tests eval-twice profile bench
# Steps print a short summary each so the reply's output tail is readable. Everything they write
# is packed into $OUT/session.tgz after every step (the device tool returns at most 8 files, and a
# call stopped at its time limit still returns what the last finished step packed).
#
# Optimisation runs start detached (setsid), so they outlive a call as long as the machine is
# held; `wait-runs` (or `wait-all`) waits for them in a later call and packs their run folders.
# The device tool gives a machine back 30 s after a call ends (idle_release_s): a detached step
# dies with it unless the next call comes sooner (the ninth session lost a bench that way).
#   bash scripts/gpu_session.sh "optimize:rope:tilelang:20:0" "optimize:rms_norm:tilelang:20:1" wait-runs
# An A/B of CONFIG values against the shipped kernel (agent eval --set):
#   bash scripts/gpu_session.sh "variant:rope:tilelang:copy_tiles=True,small_copy_tiles=True"
# The gpu tests of chosen files: pytest:tests/kernels/silu_mul/test_tilelang.py (several: joined by +).
# An A/A check of the timing (the shipped kernel against itself, timed in turn): aa:rope:tilelang
# (op:backend:iterations:gpu). Their folders land under runs/ and come back in session.tgz, without
# checkpoints.sqlite and the git worktree, with the branch's commits as history.patch.
set -uo pipefail
# pytest -n 0 throughout: the suite's xdist workers would share the one GPU and time each other's work.
FINAL=${OUT:-/tmp/out}
LOGS=${GPU_SESSION_LOGS:-/tmp/gpu-session}
mkdir -p "$FINAL" "$LOGS"
export PYTHONUNBUFFERED=1
step() { echo "== $1 ($(date +%T))"; }
# Detached children (GPU_SESSION_CHILD) leave packing to the parent, whose $LOGS holds theirs.
# tar exits 1 when a file changes while it reads (a child still writing): that pack is still good.
pack() {
  [ -n "${GPU_SESSION_CHILD:-}" ] && return
  local tmp="$FINAL/session.tgz.$BASHPID.tmp"
  tar czf "$tmp" --warning=no-file-changed -C "$LOGS" . ; [ $? -le 1 ] && mv "$tmp" "$FINAL/session.tgz"
}
# A step cut off at the call's time limit never reaches its own pack: pack every 30 s meanwhile.
if [ -z "${GPU_SESSION_CHILD:-}" ]; then
  ( while sleep 30; do pack; done ) &
  PACKER=$!
  trap 'kill $PACKER 2>/dev/null' EXIT
fi

pack_runs() {
  mkdir -p "$LOGS/runs"
  for run in runs/*/; do
    [ -f "$run/run.json" ] || continue
    id=$(basename "$run")
    dest="$LOGS/runs/$id"
    mkdir -p "$dest"
    (cd "$run" && tar cf - --exclude='checkpoints.sqlite*' --exclude=worktree --exclude=repo .) | tar xf - -C "$dest"
    python3 - "$run" "$dest/history.patch" <<'EOF'
import json, subprocess, sys
from pathlib import Path
run, out = Path(sys.argv[1]), sys.argv[2]
ws = json.loads((run / "run.json").read_text()).get("workspace") or {}
worktree = run / ws.get("worktree", "")  # relative to the run folder (older runs: absolute)
if ws.get("worktree") and worktree.exists():
    patch = subprocess.run(["git", "-C", str(worktree), "format-patch", "--stdout", f"{ws['base_commit']}..{ws['branch']}"],
                           capture_output=True, text=True)
    Path(out).write_text(patch.stdout)
EOF
  done
}

run_variant() {  # op backend settings: the paired evaluation of a CONFIG variant against the shipped file
  local op=$1 backend=$2 settings=$3 sets=() tag
  for kv in ${settings//[,+]/ }; do sets+=(--set "$kv"); done
  tag="$op-$backend-${settings//[,+=]/_}"
  step "variant $op $backend: $settings against the shipped file"
  python3 -m agent eval "$op" --backend "$backend" "${sets[@]}" --against "kernels/$op/$backend.py" \
    --json "$LOGS/variant-$tag.json" > "$LOGS/variant-$tag.txt" 2>&1
  tail -n 6 "$LOGS/variant-$tag.txt"
}

for s in "$@"; do
  case "$s" in
    env)
      step env
      python3 -m agent env > "$LOGS/env.txt" 2>&1; head -12 "$LOGS/env.txt"
      { git rev-parse --is-inside-work-tree 2>&1; nproc; nvidia-smi -L; } | tee -a "$LOGS/env.txt" ;;
    gpu-tests)
      step gpu-tests
      python3 -m pytest -n 0 -q -m gpu tests -p no:cacheprovider --durations=5 > "$LOGS/gpu-tests.log" 2>&1
      tail -8 "$LOGS/gpu-tests.log" ;;
    tools-tests)
      # The harness's own GPU tests (adversarial GPU forms, illegal address, timing), not the kernel grid.
      step tools-tests
      python3 -m pytest -n 0 -q -m gpu tests/tools tests/agent --ignore=tests/tools/evaluator/test_adversarial.py \
        -p no:cacheprovider -rs --durations=8 \
        > "$LOGS/tools-tests.log" 2>&1
      tail -14 "$LOGS/tools-tests.log" ;;
    pytest:*)
      # pytest:PATH[+PATH...] -- the gpu-marked tests of those files (e.g. kernels never run on a GPU yet).
      paths=${s#pytest:}; tag=$(basename "${paths%%+*}" .py)
      step "pytest $paths"
      python3 -m pytest -n 0 -q -m gpu ${paths//+/ } -p no:cacheprovider -rs --maxfail=20 --durations=5 \
        > "$LOGS/pytest-$tag.log" 2>&1
      tail -12 "$LOGS/pytest-$tag.log" ;;
    nt-tests)
      step nt-tests
      python3 -m pytest -n 0 -q -m gpu tests/kernels/*/test_ninetoothed.py -p no:cacheprovider --maxfail=5 \
        --durations=5 > "$LOGS/nt-tests.log" 2>&1
      tail -12 "$LOGS/nt-tests.log" ;;
    eval-once)
      step "eval rope tilelang"
      /usr/bin/time -f "wall %e s" python3 -m agent eval rope --backend tilelang \
        --json "$LOGS/eval-rope-tilelang.json" > "$LOGS/eval-rope-tilelang.txt" 2>&1
      tail -4 "$LOGS/eval-rope-tilelang.txt" ;;
    eval-twice)
      # Cold (first compile on this machine) then warm (TileLang's kernel cache on disk).
      for run in cold warm; do
        step "eval rope tilelang ($run)"
        /usr/bin/time -f "wall %e s" python3 -m agent eval rope --backend tilelang \
          --json "$LOGS/eval-rope-tilelang-$run.json" > "$LOGS/eval-rope-tilelang-$run.txt" 2>&1
        tail -3 "$LOGS/eval-rope-tilelang-$run.txt"
      done ;;
    ncu-sample)
      # A real `ncu --csv --page raw` output, kept as a parser test fixture.
      step ncu-sample
      python3 scripts/ncu_sample.py > "$LOGS/ncu-sample.csv" 2> "$LOGS/ncu-sample.err"; tail -3 "$LOGS/ncu-sample.err"
      wc -l "$LOGS/ncu-sample.csv" ;;
    variant:*)
      # variant:OP:BACKEND:KEY=VALUE[,KEY=VALUE...] (or + between them inside detach:): the kernel file with those
      # CONFIG values (agent eval --set) timed in turn with the shipped file (--against), as agent optimize
      # times a candidate against its best: the record has the paired ratios and the acceptance verdict.
      IFS=: read -r _ op backend settings <<< "$s"
      run_variant "$op" "$backend" "$settings" ;;
    variant-best:*)
      # variant-best:OP:BACKEND:SWEEP -- the variant of the tiling that $LOGS/sweep-SWEEP.json ranks first
      # (highest geomean fraction of copy, every shape correct, 2% above the shipped CONFIG's), if any.
      IFS=: read -r _ op backend sweep <<< "$s"
      step "pick of sweep $sweep"
      settings=$(python3 scripts/sweep_pick.py "$LOGS/sweep-$sweep.json") || continue  # it said why on stderr
      run_variant "$op" "$backend" "$settings" ;;
    adopt:*)
      # adopt:OP:BACKEND[:DIR] -- if a variant record in DIR (default: this call's logs) was accepted by the
      # judge, its file replaces kernels/OP/BACKEND.py in this working copy, for the steps after it. A later
      # call gets a fresh copy of the tree, so it adopts again from the earlier call's logs on this machine.
      # The same edit is then made in the checkout (agent eval --set's values) and its sha256 compared.
      IFS=: read -r _ op backend dir <<< "$s"
      step "adopt $op $backend"
      python3 scripts/sweep_pick.py --adopt "$op" "$backend" "${dir:-$LOGS}" | tee -a "$LOGS/adopted.txt" ;;
    aa:*)
      # aa:OP:BACKEND[:N] -- A/A checks of the judge: the shipped kernel against itself N times (default 1),
      # each batch of one timed in the same round as one of the other. Every shape should be near 1.00x.
      IFS=: read -r _ op backend times <<< "$s"
      for i in $(seq 1 "${times:-1}"); do
        step "A/A $op $backend ($i)"
        /usr/bin/time -f "wall %e s" python3 -m agent eval "$op" --backend "$backend" --against "kernels/$op/$backend.py" \
          --baselines eager --json "$LOGS/aa-$op-$backend-$i.json" > "$LOGS/aa-$op-$backend-$i.txt" 2>&1
        tail -n 4 "$LOGS/aa-$op-$backend-$i.txt"
        python3 scripts/record_summary.py "$LOGS/aa-$op-$backend-$i.json" 2>&1 | tail -n 4
      done ;;
    adversarial)
      # The judge's own GPU tests: cheating candidates (torch-backend and injected into shipped kernels).
      step adversarial
      python3 -m pytest -n 0 -v -s -m gpu tests/tools/evaluator/test_adversarial.py -p no:cacheprovider -rA --durations=5 \
        > "$LOGS/adversarial.log" 2>&1
      grep -E "PASSED|FAILED|SKIPPED|passed|failed|\[verdict\]" "$LOGS/adversarial.log" | tail -60 ;;
    optimize-fg:*)
      # optimize-fg:OP:BACKEND:N -- N iterations in the foreground, timed (seconds per iteration).
      IFS=: read -r _ op backend iters <<< "$s"
      step "optimize (foreground) $op $backend x$iters"
      mkdir -p runs
      /usr/bin/time -f "wall %e s" python3 -m agent optimize "$op" --backend "$backend" --iterations "$iters" \
        > "$LOGS/optimize-fg-$op-$backend.log" 2>&1 < /dev/null
      tail -8 "$LOGS/optimize-fg-$op-$backend.log"
      pack_runs ;;
    ncu-kernels)
      # ncu counters of the shipped kernels and a copy of the same bytes, outside the judge (scripts/ncu_kernels.py).
      # NCU_OPS, NCU_BACKENDS, NCU_SHAPES (space-separated patterns) choose the cases.
      step ncu-kernels
      # NCU_PER_OP_S: each op's ncu run (default 120 s); NCU_STEP_S: the whole step.
      timeout "${NCU_STEP_S:-500}" python3 scripts/ncu_kernels.py ${NCU_OPS:+--ops $NCU_OPS} \
        ${NCU_PER_OP_S:+--timeout-per-op $NCU_PER_OP_S} \
        ${NCU_BACKENDS:+--backends $NCU_BACKENDS} ${NCU_SHAPES:+--shapes $NCU_SHAPES} \
        --json "$LOGS/ncu-kernels.json" > "$LOGS/ncu-kernels.txt" 2>&1
      head -n 60 "$LOGS/ncu-kernels.txt" ;;
    ncu-probe)
      # Whether ncu reaches a program confined as runners are (scripts/ncu_probe.py), 60 s per way.
      step ncu-probe
      # NCU_PROBE_WAYS: some ways only, comma-separated (e.g. profile-stage).
      python3 scripts/ncu_probe.py --json "$LOGS/ncu-probe.json" ${NCU_PROBE_WAYS:+--ways $NCU_PROBE_WAYS} \
        > "$LOGS/ncu-probe.txt" 2>&1; tail -5 "$LOGS/ncu-probe.txt" ;;
    profile:*)
      # profile:OP:BACKEND:PATTERN+PATTERN -- ncu counters (tools/evaluator/profile.py) of the shipped kernel
      # at those shapes, correctness checked, no benchmark.
      IFS=: read -r _ op backend patterns <<< "$s"
      step "profile $op $backend"
      timeout "${PROFILE_STEP_S:-200}" python3 -m agent eval "$op" --backend "$backend" --profile --no-bench --shapes ${patterns//+/ } \
        --json "$LOGS/profile-$op-$backend.json" > "$LOGS/profile-$op-$backend.txt" 2>&1
      tail -n 3 "$LOGS/profile-$op-$backend.txt" ;;
    profile)
      step profile
      python3 -m agent eval rms_norm --backend tilelang --profile --shapes 'llama3-8b/prefill*' --no-compile \
        --json "$LOGS/profile-rms_norm.json" > "$LOGS/profile-rms_norm.txt" 2>&1
      tail -12 "$LOGS/profile-rms_norm.txt" ;;
    bench|bench:*)
      # bench:op,op,... or op+op+... inside detach: (default: every operator the CLI knows).
      # Results go under $LOGS, not the checkout: the next call's copy of the working tree replaces
      # the checkout's tracked files and drops new ones, which lost a bench that outlived its call.
      ops=${s#bench}; ops=${ops#:}; ops=${ops//[,+]/ }
      tag=${ops// /-}
      step "bench ${ops:-all}"
      # BENCH_BACKENDS: some backends only; BENCH_OUT: a folder kept across calls on one machine (agent bench
      # keeps the records of backends it does not re-run), e.g. /tmp/bench-results.
      python3 -m agent bench ${ops:-$(python3 -c "from kernels.registry import OPERATORS; print(*OPERATORS)")} \
        --batches "${BENCH_BATCHES:-10}" ${BENCH_BASELINES:+--baselines $BENCH_BASELINES} \
        ${BENCH_BACKENDS:+--backends $BENCH_BACKENDS} --out "${BENCH_OUT:-$LOGS/results}" \
        > "$LOGS/bench${tag:+-$tag}.txt" 2>&1
      if [ -n "${BENCH_OUT:-}" ]; then mkdir -p "$LOGS/results" && cp -r "$BENCH_OUT/." "$LOGS/results/"; fi
      grep -E "^(OK|FAILED)|wrote|kept" "$LOGS/bench${tag:+-$tag}.txt" ;;
    infer|infer:*)
      # infer[:DTYPE[:BATCH]] -- the 1B configuration with seeded random weights, as issue 16 asks: the
      # native baseline (torch's own ops) eager, under graphs and compiled; each kernel backend eager and
      # under graphs; then every record compared with the native graph run.
      IFS=: read -r _ dtype batch <<< "$s"; dtype=${dtype:-bf16}; batch=${batch:-1}
      dir="$LOGS/infer-$dtype-b$batch"; mkdir -p "$dir"
      # INFER_RUNS="native:graphs native:compile ..." picks runs (native:graphs is the comparison's reference).
      for run in ${INFER_RUNS:-native:eager native:graphs native:compile tilelang:eager tilelang:graphs \
                 ninetoothed:eager ninetoothed:graphs maca_cpp:graphs}; do
        IFS=: read -r backend mode <<< "$run"
        step "infer $backend $mode $dtype batch $batch"
        python3 -m agent infer --backend "$backend" --decode "$mode" --batch "$batch" --dtype "$dtype" \
          --prompt-len 128 --max-new-tokens 32 --warmup 1 --iters 3 --json "$dir/$backend-$mode.json" \
          > "$dir/$backend-$mode.txt" 2>&1
        grep -E "operators|prefill|decode|Error|error" "$dir/$backend-$mode.txt"
      done
      for record in "$dir"/*.json; do
        name=$(basename "$record" .json); [ "$name" = native-graphs ] && continue
        step "compare native-graphs $name"
        python3 -m agent compare "$dir/native-graphs.json" "$record" > "$dir/compare-$name.txt" 2>&1
        tail -n 3 "$dir/compare-$name.txt"
      done ;;
    drift:*)
      # drift:BACKEND:DTYPE -- where and why greedy tokens part from torch's (scripts/token_drift.py).
      IFS=: read -r _ backend dtype <<< "$s"
      step "token drift $backend $dtype"
      python3 scripts/token_drift.py --backend "$backend" --dtype "$dtype" \
        --json "$LOGS/drift-$backend-$dtype.json" > "$LOGS/drift-$backend-$dtype.txt" 2>&1
      tail -4 "$LOGS/drift-$backend-$dtype.txt" ;;
    detach:*)
      # detach:GPU:step,step,... -- run those steps one after another on one GPU, detached (setsid);
      # their logs go under $LOGS/gpuGPU and come back with the next pack. `wait-all` waits for them.
      IFS=: read -r _ gpu steps <<< "$s"
      step "detach GPU $gpu: $steps"
      mkdir -p "$LOGS/gpu$gpu"
      CUDA_VISIBLE_DEVICES=$gpu GPU_SESSION_CHILD=1 GPU_SESSION_LOGS="$LOGS/gpu$gpu" OUT="$LOGS/gpu$gpu/.out" \
        setsid nohup bash "$0" ${steps//,/ } > "$LOGS/gpu$gpu/session.log" 2>&1 < /dev/null &
      echo $! >> "$LOGS/children.pids" ;;
    wait-all|wait-runs)
      # Waits for everything started detached (optimisation runs and detach: step lists).
      step "$s"
      deadline=$(( $(date +%s) + ${WAIT_RUNS_S:-540} ))
      alive() { [ -f "$LOGS/children.pids" ] && xargs -r ps -p < "$LOGS/children.pids" > /dev/null 2>&1; }
      while alive && [ "$(date +%s)" -lt "$deadline" ]; do
        sleep 15
        pack_runs; pack
      done
      alive && echo "still running:" && xargs -r ps -o pid,etime,args -p < "$LOGS/children.pids"
      for log in "$LOGS"/optimize-*.log "$LOGS"/gpu*/session.log; do
        [ -f "$log" ] && echo "-- $log" && tail -25 "$log"
      done
      pack_runs ;;
    optimize:*)
      IFS=: read -r _ op backend iters gpu <<< "$s"
      step "optimize $op $backend x$iters"
      mkdir -p runs
      if [ -n "${GPU_SESSION_CHILD:-}" ]; then  # inside detach: one after another on this GPU
        python3 -m agent optimize "$op" --backend "$backend" --iterations "$iters" \
          > "$LOGS/optimize-$op-$backend.log" 2>&1 < /dev/null
        tail -6 "$LOGS/optimize-$op-$backend.log"
      else
        CUDA_VISIBLE_DEVICES=${gpu:-0} setsid nohup python3 -m agent optimize "$op" --backend "$backend" \
          --iterations "$iters" > "$LOGS/optimize-$op-$backend.log" 2>&1 < /dev/null &
        echo $! >> "$LOGS/children.pids"
      fi ;;
    sleep:*)
      sleep "${s#sleep:}" ;;
    host-cost)
      # Host cost per call of every op's wrappers against F.rms_norm, in one process (scripts/host_cost.py).
      step host-cost
      python3 scripts/host_cost.py --backends tilelang,ninetoothed,maca_cpp --json "$LOGS/host-cost.json" \
        ${HOST_COST_PROFILE:+--profile $HOST_COST_PROFILE} > "$LOGS/host-cost.txt" 2>&1
      grep -E "µs/call" "$LOGS/host-cost.txt" ;;
    sweep:*)
      # sweep:OP:BACKEND:SHAPES:FILE -- the tilings listed in FILE (scripts/sweeps/) timed in one process
      # (scripts/tiling_sweep.py): self-reported, a shortlist for a paired `variant:` evaluation.
      IFS=: read -r _ op backend shapes file <<< "$s"
      tag=$(basename "$file" .txt)  # the files are named OP-BACKEND-...
      step "sweep $op $backend $shapes ($file)"
      python3 scripts/tiling_sweep.py "$op" --backend "$backend" --shapes "$shapes" --configs-file "$file" \
        --json "$LOGS/sweep-$tag.json" > "$LOGS/sweep-$tag.txt" 2>&1
      tail -n 16 "$LOGS/sweep-$tag.txt" ;;
    perf-stat)
      # Whether this host exposes CPU hardware counters (an instruction-count ruler for the eager scope).
      step perf-stat
      { uname -r; command -v perf || echo "no perf binary";
        echo "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)";
        ls /sys/bus/event_source/devices/ 2>&1; dmesg 2>/dev/null | grep -i -m3 pmu; } > "$LOGS/perf-stat.txt" 2>&1
      cat "$LOGS/perf-stat.txt" ;;
    copy-probe)
      # Ways to copy the same bytes, on the judge's kinds of buffers (scripts/copy_probe.py).
      step copy-probe
      # COPY_PROBE_SIZES="672 1344" (MiB per buffer) for the sizes of silu_mul's largest shapes.
      python3 scripts/copy_probe.py --json "$LOGS/copy-probe.json" ${COPY_PROBE_SIZES:+--sizes-mb $COPY_PROBE_SIZES} \
        > "$LOGS/copy-probe.txt" 2>&1
      tail -40 "$LOGS/copy-probe.txt" ;;
    timeslice-probe)
      # What the judge's quiet check sees while another process spins on the GPU (scripts/timeslice_probe.py).
      step timeslice-probe
      python3 scripts/timeslice_probe.py --json "$LOGS/timeslice-probe.json" > "$LOGS/timeslice-probe.txt" 2>&1
      tail -6 "$LOGS/timeslice-probe.txt" ;;
    adversarial:*)
      # adversarial:EXPR -- the adversarial GPU tests whose ids match the pytest -k expression.
      step "adversarial ${s#adversarial:}"
      python3 -m pytest -n 0 -v -s -m gpu tests/tools/evaluator/test_adversarial.py -k "${s#adversarial:}" \
        -p no:cacheprovider -rA --durations=5 > "$LOGS/adversarial-k.log" 2>&1
      grep -E "PASSED|FAILED|SKIPPED|passed|failed|\[verdict\]" "$LOGS/adversarial-k.log" | tail -60 ;;
    summary)
      # Where each evaluation's time went and how noisy it was (scripts/record_summary.py).
      step summary
      python3 scripts/record_summary.py "$LOGS"/*.json > "$LOGS/summary.txt" 2>&1; cat "$LOGS/summary.txt" ;;
    *) echo "unknown step $s" ;;
  esac
  pack
done
pack
