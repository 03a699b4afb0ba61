"""`agent infer`: greedy generation timed in two phases; `agent compare`: the speedup of one run over another.

A record says which operators ran natively, the tokens generated and everything a second
record must share before their times may be compared: model, seed, lengths, device, dtype,
target and library versions. Two backends that produce different tokens are not compared:
a faster wrong kernel is not a speedup.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import torch
from pydantic import BaseModel, Field

from workbench.kernels.llama import FUSED

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}

# What two records must agree on before `compare` divides their times.
MATCH_FIELDS = (
    "model",
    "seed",
    "batch",
    "prompt_len",
    "max_new_tokens",
    "device",
    "dtype",
    "target",
    "versions",
    "prompt_ids",
)
# What records written before a field existed ran: read as this, so old records still compare.
DEFAULTS = {"batch": 1, "decode": "eager", "model_code": "workbench"}


@dataclass
class InferenceRecord:
    """One `agent infer` run; the JSON written by --json."""

    backend: str
    """a registry backend, or `native` (torch's own ops in the model dtype, kernels/<op>/native.py)."""
    operators: dict[str, str]
    """the registered ops the model ran (its ModelPlan's), each native or torch_fallback."""
    model: str
    """the directory, or 'random Llama-3.2-1B config, seed S'."""
    seed: int
    prompt_len: int
    max_new_tokens: int
    device: str
    dtype: str
    target: str
    versions: dict[str, str]
    prompt_ids: list[int]
    """row 0's prompt; with batch > 1 every row has its own (`prompt_rows`)."""
    generated_ids: list[int]
    """row 0's generated tokens (`generated_rows` has every row's)."""
    prefill_tokens_per_s: float
    """prompt_len / median prefill time (the first token's argmax included)."""
    decode_tokens_per_s: float | None
    """(max_new_tokens - 1) / median decode time; None when max_new_tokens is 1."""
    prefill_s: list[float] = field(default_factory=list)
    decode_s: list[float] = field(default_factory=list)
    warmup: int = 0
    iters: int = 0
    generated_text: str | None = None
    environment: dict[str, Any] = field(default_factory=dict)
    batch: int = 1
    decode: str = "eager"
    """how decode steps ran: tools/llama/decode.DECODE_MODES."""
    prompt_rows: list[list[int]] = field(default_factory=list)
    generated_rows: list[list[int]] = field(default_factory=list)
    model_code: str = "workbench"
    """whose forward ran: tools/llama/model.py (workbench) or transformers' LlamaForCausalLM (hf)."""
    iteration_drift: str | None = None
    """bf16/fp16: where an iteration's greedy tokens parted from the first's (None: they all agreed). The
    timing stands, since every iteration does the same work; in fp32 a drift is an error instead."""


def random_prompt_ids(vocab_size: int, n: int, seed: int) -> list[int]:
    """`n` seeded token ids: `agent infer --prompt-len N` and benchmarks/probes/token_drift.py use the same prompt."""
    # Its own generator: the prompt does not depend on how many numbers the weights consumed.
    gen = torch.Generator().manual_seed(seed + 1)
    return torch.randint(0, vocab_size, (n,), generator=gen).tolist()


def _first_difference(first: list[list[int]], other: list[list[int]], iteration: int) -> str:
    """Where iteration `iteration`'s tokens first part from iteration 1's, and what that points to."""
    row, at = next(
        (row, at)
        for row, (a, b) in enumerate(zip(first, other, strict=True))
        for at, (x, y) in enumerate(zip(a, b, strict=True))
        if x != y
    )
    found = first[row][at], other[row][at]
    # On the H200, bf16 at batch 8 parted for native eager too: an op of the model, not only our kernels.
    return (
        f"iteration {iteration} parts from iteration 1 in row {row} at generated token {at} ({found[0]} vs "
        f"{found[1]}); some op is not deterministic: run --backend native the same way to see whether it is one "
        "of ours, and --dtype fp32 to rule out the random model's bf16 logit ties"
    )


def _resolve_device(device: str | None) -> str:
    if device in (None, "auto"):
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("--device cuda asked for, but PyTorch sees no GPU; use --device cpu")
    return device


MODEL_CODES = ("workbench", "hf")


class InferenceOptions(BaseModel):
    """What one generation run does: `agent infer` builds it from its arguments, the end-to-end check from its
    settings (tools/llama/e2e.py), and `run_inference` takes it whole."""

    model: str | None = Field(default=None, description="local Hugging Face Llama directory; None: random weights")
    hf_config: dict[str, Any] | None = Field(
        default=None, description="config of the random weights (default Llama-3.2-1B); tests pass a tiny one"
    )
    model_code: Literal["workbench", "hf"] = Field(
        default="workbench",
        description="whose forward runs the weights: tools/llama/model.py, or transformers' LlamaForCausalLM "
        "patched with the backend's ops (tools/llama/hf.py; backend native: unpatched)",
    )
    prompt: str | None = None
    prompt_len: int | None = None
    max_new_tokens: int = 32
    warmup: int = 1
    iters: int = 3
    seed: int = 0
    device: str | None = None
    dtype: str = "bf16"
    batch: int = 1
    decode: str = "eager"
    op: str | None = Field(
        default=None, description="run the plan that calls this op wherever it can (model.plan_for); None: fused"
    )

    @classmethod
    def from_args(cls, args: Any) -> InferenceOptions:
        """From `agent infer`'s parsed arguments (those it has; a missing --decode: graphs on a GPU, else eager)."""
        given = {name: getattr(args, name) for name in cls.model_fields if getattr(args, name, None) is not None}
        if "decode" not in given:
            on_gpu = torch.cuda.is_available() and getattr(args, "device", None) != "cpu"
            given["decode"] = "graphs" if on_gpu and given.get("model_code", "workbench") == "workbench" else "eager"
        return cls(**given)


def run_inference(backend: str, options: InferenceOptions | None = None, **fields: Any) -> InferenceRecord:
    """Load (or build) the model, generate `iters` times after `warmup`, and time prefill and decode.

    `options` (or its fields as keywords): without `model` the weights are random, Llama-3.2-1B shapes or
    those of `hf_config`; `op` picks the plan of registered ops the model runs (tools/llama/model.py), the
    default fuses what can be fused; `batch` rows of prompts of one length run together; `decode` says how
    the decode steps run (tools/llama/decode.py, or Hugging Face's generate: tools/llama/hf.py).
    """
    from tools.env import collect_environment
    from tools.llama.decode import DECODE_MODES, generator
    from tools.llama.load import load_directory, load_tokenizer, random_model
    from tools.llama.model import NATIVE, plan_for
    from workbench.kernels.registry import check_backend, registered_operators

    o = InferenceOptions(**{**(options.model_dump() if options else {}), **fields})
    plan = plan_for(o.op)
    model_path, hf_config, prompt, prompt_len = o.model, o.hf_config, o.prompt, o.prompt_len
    max_new_tokens, warmup, iters, seed, dtype, batch, decode = (
        o.max_new_tokens,
        o.warmup,
        o.iters,
        o.seed,
        o.dtype,
        o.batch,
        o.decode,
    )
    hf = o.model_code == "hf"
    if backend != NATIVE:
        check_backend(backend)
    if hf:
        from tools.llama import hf as hf_llama

        if decode not in hf_llama.HF_DECODE_MODES:
            raise ValueError(
                f"--model-code hf decodes {', '.join(hf_llama.HF_DECODE_MODES)} (compile: CUDA graphs on a GPU); "
                f"got {decode!r}"
            )
        if o.op is not None and plan != FUSED:
            raise ValueError(f"Hugging Face's model runs the fused plan only; the plan for {o.op} needs ours")
    elif decode not in DECODE_MODES:
        raise ValueError(f"--decode must be one of {', '.join(DECODE_MODES)}; got {decode!r}")
    elif decode == "compile" and backend != NATIVE:
        raise ValueError(
            "--decode compile is torch.compile of the model with torch's own ops: use --backend native "
            "(a kernel backend's decode under CUDA graphs is --decode graphs; or --model-code hf --decode compile)"
        )
    if batch < 1:
        raise ValueError(f"--batch must be at least 1; got {batch}")
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}; got {dtype!r}")
    if iters < 1 or warmup < 0:
        raise ValueError(f"need iters >= 1 and warmup >= 0; got iters {iters}, warmup {warmup}")
    if prompt is not None and prompt_len is not None:
        raise ValueError("give --prompt or --prompt-len, not both")
    if model_path and hf_config is not None:
        raise ValueError("give a model directory or a config for random weights, not both")
    device = _resolve_device(o.device)
    torch_dtype = DTYPES[dtype]

    if hf:
        from tools.llama.load import LLAMA_3_2_1B

        model = hf_llama.load_model(hf_config or LLAMA_3_2_1B, model_path, seed, device, torch_dtype)
    elif model_path:
        model = load_directory(model_path, backend, device, torch_dtype, plan)
    else:
        model = random_model(seed, backend, device, torch_dtype, hf_config=hf_config, plan=plan)
    model_name = str(Path(model_path).resolve()) if model_path else f"random {_config_name(hf_config)}, seed {seed}"
    statuses = None
    if hf and backend != NATIVE:
        statuses = {r.op: r.status for r in hf_llama.patch_llama(backend, model).report.replaced}

    tokenizer = None
    if prompt is not None:
        if not model_path:
            raise ValueError("--prompt needs a tokenizer, and the random model has none; use --prompt-len")
        tokenizer = load_tokenizer(model_path)
        ids = tokenizer.encode(prompt).ids
        if not ids:
            raise ValueError("the prompt encodes to no tokens")
        rows = [ids] * batch  # one text: every row the same prompt
    else:
        n = 128 if prompt_len is None else prompt_len
        if n < 1:
            raise ValueError(f"--prompt-len must be at least 1; got {n}")
        # Row 0 is the prompt a batch of 1 gets, so its tokens compare across batch sizes.
        rows = [random_prompt_ids(model.config.vocab_size, n, seed + 1000 * row) for row in range(batch)]
    ids = rows[0]
    if len(ids) + max_new_tokens > model.config.max_position_embeddings:
        raise ValueError(f"{len(ids)} + {max_new_tokens} tokens exceed max_position_embeddings")

    prompt_ids = torch.tensor(rows, dtype=torch.long, device=device)
    if hf:
        run = hf_llama.generator(model, decode)  # compiles on its first (warm-up) call
    else:
        run = generator(model, decode, batch, len(ids) + max_new_tokens)  # compiled and captured here, untimed
    for _ in range(warmup):
        run(prompt_ids, max_new_tokens)
    runs = [run(prompt_ids, max_new_tokens) for _ in range(iters)]
    all_tokens = runs[0].tokens
    tokens = all_tokens[0]
    drift = next(
        (
            _first_difference(all_tokens, other.tokens, index)
            for index, other in enumerate(runs[1:], start=2)
            if other.tokens != all_tokens
        ),
        None,
    )
    # fp32 is where identical tokens are the goal. In bf16 torch's own ops parted between iterations on the
    # H200 (batch 8, native eager included), so there the drift is recorded and the timing kept.
    if drift is not None and dtype == "fp32":
        raise RuntimeError(f"greedy decoding gave different tokens across iterations: {drift}")

    prefill = [run.prefill_s for run in runs]
    decode_s = [run.decode_s for run in runs]
    steps = max_new_tokens - 1
    env = collect_environment()
    # The native baseline is torch's own op at every place: no kernel to be native or to fall back.
    if statuses is not None:
        registered = statuses
    else:
        registered = registered_operators(backend) if backend != NATIVE else dict.fromkeys(plan.operators, "torch")
    return InferenceRecord(
        backend=backend,
        operators={op: registered[op] for op in plan.operators},
        model=model_name,
        seed=seed,
        prompt_len=len(ids),
        max_new_tokens=max_new_tokens,
        device=device,
        dtype=dtype,
        target=env.target,
        versions=env.versions,
        prompt_ids=ids,
        generated_ids=tokens,
        prefill_tokens_per_s=batch * len(ids) / statistics.median(prefill),
        decode_tokens_per_s=batch * steps / statistics.median(decode_s) if steps else None,
        prefill_s=prefill,
        decode_s=decode_s,
        warmup=warmup,
        iters=iters,
        generated_text=tokenizer.decode(tokens) if tokenizer else None,
        environment=env.model_dump(),
        batch=batch,
        decode=decode,
        prompt_rows=rows,
        generated_rows=all_tokens,
        iteration_drift=drift,
        model_code=o.model_code,
    )


def _config_name(hf_config: dict[str, Any] | None) -> str:
    """Names the config exactly (records with different configs must not compare) yet briefly."""
    if hf_config is None:
        return "Llama-3.2-1B config"
    digest = hashlib.sha256(json.dumps(hf_config, sort_keys=True).encode()).hexdigest()[:12]
    layers, hidden = hf_config.get("num_hidden_layers"), hf_config.get("hidden_size")
    return f"config sha256:{digest} ({layers} layers, hidden {hidden})"


def format_record(record: InferenceRecord) -> str:
    decode = f"{record.decode_tokens_per_s:,.1f} tokens/s" if record.decode_tokens_per_s else "- (one new token)"
    lines = [
        f"backend     {record.backend}" + (" (Hugging Face's LlamaForCausalLM)" if record.model_code == "hf" else ""),
        "operators   " + ", ".join(f"{op} {status}" for op, status in record.operators.items()),
        f"model       {record.model}",
        f"seed        {record.seed}",
        f"lengths     batch {record.batch} x (prompt {record.prompt_len}, new {record.max_new_tokens})",
        f"device      {record.device} ({record.environment.get('device') or 'CPU'}), {record.dtype}, "
        f"target {record.target}",
        f"prefill     {record.prefill_tokens_per_s:,.1f} tokens/s "
        f"(median of {record.iters} after {record.warmup} warmup)",
        f"decode      {decode} ({record.decode}; all rows)",
        f"generated   {record.generated_ids}",
    ]
    if record.generated_text is not None:
        lines.append(f"text        {record.generated_text!r}")
    if record.iteration_drift:
        lines.append(f"drift       tokens differ across iterations (timing kept): {record.iteration_drift}")
    lines += [f"{'versions':<12}" + ", ".join(f"{k} {v}" for k, v in record.versions.items())]
    return "\n".join(lines)


def write_record(record: InferenceRecord, path: str | Path) -> None:
    Path(path).write_text(json.dumps(asdict(record), indent=2) + "\n")


def read_record(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"{path} is not JSON: {err}") from err
    for key, value in DEFAULTS.items():
        data.setdefault(key, value)
    missing = [key for key in (*MATCH_FIELDS, "generated_ids", "operators", "backend") if key not in data]
    if missing:
        raise ValueError(f"{path} is not an `agent infer --json` record (lacks {', '.join(missing)})")
    return data


@dataclass
class Comparison:
    """The outcome of `compare`: either refused with the reasons, or the speedups of B over A."""

    refused: list[str]
    prefill_speedup: float | None = None
    decode_speedup: float | None = None


def compare(a: dict[str, Any], b: dict[str, Any]) -> Comparison:
    """Speedup of B over A (>1: B faster), refused unless both ran the same thing and produced the same tokens."""
    refused = [
        f"{key} differs: A {a[key]!r} vs B {b[key]!r}" if key != "versions" else _version_difference(a[key], b[key])
        for key in MATCH_FIELDS
        if a[key] != b[key]
    ]
    if list(a["operators"]) != list(b["operators"]):
        refused.append(
            f"the model ran other operators: A {', '.join(a['operators'])} vs B {', '.join(b['operators'])} "
            "(records from different versions of the model code)"
        )
    if a["generated_ids"] != b["generated_ids"]:
        first = next(
            (i for i, (x, y) in enumerate(zip(a["generated_ids"], b["generated_ids"], strict=False)) if x != y),
            min(len(a["generated_ids"]), len(b["generated_ids"])),
        )
        refused.append(f"generated token ids differ from position {first} on: a backend computes something else")
    elif a["batch"] == b["batch"] and a.get("generated_rows") and b.get("generated_rows"):
        rows = zip(a["generated_rows"], b["generated_rows"], strict=True)
        row = next((i for i, (x, y) in enumerate(rows) if x != y), None)
        if row is not None:
            refused.append(f"generated token ids of row {row} differ: a backend computes something else")
    if refused:
        return Comparison(refused)
    decode = None
    if a["decode_tokens_per_s"] and b["decode_tokens_per_s"]:
        decode = b["decode_tokens_per_s"] / a["decode_tokens_per_s"]
    return Comparison([], b["prefill_tokens_per_s"] / a["prefill_tokens_per_s"], decode)


def _version_difference(a: dict[str, str], b: dict[str, str]) -> str:
    diffs = [f"{k} {a.get(k)} vs {b.get(k)}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return "library versions differ: " + ", ".join(diffs)


def format_comparison(a: dict[str, Any], b: dict[str, Any], result: Comparison) -> str:
    def natives(record: dict[str, Any]) -> str:
        if set(record["operators"].values()) == {"torch"}:
            return "none (torch's own ops in the model dtype)"
        names = [op for op, status in record["operators"].items() if status == "native"]
        return ", ".join(names) or "none (all torch fallback)"

    def speedup(value: float | None) -> str:
        return f"{value:.3f}x" if value is not None else "-"

    return "\n".join(
        [
            f"A  {a['backend']:<12} {a['model_code']:<9} decode {a['decode']:<8} native: {natives(a)}",
            f"B  {b['backend']:<12} {b['model_code']:<9} decode {b['decode']:<8} native: {natives(b)}",
            "same model, seed, lengths, device, dtype, target, versions and "
            f"{len(a['generated_ids'])} generated tokens",
            f"prefill  {a['prefill_tokens_per_s']:,.1f} -> {b['prefill_tokens_per_s']:,.1f} tokens/s, "
            f"B vs A {speedup(result.prefill_speedup)}",
            f"decode   {a['decode_tokens_per_s'] or 0:,.1f} -> {b['decode_tokens_per_s'] or 0:,.1f} tokens/s, "
            f"B vs A {speedup(result.decode_speedup)}",
        ]
    )
