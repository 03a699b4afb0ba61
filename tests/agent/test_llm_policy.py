"""The llm policy against a real local HTTP server speaking the OpenAI chat-completions API.

Every test drives the real `openai` client over a socket (tests/agent/fake_openai.py):
extraction, re-asks, retries and errors are observed as the endpoint sees them.
"""

from __future__ import annotations

import socket
from pathlib import Path

import openai
import pytest

import prompts
from agent.policies.base import Attempt, ProposalContext, ReflectionContext
from agent.policies.llm import LLMPolicy, extract_reply
from tests.agent.fake_openai import FakeOpenAI, Reply, Stall, Status
from tools.env import DeviceFacts

ROOT = Path(__file__).resolve().parents[2]
BEST = (ROOT / "kernels/rope/tilelang.py").read_text()
GOOD = BEST.replace('CONFIG = {"block_rows": 64, "threads": 128}', 'CONFIG = {"block_rows": 128, "threads": 128}')
OTHER = BEST.replace('CONFIG = {"block_rows": 64, "threads": 128}', 'CONFIG = {"block_rows": 64, "threads": 256}')
SPEC_TEXT = "rope(x, sin, cos, *, out=None) -> out\n\nRotate-half RoPE: out[..., :h] = x1*cos - x2*sin."
ATTEMPTS = [
    Attempt(1, "threads 128 -> 256", "rejected", "0.97x geomean vs best", {"block_rows": 64, "threads": 256}, 0.97),
    Attempt(2, "vectorise the table loads", "failed", "compile: unknown intrinsic T.load_vec at line 41"),
]
HARDWARE = prompts.hardware_notes(DeviceFacts("NVIDIA H100 80GB HBM3", sm_count=132, l2_bytes=50 * 2**20))
# Fast retries: the fake server tells the client to wait 10 ms instead of its exponential backoff.
QUICK_RETRY = {"retry-after-ms": "10"}


def reply_with(source: str, rationale: str = "block_rows 64 -> 128 halves the number of blocks.") -> str:
    return f"Rationale: {rationale}\n\nHere is the file.\n\n```python\n{source}```\n"


def make_context(**overrides) -> ProposalContext:
    values = {
        "op": "rope",
        "backend": "tilelang",
        "iteration": 3,
        "spec_text": SPEC_TEXT,
        "best_source": BEST,
        "best_summary": "| shape | GB/s | % of copy |\n|---|---|---|\n| llama3-8b/prefill16384/q | 2119 | 59% |",
        "profile_summary": "dram__throughput 61% of peak; 4-element accesses",
        "hardware": HARDWARE,
        "attempts": list(ATTEMPTS),
        "k": 1,
    }
    values.update(overrides)
    return ProposalContext(**values)


@pytest.fixture
def server():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def make_policy(server):
    clients: list[openai.OpenAI] = []

    def make(*, max_retries: int = 2, timeout: float = 5.0, **kwargs) -> LLMPolicy:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=max_retries, timeout=timeout)
        clients.append(client)
        return LLMPolicy(model="fake-model", client=client, **kwargs)

    yield make
    for client in clients:
        client.close()


def user_messages(request: dict) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "user"]


def test_good_reply_is_extracted_whole_with_rationale_and_usage(server, make_policy):
    text = reply_with(GOOD)
    server.script = [Reply(text, prompt_tokens=1234, completion_tokens=567)]
    [proposal] = make_policy().propose(make_context())
    assert proposal.source == GOOD
    assert proposal.rationale == "block_rows 64 -> 128 halves the number of blocks."
    assert proposal.usage == {"prompt_tokens": 1234, "completion_tokens": 567, "total_tokens": 1801}
    assert proposal.reasks == 0
    assert proposal.response == text
    assert proposal.model == "fake-model"
    [request] = server.requests
    assert request["model"] == "fake-model"
    assert [m["role"] for m in request["messages"]] == ["system", "user"]


def test_reply_without_code_block_is_reasked_with_the_reason(server, make_policy):
    server.script = ["Rationale: raise block_rows.\nI would raise block_rows to 128.", reply_with(GOOD)]
    [proposal] = make_policy().propose(make_context())
    assert proposal.reasks == 1
    assert proposal.source == GOOD
    assert len(server.requests) == 2
    reask = server.requests[1]["messages"]
    assert [m["role"] for m in reask] == ["system", "user", "assistant", "user"]
    assert reask[2]["content"].startswith("Rationale: raise block_rows.")
    assert "no fenced code block" in reask[3]["content"]
    assert proposal.usage["total_tokens"] == 2 * 150  # both calls count
    assert "no fenced code block" in proposal.prompt  # the log keeps the whole conversation


@pytest.mark.parametrize(
    ("bad_source", "reason"),
    [
        (BEST.replace("def rope(", "def rotary("), "defines no top-level function `rope`"),
        (BEST.replace(", *, out: torch.Tensor | None = None)", ")"), "has no `out` parameter"),
        (BEST.replace("def rope(", "def rope[("), "does not parse"),
    ],
    ids=["no-op-function", "no-out-parameter", "syntax-error"],
)
def test_code_that_is_not_a_kernel_file_is_reasked(server, make_policy, bad_source, reason):
    assert bad_source != BEST
    server.script = [reply_with(bad_source), reply_with(GOOD)]
    [proposal] = make_policy().propose(make_context())
    assert proposal.reasks == 1
    assert proposal.source == GOOD
    assert reason in user_messages(server.requests[1])[-1]


def test_reply_cut_off_at_the_token_limit_is_reasked_as_such(server, make_policy):
    cut = Reply("Rationale: bigger blocks.\n```python\n" + GOOD[:400], finish_reason="length")
    server.script = [cut, reply_with(GOOD)]
    [proposal] = make_policy().propose(make_context())
    assert proposal.reasks == 1
    reason = user_messages(server.requests[1])[-1]
    assert "never closed" in reason
    assert "token limit" in reason


def test_still_malformed_after_max_reasks_is_handed_over_flagged(server, make_policy):
    server.script = ["Rationale: no code, sorry.", "Rationale: still no code."]
    [proposal] = make_policy(max_reasks=1).propose(make_context())
    assert len(server.requests) == 2  # one question, one re-ask, no more
    assert proposal.reasks == 1
    assert proposal.source == ""
    assert "still malformed after 1 re-asks" in proposal.rationale


def test_the_longest_block_that_defines_the_op_is_taken():
    snippet = "def rope(x, sin, cos, *, out=None):\n    return out\n"
    text = (
        "Rationale: wider vectors.\n```python\nCONFIG = {}\n```\n"
        f"```python\n{snippet}```\n```python\n{GOOD}```\n```bash\npython -m pytest\n```\n"
    )
    extraction = extract_reply(text, "rope")
    assert extraction.problem is None
    assert extraction.source == GOOD


def test_rationale_falls_back_to_the_first_sentence_outside_the_code():
    text = f"**Use 256 threads.** More threads hide latency.\n\n```python\n{GOOD}```\n"
    assert extract_reply(text, "rope").rationale == "Use 256 threads."


def test_rate_limit_then_success_goes_through_the_client_retry(server, make_policy):
    server.script = [Status(429, {"Retry-After": "0"}), reply_with(GOOD)]
    [proposal] = make_policy(max_retries=2).propose(make_context())
    assert proposal.source == GOOD
    assert len(server.requests) == 2
    assert proposal.reasks == 0  # a transport retry is not a re-ask


def test_timeout_is_retried_by_the_client(server, make_policy):
    server.script = [Stall(1.0), reply_with(GOOD)]
    [proposal] = make_policy(max_retries=1, timeout=0.3).propose(make_context())
    assert proposal.source == GOOD
    assert len(server.requests) == 2


def test_persistent_server_errors_raise_a_runtime_error_naming_the_endpoint(server, make_policy):
    server.script = [Status(500, QUICK_RETRY), Status(500, QUICK_RETRY), Status(500, QUICK_RETRY)]
    policy = make_policy(max_retries=2)
    with pytest.raises(RuntimeError) as raised:
        policy.propose(make_context())
    message = str(raised.value)
    assert server.base_url in message
    assert "HTTP 500" in message
    assert "after 2 retries" in message
    assert len(server.requests) == 3


def test_unreachable_endpoint_raises_a_runtime_error_naming_it(monkeypatch):
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    policy = LLMPolicy("fake-model", base_url=url, api_key="test", max_retries=0, timeout=2.0)
    with pytest.raises(RuntimeError, match=f"chat endpoint {url}"):
        policy.propose(make_context())


@pytest.mark.parametrize("backend", ["tilelang", "ninetoothed", "maca_cpp"])
def test_propose_prompt_carries_spec_best_results_attempts_guide_and_hardware(server, make_policy, backend):
    best = (ROOT / f"kernels/rope/{backend}.py").read_text()
    server.script = [reply_with(best)]
    context = make_context(backend=backend, best_source=best)
    [proposal] = make_policy().propose(context)
    [prompt] = user_messages(server.requests[0])
    assert SPEC_TEXT in prompt
    assert best.strip() in prompt
    assert context.best_summary in prompt
    assert context.profile_summary in prompt
    for attempt in ATTEMPTS:
        assert attempt.rationale in prompt
        assert attempt.message in prompt
    assert "| 0.97x |" in prompt  # the attempts' table
    assert prompts.backend_guide(backend).strip() in prompt
    assert HARDWARE.strip() in prompt
    assert "def rope(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor, *, out: torch.Tensor | None=None)" in prompt
    assert "Rationale: " in prompt  # the reply format
    assert prompt.strip() in proposal.prompt
    assert server.requests[0]["messages"][0]["content"] in proposal.prompt


def test_reflect_returns_the_model_text(server, make_policy):
    text = "block_rows 128 predicted +10%, measured +3%: the grid was already large. Next: vectorise the tables."
    server.script = [Reply(text, prompt_tokens=300, completion_tokens=40)]
    context = ReflectionContext(
        op="rope",
        backend="tilelang",
        iteration=3,
        rationale="block_rows 64 -> 128",
        outcome="accepted",
        message="1.03x geomean vs best",
        summary="llama3-8b/prefill16384/q: 2119 -> 2183 GB/s",
        attempts=list(ATTEMPTS),
    )
    reflection = make_policy().reflect(context)
    assert reflection.text == text
    assert reflection.usage == {"prompt_tokens": 300, "completion_tokens": 40, "total_tokens": 340}
    [prompt] = user_messages(server.requests[0])
    assert "block_rows 64 -> 128" in prompt
    assert "2119 -> 2183 GB/s" in prompt
    assert "accepted" in prompt


def test_two_candidates_give_two_proposals_the_second_told_of_the_first(server, make_policy):
    server.script = [reply_with(GOOD, "bigger blocks."), reply_with(OTHER, "more threads.")]
    proposals = make_policy().propose(make_context(k=2))
    assert [p.source for p in proposals] == [GOOD, OTHER]
    assert [p.rationale for p in proposals] == ["bigger blocks.", "more threads."]
    assert len(server.requests) == 2
    second = user_messages(server.requests[1])[0]
    assert "candidate 2 of 2" in second
    assert "bigger blocks." in second


def test_endpoint_and_key_come_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "key-from-env")
    server.script = [reply_with(GOOD)]
    [proposal] = LLMPolicy("fake-model", max_retries=0, timeout=5.0).propose(make_context())
    assert proposal.source == GOOD
    assert server.headers[0]["authorization"] == "Bearer key-from-env"


def test_missing_model_or_key_is_a_value_error(monkeypatch):
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ValueError, match="model"):
        LLMPolicy(None, api_key="test")
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        LLMPolicy("fake-model")


def test_a_failed_attempts_reflection_prompt_carries_its_failure_and_diff(server, make_policy):
    server.script = [Reply("It failed.\nNext: revert.")]
    context = ReflectionContext(
        op="rope",
        backend="tilelang",
        iteration=2,
        rationale="vectorise",
        outcome="failed",
        message="failed at compile",
        summary="",
        failure="failed at compile:\nerror: unknown intrinsic T.load_vec",
        diff="-a\n+b\n",
    )
    reflection = make_policy().reflect(context)
    [prompt] = user_messages(server.requests[0])
    assert "unknown intrinsic T.load_vec" in prompt and "-a\n+b" in prompt
    assert "starts with `Next:`" in prompt
    assert reflection.model == "fake-model" and prompt in reflection.prompt
