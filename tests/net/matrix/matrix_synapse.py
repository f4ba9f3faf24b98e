#!/usr/bin/env python3
"""matrix_synapse.py: the Matrix scenarios against a real Synapse 1.67, and the sit-down rush on both homeservers.

The stand-in homeserver (tests/lib/matrixlib.py) checks the bot against the
spec; this test runs the same kind of games against the real thing, built
from ../shared/synapse into build/synapse (tests/lib/synapselib.py), so that
what the stand-in gets wrong about Synapse cannot hide a bug. Scenarios:

  1 Synapse, limits lifted: four players, one deal; privacy over every
    direct room, m.direct, the requests all known endpoints;
  2 Synapse, limits lifted: a restart mid-deal: the table resumes, the deal
    ends, the device and the direct rooms are reused;
  3 Synapse at its DEFAULT limits (rc_message 0.2 a second after a burst
    of 10): four people sit down within a second of each other, start at
    once and play at 3 s a move (MX_THINK) in a brief room, as people in
    such a room would, the first deal of a match (MX_SYNAPSE_DEALS: `make
    test-long` plays three; Synapse's own limit cannot be sped up). Checks: every `!sit` answered, every deal ends (no
    lock-up), no empty room left behind (Synapse's own database), no
    command waiting more than 10 s for its answer, privacy clean in each
    deal. Figures: 429s, events, waits;
  5 Synapse, limits lifted: six-player 304 (tests/net/matrix/matrix_six.py's first
    scenario: three people and three computer players, `!new 304six`,
    bank scoring), a whole match to its end, with matrix_six's privacy
    and match checks over the room and every direct room;
  4 the stand-in at Synapse's limit, charging a room creation as Synapse
    does (one token, the room made, then the join's token): the same rush
    and one deal (at MX_BRIEF_SPEED, tests/net/matrix/matrix_brief.py). Runs wherever
    the test runs.

Each runs as its own test, so that they run side by side: this file runs
1 and 2, tests/net/matrix/matrix_synapse_limits.py 3, tests/net/matrix/matrix_rush.py 4 and
tests/net/matrix/matrix_synapse_six.py 5.

Where ../shared/synapse is missing (a checkout of one's own), 1-3 print
that they are skipped and why. Environment: CARDBOT, MX_ONLY, MX_THINK,
MX_SYNAPSE_DEALS, MX_BRIEF_SPEED, MX_VERBOSE=1, SYNAPSE_SRC.
Prints "matrix_synapse: N passed, M failed".
"""
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import play304lib  # noqa: E402
import matrix_brief  # noqa: E402
import matrix_game  # noqa: E402
import matrix_six  # noqa: E402
import sixlib  # noqa: E402
import synapselib  # noqa: E402
from matrix_game import Scenario, Restart, lines_of, pct  # noqa: E402

R = matrix_game.R
R.name = "matrix_synapse"
matrix_brief.R.name = "matrix_synapse"
SPEED = matrix_brief.SPEED
THINK = float(os.environ.get("MX_THINK", "3"))
DEALS = int(os.environ.get("MX_SYNAPSE_DEALS", "1"))
ANSWER_MAX = 10.0   # seconds a command may wait for its answer
ONLY = {int(x) for x in os.environ.get("MX_ONLY", "").split(",") if x.strip()}


class OnSynapse:
    """Mixed into a scenario: the homeserver is a real Synapse."""
    limits = "off"

    def make_hs(self):
        return synapselib.SynapseHomeserver(limits=self.limits).start()


class SynapseDeal(OnSynapse, Scenario):
    pass


class SynapseRestart(OnSynapse, Restart):
    pass


class Rush(matrix_brief.Brief):
    """Four people sit down within a second of each other and start at once
    (no pause for the bot's burst to come back), then play `deals` deals."""

    def __init__(self, *a, deals=1, **k):
        super().__init__(*a, **k)
        self.deals = deals

    def open_table(self):
        hs = self.hs
        n0 = len(hs.events)
        self.sit_waits = []
        cmds = [(self.humans[0], "!304")] + [(n, "!sit") for n in self.humans[1:]]
        t0 = time.time()
        for k, (n, text) in enumerate(cmds):
            # all four within a second
            time.sleep(max(0.0, t0 + 0.3 * k - time.time()))
            hs.say(self.ids[n], self.room, text)
        for k, (n, _) in enumerate(cmds, start=1):
            ok = self.wait_seg(lambda s, n=n, k=k: s.startswith("%s sits in seat %d" % (n, k)), 60, n0)
            if not ok:
                raise RuntimeError("%s's %s was never answered (a lock-up): %s" % (n, cmds[k - 1][1],
                                                                                 self.bot.log_tail(12)))
        # When each sit line came, after its command.
        for e in hs.bot_messages(self.botid, self.room, n0):
            for line in lines_of(e):
                for s in play304lib.segs(play304lib.strip_colours(line)):
                    for k, (n, _) in enumerate(cmds, start=1):
                        if s.startswith("%s sits in seat %d" % (n, k)):
                            self.sit_waits.append(e["t"] - (t0 + 0.3 * (k - 1)))
        for p in self.players.values():
            p.start()
        self.start_pos = len(hs.events)
        self.req0 = len(hs.requests)
        self.t_start = time.time()
        hs.say(self.ids[self.humans[0]], self.room, "!start")

    def deals_done(self):
        # A deal has ended when its end is said, or when the next one is
        # dealt (whatever way it ended).
        ends = starts = 0
        for s in self.room_segments(self.start_pos):
            if play304lib.END_RE.match(s) or play304lib.OTHER_END_RE.search(s):
                ends += 1
            elif play304lib.DEAL_RE.match(s):
                starts += 1
        return max(ends, starts - 1) >= self.deals

    def body(self):
        ok = self.hs.wait(self.deals_done, self.deal_timeout * self.deals)
        R.check(ok, "%d: %d deals did not end (a lock-up?): %s; players: %r; the room's last lines: %r" % (
            self.num, self.deals, self.bot.log_tail(12),
            {n: (p.deal, p.phase, p.turn, p.errors[:1]) for n, p in self.players.items()},
            self.room_segments(self.start_pos)[-8:]))
        self.t_end = time.time()

    def analyse(self):
        # Scenario's checks (m.direct, direct rooms private, the first
        # deal's privacy, figures), then the rush's own.
        Scenario.analyse(self)
        hs, bot, f = self.hs, self.botid, self.figures
        R.check(all(w <= ANSWER_MAX for w in self.sit_waits) and len(self.sit_waits) == len(self.humans),
                "%d: a !sit waited more than %.0f s for its answer: %r" % (self.num, ANSWER_MAX, self.sit_waits))
        empty = hs.empty_rooms(bot)
        R.check(not empty, "%d: the bot left %d empty rooms behind: %r" % (self.num, len(empty), empty[:3]))
        with hs.lock:
            evs = list(hs.events[self.start_pos:])
        # Privacy in every deal: from each deal's first room line on.
        dms = hs.direct_rooms(bot)
        starts = [e["pos"] for e in evs if e["type"] == "m.room.message" and e["sender"] == bot
                  and e["room_id"] == self.room and any(play304lib.DEAL_RE.match(s) for line in lines_of(e)
                                                        for s in play304lib.segs(play304lib.strip_colours(line)))]
        bounds = starts + [float("inf")]
        # A deal's first hands may be stored before its deal line (the
        # budget sends the room's line first, or not): the deal's private
        # lines begin after the previous deal's last room line.
        room_pos = [e["pos"] for e in evs if e["type"] == "m.room.message" and e["sender"] == bot
                    and e["room_id"] == self.room]
        for k, pos in enumerate(starts[:self.deals], start=1):
            first = pos
            if k > 1:
                before = [p for p in room_pos if p < pos]
                first = before[-1] + 1 if before else pos
            leaks, _ = self.privacy([e for e in evs if (first <= e["pos"] < bounds[k] and e["room_id"] != self.room)
                                     or pos <= e["pos"] < bounds[k]], dms)
            R.check(not leaks, "%d: privacy in deal %d: %s" % (self.num, k, leaks[:3]))
        R.check(len(starts) >= self.deals, "%d: %d deals began, not %d" % (self.num, len(starts), self.deals))
        # No command waited more than ANSWER_MAX for its answer: the bot's
        # next line in the room, or in the direct room of the one who spoke,
        # answers the latest command (in the room or in private; a move sent
        # privately is told in the room). A command followed by another
        # before the bot says anything had nothing due (a typed move the
        # room saw needs no echo).
        waits, last = [], None
        dm_of = {rid: u for u, rid in dms.items()}
        for e in evs:
            if e["type"] != "m.room.message":
                continue
            if e["sender"] != bot:
                body = e["content"].get("body", "")
                if (e["room_id"] == self.room and body.startswith("!")) or e["room_id"] in dm_of:
                    last = (e["t"], body, e["sender"])
            elif last is not None and (e["room_id"] == self.room or dm_of.get(e["room_id"]) == last[2]):
                waits.append((e["t"] - last[0], last[1], lines_of(e)[0][:60], e["t"] - self.t_start))
                last = None
        f["waits"] = [w[0] for w in waits]
        worst = max(waits) if waits else (-1, "", "", 0)
        R.check(waits and worst[0] <= ANSWER_MAX, "%d: a command waited %.1f s for its answer (more than %.0f): "
                "%r answered by %r, %.0f s into the game" % ((self.num,) + worst[:1] + (ANSWER_MAX,) + worst[1:]))
        refusals = [r for r in hs.requests[self.req0:] if r.get("user") == bot and r.get("status") == 429]
        f["refused"] = len(refusals)
        f["bot_sends"] = len([r for r in hs.requests if r.get("user") == bot and "/send/" in r["path"]])
        f["seconds"] = self.t_end - self.t_start
        log = self.bot.log_text()
        f["slow_told"] = log.count("the room is told")
        # (Scripted players who lose track under a slowed bot ask for their
        # hand, as people would; their refused moves are a figure here.)
        f["refused_moves"] = sum(len(p.refused) for p in self.players.values())

    def run(self):
        Scenario.run(self)
        f = self.figures
        if "waits" in f:
            print("    rush: %d deals in %.0f s; !sit answered in %s s; answers p50 %.1f s p99 %.1f s max %.1f s "
                  "over %d; %d of the bot's requests refused (429), %d sends in all; slow notices %d; "
                  "players' moves refused %d" % (
                      self.deals, f["seconds"], ", ".join("%.1f" % w for w in self.sit_waits),
                      pct(f["waits"], 50), pct(f["waits"], 99), max(f["waits"]), len(f["waits"]), f["refused"],
                      f["bot_sends"], f["slow_told"], f["refused_moves"]))
        if matrix_brief.VERBOSE:
            for n, p in getattr(self, "players", {}).items():
                print("    %s refused: %r; last actions: %r" % (n, p.refused, p.actions[-4:]))
            if f.get("refused_moves"):
                with self.hs.lock:
                    evs = list(self.hs.events[self.start_pos:])
                names = {u: n for n, u in self.ids.items()}
                for e in evs:
                    if e["type"] == "m.room.message":
                        where = "room" if e["room_id"] == self.room else "dm"
                        print("      %.2f %s %s: %r" % (e["t"], where, names.get(e["sender"], "BOT"),
                                                       e["content"].get("body", "")[:300]))


class SynapseRush(OnSynapse, Rush):
    limits = "default"


def six_on_synapse():
    """Scenario 5: matrix_six's first scenario on a real Synapse, then the
    same over every other table size (sixlib.SIZE_SCENARIOS: eight
    players); their checks count in this test's total."""
    six = matrix_six.R
    p0, f0 = six.passed, six.failed
    for base in [matrix_six.SCENARIOS[0]] + sixlib.SIZE_SCENARIOS:
        sc = dict(base, num=5, title="Synapse, limits lifted: 304 for %d, " % sixlib.SIZES[base.get("size", "six")]["seats"]
                  + base["title"] + ", a whole match")
        matrix_six.run(sc, make_hs=lambda: synapselib.SynapseHomeserver(limits="off").start())
    R.passed += six.passed - p0
    R.failed += six.failed - f0


def main(which=(1, 2), name="matrix_synapse"):
    R.name = matrix_brief.R.name = name
    if not os.path.exists(matrix_game.matrixlib.CARDBOT):
        print("%s: no cardbot binary at %s" % (name, matrix_game.matrixlib.CARDBOT))
        print("%s: 0 passed, 1 failed" % name)
        return 1
    t0 = time.time()
    real = {1, 2, 3, 5} & set(ONLY or which)
    why = synapselib.synapse_missing() if real else None
    if why:
        print("%s: scenarios %s (a real Synapse) skipped: %s" % (name, sorted(real), why))
    scs = []
    if not why:
        scs += [
            SynapseDeal(1, "Synapse, limits lifted: four players"),
            SynapseRestart(2, "Synapse, limits lifted: a restart mid-deal"),
            SynapseRush(3, "Synapse at its default limits: four sit down at once, %d deal%s at %.1f s a move" % (
                DEALS, "" if DEALS == 1 else "s", THINK), rate=(10, 0.2), think=THINK, deals=DEALS,
                deal_timeout=60 + 60 * THINK),
        ]
    scs.append(Rush(4, "the stand-in at Synapse's limit: four sit down at once, one deal at %.1f s a move" % (
        THINK / SPEED), rate=(10, 0.2 * SPEED), think=THINK / SPEED, deals=1, deal_timeout=60 + 60 * THINK / SPEED))
    for sc in scs:
        if sc.num in (ONLY or which):
            sc.run()
    if not why and 5 in (ONLY or which):
        six_on_synapse()
    print("  total %.1f s" % (time.time() - t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
