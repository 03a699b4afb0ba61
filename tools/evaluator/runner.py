"""The untrusted side of an evaluation: one process that imports one contestant and calls it.

    python -m tools.evaluator.runner --fd N --contestant JSON --device cuda [confinement options]

Started by the judge (tools/evaluator/judge.py) with one end of a socket pair. It confines itself
first (tools/evaluator/confine.py: standard library only), imports torch and the contestant (a
kernel file, or one of the trusted baselines of tools/evaluator/contestants.py), says hello, and
then serves the judge's requests: map the judge's buffers, build call plans over them, run a plan
back to back (the eager scope), capture and replay it as a CUDA graph (the graph scope), report
generated source. Nothing it says is believed: the judge times it with its own clock, stops it
between requests and checks every output in its own copies. Everything here is therefore written
for clarity, not defence: a candidate in this process can change any of it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import socket
import sys
import time
import traceback
import types
from concurrent.futures import ThreadPoolExecutor

from tools.evaluator import confine, wire

MAX_SOURCE_CHARS = 4 * 2**20


def _error(err: BaseException) -> str:
    text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return "\n".join(lines[-12:])[-3000:]


def load_contestant(contestant: dict):
    """({name: function}, module or None) for a contestant description (a file, or trusted built-ins)."""
    if contestant["kind"] == "file":
        name = contestant.get("module") or "kernel_under_test"
        spec = importlib.util.spec_from_file_location(name, contestant["path"])
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {contestant['path']} as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        from workbench import alias_old_kernel_imports

        alias_old_kernel_imports()  # a kernel file written before the rename imports kernels.<module>
        spec.loader.exec_module(module)
        fn = getattr(module, contestant["op"], None)
        if not callable(fn):
            raise AttributeError(f"{contestant['path']} defines no function {contestant['op']}()")
        return {"main": fn}, module
    from tools.evaluator.contestants import builtin

    device = contestant.get("device", "cpu")
    return {name: builtin(name, contestant["op"], device) for name in contestant["names"]}, None


def _forget_harness() -> None:
    """What a user's process would not show: the evaluator's modules and this file as `__main__`.

    Their objects stay alive here (this module's functions keep their globals); `import __main__` now
    finds an empty module, as in an interactive session.
    """
    for name in [n for n in sys.modules if n == "tools" or n.startswith("tools.")]:
        del sys.modules[name]
    sys.modules["__main__"] = types.ModuleType("__main__")


def _describe(value) -> str:
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__} of {len(value)}"
    return type(value).__name__


class Plan:
    """Calls over views of mapped arenas: `calls[i]` is (args, out) for `fn(*args, out=out)`."""

    def __init__(self, fn, calls: list[tuple[tuple, object]]):
        self.fn = fn
        self.calls = calls
        self.graph = None
        self.graph_calls = 0
        self.kept: list | None = None  # a Delivered yardstick's results of its last eager batch
        self.graph_results: list | None = None  # and of its graph's calls


class Server:
    def __init__(self, sock: socket.socket, fns: dict, module, device, torch, buffers):
        self.sock = sock
        self.buffers = buffers
        self.fns = fns
        self.module = module
        self.torch = torch
        self.device = device
        self.cuda = device.type == "cuda"
        self.arenas: dict[int, tuple[object, object]] = {}
        self.plans: dict[int, Plan] = {}

    # -- plumbing ------------------------------------------------------------------------------

    def reply(self, **fields) -> None:
        wire.send(self.sock, {"ok": True, **fields})

    def fail(self, err: BaseException | str, **fields) -> None:
        wire.send(self.sock, {"ok": False, "error": err if isinstance(err, str) else _error(err), **fields})

    def sync(self) -> None:
        if self.cuda:
            self.torch.cuda.synchronize()

    def serve(self) -> None:
        handlers = {
            "map": self.on_map,
            "plan": self.on_plan,
            "warmup": self.on_warmup,
            "prepare": self.on_prepare,
            "run": self.on_run,
            "deliver": self.on_deliver,
            "capture": self.on_capture,
            "replay": self.on_replay,
            "drop": self.on_drop,
            "fresh": self.on_fresh,
            "sources": lambda message: on_sources(self, message),
            "lower": lambda message: on_lower(self, message),
            "profile": lambda message: on_profile(self, message),
        }
        while True:
            try:
                message, _ = wire.receive(self.sock)
            except wire.WireError:
                return  # the judge went away
            kind = message.get("op")
            if kind == "exit":
                return
            handler = handlers.get(kind)
            if handler is None:
                self.fail(f"unknown request {kind!r}")
                continue
            try:
                handler(message)
            except BaseException as err:  # the candidate raised: say so, keep serving
                self.fail(err)

    # -- requests ------------------------------------------------------------------------------

    def on_map(self, message: dict) -> None:
        _, fds = wire.receive(self.sock, fds=1)
        tensor, keep = self.buffers.map_shared(fds[0], message["arena"], self.device)
        self.arenas[int(message["id"])] = (tensor, keep)
        self.reply()

    def on_plan(self, message: dict) -> None:
        count = int(message["count"])

        def columns(entries: list[dict]) -> list:
            """Per argument: its `count` views (one per set), or its scalar repeated."""
            out = []
            for entry in entries:
                if "t" in entry:
                    spec = self.buffers.TensorSpec.from_json(entry["t"])
                    views = self.buffers.set_views(self.arenas[spec.arena][0], spec, int(entry["t"]["stride"]), count)
                    out.append(views)
                else:
                    out.append([entry["v"]] * count)
            return out

        args, outs = columns(message["args"]), columns(message["outs"])
        calls = []
        for i in range(count):
            these = tuple(column[i] for column in outs)
            out = these if message.get("multi") else (these[0] if these else None)
            calls.append((tuple(column[i] for column in args), out))
        self.plans[int(message["id"])] = Plan(self.fns[message.get("fn", "main")], calls)
        self.reply()

    @staticmethod
    def call(fn, args: tuple, out) -> bool:
        result = fn(*args, out=out)
        Server.last_result = result
        if isinstance(out, tuple):
            return (
                isinstance(result, (tuple, list))
                and len(result) == len(out)
                and all(
                    r is o or (hasattr(r, "data_ptr") and r.data_ptr() == o.data_ptr())
                    for r, o in zip(result, out, strict=True)
                )
            )
        return out is None or result is out or (hasattr(result, "data_ptr") and result.data_ptr() == out.data_ptr())

    def on_warmup(self, message: dict) -> None:
        """First calls of each plan (the JIT compiles here); groups of plans may run on threads."""
        groups = [[int(p) for p in group] for group in message["groups"]]
        seconds: dict[str, float] = {}
        errors: dict[str, str] = {}

        def run(group: list[int]) -> None:
            for plan_id in group:
                start = time.perf_counter()
                try:
                    plan = self.plans[plan_id]
                    for args, out in plan.calls[:1]:
                        self.call(plan.fn, args, out)
                    self.sync()
                except Exception as err:  # reported for this plan; the judge fails the stage
                    errors[str(plan_id)] = _error(err)
                seconds[str(plan_id)] = time.perf_counter() - start

        threads = int(message.get("threads", 1))
        if threads > 1 and len(groups) > 1:
            with ThreadPoolExecutor(min(threads, len(groups)), thread_name_prefix="first-call") as pool:
                list(pool.map(run, groups))
            # A failure on a thread is re-run alone, so its error is the plan's own and not a race.
            retry = [int(p) for p in errors]
            for plan_id in retry:
                errors.pop(str(plan_id))
            run(retry)
        else:
            for group in groups:
                run(group)
        self.reply(seconds=seconds, errors=errors)

    def on_prepare(self, message: dict) -> None:
        """Untimed, before a batch: a trusted contestant's preparation from the inputs' current values (Liger's)."""
        plan = self.plans[int(message["plan"])]
        prepare = getattr(plan.fn, "prepare", None)
        if prepare is not None:
            for args, _ in plan.calls[: int(message.get("count", len(plan.calls)))]:
                prepare(*args)
            self.sync()
        self.reply()

    def on_run(self, message: dict) -> None:
        plan = self.plans[int(message["plan"])]
        calls = plan.calls[: int(message.get("count", len(plan.calls)))]
        events = None
        if self.cuda and message.get("self_time"):
            events = (self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True))
            events[0].record()
        returned = True
        fn, call = plan.fn, self.call
        if message.get("keep"):  # a Delivered yardstick: results reach `out` in `deliver`, after the clock
            compute = fn.compute
            plan.kept = [compute(*args) for args, _ in calls]
        else:
            for args, out in calls:
                returned &= call(fn, args, out)
        if events:
            events[1].record()
        self.sync()
        self_us = events[0].elapsed_time(events[1]) * 1e3 / max(len(calls), 1) if events else None
        self.reply(returned_out=returned, self_us=self_us, returned=_describe(getattr(Server, "last_result", None)))

    def on_fresh(self, message: dict) -> None:
        """Calls of a plan on tensors allocated as a model allocates them; their results copied into the plan's `out`.

        In order, so a chained plan stays chained: call i+1's input is read after call i's result is back
        in the arena. `strided`: each tensor argument is a view with a gap between rows (a slice of a wider
        allocation), as a model's views of a fused projection are; a call may refuse it with the TypeError
        or ValueError the op's checks raise (reported in `refused`), or must compute it right.
        """
        torch = self.torch
        plan = self.plans[int(message["plan"])]
        strided = bool(message.get("strided"))
        refused: dict[str, str] = {}

        def allocate(t):
            if not isinstance(t, torch.Tensor):
                return t
            if not strided or t.dim() == 0:
                fresh = torch.empty(t.shape, dtype=t.dtype, device=t.device)
            elif t.dim() == 1:
                fresh = torch.empty(2 * t.shape[0], dtype=t.dtype, device=t.device)[::2]
            else:
                wider = torch.empty((*t.shape[:-1], t.shape[-1] + 8), dtype=t.dtype, device=t.device)
                fresh = wider[..., : t.shape[-1]]
            fresh.copy_(t)
            return fresh

        def empty(o):
            return torch.full(o.shape, float("nan"), dtype=o.dtype, device=o.device)

        for index in message["calls"]:
            args, out = plan.calls[int(index)]
            fresh_args = tuple(allocate(a) for a in args)
            fresh_out = tuple(empty(o) for o in out) if isinstance(out, tuple) else empty(out)
            try:
                plan.fn(*fresh_args, out=fresh_out)
            except (TypeError, ValueError) as err:
                if not strided:
                    raise
                refused[str(index)] = str(err)[:300]
                continue
            self.sync()
            for theirs, ours in zip(
                out if isinstance(out, tuple) else (out,),
                fresh_out if isinstance(out, tuple) else (fresh_out,),
                strict=True,
            ):
                theirs.copy_(ours)
            self.sync()
        self.reply(refused=refused)

    def on_capture(self, message: dict) -> None:
        torch = self.torch
        plan = self.plans[int(message["plan"])]
        calls = plan.calls[: int(message.get("count", len(plan.calls)))]
        keep = bool(message.get("keep"))  # a Delivered yardstick: the graph computes, `deliver` writes `out`

        def step(args, out):
            return plan.fn.compute(*args) if keep else self.call(plan.fn, args, out)

        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for args, out in calls[:3]:  # warm-up outside the capture (JIT, allocator)
                step(args, out)
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            results = [step(args, out) for args, out in calls]
        torch.cuda.synchronize()
        plan.graph, plan.graph_calls = graph, len(calls)
        plan.graph_results = results if keep else None  # the graph's own memory: each replay rewrites it
        self.reply()

    def on_replay(self, message: dict) -> None:
        plan = self.plans[int(message["plan"])]
        events = None
        if message.get("self_time"):  # sizing only: the judge never decides on a runner's own clock
            events = (self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True))
            events[0].record()
        plan.graph.replay()
        if events:
            events[1].record()
        self.sync()
        self_us = events[0].elapsed_time(events[1]) * 1e3 / max(plan.graph_calls, 1) if events else None
        self.reply(self_us=self_us)

    def on_deliver(self, message: dict) -> None:
        """Untimed, after a Delivered yardstick's batch: its kept results (or its graph's) into the judge's `out`."""
        plan = self.plans[int(message["plan"])]
        results = plan.graph_results if message.get("scope") == "graph" else plan.kept
        for (_, out), result in zip(plan.calls, results or [], strict=False):
            plan.fn.deliver(result, out)
        plan.kept = None
        self.sync()
        self.reply()

    def on_drop(self, message: dict) -> None:
        for plan_id in message.get("plans", []):
            self.plans.pop(int(plan_id), None)
        self.sync()
        for arena_id in message.get("arenas", []):
            entry = self.arenas.pop(int(arena_id), None)
            if entry is not None:
                tensor, keep = entry
                del tensor
                self.buffers.unmap_shared(keep)
        if self.cuda:
            # Cached blocks of this shape's calls back to the driver: the judge's next arenas come from there.
            self.torch.cuda.empty_cache()
        self.reply()


# -- diagnosis: requests that time nothing and decide nothing (the compile stage's sources, the profile stage,
# TileLang's lowering without a GPU), apart from the timed ones of Server


def on_sources(server: Server, message: dict) -> None:
    generated = getattr(server.module, "generated_source", None)
    sources = {}
    if callable(generated):
        total = 0
        for key, text in generated().items():
            total += len(text)
            if total > MAX_SOURCE_CHARS:
                break
            sources[str(key)] = str(text)
    server.reply(sources=sources)


def on_profile(server: Server, message: dict) -> None:
    """Under a profiler: per plan one warm call, then one call between profiler start and stop, after a marker."""
    torch = server.torch
    marker = torch.zeros(1, dtype=torch.int32, device=server.device)
    for i, plan_id in enumerate(message["plans"]):
        plan = server.plans[int(plan_id)]
        args, out = _on_device(server, *plan.calls[0])
        server.call(plan.fn, args, out)  # JIT and first touch outside the profiled range
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        marker.fill_(i)  # separates this plan's kernels from the previous one's
        server.call(plan.fn, args, out)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    server.reply()


def _on_device(server: Server, args: tuple, out):
    """Host-arena views (the profile stage's) copied into this process's own device memory."""
    torch = server.torch

    def moved(t):
        return t.to(server.device) if isinstance(t, torch.Tensor) and t.device.type != server.device.type else t

    def fresh(t):
        return torch.empty_like(t, device=server.device) if t.device.type != server.device.type else t

    args = tuple(moved(a) for a in args)
    if isinstance(out, tuple):
        return args, tuple(fresh(o) for o in out)
    return args, (fresh(out) if out is not None else None)


def on_lower(server: Server, message: dict) -> None:
    """TileLang without a GPU: the kernel file's programs lowered to CUDA source."""
    from workbench.kernels.spec import parse_dtype
    from workbench.kernels.tilelang_support import lower_to_source

    programs: dict[str, str] = {}
    for dims, dtype in message["cases"]:
        program = server.module.program(tuple(dims), parse_dtype(dtype))
        key = program.script()
        if key not in programs:
            programs[key] = lower_to_source(program)
    server.reply(sources={f"program {i}": text for i, text in enumerate(programs.values())})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.evaluator.runner")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--contestant", required=True)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--target", default="auto")
    confine.add_arguments(parser)
    args = parser.parse_args(argv)
    sock = socket.socket(fileno=args.fd)
    facts = confine.enter_from(args)
    sys.argv = [""]  # what a user's interactive process shows: nothing that names the evaluator
    contestant = json.loads(args.contestant)
    start = time.perf_counter()
    try:
        import torch

        device = torch.device(args.device)
        if device.type == "cpu":  # chained outputs decay into subnormals, which the CPU computes in microcode
            torch.set_flush_denormal(True)
        if device.type == "cuda":
            torch.cuda.init()
            torch.zeros(1, device=device)
        from workbench.kernels import target as targets

        os.environ[targets.TARGET_ENV] = targets.resolve(args.target).name  # for the kernel file's compile
        from tools.evaluator import buffers

        _forget_harness()  # before the contestant runs a line: what it sees at import is a user's process
        fns, module = load_contestant(contestant)
    except BaseException as err:  # the import failed: that is the compile stage's verdict
        wire.send(sock, {"ok": False, "error": _error(err), "facts": facts})
        return 0
    import_seconds = time.perf_counter() - start
    _forget_harness()
    wire.send(sock, {"ok": True, "import_seconds": import_seconds, "facts": facts})
    Server(sock, fns, module, device, torch, buffers).serve()
    os._exit(0)  # skip interpreter teardown: the judge is done with this process


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
