"""`python -m agent ...` (the GPU host runs the CLI this way, without pip install)."""

import sys

from agent.cli import main

sys.exit(main())
