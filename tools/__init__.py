"""What the loop calls: evaluation (static check, compile, correctness, benchmark, profile), env, bench."""
