"""Rewrite the absolute paths that older run folders recorded into the relative ones new runs write.

    python scripts/relativize_runs.py                   # the committed examples (examples/runs/)
    python scripts/relativize_runs.py runs/ other/runs/ # any folders of runs
    python scripts/relativize_runs.py --check           # exit 1 if an absolute path is left; writes nothing

Runs written before tools/paths.py recorded paths relative to the checkout and a temporary copy of the
machine they ran on (`/work/main/...`, `/tmp/wb/...`): run.json's `kernel_file`, `config.start_source`
and `workspace.worktree`, and each eval.json's `candidate`. New runs write `kernel_file` relative to the
repository root and the run's own files relative to the run folder (agent/runfolder.py); this script
gives old runs the same form, so `agent adopt` and the UI read them in any clone.

Where the repository root was is read from the record itself: `kernel_file` ends with
`workspace.kernel_relpath`, the kernel's path in that repository. A run's own file is found by the run
id in its path. Only those values change, in place in the text (the rest of each file stays byte for
byte), so running it twice changes nothing the second time. A path the script cannot place (a user's
kernel outside any repository) is left as it is and listed.

checkpoints.sqlite is not rewritten: its LangGraph state is serialised by LangGraph, and `agent resume`
does not need it rewritten (RunFolder.locate finds a run's own files by the run id in an old absolute
path). The committed examples have none.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "runs"
SKIPPED = {"worktree", "repo"}  # the run's git checkout: git's own files, not records


def _in_run(value: str, run_id: str) -> str | None:
    """A path through the run's folder, relative to that folder; None when it is not one."""
    parts = PurePosixPath(value).parts
    if run_id not in parts:
        return None
    last = len(parts) - 1 - parts[::-1].index(run_id)
    return PurePosixPath(*parts[last + 1 :]).as_posix() if last + 1 < len(parts) else None


def _in_repository(value: str, old_root: str | None) -> str | None:
    if old_root is None:
        return None
    path, root = PurePosixPath(value), PurePosixPath(old_root)
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def _old_root(run: dict) -> str | None:
    """The repository root of the machine the run ran on: kernel_file less workspace.kernel_relpath."""
    kernel, workspace = run.get("kernel_file"), run.get("workspace") or {}
    relpath = workspace.get("kernel_relpath")
    if not kernel or not relpath or workspace.get("own_repository") or not PurePosixPath(kernel).is_absolute():
        return None
    if not kernel.endswith("/" + relpath):
        return None
    return kernel[: -len(relpath) - 1] or "/"


def _replace(text: str, key: str, old: str, new: str) -> str:
    """`"key": "old"` -> `"key": "new"` in JSON text, exactly once (the value is JSON-encoded as json.dumps does)."""
    before, after = f'"{key}": {json.dumps(old)}', f'"{key}": {json.dumps(new)}'
    if text.count(before) != 1:
        raise RuntimeError(f"expected one {before} in the file, found {text.count(before)}")
    return text.replace(before, after)


class RunPaths:
    """The changes one run folder needs, and what is left absolute."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.run_id = folder.name
        self.changes: dict[Path, str] = {}  # file -> its new text
        self.left: list[str] = []  # "file: key = value" of absolute paths that stay

    def plan(self) -> RunPaths:
        run_file = self.folder / "run.json"
        run = json.loads(run_file.read_text())
        old_root = _old_root(run)
        text = run_file.read_text()
        fields = [
            ("kernel_file", run.get("kernel_file"), "repository"),
            ("start_source", (run.get("config") or {}).get("start_source"), "repository"),
            ("worktree", (run.get("workspace") or {}).get("worktree"), "run"),
        ]
        for key, value, base in fields:
            if not value or not PurePosixPath(value).is_absolute():
                continue
            new = _in_repository(value, old_root) if base == "repository" else _in_run(value, self.run_id)
            if new is None:
                self.left.append(f"{run_file.relative_to(self.folder)}: {key} = {value}")
            else:
                text = _replace(text, key, value, new)
        if text != run_file.read_text():
            self.changes[run_file] = text
        for record_file in sorted(self.folder.glob("iterations/*/eval*.json")):
            value = json.loads(record_file.read_text()).get("candidate")
            if not value or not PurePosixPath(value).is_absolute():
                continue
            new = _in_run(value, self.run_id) or _in_repository(value, old_root)
            if new is None:
                self.left.append(f"{record_file.relative_to(self.folder)}: candidate = {value}")
            else:
                self.changes[record_file] = _replace(record_file.read_text(), "candidate", value, new)
        self._scan()
        return self

    def _scan(self) -> None:
        """Any other absolute path into the run folder (in a message, an event), as the files will read."""
        pattern = re.compile(r"(?<![\w./-])/[^\s\"'`]*/" + re.escape(self.run_id) + r"\b")
        for path in sorted(self.folder.rglob("*")):
            inside = path.relative_to(self.folder).parts
            if not path.is_file() or inside[0] in SKIPPED or path.name.startswith("checkpoints.sqlite"):
                continue
            try:
                text = self.changes.get(path) or path.read_text()
            except (UnicodeDecodeError, OSError):
                continue
            for match in dict.fromkeys(pattern.findall(text)):
                self.left.append(f"{path.relative_to(self.folder)}: {match}")


def run_folders(roots: list[Path]) -> list[Path]:
    folders = []
    for root in roots:
        if not root.is_dir():
            raise SystemExit(f"relativize_runs: {root} is not a folder of runs")
        folders += sorted(p.parent for p in root.glob("*/run.json"))
    return folders


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="*", type=Path, help=f"folders of runs (default: {EXAMPLES.relative_to(ROOT)})")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a path would change or stays")
    args = parser.parse_args(argv)
    plans = [RunPaths(folder).plan() for folder in run_folders(args.roots or [EXAMPLES])]
    changed = sum(len(p.changes) for p in plans)
    left = [f"{p.run_id}/{line}" for p in plans for line in p.left]
    if not args.check:
        for plan in plans:
            for path, text in plan.changes.items():
                path.write_text(text)
    verb = "would rewrite" if args.check else "rewrote"
    print(f"{len(plans)} run(s): {verb} {changed} file(s)" + (f"; {len(left)} absolute path(s) left:" if left else ""))
    for line in left:
        print(f"  {line}")
    return 1 if args.check and (changed or left) else 0


if __name__ == "__main__":
    sys.exit(main())
