"""The search's source edit of a kernel file's CONFIG literal: the diff a reviewer reads."""

from __future__ import annotations

import difflib
from pathlib import Path

from agent.policies.source_edit import read_literal, replace_config

ROOT = Path(__file__).resolve().parents[2]


def changed_lines(before: str, after: str) -> list[str]:
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def test_a_one_line_config_stays_one_line():
    source = 'X = 1\nCONFIG = {"a": 2, "b": 20}\n\nSEARCH_SPACE = {"a": [1, 2]}\n'
    edited = replace_config(source, {"a": 1, "b": 20})
    assert changed_lines(source, edited) == ['-CONFIG = {"a": 2, "b": 20}', '+CONFIG = {"a": 1, "b": 20}']


def test_a_config_written_one_key_per_line_changes_only_its_keys_lines():
    source = (ROOT / "kernels" / "rope" / "tilelang.py").read_text()
    config = read_literal(source, "CONFIG")
    # Values other than the shipped ones, whatever a run adopted since.
    rows = next(v for v in read_literal(source, "SEARCH_SPACE")["block_rows"] if v != config["block_rows"])
    threads = next(v for v in read_literal(source, "SEARCH_SPACE")["small_threads"] if v != config["small_threads"])
    new = {**config, "block_rows": rows, "small_threads": threads}
    edited = replace_config(source, new)
    assert read_literal(edited, "CONFIG") == new
    assert read_literal(edited, "SEARCH_SPACE") == read_literal(source, "SEARCH_SPACE")
    assert changed_lines(source, edited) == [
        f'-    "block_rows": {config["block_rows"]},',
        f'+    "block_rows": {rows},',
        f'-    "small_threads": {config["small_threads"]},',
        f'+    "small_threads": {threads},',
    ]
    # Unchanged values give back the file byte for byte (it is ruff-formatted, as the edit writes it).
    assert replace_config(source, config) == source


def test_comments_and_layout_stay_and_only_the_changed_value_moves():
    source = (
        "CONFIG = {\n"
        '    "block_rows": 64,  # rows per block: 64 fills an SM at prefill\n'
        '    "threads": 128, "block_cols": 64,\n'
        "    # decode\n"
        '    "small": False,\n'
        "}\n"
    )
    edited = replace_config(source, {"block_rows": 32, "threads": 128, "block_cols": 128, "small": False})
    assert changed_lines(source, edited) == [
        '-    "block_rows": 64,  # rows per block: 64 fills an SM at prefill',
        '-    "threads": 128, "block_cols": 64,',
        '+    "block_rows": 32,  # rows per block: 64 fills an SM at prefill',
        '+    "threads": 128, "block_cols": 128,',
    ]


def test_a_value_after_non_ascii_text_on_its_line_is_found():
    source = 'CONFIG = {"µs_budget": 5, "b": 2}  # µ\n'
    assert replace_config(source, {"µs_budget": 5, "b": 3}) == 'CONFIG = {"µs_budget": 5, "b": 3}  # µ\n'


def test_a_new_key_rewrites_the_literal_in_its_layout():
    source = 'CONFIG = {"a": 1}\n'
    assert replace_config(source, {"a": 1, "b": "x"}) == 'CONFIG = {"a": 1, "b": "x"}\n'
