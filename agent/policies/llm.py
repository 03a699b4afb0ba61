"""The `llm` policy: asks any OpenAI-compatible chat endpoint for whole kernel files.

Each proposal is one conversation: the system and propose prompts (rendered from
`prompts/`), then the model's reply. The reply must hold exactly one whole kernel
file in a ```python block that parses and defines the op's entry point with an
`out` parameter; otherwise the model is told what was wrong, in the same
conversation, at most `max_reasks` times (counted in `Proposal.reasks`).

A proposal's prompt carries the earlier iterations within a token budget (agent/policies/history.py):
a table of every attempt, the reflections, the failure lines and the latest diffs, the oldest cut first.

Transport failures (429, 5xx, timeouts, refused connections) are retried by the
openai client itself, with exponential backoff, `max_retries` times; after that a
RuntimeError names the endpoint and the last error, and the loop records it.
"""

from __future__ import annotations

import ast
import logging
import os
import re
from dataclasses import dataclass

import openai

import prompts
from agent.policies import history
from agent.policies.base import Attempt, Proposal, ProposalContext, Reflection, ReflectionContext

log = logging.getLogger(__name__)

# Writing a whole kernel file can take a reasoning model minutes; a hung connection must still end.
DEFAULT_TIMEOUT_S = 300.0
# The reflection prompt lists this many recent attempts; a proposal's history has its own budget
# (agent/policies/history.py, RunConfig.history_tokens).
MAX_ATTEMPTS_SHOWN = 10
REFLECTION_DIFF_LINES = 120  # the reflected attempt's diff, its head beyond this
RATIONALE_MAX_CHARS = 300

# A closed fenced block: the info string (language tag) and the body.
_FENCE = re.compile(r"^[ \t]*```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)^[ \t]*```[ \t]*$", re.MULTILINE | re.DOTALL)
_FENCE_LINE = re.compile(r"^[ \t]*```", re.MULTILINE)
_PYTHON_TAGS = frozenset({"", "python", "py", "python3"})
# "Rationale: ...", also as "**Rationale:** ..." or "- Rationale: ...".
_RATIONALE = re.compile(r"^[\s>*_#-]*rationale[\s*_]*:[\s*_]*(.+?)[\s*_]*$", re.IGNORECASE | re.MULTILINE)
# HTTP statuses the openai client retries by itself (see its `_should_retry`).
_RETRIED_STATUSES = frozenset({408, 409, 429})

USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


@dataclass(frozen=True)
class Extraction:
    """What a reply yields: the kernel file, a one-line rationale, and why it is unusable (None if usable)."""

    source: str
    rationale: str
    problem: str | None


@dataclass(frozen=True)
class _Reply:
    text: str
    finish_reason: str | None
    usage: dict | None
    model: str


def entry_signature(source: str, op: str) -> str:
    """The `def op(...)` line of the current best file, as the reply format demands it."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        tree = None
    for node in tree.body if tree else []:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == op:
            return f"def {op}({ast.unparse(node.args)})"
    return f"def {op}(..., *, out=None)"


def kernel_problem(source: str, op: str) -> str | None:
    """Why `source` cannot be a kernel file for `op` (syntax, entry point, `out`), or None."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        return f"the code does not parse: line {err.lineno}: {err.msg}"
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == op:
            params = {a.arg for a in node.args.args + node.args.kwonlyargs}
            if "out" not in params:
                return f"`{op}()` has no `out` parameter; the entry point must write into `out=` and return it"
            return None
    return f"the code defines no top-level function `{op}`; the file's entry point is `def {op}(..., *, out=None)`"


def _first_sentence(text: str) -> str:
    for line in text.splitlines():
        line = re.sub(r"\*\*|__", "", line).strip().lstrip("#>*- ")  # markdown emphasis, headings, bullets
        if line:
            return re.split(r"(?<=[.!?])\s+", line, maxsplit=1)[0]
    return ""


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= RATIONALE_MAX_CHARS else text[: RATIONALE_MAX_CHARS - 1] + "…"


def extract_reply(text: str, op: str, *, truncated: bool = False) -> Extraction:
    """The kernel file and rationale in a reply; `truncated` means the server cut the reply at its token limit."""
    blocks = [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)]
    outside = _FENCE.sub("", text)
    unclosed = _FENCE_LINE.search(outside)
    if unclosed:  # everything after an unclosed fence is code, not prose
        outside = outside[: unclosed.start()]
    found = _RATIONALE.search(outside)
    rationale = _one_line(found.group(1) if found else _first_sentence(outside)) or "(no rationale given)"

    candidates = [body for tag, body in blocks if tag in _PYTHON_TAGS]
    valid = [body for body in candidates if kernel_problem(body, op) is None]
    if valid:
        return Extraction(max(valid, key=len), rationale, None)
    cut = " The reply was cut off at the server's token limit: leave out explanations." if truncated else ""
    if candidates:
        longest = max(candidates, key=len)
        return Extraction(longest, rationale, f"{kernel_problem(longest, op)}.{cut}")
    if unclosed:
        problem = f"the ```python block is never closed, so the file is incomplete.{cut}"
    elif not text.strip():
        problem = "the reply was empty."
    elif blocks:
        tags = ", ".join(sorted({tag or "(none)" for tag, _ in blocks}))
        problem = f"the reply has no ```python block (its code blocks are tagged {tags})."
    else:
        problem = "the reply has no fenced code block; the whole kernel file must be inside one ```python block."
    return Extraction("", rationale, problem)


def _usage(response: object) -> dict | None:
    usage = getattr(response, "usage", None)
    if usage is None:
        return None
    return {key: int(getattr(usage, key, 0) or 0) for key in USAGE_KEYS}


def _add_usage(total: dict | None, more: dict | None) -> dict | None:
    if more is None:
        return total
    if total is None:
        return dict(more)
    return {key: total[key] + more[key] for key in USAGE_KEYS}


def _as_markdown(messages: list[dict]) -> str:
    """The conversation as sent, one section per message, for the run log and the export."""
    return "\n\n".join(f"## {m['role']}\n\n{m['content'].strip()}" for m in messages) + "\n"


def _conversation(op: str, backend: str, template: str, **values: object) -> list[dict]:
    """The messages of one exchange, proposal or reflection alike: the system prompt, then `template` rendered."""
    return [
        {"role": "system", "content": prompts.render("system.md.j2", op=op, backend=backend)},
        {"role": "user", "content": prompts.render(template, op=op, backend=backend, **values)},
    ]


def _clip_diff(diff: str) -> str:
    """A diff for the reflection prompt: whole up to REFLECTION_DIFF_LINES lines, then its head only."""
    lines = diff.splitlines()
    if len(lines) <= REFLECTION_DIFF_LINES:
        return diff
    return "\n".join([*lines[:REFLECTION_DIFF_LINES], f"... ({len(lines) - REFLECTION_DIFF_LINES} more lines)"])


class LLMPolicy:
    """Proposes kernel files and reflections through an OpenAI-compatible chat-completions endpoint."""

    name = "llm"

    def __init__(
        self,
        model: str | None = None,
        client: openai.OpenAI | None = None,
        *,
        max_reasks: int = 2,
        max_retries: int = 4,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> None:
        model = model or os.environ.get("OPENAI_MODEL")
        if not model:
            raise ValueError("the llm policy needs a model name: pass --model (or set OPENAI_MODEL)")
        if max_reasks < 0 or max_retries < 0:
            raise ValueError(f"max_reasks and max_retries must be >= 0, not {max_reasks} and {max_retries}")
        if client is None:
            api_key = api_key or os.environ.get("OPENAI_API_KEY")
            if not api_key:
                raise ValueError(
                    "the llm policy needs OPENAI_API_KEY (any non-empty value for a server that does not check keys)"
                )
            client = openai.OpenAI(
                base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
                api_key=api_key,
                max_retries=max_retries,
                timeout=timeout,
            )
        self.model = model
        self.client = client
        self.max_reasks = max_reasks
        # Sent only when set: some OpenAI-compatible servers reject parameters they do not know.
        self._options: dict = {}
        if temperature is not None:
            self._options["temperature"] = temperature
        if max_tokens is not None:
            self._options["max_tokens"] = max_tokens

    @property
    def endpoint(self) -> str:
        return str(self.client.base_url)

    def propose(self, context: ProposalContext) -> list[Proposal]:
        """`context.k` proposals, each from its own conversation; later ones are told what earlier ones try."""
        if context.k < 1:
            raise ValueError(f"k must be at least 1, not {context.k}")
        proposals: list[Proposal] = []
        for candidate in range(1, context.k + 1):
            proposals.append(self._propose_one(context, candidate, [p.rationale for p in proposals]))
        return proposals

    def reflect(self, context: ReflectionContext) -> Reflection:
        messages = _conversation(
            context.op,
            context.backend,
            "reflect.md.j2",
            iteration=context.iteration,
            rationale=context.rationale,
            outcome=context.outcome,
            message=context.message,
            summary=context.summary,
            failure=context.failure,
            diff=_clip_diff(context.diff),
            attempts=self._recent(context.attempts),
        )
        reply = self._chat(messages)
        return Reflection(
            text=reply.text.strip() or "(the model gave an empty reflection)",
            prompt=_as_markdown(messages),
            response=reply.text,
            model=reply.model,
            usage=reply.usage,
        )

    def _propose_one(self, context: ProposalContext, candidate: int, siblings: list[str]) -> Proposal:
        fixed = {
            "op": context.op,
            "backend": context.backend,
            "signature": entry_signature(context.best_source, context.op),
        }
        messages = _conversation(
            context.op,
            context.backend,
            "propose.md.j2",
            signature=fixed["signature"],
            iteration=context.iteration,
            spec_text=context.spec_text,
            best_source=context.best_source,
            best_summary=context.best_summary,
            profile_summary=context.profile_summary,
            history=history.fit(context.attempts, context.diffs, context.history_tokens),
            guide=prompts.backend_guide(context.backend),
            hardware=context.hardware,
            k=context.k,
            candidate=candidate,
            siblings=siblings,
        )
        usage: dict | None = None
        reasks = 0
        while True:
            reply = self._chat(messages)
            usage = _add_usage(usage, reply.usage)
            extraction = extract_reply(reply.text, context.op, truncated=reply.finish_reason == "length")
            if extraction.problem is None or reasks == self.max_reasks:
                break
            reasks += 1
            log.info("llm reply for %s was malformed (%s); re-asking (%d)", context.op, extraction.problem, reasks)
            messages += [
                {"role": "assistant", "content": reply.text},
                {"role": "user", "content": prompts.render("reask.md.j2", reason=extraction.problem, **fixed)},
            ]
        rationale = extraction.rationale
        if extraction.problem is not None:
            # Still handed to the loop, so the failure is evaluated and recorded like any other.
            rationale = f"{rationale} [reply still malformed after {reasks} re-asks: {extraction.problem}]"
        return Proposal(
            source=extraction.source,
            rationale=rationale,
            prompt=_as_markdown(messages),
            response=reply.text,
            model=reply.model,
            usage=usage,
            reasks=reasks,
        )

    @staticmethod
    def _recent(attempts: list[Attempt]) -> list[Attempt]:
        return attempts[-MAX_ATTEMPTS_SHOWN:]

    def _chat(self, messages: list[dict]) -> _Reply:
        try:
            response = self.client.chat.completions.create(model=self.model, messages=messages, **self._options)
        except openai.APIStatusError as err:
            retried = err.status_code in _RETRIED_STATUSES or err.status_code >= 500
            after = f"after {self.client.max_retries} retries" if retried else "(not retried)"
            raise RuntimeError(
                f"chat endpoint {self.endpoint} failed {after} for model {self.model!r}: "
                f"HTTP {err.status_code}: {err.message}"
            ) from err
        except openai.APITimeoutError as err:
            raise RuntimeError(
                f"chat endpoint {self.endpoint} failed after {self.client.max_retries} retries for model "
                f"{self.model!r}: the request timed out ({self.client.timeout} s)"
            ) from err
        except openai.OpenAIError as err:  # connection refused/reset, unreadable response
            cause = f" ({err.__cause__})" if err.__cause__ else ""
            raise RuntimeError(
                f"chat endpoint {self.endpoint} failed after {self.client.max_retries} retries for model "
                f"{self.model!r}: {type(err).__name__}: {err}{cause}"
            ) from err
        choice = response.choices[0] if response.choices else None
        text = (choice.message.content if choice and choice.message else None) or ""
        usage = _usage(response)
        if usage:
            log.info(
                "llm %s: %d prompt + %d completion tokens",
                self.model,
                usage["prompt_tokens"],
                usage["completion_tokens"],
            )
        return _Reply(
            text=text,
            finish_reason=choice.finish_reason if choice else None,
            usage=usage,
            model=response.model or self.model,
        )
