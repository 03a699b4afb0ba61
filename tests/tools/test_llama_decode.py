"""Decode as serving engines run it (tools/llama/decode.py) and the native baseline's ops (kernels/<op>/native.py)."""

from __future__ import annotations

import json

import pytest
import torch

from tests.tools.tiny_llama import TINY
from tools.llama.decode import StaticDecoder, generator
from tools.llama.infer import compare, read_record, run_inference, write_record
from tools.llama.load import random_model
from tools.llama.model import generate, rope_tables
from workbench.kernels.registry import native_op, torch_implementation

needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU (torch.cuda.is_available() is False)")


def _prompt(batch: int, length: int = 20, seed: int = 1) -> torch.Tensor:
    return torch.randint(0, TINY["vocab_size"], (batch, length), generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("backend", ["torch", "native"])
@pytest.mark.parametrize("batch", [1, 3])
def test_the_static_step_gives_the_tokens_of_the_models_own_decoding(backend, batch):
    model = random_model(0, backend, "cpu", torch.float32, hf_config=TINY)
    prompt = _prompt(batch)
    expected = generate(model, prompt, 12).tokens
    run = generator(model, "static", batch, 20 + 12)
    assert run(prompt, 12).tokens == expected
    # Run again on the same buffers: what the first run left in the cache must not leak into the second.
    assert run(prompt, 12).tokens == expected
    other = _prompt(batch, seed=2)
    assert run(other, 12).tokens == generate(model, other, 12).tokens


def test_a_shorter_generation_on_a_larger_decoder_reads_nothing_past_its_position():
    model = random_model(0, "torch", "cpu", torch.float32, hf_config=TINY)
    prompt = _prompt(2, length=5)
    run = generator(model, "static", 2, 64)
    assert run(prompt, 3).tokens == generate(model, prompt, 3).tokens


def test_a_static_decoder_says_what_it_holds_when_asked_for_more():
    model = random_model(0, "torch", "cpu", torch.float32, hf_config=TINY)
    decoder = StaticDecoder(model, batch=2, capacity=16, mode="static")
    with pytest.raises(ValueError, match="holds 2 rows of 16 positions; asked for 2 rows of 10 \\+ 8"):
        decoder.generate(_prompt(2, length=10), 8)
    with pytest.raises(ValueError, match="holds 2 rows"):
        decoder.generate(_prompt(3, length=4), 2)


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU's refusal of CUDA graphs")
def test_graphs_on_a_cpu_are_refused_with_the_mode_that_runs_there():
    model = random_model(0, "torch", "cpu", torch.float32, hf_config=TINY)
    with pytest.raises(ValueError, match="needs a GPU; on a CPU use --decode static"):
        StaticDecoder(model, batch=1, capacity=8, mode="graphs")


def test_compile_is_the_native_models_baseline_only():
    with pytest.raises(ValueError, match="use --backend native"):
        run_inference("torch", hf_config=TINY, prompt_len=4, max_new_tokens=2, device="cpu", decode="compile")


def _tables(seq: int, head_dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    freqs = 1.0 / (10000.0 ** (torch.arange(0, head_dim, 2).float() / head_dim))
    return rope_tables(torch.arange(seq), freqs)


@pytest.mark.parametrize("op", ["rms_norm", "add_rms_norm", "rope", "rope_qk", "silu_mul"])
def test_the_native_ops_compute_the_registrys_op(op):
    """In fp32 the baseline a user would write is the same function as the reference (to rounding)."""
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(2, 5, 4, 16, generator=gen)
    hidden = torch.randn(2, 5, 64, generator=gen)
    weight = torch.randn(64, generator=gen)
    sin, cos = _tables(7, 16)  # a longer table than the sequence: its first rows are used
    args = {
        "rms_norm": (hidden, weight, 1e-5),
        "add_rms_norm": (hidden, torch.randn(2, 5, 64, generator=gen), weight, 1e-5),
        "rope": (x, sin, cos),
        "rope_qk": (x, torch.randn(2, 5, 2, 16, generator=gen), sin, cos),
        "silu_mul": (torch.randn(2, 5, 128, generator=gen),),
    }[op]
    got, want = native_op(op)(*args), torch_implementation(op)(*args)
    for g, w in zip(
        got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,), strict=True
    ):
        torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-5)


def test_a_batch_records_every_row_and_row_0_is_the_batch_of_1s(tmp_path):
    settings = {"hf_config": TINY, "prompt_len": 6, "max_new_tokens": 4, "warmup": 0, "iters": 1, "device": "cpu"}
    one = run_inference("torch", dtype="fp32", **settings)
    three = run_inference("torch", dtype="fp32", batch=3, decode="static", **settings)
    assert three.batch == 3 and three.decode == "static"
    assert len(three.prompt_rows) == 3 and len(three.generated_rows) == 3
    assert three.prompt_rows[0] == one.prompt_ids and three.generated_ids == one.generated_ids
    assert three.prompt_rows[1] != three.prompt_rows[0]
    write_record(one, tmp_path / "one.json")
    write_record(three, tmp_path / "three.json")
    refused = compare(read_record(tmp_path / "one.json"), read_record(tmp_path / "three.json")).refused
    assert any(reason.startswith("batch differs") for reason in refused)


def test_a_record_from_before_batches_reads_as_one_eager_row(tmp_path):
    record = run_inference("torch", hf_config=TINY, prompt_len=4, max_new_tokens=2, iters=1, warmup=0, device="cpu")
    data = json.loads(json.dumps(record.__dict__))
    for key in ("batch", "decode", "prompt_rows", "generated_rows"):
        del data[key]
    (tmp_path / "old.json").write_text(json.dumps(data))
    old = read_record(tmp_path / "old.json")
    assert old["batch"] == 1 and old["decode"] == "eager"
    write_record(record, tmp_path / "new.json")
    new = read_record(tmp_path / "new.json")
    assert compare(old, new).refused == [] and compare(new, old).refused == []
    new["generated_rows"][0][-1] += 1  # a record with rows: a row that differs is refused
    assert any("row 0 differ" in reason for reason in compare(read_record(tmp_path / "new.json"), new).refused)


@pytest.mark.gpu
@needs_gpu
@pytest.mark.parametrize(
    ("backend", "mode"),
    [
        ("tilelang", "graphs"),
        ("ninetoothed", "graphs"),
        ("maca_cpp", "graphs"),
        ("native", "graphs"),
        ("native", "compile"),
    ],
)
@pytest.mark.parametrize("batch", [1, 8])
def test_decode_on_the_gpu_gives_the_eager_tokens(backend, mode, batch):
    """fp32, the tiny model: a captured or compiled step computes what the eager forwards do."""
    model = random_model(0, backend, "cuda", torch.float32, hf_config=TINY)
    prompt = _prompt(batch).cuda()
    expected = generate(model, prompt, 16).tokens
    run = generator(model, mode, batch, 20 + 16)
    assert run(prompt, 16).tokens == expected
    assert run(prompt, 16).tokens == expected


def test_iterations_that_disagree_are_named_by_row_and_token():
    from tools.llama.infer import _first_difference

    message = _first_difference([[1, 2, 3], [4, 5, 6]], [[1, 2, 3], [4, 9, 6]], iteration=3)
    assert message.startswith("iteration 3 parts from iteration 1 in row 1 at generated token 1 (5 vs 9)")
    assert "--backend native" in message and "--dtype fp32" in message


def _drifting_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every second generation's last token of row 0 is changed: iterations that disagree."""
    import dataclasses

    import tools.llama.decode as decode

    real = decode.generator

    def drifting(*args):
        run, calls = real(*args), []

        def generate_once(prompt, max_new_tokens):
            result = run(prompt, max_new_tokens)
            calls.append(1)
            if len(calls) % 2 == 0:
                rows = [list(row) for row in result.tokens]
                rows[0][-1] += 1
                result = dataclasses.replace(result, tokens=rows)
            return result

        return generate_once

    monkeypatch.setattr(decode, "generator", drifting)  # run_inference imports it when called


def test_bf16_iterations_that_disagree_are_recorded_and_still_timed(monkeypatch):
    _drifting_generator(monkeypatch)
    record = run_inference("torch", hf_config=TINY, prompt_len=4, max_new_tokens=3, iters=2, warmup=0, device="cpu")
    assert record.iteration_drift.startswith("iteration 2 parts from iteration 1 in row 0 at generated token 2")
    assert record.decode_tokens_per_s > 0 and len(record.decode_s) == 2
    from tools.llama.infer import format_record

    assert "drift       tokens differ across iterations (timing kept)" in format_record(record)


def test_fp32_iterations_that_disagree_are_an_error(monkeypatch):
    _drifting_generator(monkeypatch)
    with pytest.raises(RuntimeError, match="different tokens across iterations: iteration 2 parts"):
        run_inference(
            "torch", hf_config=TINY, prompt_len=4, max_new_tokens=3, iters=2, warmup=0, device="cpu", dtype="fp32"
        )
