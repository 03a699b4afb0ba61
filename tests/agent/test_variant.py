"""`agent eval --set KEY=VALUE`: the kernel file with CONFIG values changed, saved and evaluated as a candidate."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.policies.source_edit import read_literal
from agent.variant import parse_settings, write_variant
from tools.paths import default_candidate

ROOT = Path(__file__).resolve().parents[2]
ROPE_TL = default_candidate("rope", "tilelang")


def test_values_are_python_literals_of_known_keys():
    config = {"block_rows": 64, "copy_tiles": False, "mode": "a"}
    assert parse_settings(["copy_tiles=True", " block_rows = 32", "mode='b'"], config) == {
        "copy_tiles": True,
        "block_rows": 32,
        "mode": "b",
    }


@pytest.mark.parametrize(
    ("item", "says"),
    [
        ("rows=32", "the kernel's CONFIG has no such key; it has block_rows, copy_tiles"),
        ("block_rows", "write KEY=VALUE"),
        ("block_rows=thirty", "'thirty' is not a Python literal"),
    ],
)
def test_bad_settings_say_what_is_wrong(item, says):
    with pytest.raises(ValueError, match=says):
        parse_settings([item], {"block_rows": 64, "copy_tiles": False})


def test_the_variant_differs_only_in_its_config(tmp_path):
    path, base = write_variant(ROPE_TL, ["copy_tiles=True", "block_rows=32"], "rope", "tilelang", tmp_path)
    assert base == ROPE_TL
    shipped, variant = ROPE_TL.read_text(), path.read_text()
    assert read_literal(variant, "CONFIG") == {**read_literal(shipped, "CONFIG"), "copy_tiles": True, "block_rows": 32}
    assert variant.replace(variant[variant.index("CONFIG = ") :].split("}")[0], "") == shipped.replace(
        shipped[shipped.index("CONFIG = ") :].split("}")[0], ""
    )
    assert path.name.startswith("rope-tilelang-") and path.parent == tmp_path
    # The same settings give the same file: named by content.
    assert write_variant(ROPE_TL, ["block_rows=32", "copy_tiles=True"], "rope", "tilelang", tmp_path)[0] == path


def test_agent_eval_set_lowers_the_variant_without_a_gpu(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agent",
            "eval",
            "rope",
            "--backend",
            "tilelang",
            "--shapes",
            "llama3-8b/prefill512/q",
            "--dtypes",
            "bf16",
            "--set",
            "copy_tiles=True",
            "--runs-dir",
            str(tmp_path),  # the variant goes under it, not into the checkout's runs/
        ],
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "400"},  # rich would break the long tmp_path over lines
        capture_output=True,
        text=True,
        timeout=300,
    )
    if "No GPU visible" not in done.stdout:
        pytest.skip("a GPU is visible: the variant would be timed, which the GPU tests cover")
    assert done.returncode == 0, done.stderr
    written = done.stdout.split("written to ")[1].split()[0]
    assert "copy_tiles=True" in done.stdout and read_literal(Path(written).read_text(), "CONFIG")["copy_tiles"] is True
    assert f"static check of {written}: " in done.stdout and "lowered to CUDA source" in done.stdout


def test_agent_eval_set_with_an_unknown_key_is_a_clear_error():
    done = subprocess.run(
        [sys.executable, "-m", "agent", "eval", "rope", "--backend", "tilelang", "--set", "rows=32"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "agent: error: --set rows: the kernel's CONFIG has no such key" in done.stderr
