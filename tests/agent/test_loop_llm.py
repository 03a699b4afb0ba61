"""The whole loop with the llm policy, against a local OpenAI-speaking server and the real client.

The server replays: a malformed reply then a good kernel (re-asked), a wrong
kernel (rejected at correctness), a 429 then a good kernel (retried by the
client), with a reflection after each iteration.
"""

from __future__ import annotations

import openai

from agent.loop import optimize
from agent.policies.llm import LLMPolicy
from tests.agent.fake_openai import FakeOpenAI, Status
from tests.agent.tuned_candidates import TUNED_ROPE, cpu_config
from tools.export import export
from tools.runfolder import RunFolder


def kernel_reply(delay: int, why: str, wrong: bool = False) -> str:
    source = TUNED_ROPE.replace('CONFIG = {"delay_ms": 4}', f'CONFIG = {{"delay_ms": {delay}}}')
    if wrong:
        source = source.replace("    out.copy_(result)\n", "    out.copy_(result * 2)\n")
    return f"Rationale: {why}\n\n```python\n{source}```\n"


def test_llm_loop_reasks_rejects_wrong_kernels_retries_and_logs_every_round(tmp_path):
    kernel = tmp_path / "tuned.py"
    kernel.write_text(TUNED_ROPE)
    script = [
        "I would shorten the delay, but here is no code.",  # malformed: re-asked
        kernel_reply(2, "halve the delay"),
        "Halving the delay paid off; try going lower.",  # reflection 1
        kernel_reply(1, "scale the output (wrong on purpose)", wrong=True),
        "The scaled output broke correctness; revert that.",  # reflection 2
        Status(429, {"retry-after": "0"}),  # retried by the openai client
        kernel_reply(1, "delay of 1 ms"),
        "One millisecond is faster still.",  # reflection 3
    ]
    with FakeOpenAI(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=2, timeout=10)
        policy = LLMPolicy(model="fake-model", client=client)
        config = cpu_config(kernel, policy="llm", model="fake-model")
        run = optimize(config, runs_dir=tmp_path / "runs", policy=policy)
        requests = len(server.requests)
        client.close()

    assert requests == len(script)
    folder = RunFolder(tmp_path / "runs" / run["run_id"])
    decisions = {e["iteration"]: e for e in folder.events() if e["event"] == "decide"}
    assert decisions[1]["accepted"] == 0
    assert decisions[2]["accepted"] is None and "correctness" in decisions[2]["decisions"][0]["reason"]
    assert decisions[3]["accepted"] == 0
    assert len(run["commits"]) == 2
    proposals = [e for e in folder.events() if e["event"] == "proposal"]
    assert proposals[0]["reasks"] == 1 and proposals[0]["usage"]["total_tokens"] > 0
    assert (folder.iteration_dir(1) / "prompt.md").read_text().count("## user") == 2
    assert "Halving the delay paid off" in (folder.iteration_dir(1) / "reflection.md").read_text()
    prompts, _ = export(folder)
    text = prompts.read_text()
    assert text.count("## Iteration ") == 3
    assert "- Model: fake-model" in text and "re-asked 1 time(s)" in text
