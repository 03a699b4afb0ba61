"""Torch-backend kernel files with a tunable CONFIG whose speed is known in advance.

The loop's tests need candidates whose ranking is certain on a busy 2-core CI
machine: each call sleeps CONFIG["delay_ms"], so smaller is faster by a wide
margin, and the math itself is the (correct) rotate-half RoPE.
"""

from __future__ import annotations

from pathlib import Path

import git

from agent.config import RunConfig
from workbench.kernels.rope.candidates import GOOD_ROPE

# GOOD_ROPE's math, with a CONFIG whose delay sets the speed.
TUNED_ROPE = (
    '"""A torch RoPE with a deliberate, tunable delay (for the loop\'s tests)."""\n\nimport time\n'
    + GOOD_ROPE.replace(
        "\n\ndef rope",
        '\nCONFIG = {"delay_ms": 4}\n\nSEARCH_SPACE = {"delay_ms": [0, 1, 2, 4, 8]}\n\n\ndef rope',
    ).replace("    half = x.shape", '    time.sleep(CONFIG["delay_ms"] / 1000)\n    half = x.shape')
)

# Wrong for delay 2: the loop must reject it and keep going.
WRONG_AT_TWO = TUNED_ROPE.replace(
    "    out.copy_(result)\n", '    out.copy_(result)\n    if CONFIG["delay_ms"] == 2:\n        out.mul_(2)\n'
)

# Starts at the top of its space: the walk's first proposal (delay 4) is faster, so a one-iteration run
# commits a version.
FROM_THE_TOP = TUNED_ROPE.replace('CONFIG = {"delay_ms": 4}', 'CONFIG = {"delay_ms": 8}')

# For the end-to-end gate: starts at delay 8 in [1, 2, 4, 8, 16], so the walk accepts 4 and then tries 2.
# At delay 2 it skips the rotation when head_dim is 16: no shape the evaluator checks has that head_dim
# (so the version is correct and faster there), but the tiny e2e model does, and its tokens change.
CHANGES_TOKENS_AT_TWO = (
    TUNED_ROPE.replace('CONFIG = {"delay_ms": 4}', 'CONFIG = {"delay_ms": 8}')
    .replace('SEARCH_SPACE = {"delay_ms": [0, 1, 2, 4, 8]}', 'SEARCH_SPACE = {"delay_ms": [1, 2, 4, 8, 16]}')
    .replace(
        "    half = x.shape",
        '    if CONFIG["delay_ms"] == 2 and x.shape[-1] == 16:\n        return x.clone()\n    half = x.shape',
    )
)


def kernel_reply(delay: int, why: str, wrong: bool = False) -> str:
    """An LLM's reply holding TUNED_ROPE at `delay` ms (its output doubled when `wrong`)."""
    source = TUNED_ROPE.replace('CONFIG = {"delay_ms": 4}', f'CONFIG = {{"delay_ms": {delay}}}')
    if wrong:
        source = source.replace("    out.copy_(result)\n", "    out.copy_(result * 2)\n")
    return f"Rationale: {why}\n\n```python\n{source}```\n"


def cpu_config(kernel: Path, **overrides) -> RunConfig:
    """A short CPU run of the loop on a tuned candidate: one decode shape, torch backend."""
    values = dict(
        op="rope",
        backend="torch",
        iterations=3,
        shapes=["llama3.2-1b/decode1/q"],
        device="cpu",
        start_source=str(kernel),
        timeout_s=120,
    )
    values.update(overrides)
    return RunConfig(**values)


def committed_repo(folder: Path, kernel_name: str = "tuned.py", source: str = TUNED_ROPE) -> tuple[git.Repo, Path]:
    """A git repository in `folder` with `source` (TUNED_ROPE) committed as `kernel_name`."""
    kernel = folder / kernel_name
    kernel.parent.mkdir(parents=True, exist_ok=True)
    kernel.write_text(source)
    repo = git.Repo.init(folder)
    repo.index.add([kernel_name])
    actor = git.Actor("user", "user@example.invalid")
    repo.index.commit("kernel", author=actor, committer=actor)
    return repo, kernel
