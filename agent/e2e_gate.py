"""The loop's end-to-end gate (`agent optimize --e2e`): a version is committed only if the Llama
model's greedy tokens with it match the torch backend's (tools/llama/e2e.py runs the model).

Nothing is computed twice, so a resumed run redoes no model run: the torch reference tokens are kept
in the run folder (e2e_reference.json), each check beside its candidate (iterations/NNNN/e2e.json)
with the candidate's hash. The result also goes into the candidate's eval.json as an `e2e` stage, so
a version that changes the tokens is a failure at stage e2e wherever the loop's records are read: the
decision and its event, the attempts the policy sees, the reflection, the UI and the export.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ValidationError

from agent.config import RunConfig
from agent.state import LoopState
from tools.evaluator.decide import Decision, decide
from tools.evaluator.records import EvalRecord
from tools.llama.e2e import E2EResult, E2ESettings, TokenRun, check_tokens, reference_tokens
from tools.paths import sha256_file
from tools.runfolder import RunFolder, read_record

REFERENCE_FILE = "e2e_reference.json"


class ReferenceTokens(BaseModel):
    """e2e_reference.json: the torch run and the settings it was made with."""

    settings: E2ESettings
    run: TokenRun


def e2e_settings(config: RunConfig) -> E2ESettings:
    # The model runs on the run's device, in config.e2e_dtype (fp32 unless asked: see RunConfig).
    return E2ESettings(
        model=config.e2e_model,
        hf_config=config.e2e_config,
        prompt_len=config.e2e_prompt_len,
        max_new_tokens=config.e2e_new_tokens,
        device=config.evaluation.device,
        dtype=config.e2e_dtype,
        op=config.op,  # the model then calls the candidate's op wherever it can
        model_code=config.e2e_model_code,
    )


def _read(path: Path, model: type[BaseModel]):
    """A file written by an earlier attempt at this step, or None when there is none (or it is unreadable)."""
    try:
        return model.model_validate_json(path.read_text())
    except (OSError, ValidationError):
        return None


class E2EGate:
    def __init__(self, config: RunConfig, folder: RunFolder):
        self.config = config
        self.folder = folder
        self.settings = e2e_settings(config)

    def reference_ids(self) -> list[int]:
        """The torch tokens, from the run folder or computed once; raises ModelRunFailed if torch cannot run."""
        cached = _read(self.folder.path / REFERENCE_FILE, ReferenceTokens)
        if cached is not None and cached.settings == self.settings:
            return cached.run.generated_ids
        self.folder.event("e2e_reference_start", settings=self.settings.describe())
        run = reference_tokens(self.settings, self.config.evaluation.timeout_s)
        self.folder.write(
            REFERENCE_FILE, ReferenceTokens(settings=self.settings, run=run).model_dump_json(indent=1) + "\n"
        )
        self.folder.event("e2e_reference", tokens=run.generated_ids, seconds=run.seconds)
        return run.generated_ids

    def check(self, candidate: Path, iteration: int, index: int) -> E2EResult:
        """The check of one candidate, or its earlier result when the same file was checked already."""
        reference = self.reference_ids()
        path = self.folder.e2e(iteration, index)
        relative = path.relative_to(self.folder.path)
        cached = _read(path, E2EResult)
        if (
            cached is not None
            and cached.candidate_sha256 == sha256_file(candidate)
            and cached.settings == self.settings
            and cached.reference_ids == reference
        ):
            return cached
        self.folder.event("e2e_start", iteration=iteration, index=index)
        c = self.config
        result = check_tokens(c.op, c.backend, candidate, self.settings, reference, c.evaluation.timeout_s)
        self.folder.write(relative, result.model_dump_json(indent=1) + "\n")
        self.folder.event(
            "e2e_end",
            iteration=iteration,
            index=index,
            ok=result.ok,
            first_mismatch=result.first_mismatch,
            message=result.message,
            seconds=result.seconds,
        )
        return result

    def record(self, eval_path: Path, result: E2EResult) -> EvalRecord:
        """eval.json with the e2e stage added (or replaced: a resumed run may record it again); a failure fails it."""
        record = read_record(eval_path, required=True)
        record.stages = [s for s in record.stages if s.name != "e2e"] + [result.as_stage()]
        if not result.ok:
            record.status, record.failed_stage = "failed", "e2e"
            record.message = f"e2e: {result.message}"  # as tools/evaluate.py words a failed stage
        self.folder.rewrite_record(eval_path, record)
        return record

    def check_round(self, state: LoopState, records: list[EvalRecord], decisions: list[Decision]) -> None:
        """Checks a round's accepted candidates, fastest first, until one keeps the tokens; those that change
        them fail at stage e2e (their record and decision updated in place)."""
        accepted = [i for i, d in enumerate(decisions) if d.accepted]
        for i in sorted(accepted, key=lambda i: -(decisions[i].geomean_speedup or 0)):
            result = self.check(self.folder.locate(state.proposals[i].path), state.iteration, i)
            records[i] = self.record(self.folder.locate(state.results[i].eval), result)
            if result.ok:
                return  # the slower ones lose to this one anyway
            decisions[i] = decide(records[i], against_best=True)
