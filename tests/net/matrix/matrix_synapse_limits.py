#!/usr/bin/env python3
"""matrix_synapse_limits.py: four people sit down at once and play at a human pace on a real Synapse at its default limits.

Scenario 3 of tests/net/matrix/matrix_synapse.py (see there), on its own so that it
runs beside the other Synapse scenarios: rc_message 0.2 a second after a
burst of 10, 3 s a move, the first deal of a match (MX_SYNAPSE_DEALS=3 in
`make test-long` plays three). Prints "matrix_synapse_limits: N passed,
M failed".
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrix_synapse  # noqa: E402

if __name__ == "__main__":
    sys.exit(matrix_synapse.main(which=(3,), name="matrix_synapse_limits"))
