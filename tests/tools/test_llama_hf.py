"""tools/llama/hf.py: Hugging Face's Llama patched with the ops, against its own eager tokens, compiled too."""

from __future__ import annotations

import pytest
import torch

from tests.tools.hugging_face import require_transformers
from tests.tools.tiny_llama import TINY
from tools.llama.infer import compare, run_inference
from workbench.kernels.custom_ops import register_all

require_transformers()
from tools.llama.hf import GATE_UP, generator, load_model, modeling_llama, patch_llama  # noqa: E402

PROMPT = torch.randint(0, TINY["vocab_size"], (2, 12), generator=torch.Generator().manual_seed(1))
NEW_TOKENS = 10


def _model():
    # The tiny checkpoint's weights at 5x the init scale: greedy tokens vary, and a wrong op changes them.
    model = load_model(TINY, None, 0, "cpu", torch.float32)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if not name.endswith("norm.weight"):
                param.mul_(5)
    return model


def _tokens(model, mode: str = "eager") -> list[list[int]]:
    return generator(model, mode)(PROMPT, NEW_TOKENS).tokens


class OpCalls(torch.utils._python_dispatch.TorchDispatchMode):
    """Counts the workbench ops a forward dispatches."""

    def __init__(self):
        super().__init__()
        self.calls: dict[str, int] = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.namespace == "workbench":
            self.calls[func._opname] = self.calls.get(func._opname, 0) + 1
        return func(*args, **(kwargs or {}))


@pytest.fixture(scope="module")
def eager_tokens() -> list[list[int]]:
    tokens = _tokens(_model())
    assert len({t for row in tokens for t in row}) > 3, "degenerate model: its tokens cannot tell ops apart"
    return tokens


def test_patched_and_compiled_tokens_match_hugging_faces_eager(eager_tokens):
    model = _model()
    patch = patch_llama("torch", model)
    assert _tokens(model) == eager_tokens
    torch._dynamo.reset()
    # generate's static cache with the step under torch.compile(fullgraph=True): a graph break raises.
    assert _tokens(model, "compile") == eager_tokens
    patch.unpatch()


def test_the_patched_model_runs_the_ops_the_report_lists():
    model = _model()
    layers = TINY["num_hidden_layers"]
    with patch_llama("torch", model) as report, OpCalls() as seen, torch.no_grad():
        model(PROMPT[:1])
    assert report.backend == "torch" and report.scope == "model"
    replaced = {r.target.split(" ")[0]: (r.op, r.custom_op, r.count, r.status) for r in report.replaced}
    assert replaced == {
        "LlamaRMSNorm.forward": ("rms_norm", "workbench::rms_norm_torch", 2 * layers + 1, "native"),
        "apply_rotary_pos_emb": ("rope_qk", "workbench::rope_qk_torch", None, "native"),
        "LlamaMLP.forward": ("silu_mul", "workbench::silu_mul_torch", layers, "native"),
        "LlamaDecoderLayer.forward": ("add_rms_norm", "workbench::add_rms_norm_torch", layers, "native"),
    }
    # Each layer: input_layernorm, rope, the fused add + post-attention norm, silu_mul; then the final norm.
    assert seen.calls == {
        "rms_norm_torch": layers + 1,
        "rope_qk_torch": layers,
        "add_rms_norm_torch": layers,
        "silu_mul_torch": layers,
    }
    assert any("after each MLP" in kept for kept in report.kept)
    assert "LlamaRMSNorm.forward" in report.describe()


def test_unpatch_restores_the_model(eager_tokens):
    hf = modeling_llama()
    model = _model()
    mlp = model.model.layers[0].mlp
    gate = mlp.gate_proj.weight
    rotary = hf.apply_rotary_pos_emb
    patch = patch_llama("torch", model)
    assert hf.apply_rotary_pos_emb is not rotary and GATE_UP in dict(mlp.named_buffers())
    patch.unpatch()
    assert hf.apply_rotary_pos_emb is rotary and mlp.gate_proj.weight is gate
    assert GATE_UP not in dict(mlp.named_buffers())
    assert not any("forward" in vars(m) for m in model.modules())
    with OpCalls() as seen, torch.no_grad():
        model(PROMPT[:1])
    assert seen.calls == {}
    assert _tokens(model) == eager_tokens


def test_patching_the_classes_reaches_models_built_afterwards(eager_tokens):
    hf = modeling_llama()
    originals = hf.LlamaRMSNorm.forward, hf.LlamaMLP.forward, hf.LlamaDecoderLayer.forward
    with patch_llama("torch") as report:
        assert report.scope == "classes" and all(r.count is None for r in report.replaced)
        model = _model()
        with OpCalls() as seen, torch.no_grad():
            model(PROMPT[:1])
        assert set(seen.calls) == {"rms_norm_torch", "rope_qk_torch", "add_rms_norm_torch", "silu_mul_torch"}
        assert _tokens(model) == eager_tokens
    assert (hf.LlamaRMSNorm.forward, hf.LlamaMLP.forward, hf.LlamaDecoderLayer.forward) == originals


def test_a_second_patch_and_a_model_that_is_no_llama_are_refused():
    model = _model()
    with patch_llama("torch", model):
        with pytest.raises(RuntimeError, match="patched already"):
            patch_llama("torch", model)
    with pytest.raises(TypeError, match="LlamaForCausalLM"):
        patch_llama("torch", torch.nn.Linear(2, 2))
    with pytest.raises(ValueError, match="unknown backend"):
        patch_llama("cutlass", model)


def test_flags_choose_what_is_replaced():
    model = _model()
    with patch_llama("torch", model, rope=False, add_rms_norm=False) as report:
        assert [r.op for r in report.replaced] == ["rms_norm", "silu_mul"] and report.kept == ()


def test_agent_infer_runs_hugging_faces_model_with_our_weights():
    # The same random weights in both models: in fp32 their greedy tokens agree, so `agent compare` compares them.
    register_all("torch")
    settings = dict(hf_config=TINY, prompt_len=8, max_new_tokens=6, iters=1, warmup=0, device="cpu", dtype="fp32")
    ours = run_inference("torch", **settings)
    theirs = run_inference("torch", model_code="hf", **settings)
    unpatched = run_inference("native", model_code="hf", **settings)
    assert theirs.model_code == "hf" and theirs.operators == dict.fromkeys(ours.operators, "native")
    assert theirs.generated_ids == ours.generated_ids == unpatched.generated_ids
    from dataclasses import asdict

    assert compare(asdict(ours), asdict(theirs)).refused == []
    with pytest.raises(ValueError, match="--model-code hf decodes"):
        run_inference("torch", model_code="hf", decode="graphs", **settings)
