"""agent/console.py: what the commands print, evaluation records as tables within the terminal's width."""

from __future__ import annotations

import io

from rich.console import Console

from agent.console import print_record, shape_tables
from tests.agent.test_cli import EXAMPLES, MACA, shape_names
from tools.evaluator.records import EvalRecord
from tools.report import terminal_columns


def test_a_gpu_record_at_80_columns_keeps_every_column_and_whole_names():
    record = EvalRecord.model_validate_json((EXAMPLES / MACA / "iterations" / "0001" / "eval.json").read_text())
    console = Console(file=io.StringIO(), width=80, color_system=None)
    print_record(record, console)
    text = console.file.getvalue()
    assert max(map(len, text.splitlines())) <= 80 and "…" not in text
    tables = shape_tables(record, console)
    assert len(tables) > 1  # the columns that do not fit beside the names go to further tables
    assert {c.header for t in tables for c in t.columns} == set(terminal_columns(record).values())
    names = [c.shape for c in record.correctness if c.seed == record.correctness[0].seed]
    assert shape_names(text) == list(dict.fromkeys(names)) * len(tables)
