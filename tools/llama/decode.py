"""Decoding as serving engines run it: the prompt eagerly, then one fixed-shape step per token.

`agent infer --decode MODE`:
- eager: the model's forward per token (`model.generate`), its cache slices growing by one;
- static: `Llama.step` over buffers of fixed shape (token, position, the cache at full capacity),
  run eagerly: what the graph holds, and the form of it that runs on a CPU;
- graphs: that step captured once as a CUDA graph per decoder (one batch size, one capacity) and
  replayed per token, so a step costs no host time but the replay's;
- compile: `torch.compile(mode="reduce-overhead")` of the step (Inductor, with CUDA graphs of its own
  on a GPU): the baseline a user of torch would pick.
The prompt always runs eagerly (`Llama.forward`): prefill is one call per layer and op, host cost is
small beside its work.
"""

from __future__ import annotations

import torch

from tools.llama.model import Generation, KVCache, Llama, Stopwatch, generate, rope_tables

DECODE_MODES = ("eager", "static", "graphs", "compile")


class StaticDecoder:
    """Greedy decoding through `Llama.step` for prompts of `batch` rows, up to `capacity` positions in all."""

    def __init__(self, model: Llama, batch: int, capacity: int, mode: str):
        if mode not in DECODE_MODES[1:]:
            raise ValueError(f"a static decoder runs {', '.join(DECODE_MODES[1:])}; got {mode!r}")
        device = model.device
        if mode == "graphs" and device.type != "cuda":
            raise ValueError("--decode graphs captures CUDA graphs and needs a GPU; on a CPU use --decode static")
        self.model, self.batch, self.capacity, self.mode = model, batch, capacity, mode
        self.cache = KVCache.empty(model.config, batch, capacity, model.dtype, device)
        for buffer in (*self.cache.keys, *self.cache.values):
            buffer.zero_()  # the step reads every position, masked or not: none may hold a NaN
        self.token = torch.zeros(batch, 1, dtype=torch.long, device=device)
        self.position = torch.zeros(1, dtype=torch.long, device=device)
        self.history = torch.zeros(batch, capacity, dtype=torch.long, device=device)
        self.positions = torch.arange(capacity, device=device)
        self.sin_table, self.cos_table = rope_tables(self.positions, model.freqs)
        self.graph: torch.cuda.CUDAGraph | None = None
        self._step = self.step
        if mode == "compile":
            for buffer in (*self.cache.keys, *self.cache.values, self.token, self.position, self.history):
                torch._dynamo.mark_static_address(buffer)  # written in place every step: one recording
            self._compiled = torch.compile(self._advance, mode="reduce-overhead")
            self._step = self._compiled_step

    def _compiled_step(self) -> None:
        # Traced under no_grad, not inference_mode: AOT autograd fails on batched matmuls traced in
        # inference mode (pytorch/pytorch#181512; torch 2.11 on the H200, not 2.13).
        with torch.inference_mode(False), torch.no_grad():
            self._compiled()

    @torch.inference_mode()
    def step(self) -> None:
        self._advance()

    def _advance(self) -> None:
        """Consume `token` at `position`, write the next token into `token` and `history`, advance."""
        sin = self.sin_table.index_select(0, self.position)
        cos = self.cos_table.index_select(0, self.position)
        mask = (self.positions <= self.position).view(1, 1, 1, -1)
        logits = self.model.step(self.token, self.cache, self.position, sin, cos, mask)
        self.token.copy_(logits[:, -1].argmax(-1, keepdim=True))
        self.position.add_(1)
        self.history.index_copy_(1, self.position, self.token)

    @torch.inference_mode()
    def prepare(self) -> None:
        """Compile what the step runs (JIT kernels, Inductor) and, for graphs, capture it; untimed."""
        self.position.zero_()
        if self.mode == "graphs":
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                for _ in range(2):  # first calls outside the capture: JIT compiles, allocator warm
                    self.step()
            torch.cuda.current_stream().wait_stream(side)
            self.position.zero_()
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.step()
        else:
            for _ in range(3):  # Inductor's reduce-overhead records its graph on the third call
                self._step()
        self.position.zero_()

    def run_step(self) -> None:
        if self.graph is not None:
            self.graph.replay()
        else:
            self._step()

    @torch.inference_mode()
    def generate(self, prompt: torch.Tensor, max_new_tokens: int) -> Generation:
        """As `model.generate`: prefill eagerly (its first token's argmax included), then the decode steps."""
        if max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be at least 1; got {max_new_tokens}")
        batch, prompt_len = prompt.shape
        if batch != self.batch or prompt_len + max_new_tokens > self.capacity:
            raise ValueError(
                f"this decoder holds {self.batch} rows of {self.capacity} positions; "
                f"asked for {batch} rows of {prompt_len} + {max_new_tokens}"
            )
        device = self.model.device
        watch = Stopwatch(device)
        self.cache.length = 0
        if device.type == "cuda":
            torch.cuda.synchronize(device)  # nothing queued before the start event may count
        watch.start()
        first = self.model(prompt, self.cache, last_only=True)[:, -1].argmax(-1, keepdim=True)
        prefill_s = watch.stop()
        self.token.copy_(first)
        self.position.fill_(prompt_len)
        self.history[:, prompt_len : prompt_len + 1].copy_(first)
        watch.start()
        for _ in range(max_new_tokens - 1):
            self.run_step()
        decode_s = watch.stop()
        tokens = self.history[:, prompt_len : prompt_len + max_new_tokens].tolist()
        return Generation(tokens, prefill_s, decode_s, max_new_tokens - 1)


def generator(model: Llama, mode: str, batch: int, capacity: int):
    """A function (prompt, max_new_tokens) -> Generation for `mode`, prepared (compiled, captured)."""
    if mode == "eager":
        return lambda prompt, max_new_tokens: generate(model, prompt, max_new_tokens)
    if mode not in DECODE_MODES:
        raise ValueError(f"--decode must be one of {', '.join(DECODE_MODES)}; got {mode!r}")
    decoder = StaticDecoder(model, batch, capacity, mode)
    decoder.prepare()
    return decoder.generate
