"""The evaluator: a trusted judge and untrusted runners (docs/judge_internals.md).

`evaluate()` is the entry point. The judge (this process) holds the op's spec, the fp32
reference, the seeds, the input generation, the comparison and the timing analysis; every piece
of candidate code runs in a runner process (`tools.evaluator.runner`) that the judge started,
confined and talks to over a socket pair, through buffers the judge owns.
"""
