#!/usr/bin/env python3
"""matrix_rate.py: a deal while the test homeserver enforces a send rate limit.

Scenario 4 of tests/net/matrix/matrix_game.py (see there), on its own so that each test
stays short: four scripted players, the homeserver answers the bot's sends
beyond the limit with 429 and retry_after_ms; the deal must complete with
no message lost or doubled. MX_SYNAPSE_RATE=1 uses Synapse's default limit
(0.2 a second after a burst of 10) with players taking 3 s a move.
Prints "matrix_rate: N passed, M failed".
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrix_game  # noqa: E402

if __name__ == "__main__":
    os.environ["MX_ONLY"] = "4"
    matrix_game.ONLY = {4}
    sys.exit(matrix_game.main(skip=(), name="matrix_rate"))
