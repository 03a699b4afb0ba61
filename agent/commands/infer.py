"""`agent infer --backend B`: Llama-3 greedy generation through a backend's ops, prefill and decode tokens/s."""

from __future__ import annotations

from agent.commands.options import BACKENDS

HELP = "Llama-3 greedy generation through a backend's ops; prefill and decode tokens/s"


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
    p.add_argument("--max-new-tokens", type=int, default=32, metavar="N")
    p.add_argument("--warmup", type=int, default=1, metavar="N", help="untimed generations first")
    p.add_argument("--iters", type=int, default=3, metavar="N", help="timed generations; the median is reported")
    p.add_argument("--seed", type=int, default=0, help="random weights and prompt ids")
    p.add_argument("--device", choices=["cpu", "cuda"], help="default: cuda if PyTorch sees a GPU, else cpu")
    p.add_argument("--dtype", choices=["bf16", "fp16", "fp32"], default="bf16")
    p.add_argument("--json", metavar="PATH", help="write the record as JSON (input to agent compare)")


def run(args) -> int:
    from tools.llama.infer import InferenceOptions, format_record, run_inference, write_record

    record = run_inference(args.backend, InferenceOptions.from_args(args))
    print(format_record(record))
    if args.json:
        write_record(record, args.json)
        print(f"wrote {args.json}")
    return 0
