#!/usr/bin/env python3
"""matrix_synapse_six.py: a whole six-player 304 match on a real Synapse with its limits lifted.

Scenario 5 of tests/net/matrix/matrix_synapse.py (see there; tests/net/matrix/matrix_six.py's
first scenario, with its privacy and match checks), on its own so that it
runs beside the other Synapse scenarios. Prints "matrix_synapse_six: N
passed, M failed".
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrix_synapse  # noqa: E402

if __name__ == "__main__":
    sys.exit(matrix_synapse.main(which=(5,), name="matrix_synapse_six"))
