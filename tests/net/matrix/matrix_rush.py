#!/usr/bin/env python3
"""matrix_rush.py: four people sit down within a second of each other on the stand-in homeserver at Synapse's limit.

Scenario 4 of tests/net/matrix/matrix_synapse.py (see there), on its own so that it
runs beside the real-Synapse scenarios: tests/lib/matrixlib.py enforces
Synapse's default message limit on the bot and charges a room creation as
Synapse does (a token, the room made, then a token for the creator's join,
the room left behind empty when that one is missing). Four people type
`!304` and `!sit` within a second, `!start` at once, and play a brief deal
at 3 s a move (MX_THINK; MX_BRIEF_SPEED=k plays k times faster against a
limit k times higher). Checks: every `!sit` answered, the deal ends, no
empty room left behind, no command waiting more than 10 s for its answer,
privacy. Prints "matrix_rush: N passed, M failed".
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrix_synapse  # noqa: E402

if __name__ == "__main__":
    sys.exit(matrix_synapse.main(which=(4,), name="matrix_rush"))
