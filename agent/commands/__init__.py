"""The `agent` commands, a module each: its HELP line, `add_arguments(parser)` and `run(args) -> exit status`.

A command module imports only what its arguments need; what it runs is imported inside `run`, so that
`agent --help` and `agent runs` start without loading torch or a kernel library.
"""

# In the order `agent --help` lists them; a module's `_` is the command's `-` (bench_agent: `agent bench-agent`).
COMMANDS = (
    "optimize",
    "resume",
    "runs",
    "export",
    "adopt",
    "ui",
    "eval",
    "bench",
    "bench_agent",
    "env",
    "ops",
    "infer",
    "compare",
)
