"""The whole loop with the llm policy, against a local OpenAI-speaking server and the real client.

The server replays: a malformed reply then a good kernel (re-asked), a wrong
kernel (rejected at correctness), a 429 then a good kernel (retried by the
client), with a reflection after each iteration.
"""

from __future__ import annotations

from tests.agent.recorded_judge import RecordedJudge, reasked_llm_run
from tools.export import export
from tools.runfolder import RunFolder


def test_llm_loop_reasks_rejects_wrong_kernels_retries_and_logs_every_round(tmp_path):
    # The judge's records of these kernels are replayed (tests/agent/recorded_judge.py): what is accepted
    # does not hinge on the CPU's timing.
    run = reasked_llm_run(tmp_path, tmp_path / "runs", RecordedJudge())
    assert run["requests"] == run["script"]  # every scripted answer was asked for
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
