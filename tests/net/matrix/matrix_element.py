#!/usr/bin/env python3
"""matrix_element.py: the bot's encrypted rooms read by Element's client stack (issue 28), on a real Synapse.

The players are tests/lib/elementlib.py's: matrix-js-sdk 43 with its Rust
crypto (vodozemac), as Element Web uses it, in one Node process. On a
Synapse 1.67 with its rate limits lifted:

  ann (device 1) opens a table in an encrypted room, three computer players
  fill the other seats, and the match starts; ann plays her hand from her
  encrypted direct room. In deal 1, at moments the play decides:
    - sam joins the room when trick 2 is won,
    - tom joins at the bot's next line after sam's join (seconds later:
      inside the window in which the bot did not claim keys again),
    - ann logs in on a second device when the next trick is won,
    - uma joins when the trick after that is won;
  then play goes on until deal 2's first trick is won (or the match
  ends), and ann asks for `!table` (a line after everything).

Before the match, the bot's fallback key (spec v1.2): uma's client claims
the bot's one-time keys until Synapse hands out the fallback key, which
must be signed and marked (the bot is paused meanwhile with SIGSTOP, or it
would top its keys up as they go); the bot, let go, then publishes a new
one.

Checks: for each device (ann's two, sam's, tom's, uma's), every event the
bot sent (as the recording proxy saw its sends succeed) into a room of
that device's user after the bot's first /keys/query whose reply listed
the device came back reached
the device and was decrypted by it: 0 undecryptable, 0 missing; every
event the bot sent into the table room or ann's direct room was
m.room.encrypted. Figures: per device, events due, read, undecryptable;
the run's time.

Environment: CARDBOT, ELEMENT_FALLBACK=0 (leave the fallback key out: a
bot without one is unreachable after it, so the joins can be tried on
their own), MX_VERBOSE=1 (the bot's and the players' log tails on
failure are printed anyway). Prints "matrix_element: N passed, M failed" last.
"""
import os
import queue
import re
import signal
import sys
import threading
import time
import traceback
import urllib.parse

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import elementlib  # noqa: E402
import play304lib  # noqa: E402
import langlib  # noqa: E402
import matrixlib  # noqa: E402
import synapselib  # noqa: E402
from matrixlib import Bot, Results  # noqa: E402

NAME = "matrix_element"
R = Results(NAME)
VERBOSE = os.environ.get("MX_VERBOSE") == "1"
SEP = play304lib.SEP
FALLBACK = os.environ.get("ELEMENT_FALLBACK", "1") != "0"  # 0: the joins alone (e.g. on a bot without fallback keys)
MATCH_WON = langlib.template_re(langlib.text("en", "T_MATCH_WON"))
STEP_SECONDS = 120     # at most this long for any one moment of the play to come
SETTLE_SECONDS = 60    # for the last events to reach every device and be decrypted


def segments(rec):
    b = rec.get("body")
    out = []
    for line in (b.split("\n") if isinstance(b, str) else []):
        out.extend(x.strip() for x in line.split(SEP))
    return out


class Match:
    def __init__(self):
        self.t0 = time.time()
        self.tmp = matrixlib.tempdir()
        self.hs = None
        self.stack = None
        self.bot = None
        self.cmds = queue.Queue()
        self.table_segs = []      # (t, segment) of the bot's lines in the table room, as ann's first device read them
        self.answered = set()     # the bot's events with a hand ann has answered
        self.room = self.dm = None
        self.devices = {}         # player id -> user
        self.notes = []
        self.moves = []           # ann's commands, as sent

    # ---- what ann's first device reads ----
    def on_message(self, pid, rec):
        if pid != "ann" or rec["sender"] != self.botid or rec.get("utd"):
            return
        if rec["room"] == self.room:
            with self.stack.cond:
                self.table_segs.extend((rec["t"], s) for s in segments(rec))
            return
        # Every hand that says it is her turn is answered, even one that
        # reads as the last did (the bot asks again, e.g. a partner's "asks
        # ann to bid"); an answer to a stale copy is refused, harmlessly.
        for line in (rec.get("body") or "").split("\n"):
            h = langlib.parse_hand(line, "en")
            if h and h["turn"] and rec["event_id"] not in self.answered:
                self.answered.add(rec["event_id"])
                self.dm = rec["room"]
                self.cmds.put((rec["room"], langlib.decide(h, "304", True, False)))

    def play(self):
        """ann's moves, sent from her first device (not on the reader thread)."""
        while True:
            item = self.cmds.get()
            if item is None:
                return
            try:
                self.moves.append((round(time.time() - self.t0, 1), item[1]))
                self.ann.say(*item)
            except Exception:  # noqa: BLE001
                self.notes.append("a move of ann's failed: %s" % traceback.format_exc(limit=1))

    def wait_seg(self, pred, start, what):
        """Waits for a table line (from position start) for which pred holds; its position after it."""
        def find():
            for i in range(start, len(self.table_segs)):
                if pred(self.table_segs[i][1]):
                    return i + 1
            return None
        got = self.ann.wait_for(find, STEP_SECONDS)
        if not got:
            raise RuntimeError("%s never came; the bot: %s" % (what, self.bot.log_tail(6)))
        return got

    def login(self, pid, local):
        user = "@%s:%s" % (local, synapselib.SERVER_NAME)
        p = self.stack.login(pid, self.hs.hs_url, user, "pw", autojoin=[self.botid])
        self.devices[pid] = user
        return p

    # ---- the scenario ----
    def setup(self):
        why = synapselib.synapse_missing() or elementlib.element_missing()
        if why:
            raise RuntimeError(why)
        self.hs = synapselib.SynapseHomeserver(limits="off").start()
        self.botid = self.hs.add_user("cardbot", password="botpw")
        for n in ("ann", "sam", "tom", "uma"):
            self.hs.add_user(n, "pw", name=n)
        self.stack = elementlib.Stack(os.path.join(self.tmp, "element.log"), on_message=self.on_message).start()
        self.ann = self.login("ann", "ann")
        self.room = self.ann.create_room(invite=[self.botid], encrypted=True, alias="304")
        key = os.path.join(self.tmp, "pickle.key")
        with open(key, "w") as f:
            f.write(os.urandom(24).hex() + "\n")
        os.chmod(key, 0o600)
        self.bot = Bot(self.tmp, self.hs.url, self.botid, 'password = "botpw";',
                       tables='computer_level = "easy";\n  cut_offer_seconds = 0;',
                       extra='encryption = true;\n    pickle_key_file = "%s";' % key).start()
        if not self.hs.wait(lambda: self.hs.membership(self.botid, self.room) == "join", 60):
            raise RuntimeError("the bot did not accept the invitation: " + self.bot.log_tail())
        # ann's first message is encrypted for the devices her client knows
        # then: wait until it knows the bot's device.
        end = time.time() + 60
        while not self.ann.devices(self.botid):
            if time.time() > end:
                raise RuntimeError("ann's client never learnt the bot's device: " + self.bot.log_tail())
            self.ann.wait_for(lambda: False, 0.5)
        if FALLBACK:
            self.fallback()
        threading.Thread(target=self.play, daemon=True).start()

    def fallback(self):
        """The bot's fallback key: claims of its one-time keys (as uma, who
        plays no part yet) until Synapse hands out the fallback key, which
        must be signed and marked; then the bot's next upload carries a new
        one."""
        uma = "@uma:%s" % synapselib.SERVER_NAME
        tok = self.hs.users[uma]["token"]
        st, q = self.hs.api("POST", "/_matrix/client/v3/keys/query", {"device_keys": {self.botid: []}}, tok)
        devs = list(((q or {}).get("device_keys") or {}).get(self.botid, {}))
        if not R.check(st == 200 and len(devs) == 1, "one device of the bot's: %d %r" % (st, q)):
            return
        dev, got = devs[0], None
        # The bot is paused while its keys are claimed: a bot that runs
        # tops its one-time keys up as they go (as it should), and on a
        # busy machine it did so faster than the claims drained them.
        os.kill(self.bot.proc.pid, signal.SIGSTOP)
        try:
            for n in range(1, 301):
                st, c = self.hs.api("POST", "/_matrix/client/v3/keys/claim",
                                    {"one_time_keys": {self.botid: {dev: "signed_curve25519"}}}, tok)
                keys = ((c.get("one_time_keys") or {}).get(self.botid) or {}).get(dev) or {}
                kid, k = next(iter(keys.items()), (None, None))
                if st != 200 or not k:
                    break
                if k.get("fallback"):
                    got = (n, kid, k)
                    break
        finally:
            os.kill(self.bot.proc.pid, signal.SIGCONT)
        if not R.check(got, "Synapse never handed out a fallback key of the bot's (%d claims)" % n):
            return
        n, kid, k = got
        R.check(kid.startswith("signed_curve25519:") and (k.get("signatures") or {}).get(self.botid),
                "the bot's fallback key is not signed: %r" % k)
        t = time.time()

        def new_fallback():
            with self.hs.lock:
                return [r for r in self.hs.requests if r.get("user") == self.botid and r["t"] >= t - 1 and
                        r["path"].endswith("/keys/upload") and r.get("status") == 200 and
                        set(((r.get("json") or {}).get("fallback_keys") or {})) - {kid}]
        R.check(self.hs.wait(new_fallback, 60), "the bot published no new fallback key after its was used: %s" %
                [x for x in self.bot.log_text().splitlines() if "fallback" in x][-3:])
        self.notes.append("fallback key handed out at claim %d and replaced %.1f s later" % (n, time.time() - t))

    def run(self):
        a = self.ann
        a.say(self.room, "!304")
        pos = self.wait_seg(lambda s: s.startswith("ann sits in seat 1"), 0, "ann's seat")
        for seat in (2, 3, 4):
            a.say(self.room, "!bot %d" % seat)
        pos = self.wait_seg(lambda s: "seat 4" in s, pos, "the computer in seat 4")
        a.say(self.room, "!start")
        pos = self.wait_seg(lambda s: play304lib.DEAL_RE.match(s), pos, "deal 1")
        won = lambda n: lambda s: (lambda m: m and int(m.group("n")) >= n)(play304lib.TRICK_RE.match(s))  # noqa: E731
        pos = self.wait_seg(won(2), pos, "trick 2 of deal 1")
        self.joiner("sam")
        n = len(self.table_segs)
        pos = self.wait_seg(lambda s: True, n, "a line after sam's join")
        self.joiner("tom")
        pos = self.wait_seg(play304lib.TRICK_RE.match, len(self.table_segs), "a trick after tom's join")
        self.login("ann2", "ann")
        self.notes.append("ann's second device logged in %.1f s into the run" % (time.time() - self.t0))
        pos = self.wait_seg(play304lib.TRICK_RE.match, len(self.table_segs), "a trick after ann's second device")
        self.joiner("uma")
        # On to the next deal's first trick, unless the match ends first
        # (a failed high bid can end it in a deal); then one more line,
        # asked for, so every device has lines due whatever happened.
        n = len(self.table_segs)
        pos = self.wait_seg(lambda s: play304lib.DEAL_RE.match(s) or MATCH_WON.match(s), n, "deal 2 or the match's end")
        if play304lib.DEAL_RE.match(self.table_segs[pos - 1][1]):
            self.wait_seg(play304lib.TRICK_RE.match, pos, "the first trick of deal 2")
        n = len(self.table_segs)
        a.say(self.room, "!table")
        self.wait_seg(lambda s: True, n, "the answer to !table")

    def joiner(self, name):
        p = self.login(name, name)
        p.join(self.room)
        self.notes.append("%s joined %.1f s into the run" % (name, time.time() - self.t0))

    # ---- the checks ----
    def bot_sends(self):
        """(t sent, room, event id, type) of every send of the bot's that Synapse accepted."""
        out = []
        with self.hs.lock:
            reqs = list(self.hs.requests)
        for r in reqs:
            m = re.match(r"^/_matrix/client/v3/rooms/([^/]+)/send/([^/]+)/", r["path"])
            if m and r.get("user") == self.botid and r.get("status") == 200 and r.get("event_id"):
                out.append((r["t"], urllib.parse.unquote(m.group(1)), r["event_id"], urllib.parse.unquote(m.group(2))))
        return out

    def query_done(self, user, device):
        """When the bot's first /keys/query whose reply listed this device came back (or None)."""
        with self.hs.lock:
            reqs = list(self.hs.requests)
        for r in reqs:
            if r.get("user") == self.botid and r["path"].endswith("/keys/query") and r.get("status") == 200 \
                    and device in (((r.get("reply") or {}).get("device_keys") or {}).get(user) or {}):
                return r["t_done"]
        return None

    def due(self):
        """{player id: (when the bot had its keys, [(room, event id)])}: what each device must read."""
        sends = self.bot_sends()
        out = {}
        for pid, user in self.devices.items():
            q = self.query_done(user, self.stack.players[pid].device_id)
            rooms = {self.room} | ({self.dm} if user == self.devices["ann"] and self.dm else set())
            out[pid] = (q, [(room, eid) for t, room, eid, _ in sends if q and t >= q and room in rooms])
        return out

    def settled(self):
        for pid, (q, evs) in self.due().items():
            recs = self.stack.players[pid].records()
            if any(eid not in recs or recs[eid].get("utd") for _, eid in evs):
                return False
        return True

    def check(self):
        self.ann.wait_for(self.settled, SETTLE_SECONDS)
        total_bad = 0
        for pid, (q, evs) in sorted(self.due().items()):
            recs = self.stack.players[pid].records()
            R.check(q is not None, "%s: the bot never asked for the keys of %s's new device" % (pid, pid))
            utd = [eid for _, eid in evs if eid in recs and recs[eid].get("utd")]
            missing = [eid for _, eid in evs if eid not in recs]
            reasons = sorted({recs[e].get("reason") for e in utd})
            total_bad += len(utd) + len(missing)
            print("  %-5s (device %s): %d bot events due after the bot's query, %d read, %d undecryptable%s, "
                  "%d never came" % (pid, self.stack.players[pid].device_id, len(evs), len(evs) - len(utd) -
                                     len(missing), len(utd), " (%s)" % ", ".join(reasons) if utd else "",
                                     len(missing)))
            R.check(evs, "%s: no bot event was due (the play went on without it?)" % pid)
            R.check(not utd, "%s: %d of the bot's events could not be decrypted (%s), e.g. %s" % (
                pid, len(utd), ", ".join(reasons), utd[:3]))
            R.check(not missing, "%s: %d of the bot's events never reached the device, e.g. %s" % (
                pid, len(missing), missing[:3]))
        sends = [s for s in self.bot_sends() if s[1] in (self.room, self.dm)]
        clear = [s for s in sends if s[3] != "m.room.encrypted"]
        R.check(sends and not clear, "the bot sent %d of %d events in the clear into encrypted rooms" % (
            len(clear), len(sends)))
        R.check(self.dm is not None, "ann's hands never came to an encrypted direct room")
        claims = [r for r in self.hs.requests if r.get("user") == self.botid and r["path"].endswith("/keys/claim")]
        print("  the bot: %d events in the table and ann's direct room, %d key claims; %s" % (
            len(sends), len(claims), "; ".join(self.notes)))
        if total_bad and not VERBOSE:
            print("  the bot's log: %s" % " | ".join(
                x for x in self.bot.log_text().splitlines() if "e2ee" in x)[-3000:])

    def teardown(self):
        self.cmds.put(None)
        if self.bot:
            self.bot.stop()
        if self.stack:
            if self.stack.errors:
                print("  player.mjs: %s" % self.stack.errors[:3])
            self.stack.stop()
        if self.hs:
            self.hs.stop()


def main():
    m = Match()
    try:
        m.setup()
        m.run()
        m.check()
    except Exception:  # noqa: BLE001
        R.check(False, "the scenario broke: %s" % traceback.format_exc())
        if m.stack:
            print("  players' log: %s" % m.stack.log_tail())
        if m.bot:
            print("  the bot's log: %s" % m.bot.log_tail(40))
        if m.hs:
            with m.hs.lock:
                print("  the bot's last requests: %s" % [(round(r["t"] - m.t0, 1), r["method"], r["path"][-40:],
                                                         r["status"]) for r in m.hs.requests
                                                        if r.get("user") == m.botid and "/sync" not in r["path"]][-20:])
        if m.stack:
            for pid, p in m.stack.players.items():
                bad = [(r["room"][:8], r["reason"]) for r in p.records().values() if r.get("utd")]
                print("  %s: %d records, undecryptable: %s" % (pid, len(p.records()), bad[:8]))
            if "ann" in m.stack.players:
                for r in sorted(m.stack.players["ann"].records().values(), key=lambda r: r["t"])[-8:]:
                    print("    %.1f s: ann reads %s: %r" % (r["t"] - m.t0, "the table" if r["room"] == m.room
                                                          else r["room"], r["body"]))
        print("  notes: %s; ann's moves: %r" % (m.notes, m.moves))
    finally:
        m.teardown()
        print("  %s took %.0f s" % (NAME, time.time() - m.t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
