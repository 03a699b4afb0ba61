"""What the judge's design rests on, measured on the GPU host before it was built (judge_design.md).

    python3 benchmarks/probes/judge_probe.py --json OUT.json

A parent (the judge's role) starts children (the runner's role) and records, as JSON:
- legacy CUDA IPC (torch.multiprocessing) into a child as root, as root in its own network
  namespace, and as another uid: which of them can map a shared tensor;
- CUDA VMM memory exported as a file descriptor (cuda-bindings) into a child of another uid in
  its own network namespace: mapped read-write and read-only, written, read back by the parent,
  and what a write to the read-only mapping does;
- the round trip go -> answer for a child that does nothing (µs);
- deferred work: the child queues copies into shared outputs and answers with or without
  synchronising (on its stream or a side stream); how long the parent's snapshot of the outputs
  takes after the answer, and whether the snapshot saw them complete;
- leftover work: how late a tiny parent kernel completes after the child left a long kernel
  running (GPU contexts of two processes take turns by time slices, never run at once);
- start-up: seconds from spawn to the child's first answer.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import pickle
import socket
import statistics
import struct
import subprocess
import sys
import time
import types

CLONE_NEWNET = 0x40000000
RUNNER_UID = 61001


def send(sock: socket.socket, obj, fds: list[int] | None = None) -> None:
    data = pickle.dumps(obj)
    payload = struct.pack("!Q", len(data)) + data
    if fds:
        socket.send_fds(sock, [payload[:1]], fds)
        payload = payload[1:]
    sock.sendall(payload)


def recv(sock: socket.socket, nfds: int = 0):
    header, fds = b"", []
    if nfds:
        first, fds, _flags, _addr = socket.recv_fds(sock, 1, nfds)
        header = first
    while len(header) < 8:
        chunk = sock.recv(8 - len(header))
        if not chunk:
            raise EOFError
        header += chunk
    (size,) = struct.unpack("!Q", header)
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(min(size - len(data), 1 << 20))
        if not chunk:
            raise EOFError
        data += chunk
    message = pickle.loads(bytes(data))
    return (message, fds) if nfds else message


def confine(mode: str) -> dict:
    facts = {"mode": mode, "uid_before": os.getuid()}
    if os.getuid() == 0 and "netns" in mode:
        facts["netns"] = ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWNET) == 0
    if os.getuid() == 0 and "uid" in mode:
        os.setgroups([])
        os.setgid(RUNNER_UID)
        os.setuid(RUNNER_UID)
    facts["uid_after"] = os.getuid()
    return facts


def vmm():
    from cuda.bindings import driver as cu

    return cu


def check(result) -> object:
    err, *rest = result if isinstance(result, tuple) else (result,)
    if int(err) != 0:
        raise RuntimeError(f"CUDA driver error {err}")
    return rest[0] if len(rest) == 1 else rest


def vmm_map(cu, handle: int, size: int, writable: bool) -> int:
    ptr = check(cu.cuMemAddressReserve(size, 0, 0, 0))
    check(cu.cuMemMap(ptr, size, 0, handle, 0))
    access = cu.CUmemAccessDesc()
    access.location.type = cu.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
    access.location.id = 0
    flags = cu.CUmemAccess_flags
    access.flags = flags.CU_MEM_ACCESS_FLAGS_PROT_READWRITE if writable else flags.CU_MEM_ACCESS_FLAGS_PROT_READ
    check(cu.cuMemSetAccess(ptr, size, [access], 1))
    return int(ptr)


def wrap(torch, ptr: int, nbytes: int):
    raw = types.SimpleNamespace(
        __cuda_array_interface__={"shape": (nbytes,), "typestr": "|u1", "data": (ptr, False), "version": 3}
    )
    return torch.as_tensor(raw, device="cuda")


def child(fd: int, mode: str) -> None:
    sock = socket.socket(fileno=fd)
    facts = confine(mode)
    import torch

    torch.zeros(1, device="cuda")
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1)
        facts["socket"] = "connected"
    except OSError as err:
        facts["socket"] = f"refused: {err}"
    send(sock, {"ready": facts})
    tensors = {}
    while True:
        msg = recv(sock)
        kind = msg["kind"]
        try:
            if kind == "share_legacy":
                fn, args = msg["reduced"]
                tensors[msg["name"]] = fn(*args)
                send(sock, {"ok": True})
            elif kind == "share_vmm":
                send(sock, {"ok": True, "ready_for_fd": True})
                _msg, fds = recv(sock, nfds=1)
                cu = vmm()
                handle = check(
                    cu.cuMemImportFromShareableHandle(
                        fds[0], cu.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
                    )
                )
                os.close(fds[0])
                ptr = vmm_map(cu, handle, msg["size"], msg["writable"])
                whole = wrap(torch, ptr, msg["size"])
                tensors[msg["name"]] = whole[: msg["nbytes"]].view(msg["shape"][0], -1)
                send(sock, {"ok": True})
            elif kind == "fill":
                tensors[msg["name"]].fill_(msg["value"])
                torch.cuda.synchronize()
                send(sock, {"ok": True})
            elif kind == "sum":
                send(sock, {"ok": True, "sum": int(tensors[msg["name"]].double().sum())})
            elif kind == "noop":
                send(sock, {"ok": True})
            elif kind == "copies":
                srcs, dsts = tensors["src"], tensors["dst"]
                stream = torch.cuda.Stream() if msg["side_stream"] else torch.cuda.current_stream()
                with torch.cuda.stream(stream):
                    for i in range(srcs.shape[0]):
                        dsts[i].copy_(srcs[i])
                if msg["sync"]:
                    torch.cuda.synchronize()
                send(sock, {"ok": True})
            elif kind == "hog":
                torch.cuda._sleep(int(msg["cycles"]))
                send(sock, {"ok": True})
            elif kind == "exit":
                return
        except Exception as err:  # reported, not hidden: this is a probe
            send(sock, {"ok": False, "error": f"{type(err).__name__}: {err}"[:300]})


class Child:
    def __init__(self, mode: str):
        self.sock, theirs = socket.socketpair()
        start = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(theirs.fileno()), "--mode", mode],
            pass_fds=[theirs.fileno()],
            env={**os.environ, "HOME": "/tmp"},
        )
        theirs.close()
        self.ready = recv(self.sock)["ready"]
        self.startup_s = time.perf_counter() - start

    def ask(self, msg, fds=None):
        send(self.sock, msg)
        reply = recv(self.sock)
        if fds is not None and reply.get("ready_for_fd"):
            send(self.sock, {}, fds)
            reply = recv(self.sock)
        return reply

    def close(self):
        try:
            send(self.sock, {"kind": "exit"})
            self.proc.wait(timeout=20)
        except Exception:
            self.proc.kill()


class Exported:
    """A VMM allocation of the parent's, mapped here and exportable as a file descriptor."""

    def __init__(self, torch, nbytes: int):
        cu = vmm()
        prop = cu.CUmemAllocationProp()
        prop.type = cu.CUmemAllocationType.CU_MEM_ALLOCATION_TYPE_PINNED
        prop.location.type = cu.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE
        prop.location.id = 0
        prop.requestedHandleTypes = cu.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
        granularity = check(
            cu.cuMemGetAllocationGranularity(prop, cu.CUmemAllocationGranularity_flags.CU_MEM_ALLOC_GRANULARITY_MINIMUM)
        )
        self.nbytes = nbytes
        self.size = -(-nbytes // granularity) * granularity
        self.handle = check(cu.cuMemCreate(self.size, prop, 0))
        self.ptr = vmm_map(cu, self.handle, self.size, True)
        self.tensor = wrap(torch, self.ptr, self.size)[:nbytes]

    def fd(self) -> int:
        cu = vmm()
        return int(
            check(
                cu.cuMemExportToShareableHandle(
                    self.handle, cu.CUmemAllocationHandleType.CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0
                )
            )
        )

    def share(self, child: Child, name: str, rows: int, writable: bool) -> dict:
        fd = self.fd()
        try:
            msg = {"kind": "share_vmm", "name": name, "size": self.size, "nbytes": self.nbytes}
            return child.ask({**msg, "shape": (rows,), "writable": writable}, fds=[fd])
        finally:
            os.close(fd)


def legacy(torch, mode: str) -> dict:
    from torch.multiprocessing.reductions import reduce_tensor

    child = Child(mode)
    pool = torch.cuda.MemPool()
    with torch.cuda.use_mem_pool(pool):
        shared = torch.zeros(1 << 20, dtype=torch.uint8, device="cuda")
    result = {"ready": child.ready, "startup_s": child.startup_s}
    result["share"] = child.ask({"kind": "share_legacy", "name": "t", "reduced": reduce_tensor(shared)})
    if result["share"].get("ok"):
        child.ask({"kind": "fill", "name": "t", "value": 5})
        torch.cuda.synchronize()
        result["parent_sees_write"] = int(shared[0]) == 5
    child.close()
    return result


def parent(out_path: str | None) -> None:
    import torch

    results: dict = {"torch": torch.__version__, "device": torch.cuda.get_device_name(), "uid": os.getuid()}
    try:
        import cuda.bindings

        results["cuda_bindings"] = cuda.bindings.__version__
    except ImportError as err:
        results["cuda_bindings"] = f"missing: {err}"
    results["legacy"] = {mode: legacy(torch, mode) for mode in ("root", "netns", "uid")}

    child = Child("uid+netns")
    results["vmm_child"] = {"ready": child.ready, "startup_s": child.startup_s}
    n, row = 16, 256 << 20
    src, dst = Exported(torch, n * row), Exported(torch, n * row)
    src.tensor.random_(0, 255)
    dst.tensor.zero_()
    torch.cuda.synchronize()
    results["vmm_share_ro"] = src.share(child, "src", n, writable=False)
    results["vmm_share_rw"] = dst.share(child, "dst", n, writable=True)
    results["vmm_child_fill"] = child.ask({"kind": "fill", "name": "dst", "value": 3})
    torch.cuda.synchronize()
    results["vmm_parent_sees_fill"] = bool((dst.tensor == 3).all())
    results["vmm_child_reads_ro"] = child.ask({"kind": "sum", "name": "src"}).get("sum") == int(
        src.tensor.double().sum()
    )

    samples = []
    for _ in range(300):
        start = time.perf_counter()
        child.ask({"kind": "noop"})
        samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()
    results["round_trip_us"] = {"median": statistics.median(samples), "p10": samples[30], "p90": samples[270]}

    snapshot = torch.empty_like(dst.tensor)
    copy_us = []
    for _ in range(5):
        torch.cuda.synchronize()
        start = time.perf_counter()
        snapshot.copy_(dst.tensor)
        torch.cuda.synchronize()
        copy_us.append((time.perf_counter() - start) * 1e6)
    results["snapshot_quiet_us"] = statistics.median(copy_us)
    deferred = {}
    for label, sync, side in (("honest", True, False), ("no_sync", False, False), ("side_stream", False, True)):
        rows = []
        for _ in range(5):
            dst.tensor.zero_()
            torch.cuda.synchronize()
            go = time.perf_counter()
            reply = child.ask({"kind": "copies", "sync": sync, "side_stream": side})
            answer = time.perf_counter()
            snapshot.copy_(dst.tensor)
            torch.cuda.synchronize()
            done = time.perf_counter()
            complete = bool(torch.equal(snapshot, src.tensor))
            time.sleep(0.05)
            rows.append(
                {
                    "ok": reply.get("ok"),
                    "go_answer_us": round((answer - go) * 1e6),
                    "answer_snapshot_us": round((done - answer) * 1e6),
                    "complete": complete,
                }
            )
        deferred[label] = rows
    results["deferred"] = deferred

    probe = torch.zeros(1, device="cuda")

    def probe_us():
        start = time.perf_counter()
        probe.add_(1)
        torch.cuda.synchronize()
        return (time.perf_counter() - start) * 1e6

    results["probe_quiet_us"] = statistics.median([probe_us() for _ in range(50)])
    child.ask({"kind": "hog", "cycles": 100_000_000})  # ~50 ms at 2 GHz
    results["probe_after_hog_us"] = [round(probe_us()) for _ in range(5)]
    child.close()

    # A write through the read-only mapping, in a child of its own (it may take the context down).
    child = Child("uid+netns")
    ro = Exported(torch, 1 << 21)
    ro.tensor.zero_()
    torch.cuda.synchronize()
    ro.share(child, "ro", 1, writable=False)
    results["write_to_read_only"] = child.ask({"kind": "fill", "name": "ro", "value": 9})
    torch.cuda.synchronize()
    results["read_only_untouched"] = bool((ro.tensor == 0).all())
    child.close()

    text = json.dumps(results, indent=1, default=str)
    print(text)
    if out_path:
        with open(out_path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", type=int)
    parser.add_argument("--mode", default="uid+netns")
    parser.add_argument("--json")
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.mode)
    else:
        parent(args.json)
