"""`agent infer --backend B`: Llama-3 greedy generation through a backend's ops, prefill and decode tokens/s."""

from __future__ import annotations

from agent.commands.options import BACKENDS

HELP = "Llama-3 greedy generation through a backend's ops; prefill and decode tokens/s"

GPU_DEFAULTS = {"max_new_tokens": 32, "warmup": 1, "iters": 3}
# A random Llama-3.2-1B decodes about 0.5 tokens/s in bf16 on a 2-core CPU: the GPU's defaults took 310 s there.
# On the CPU the figures check the model path and measure nothing: one generation of 8 new tokens took 119 s wall,
# 28 CPU-s, on that machine shared with other work (`agent infer --backend torch`, most of it making the weights).
CPU_DEFAULTS = {"max_new_tokens": 8, "warmup": 0, "iters": 1}


def add_arguments(p) -> None:
    p.add_argument(
        "--backend",
        choices=(*BACKENDS, "native"),
        required=True,
        help="a kernel backend, or native: torch's own ops in the model dtype (the baseline a user would write)",
    )
    p.add_argument("--batch", type=int, default=1, metavar="N", help="prompts decoded together (default 1)")
    p.add_argument(
        "--decode",
        choices=("eager", "static", "graphs", "compile"),
        help="decode steps: eager forwards, a fixed-shape step (static), that step as one CUDA graph (graphs), "
        "or torch.compile reduce-overhead of it (compile, --backend native); default graphs on a GPU, else eager",
    )
    p.add_argument(
        "--model-code",
        choices=("workbench", "hf"),
        default="workbench",
        help="whose Llama runs: ours (tools/llama/model.py), or Hugging Face's LlamaForCausalLM patched with the "
        "backend's ops (--backend native: unpatched; --decode eager, static or compile)",
    )
    p.add_argument("--model", metavar="PATH", help="local Hugging Face Llama directory (default: random Llama-3.2-1B)")
    prompt = p.add_mutually_exclusive_group()
    prompt.add_argument("--prompt", metavar="TEXT", help="text prompt (needs tokenizer.json in --model)")
    prompt.add_argument("--prompt-len", type=int, metavar="N", help="N seeded random token ids (default 128)")
    p.add_argument(
        "--max-new-tokens", type=int, metavar="N", help=f"default {GPU_DEFAULTS['max_new_tokens']}, on the CPU 8"
    )
    p.add_argument("--warmup", type=int, metavar="N", help="untimed generations first (default 1, on the CPU 0)")
    p.add_argument(
        "--iters", type=int, metavar="N", help="timed generations; the median is reported (default 3, on the CPU 1)"
    )
    p.add_argument("--seed", type=int, default=0, help="random weights and prompt ids")
    p.add_argument("--device", choices=["cpu", "cuda"], help="default: cuda if PyTorch sees a GPU, else cpu")
    p.add_argument("--dtype", choices=["bf16", "fp16", "fp32"], default="bf16")
    p.add_argument("--json", metavar="PATH", help="write the record as JSON (input to agent compare)")


def run(args) -> int:
    import torch

    from tools.llama.infer import InferenceOptions, format_record, run_inference, write_record

    on_gpu = torch.cuda.is_available() and args.device != "cpu"
    defaults = GPU_DEFAULTS if on_gpu else CPU_DEFAULTS
    taken = {name: value for name, value in defaults.items() if getattr(args, name) is None}
    if taken and not on_gpu:
        print(
            "on the CPU (a 1B model decodes about 0.5 tokens/s there), small defaults: "
            + " ".join(f"--{name.replace('_', '-')} {value}" for name, value in taken.items())
            + " (a GPU's: "
            + " ".join(f"{GPU_DEFAULTS[name]}" for name in taken)
            + ")",
            flush=True,
        )
    for name, value in taken.items():
        setattr(args, name, value)
    record = run_inference(args.backend, InferenceOptions.from_args(args))
    print(format_record(record))
    if args.json:
        write_record(record, args.json)
        print(f"wrote {args.json}")
    return 0
