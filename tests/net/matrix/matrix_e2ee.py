#!/usr/bin/env python3
"""matrix_e2ee.py: end-to-end encryption (issue 18) with real encrypting clients, on the stand-in and on Synapse.

The players are tests/lib/e2eelib.py's: matrix-nio 0.20 with olm, which only
the system Python imports, so this script runs itself again under
/usr/bin/python3 when needed (and is skipped, saying why, when even that
has no nio). Scenarios:

  0 the stand-in's encryption endpoints by hand (a claim takes one
    one-time key, then the fallback key, as Synapse; the count in /sync; a to-device message
    stays until a later since token confirms it; device_lists.changed);
    then the test players encrypt: two nio players in an encrypted room send
    each other messages, on the stand-in (tests/lib/matrixlib.py: every key,
    claim and to-device request checked against the spec, no violation)
    and on a real Synapse 1.67 (tests/lib/synapselib.py); each reads the
    other's, decrypted; the server holds only m.room.encrypted;
  1 on Synapse (a, b, c, d): four players and the bot in an encrypted room;
    `!304`, `!sit`, a whole match (two players bid 250 whenever nobody has
    bid, so it ends in a few deals), or E2EE_MAX_DEALS (10) whole deals
    when it goes on longer; it fails as stalled only when no deal begins
    for E2EE_STALL_SECONDS (300), however slow the machine; meanwhile
    (d) a message the bot cannot decrypt (a bogus Megolm event sent raw)
        is answered, once the bot's 10 s wait for its key is over (not
        before), with a line saying it "could not read" it, to its sender;
    (c) the bot is stopped with SIGTERM in the first deal and killed with
        SIGKILL in a later one, and started again on the same database:
        the table resumes and the players still decrypt everything;
    (b) a fifth player joins the room in the middle of the match and reads
        the bot's next lines;
    checks: every event the bot sent in an encrypted room (the table's and
    every direct room, which must be encrypted) is m.room.encrypted, as
    Synapse holds it (the bot account's own sync, synapselib's observer);
    every player decrypted every bot event they got (none left
    undecryptable); privacy in every deal over the decrypted transcripts
    (matrix_game's checker: no one saw a card not theirs to see);
  2 on the stand-in (e): the same table, one deal, and (d): no spec
    violation in the bot's key, claim and to-device requests; and a
    command whose room key comes late (a device made with python3-olm
    sends `!table` under a Megolm session, and its key reaches the bot's
    device 3 s later): nothing is said before the key, the command is
    answered after it; (f) the table stopped, `!record` comes as an
    encrypted attachment in the asker's encrypted direct room: an m.file
    with `file` (v2, A256CTR) and no `url`, the homeserver holding only
    ciphertext, which decrypts (nio) to a record `cardbot verify` accepts.

Scenarios 1 and 2 need a bot with encryption: while `cardbot check-config`
refuses `encryption = true` they print SKIP and count neither way; where
../shared/synapse is missing, the Synapse parts are skipped likewise.
Environment: CARDBOT, E2EE_ONLY (e.g. "0,2"), E2EE_MAX_DEALS, E2EE_STALL_SECONDS, MX_VERBOSE=1.
Prints "matrix_e2ee: N passed, M failed" last.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import e2eelib  # noqa: E402

e2eelib.reexec()

import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

import play304lib  # noqa: E402
import langlib  # noqa: E402
import matrix_game  # noqa: E402
import matrixlib  # noqa: E402
import synapselib  # noqa: E402
from matrixlib import Bot, Homeserver, Results  # noqa: E402

NAME = "matrix_e2ee"
R = Results(NAME)
matrix_game.R = R  # matrix_game's checks (Scenario.analyse) count here
VERBOSE = os.environ.get("MX_VERBOSE") == "1"
ONLY = {int(x) for x in os.environ.get("E2EE_ONLY", "").split(",") if x.strip()}
# A deal that has not begun this long after the one before means the match
# hung: a bound on a stall, not on the whole match (a busy machine plays it
# slower; beside a CPU hog under ASan a deal took 98 s).
STALL_SECONDS = float(os.environ.get("E2EE_STALL_SECONDS", "300"))
MAX_DEALS = int(os.environ.get("E2EE_MAX_DEALS", "10"))  # whole deals played when the match goes on longer
LATE_GRACE_MS = 3000  # a late joiner may miss what the bot sent this soon after the join (before its sync told it)
HOLD = 15.0          # seconds an encrypted event may wait for someone to decrypt it before it is shown as is
COULD_NOT_READ = "could not read"
UNREADABLE_WAIT = 10.0  # the bot waits this long for a message's key before it says so (MX_UNREADABLE_MS)
MATCH_WON = langlib.template_re(langlib.text("en", "T_MATCH_WON"))
MEGOLM = e2eelib.MEGOLM


def lines_of(ev):
    b = ev["content"].get("body")
    return b.split("\n") if isinstance(b, str) else []


def skip(text):
    print("SKIP: %s" % text)
    sys.stdout.flush()


def bot_encrypts():
    """None when the bot under test accepts `encryption = true`, else why not."""
    if not os.path.exists(matrixlib.CARDBOT):
        return "no cardbot binary at %s" % matrixlib.CARDBOT
    tmp = matrixlib.tempdir()
    try:
        key = os.path.join(tmp, "pickle.key")
        with open(key, "w") as f:
            f.write(os.urandom(24).hex() + "\n")
        os.chmod(key, 0o600)
        cfg = os.path.join(tmp, "e2ee.cfg")
        with open(cfg, "w") as f:
            f.write('networks = ( { name = "mx"; type = "matrix"; homeserver = "http://127.0.0.1:1"; '
                    'user_id = "@cardbot:test"; password = "x"; rooms = ( "#304:test" ); '
                    'encryption = true; pickle_key_file = "%s"; } );\n' % key)
        os.chmod(cfg, 0o600)
        p = subprocess.run([matrixlib.CARDBOT, "check-config", cfg], capture_output=True, timeout=60, cwd=tmp)
        if p.returncode != 0:
            err = (p.stderr or p.stdout).decode("utf-8", "replace").strip().splitlines()
            return "the bot refuses `encryption = true` (check-config exits %d: %s)" % (p.returncode,
                                                                                        " / ".join(err[:2]))
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------- scenario 0: nio to nio


def nio_to_nio(where, hs, url, raw_events):
    """Two players, an encrypted room, two messages each way. raw_events(rid,
    player): the room's events as the server holds them."""
    ann = hs.add_user("ann", "pw")
    bob = hs.add_user("bob", "pw")
    pa = pb = None
    try:
        pa = e2eelib.Player(url, ann, "pw", name="ann").start()
        pb = e2eelib.Player(url, bob, "pw", name="bob").start()
        rid = pa.create_room(invite=[bob], encrypted=True, name="e2ee")
        R.check(pa.encrypted_room(rid), "0 %s: the room ann made is not encrypted for her" % where)
        ok = pb.wait_for(lambda: rid in pb.joined and pb.encrypted_room(rid), 30)
        R.check(ok, "0 %s: bob did not join the encrypted room: %s" % (where, pb.errors[-2:]))
        sent = []
        for k in range(2):
            for src, dst in ((pa, pb), (pb, pa)):
                text = "%s to %s, %d" % (src.name, dst.name, k)
                sent.append(text)
                src.say(rid, text)
                got = dst.wait_for(lambda: dst.find(room_id=rid, body=text), 30)
                R.check(got and got[0]["encrypted"] and got[0]["sender"] == src.user_id,
                        "0 %s: %s did not read %r decrypted: %r; undecrypted %d; errors %s" % (
                            where, dst.name, text, got, len(dst.undecrypted()), dst.errors[-2:]))
        for p in (pa, pb):
            R.check(not p.undecrypted(), "0 %s: %s could not decrypt %d events" % (where, p.name,
                                                                                   len(p.undecrypted())))
            R.check(not p.errors, "0 %s: %s: %s" % (where, p.name, p.errors[:2]))
        raw = raw_events(rid, pa)
        msgs = [e for e in raw if e.get("type") in ("m.room.message", "m.room.encrypted")]
        R.check(len(msgs) == len(sent) and all(e["type"] == "m.room.encrypted" for e in msgs)
                and not any(t in str(e.get("content")) for e in msgs for t in sent),
                "0 %s: the server holds %d messages, not %d, or some in the clear: %r" % (
                    where, len(msgs), len(sent), [e.get("type") for e in msgs]))
        R.check(any(e.get("type") == "m.room.encryption" for e in raw),
                "0 %s: no m.room.encryption state in the room" % where)
    finally:
        for p in (pa, pb):
            if p is not None:
                p.stop()


def _http(hs, method, path, token, body=None):
    import json
    import urllib.error
    import urllib.request
    req = urllib.request.Request(hs.url + "/_matrix/client/v3" + path, method=method,
                                 data=json.dumps(body).encode() if body is not None else None)
    req.add_header("Content-Type", "application/json")
    req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def standin_semantics():
    """The stand-in's encryption endpoints do what the spec says, by hand:
    a claim takes one one-time key, then the fallback key (used), the count
    in /sync follows, a to-device message stays until a later token
    confirms it, device_lists.changed names a room-mate whose keys change."""
    hs = Homeserver().start()
    try:
        ann, bob = hs.add_user("ann"), hs.add_user("bob")
        ta, tb = hs.token_for(ann, "ADEV"), hs.token_for(bob, "BDEV")
        hs.create_room(ann, invite=[bob])
        hs.join(bob, list(hs.rooms)[0])

        def keys(user, dev, n, c="c"):
            sig = {user: {"ed25519:" + dev: "sig"}}
            return {"device_keys": {"user_id": user, "device_id": dev, "algorithms": [e2eelib.MEGOLM],
                                    "keys": {"curve25519:" + dev: c * 43, "ed25519:" + dev: "e" * 43},
                                    "signatures": sig},
                    "one_time_keys": {"signed_curve25519:K%d" % k: {"key": "k" * 43, "signatures": sig}
                                      for k in range(n)}}
        st, out = _http(hs, "POST", "/keys/upload", tb, keys(bob, "BDEV", 2))
        R.check(st == 200 and out.get("one_time_key_counts", {}).get("signed_curve25519") == 2,
                "0 stand-in: /keys/upload answered %d %r" % (st, out))
        st, s1 = _http(hs, "GET", "/sync", ta)
        claim = {"one_time_keys": {bob: {"BDEV": "signed_curve25519"}}}
        got = [_http(hs, "POST", "/keys/claim", ta, claim)[1].get("one_time_keys", {}) for _ in range(3)]
        R.check([bool(g.get(bob, {}).get("BDEV")) for g in got] == [True, True, False],
                "0 stand-in: three claims of two one-time keys gave %r" % got)
        fb = keys(bob, "BDEV", 0)
        fb["fallback_keys"] = {"signed_curve25519:F1": {"key": "f" * 43, "fallback": True,
                                                         "signatures": fb["device_keys"]["signatures"]}}
        del fb["device_keys"]
        _http(hs, "POST", "/keys/upload", tb, fb)
        st, f0 = _http(hs, "GET", "/sync?timeout=0", tb)
        got = [_http(hs, "POST", "/keys/claim", ta, claim)[1].get("one_time_keys", {}).get(bob, {}).get("BDEV")
               for _ in range(2)]
        st, f1 = _http(hs, "GET", "/sync?timeout=0", tb)
        R.check(f0.get("device_unused_fallback_key_types") == ["signed_curve25519"] and
                [list(g or {}) for g in got] == [["signed_curve25519:F1"]] * 2 and
                f1.get("device_unused_fallback_key_types") == [],
                "0 stand-in: the fallback key (as Synapse: handed out when none is left, then listed as used): "
                "%r, %r, %r" % (f0.get("device_unused_fallback_key_types"), got,
                                f1.get("device_unused_fallback_key_types")))
        st, q = _http(hs, "POST", "/keys/query", ta, {"device_keys": {bob: []}})
        R.check(list(q.get("device_keys", {}).get(bob, {})) == ["BDEV"], "0 stand-in: /keys/query: %r" % q)
        st, sb = _http(hs, "GET", "/sync", tb)
        R.check(sb.get("device_one_time_keys_count", {}).get("signed_curve25519") == 0,
                "0 stand-in: the count after two claims: %r" % sb.get("device_one_time_keys_count"))
        msg = {"messages": {bob: {"BDEV": {"hello": 1}}}}
        _http(hs, "PUT", "/sendToDevice/m.test/t1", ta, msg)
        _http(hs, "PUT", "/sendToDevice/m.test/t1", ta, msg)  # the same transaction: once
        st, x1 = _http(hs, "GET", "/sync?since=" + sb["next_batch"], tb)
        st, x2 = _http(hs, "GET", "/sync?since=" + sb["next_batch"], tb)   # not confirmed: again
        st, x3 = _http(hs, "GET", "/sync?timeout=0&since=" + x2["next_batch"], tb)  # confirmed: gone
        n = [len(x.get("to_device", {}).get("events", [])) for x in (x1, x2, x3)]
        R.check(n == [1, 1, 0], "0 stand-in: a to-device message was delivered %r times (1, 1 again, then 0)" % n)
        _http(hs, "POST", "/keys/upload", tb, keys(bob, "BDEV", 0, c="d"))  # a new identity key
        st, a2 = _http(hs, "GET", "/sync?timeout=0&since=" + s1["next_batch"], ta)
        R.check(bob in a2.get("device_lists", {}).get("changed", []),
                "0 stand-in: bob's new keys are not in ann's device_lists.changed: %r" % a2.get("device_lists"))
        R.check(not hs.violations, "0 stand-in: spec violations by hand: %s" % hs.violations[:3])
    finally:
        hs.stop()


def scenario0():
    t0 = time.time()
    standin_semantics()
    hs = Homeserver().start()
    try:
        nio_to_nio("stand-in", hs, hs.url,
                   lambda rid, p: [e for e in hs.events if e["room_id"] == rid])
        R.check(not hs.violations, "0 stand-in: spec violations: %s" % hs.violations[:5])
        kinds = {r.get("endpoint") for r in hs.requests}
        R.check({"/keys/upload", "/keys/query", "/keys/claim", "/sendToDevice/{eventType}/{txnId}"} <= kinds,
                "0 stand-in: the players did not use every key endpoint: %s" % sorted(k for k in kinds if k))
    finally:
        hs.stop()
    print("  scenario 0 (the test players encrypt), stand-in: %.1f s" % (time.time() - t0))
    why = synapselib.synapse_missing()
    if why:
        skip("0 on Synapse: %s" % why)
        return
    t0 = time.time()
    hs = synapselib.SynapseHomeserver().start()
    try:
        def raw(rid, p):
            st, out = p.api("GET", "/_matrix/client/v3/rooms/%s/messages?dir=b&limit=100" % rid)
            return out.get("chunk", []) if st == 200 else []
        nio_to_nio("Synapse", hs, hs.hs_url, raw)
    finally:
        hs.stop()
    print("  scenario 0 (the test players encrypt), Synapse: %.1f s" % (time.time() - t0))


def in_clear(raw, bot):
    """(the bot's events in encrypted rooms, those of them not m.room.encrypted)
    over the server's events: a room is encrypted from its m.room.encryption on."""
    since = {}
    for e in raw:
        if e["type"] == "m.room.encryption" and "state_key" in e:
            since.setdefault(e["room_id"], e["pos"])
    mine = [e for e in raw if e["sender"] == bot and "state_key" not in e and e["room_id"] in since
            and e["pos"] > since[e["room_id"]]]
    return mine, [e for e in mine if e["type"] != "m.room.encrypted"]


# ---------------------------------------------------------------- the decrypted view


class View:
    """The homeserver as matrix_game's scenarios read it, with every
    encrypted event replaced by what the players decrypted of it: `events`
    is the server's event list (the stand-in's own, or Synapse's as the
    bot's account syncs it) in its order, each m.room.encrypted event shown
    as its decrypted type and content (`encrypted` set on it) once some
    player has decrypted it. The list only grows: it stops at the first
    encrypted event nobody has decrypted yet, for up to HOLD seconds, after
    which that event is shown as it is (`undecryptable` set). Players' `say`
    and `join` go through their nio clients (encrypted); the rest is the
    server's."""

    def __init__(self, base, players):
        self.base = base
        self.players = players          # user id -> e2eelib.Player
        self.lock = base.lock
        self.cond = base.cond
        self._view = []
        self._next = 0
        self.no_hold = set()            # event ids nobody can decrypt (sent bogus on purpose)

    def decrypted(self, eid):
        for p in list(self.players.values()):
            r = p.by_id.get(eid)
            if r is not None and not r["undecryptable"]:
                return r
        return None

    @property
    def events(self):
        with self.lock:
            evs = self.base.events
            while self._next < len(evs):
                e = evs[self._next]
                out = dict(e)
                if e["type"] == "m.room.encrypted":
                    d = self.decrypted(e["event_id"])
                    if d is None and e["event_id"] not in self.no_hold and time.time() - e["t"] < HOLD:
                        break
                    out["encrypted"] = True
                    out["txn"] = e.get("txn") or e["event_id"]
                    if d is not None:
                        out["type"], out["content"] = d["type"], d["content"]
                    else:
                        out["undecryptable"] = True
                out["pos"] = len(self._view)
                out["base_pos"] = e["pos"]
                self._view.append(out)
                self._next += 1
            return self._view

    def __getattr__(self, name):
        # rooms, account_data, requests, violations, url, direct_rooms, empty_rooms, membership...
        return getattr(self.base, name)

    def say(self, user, room_id, text, **k):
        p = self.players.get(user)
        if p is None:
            return self.base.say(user, room_id, text, **k)
        return p.say(room_id, text)

    def join(self, user, room_id):
        p = self.players.get(user)
        if p is None:
            return self.base.join(user, room_id)
        p.join(room_id)
        with self.cond:
            room = self.base.rooms.get(room_id)
            if room is not None:
                room.members[user] = "join"
            self.cond.notify_all()

    def bot_messages(self, bot, room_id=None, start=0):
        return [e for e in self.events[start:] if e["type"] == "m.room.message" and e["sender"] == bot
                and (room_id is None or e["room_id"] == room_id)]

    def wait(self, pred, timeout):
        end = time.time() + timeout
        while True:
            r = pred()
            if r or time.time() >= end:
                return r
            with self.cond:
                self.cond.wait(min(0.2, max(0.01, end - time.time())))


# ---------------------------------------------------------------- scripted players of the bot's table


class Player(threading.Thread):
    """Plays its hand from its direct room (as matrix_lang's players do, in
    English): two of the four bid 250 whenever nobody has bid, the others
    pass; accepts the bot's invitations; reads the decrypted view."""

    def __init__(self, sc, uid, name, bidder):
        super().__init__(daemon=True)
        self.sc, self.uid, self.name, self.bidder = sc, uid, name, bidder
        self.pos = 0
        self.last_hand = None
        self.dm = None
        self.errors = []
        self.actions = []

    def run(self):
        hs = self.sc.hs
        try:
            while not self.sc.stop.is_set():
                evs = hs.events
                if len(evs) <= self.pos:
                    with hs.cond:
                        hs.cond.wait(0.2)
                    continue
                new = evs[self.pos:]
                self.pos += len(new)
                for e in new:
                    self.handle(e)
        except Exception:  # noqa: BLE001
            self.errors.append(traceback.format_exc())

    def handle(self, e):
        hs, bot = self.sc.hs, self.sc.botid
        if e["type"] == "m.room.member" and e.get("state_key") == self.uid and e["sender"] == bot and \
                e["content"].get("membership") == "invite":
            hs.join(self.uid, e["room_id"])
            return
        if e["type"] != "m.room.message" or e["sender"] != bot:
            return
        if e["room_id"] == self.sc.room and any(play304lib.RESUMED in x for x in lines_of(e)):
            self.last_hand = None  # the bot is back: it prompts again
            return
        room = hs.rooms.get(e["room_id"])
        if not room or not room.is_direct or hs.membership(self.uid, room.id) != "join":
            return
        self.dm = room.id
        for line in lines_of(e):
            h = langlib.parse_hand(line, "en")
            if not h:
                continue
            prev, self.last_hand = self.last_hand, h["raw"]
            if not h["turn"] or h["raw"] == prev:
                continue
            cmd = langlib.decide(h, "304", self.bidder, False)
            self.actions.append((time.time(), cmd))
            hs.say(self.uid, self.dm, cmd)


class Table(matrix_game.Scenario):
    """The bot with encryption on, four nio players in an encrypted room;
    matrix_game.Scenario's reading, privacy and figures over the decrypted
    view. body() is the scenario's."""

    on_synapse = False

    def __init__(self, num, title, match=False, restarts=False, fifth=False, bogus=True):
        super().__init__(num, title)
        self.match, self.restarts, self.fifth, self.bogus = match, restarts, fifth, bogus
        self.nio = {}
        self.late = None          # (user, base position of their join)
        self.late_ids = set()
        self.notes = []

    def make_hs(self):
        if self.on_synapse:
            return synapselib.SynapseHomeserver(limits="off").start()
        return Homeserver().start()

    def setup(self):
        self.tmp = matrixlib.tempdir()
        base = self.make_hs()
        url = base.hs_url if self.on_synapse else base.url   # players go to Synapse itself, not the bot's proxy
        self.botid = base.add_user("cardbot", password="botpw")
        names = list(self.humans) + (["eve"] if self.fifth else [])
        self.ids = {n: base.add_user(n, "pw", name=n) for n in names}
        for n in names:
            self.nio[self.ids[n]] = e2eelib.Player(url, self.ids[n], "pw", name=n, auto_join=False).start()
        self.hs = View(base, self.nio)
        first = self.nio[self.ids[self.humans[0]]]
        # An alias, as the table's room has in matrix_game: the bot names the room by it in hand lines.
        self.room = first.create_room(invite=[self.botid], encrypted=True, alias="304")
        for n in self.humans[1:]:
            self.nio[self.ids[n]].join(self.room)
        with base.lock:
            room = base.rooms.setdefault(self.room, matrixlib.Room(self.room, self.ids[self.humans[0]]))
            for n in self.humans:
                room.members.setdefault(self.ids[n], "join")
        key = os.path.join(self.tmp, "pickle.key")
        self.pickle = os.urandom(24).hex()
        with open(key, "w") as f:
            f.write(self.pickle + "\n")
        os.chmod(key, 0o600)
        self.bot = Bot(self.tmp, base.url, self.botid, 'password = "botpw";',
                       tables='computer_level = "easy";\n  cut_offer_seconds = 0;',
                       extra='encryption = true;\n    pickle_key_file = "%s";' % key)
        self.bot.start()
        if not self.hs.wait(lambda: base.membership(self.botid, self.room) == "join", 30):
            raise RuntimeError("the bot did not accept the invitation: " + self.bot.log_tail())
        # A player's first message is encrypted for the devices it knows
        # then: wait until every player knows the bot's device (a message
        # sent before is one the bot cannot read, as with any client).
        for p in [self.nio[self.ids[n]] for n in self.humans]:
            if not p.wait_for(lambda p=p: p.trusts(self.botid), 30):
                raise RuntimeError("%s never learnt the bot's device: %s" % (p.name, self.bot.log_tail(6)))
        self.players = {n: Player(self, self.ids[n], n, bidder=k in (0, 2))
                        for k, n in enumerate(self.humans)}

    def open_table(self):
        hs = self.hs
        n0 = len(hs.events)
        a = self.humans[0]
        hs.say(self.ids[a], self.room, "!304")
        if not self.wait_seg(lambda s: s.startswith("%s sits in seat 1" % a), 30, n0):
            raise RuntimeError("no table (the bot never answered the encrypted !304): " + self.bot.log_tail())
        for k, n in enumerate(self.humans[1:], start=2):
            hs.say(self.ids[n], self.room, "!sit")
            if not self.wait_seg(lambda s, n=n, k=k: s.startswith("%s sits in seat %d" % (n, k)), 30, n0):
                raise RuntimeError("%s did not sit: %s" % (n, self.bot.log_tail()))
        if not self.on_synapse:
            self.late_key()
        if self.bogus:
            self.could_not_read()
        for p in self.players.values():
            p.start()
        self.start_pos = len(hs.events)
        self.req0 = len(hs.requests)
        self.t_start = time.time()
        hs.say(self.ids[a], self.room, "!start")

    def late_key(self):
        """A command whose room key comes late: a device of a player's (made
        here with python3-olm, on the stand-in) sends `!table` encrypted with
        a Megolm session the bot does not have; the bot says nothing; then
        the key arrives in an Olm message to the bot's device, and the bot
        reads the waiting command and answers it."""
        import olm
        base = self.hs.base if hasattr(self.hs, "base") else self.hs
        who = self.humans[1]
        uid = self.ids[who]
        acc = olm.Account()
        og = olm.OutboundGroupSession()
        session_key = og.session_key  # at index 0, before the message: the key that reads it
        plain = {"type": "m.room.message", "room_id": self.room, "content": {"msgtype": "m.text", "body": "!table"}}
        content = {"algorithm": MEGOLM, "sender_key": acc.identity_keys["curve25519"], "device_id": "LATEDEV",
                   "session_id": og.id, "ciphertext": og.encrypt(e2eelib.json.dumps(plain))}
        def said(start):
            with base.lock:
                return [e for e in base.events[start:] if e["sender"] == self.botid
                        and e["type"] in ("m.room.message", "m.room.encrypted")]
        n0 = len(base.events)
        with base.lock:
            eid = base._emit(self.room, "m.room.encrypted", uid, content)["event_id"]
        self.hs.no_hold.add(eid)
        time.sleep(3)
        early = said(n0)
        R.check(not early, "%d (late key): the bot answered a command it had no key for: %r" % (
            self.num, [e["type"] for e in early]))
        with base.lock:
            devs = base.device_keys.get(self.botid, {})
            bot_dev = next(iter(devs))
            dk = devs[bot_dev]
            otks = base.otks.get((self.botid, bot_dev), {})
            kid = next(iter(otks))
            otk = otks.pop(kid)["key"]
        bot_curve, bot_ed = dk["keys"]["curve25519:" + bot_dev], dk["keys"]["ed25519:" + bot_dev]
        sess = olm.OutboundSession(acc, bot_curve, otk)
        payload = {"type": "m.room_key", "sender": uid, "sender_device": "LATEDEV",
                   "keys": {"ed25519": acc.identity_keys["ed25519"]}, "recipient": self.botid,
                   "recipient_keys": {"ed25519": bot_ed},
                   "content": {"algorithm": MEGOLM, "room_id": self.room, "session_id": og.id,
                               "session_key": session_key}}
        msg = sess.encrypt(e2eelib.json.dumps(payload))
        ev = {"sender": uid, "type": "m.room.encrypted",
              "content": {"algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": acc.identity_keys["curve25519"],
                          "ciphertext": {bot_curve: {"type": msg.message_type, "body": msg.ciphertext}}}}
        t = time.time()
        with base.lock:
            base.xseq += 1
            base.to_device.setdefault((self.botid, bot_dev), []).append((base.xseq, ev))
            base.cond.notify_all()
        got = base.wait(lambda: said(n0), 20)
        R.check(got, "%d (late key): the command whose key came late was never answered: %s" % (
            self.num, [x for x in self.bot.log_text().splitlines() if "e2ee" in x][-6:]))
        if got:
            self.notes.append("a command whose key came 3 s late answered %.1f s after the key" % (time.time() - t))
        base.wait(lambda: False, 2)  # the answer's other lines

    def could_not_read(self):
        """(d) A Megolm event nobody can decrypt: the bot says so to its
        sender once it has waited its 10 s for the key, not before (how long
        after is a figure: a busy machine is slower, and only a bot that
        never says it fails)."""
        who = self.humans[-1]
        p = self.nio[self.ids[who]]
        fake = {"algorithm": MEGOLM, "sender_key": "A" * 43, "device_id": p.device_id,
                "session_id": "B" * 43, "ciphertext": "AwgAEnB" + "C" * 120}
        t = time.time()
        n0 = len(self.hs.events)
        eid = p.send_raw(self.room, "m.room.encrypted", fake)
        R.check(eid, "%d (d): the bogus encrypted event was not sent" % self.num)
        self.hs.no_hold.add(eid)
        got = self.hs.wait(lambda: [e for e in self.hs.bot_messages(self.botid, self.room, n0)
                                    if COULD_NOT_READ in e["content"].get("body", "")], 120)
        took = time.time() - t
        R.check(got, "%d (d): no %r line in 120 s after a message the bot cannot decrypt: %s" % (
            self.num, COULD_NOT_READ, self.bot.log_tail(6)))
        if got:
            c = got[0]["content"]
            R.check(who in c.get("body", "") or self.ids[who] in c.get("body", "")
                    or self.ids[who] in c.get("m.mentions", {}).get("user_ids", []),
                    "%d (d): the %r line is not addressed to %s: %r" % (self.num, COULD_NOT_READ, who, c))
            R.check(took >= UNREADABLE_WAIT, "%d (d): the %r line came after %.1f s, before the bot's %.0f s wait for "
                    "the key was over" % (self.num, COULD_NOT_READ, took, UNREADABLE_WAIT))
            self.notes.append("could-not-read line after %.1f s" % took)

    # ---- the match ----
    def deals_begun(self, start=0):
        return sum(1 for s in self.room_segments(start) if play304lib.DEAL_RE.match(s))

    def match_over(self):
        return any(MATCH_WON.match(s) for s in self.room_segments(self.start_pos))

    def restart(self, sig, label):
        hs = self.hs
        self.bot.stop(sig)
        stopped = len(hs.events)
        time.sleep(0.3)
        self.bot.start()
        back = self.wait_seg(lambda s: s.startswith(play304lib.RESUMED), 45, stopped)
        R.check(back, "%d (c): the table did not resume after %s: %s" % (self.num, label, self.bot.log_tail(8)))
        self.notes.append("resumed after %s" % label)

    def body(self):
        hs = self.hs
        if not self.match:
            R.check(self.hs.wait(self.deal_done, 120), "%d: the deal did not end: %s" % (
                self.num, self.bot.log_tail()))
            self.quiesce()
            self.record_file()
            return
        if self.restarts:
            ok = self.wait_seg_moving(lambda s: play304lib.TRICK_RE.match(s) and " wins trick 2" in s, STALL_SECONDS,
                                      self.start_pos)
            R.check(ok, "%d (c): trick 2 of deal 1 never ended (the bot silent for %.0f s): %s" % (
                self.num, STALL_SECONDS, self.bot.log_tail(6)))
            if ok:
                self.restart(signal.SIGTERM, "SIGTERM")
        if self.fifth:
            ok = hs.wait(lambda: self.deals_begun(self.start_pos) >= 2 or self.match_over(), 120)
            eve = self.ids["eve"]
            pos = len(hs.base.events)
            self.nio[eve].join(self.room)
            self.late = (eve, pos)
            self.late_ids.add(eve)
        if self.restarts:
            # (in the deal the late player joined in: the bot killed after
            # it has shared the room's key with them)
            ok = self.wait_seg_moving(lambda s: play304lib.TRICK_RE.match(s), STALL_SECONDS, len(hs.events)) \
                if not self.match_over() else False
            if ok and not self.match_over():
                self.restart(signal.SIGKILL, "kill -9")
            else:
                R.check(False, "%d (c): no trick ended after the first restart (or the match was over): %s" % (
                    self.num, self.bot.log_tail(6)))
        # The match to its end, or MAX_DEALS whole deals when it goes on
        # longer (a deal is whole when the next one begins).
        def finished():
            return self.match_over() or self.deals_begun(self.start_pos) > MAX_DEALS
        done = finished()
        while not done:
            seen = self.deals_begun(self.start_pos)
            if not hs.wait(lambda: finished() or self.deals_begun(self.start_pos) > seen, STALL_SECONDS):
                break
            done = finished()
        n = self.deals_begun(self.start_pos)
        over = self.match_over()
        R.check(done, "%d (a): the match stalled: no deal began for %.0f s, %d deals in, neither over nor %d "
                "deals: %s; players %r" % (
                    self.num, STALL_SECONDS, n, MAX_DEALS, self.bot.log_tail(6),
                    {x: (len(p.actions), p.errors[:1]) for x, p in self.players.items()}))
        self.notes.append("%s %d deals in %.0f s" % ("match over after" if over else "match still on after",
                                                    n if over else n - 1, time.time() - self.t_start))
        self.quiesce()

    def record_file(self):
        """(f) The match stopped, `!record` comes as a file in the asker's
        encrypted direct room: an m.file whose `file` (no `url`) says how
        to read the upload (the spec's encrypted attachments, v2), while
        the homeserver holds only ciphertext; decrypted, it is the record,
        and `cardbot verify` accepts it."""
        from nio.crypto.attachments import decrypt_attachment
        hs, base = self.hs, self.hs.base
        a = self.humans[0]
        n0 = len(hs.events)
        for n in self.humans[:3]:   # three of four stop it
            hs.say(self.ids[n], self.room, "!stop")
        if not self.wait_seg(lambda x: "stops the table" in x, 60, n0):
            R.check(False, "%d (f): the table did not stop: %s" % (self.num, self.bot.log_tail()))
            return
        n1 = len(hs.events)
        hs.say(self.ids[a], self.room, "!record")

        def m_file():
            for e in hs.events[n1:]:
                c = e.get("content") or {}
                if e["type"] == "m.room.message" and e["sender"] == self.botid and c.get("msgtype") == "m.file" \
                        and str(c.get("body", "")).endswith(".json"):
                    return e
            return None
        e = hs.wait(m_file, 60)
        R.check(e is not None, "%d (f): no m.file with the record came after !record: %s" % (
            self.num, self.bot.log_tail()))
        if e is None:
            return
        c = e["content"]
        f = c.get("file") or {}
        R.check(e.get("encrypted") and e["room_id"] != self.room, "%d (f): the m.file came encrypted, in a "
                "direct room (%s)" % (self.num, e["room_id"]))
        R.check("url" not in c and f.get("v") == "v2" and (f.get("key") or {}).get("alg") == "A256CTR"
                and f.get("iv") and (f.get("hashes") or {}).get("sha256") and str(f.get("url", "")).startswith("mxc://"),
                "%d (f): the m.file has an EncryptedFile (v2, A256CTR, iv, sha256) and no plain url: %r" % (
                    self.num, c))
        media = base.media.get(f.get("url"))
        R.check(media is not None, "%d (f): the file's url names an upload" % self.num)
        if media is None or not f.get("key"):
            return
        data = media["data"]
        R.check(b"cardbot-record" not in data and media.get("content_type") == "application/octet-stream",
                "%d (f): the homeserver holds ciphertext, as application/octet-stream (%s)" % (
                    self.num, media.get("content_type")))
        try:
            plain = decrypt_attachment(data, f["key"]["k"], f["hashes"]["sha256"], f["iv"])
        except Exception as ex:  # noqa: BLE001
            R.check(False, "%d (f): the upload does not decrypt with the event's key: %s" % (self.num, ex))
            return
        path = os.path.join(self.tmp, "record.json")
        with open(path, "wb") as fh:
            fh.write(plain)
        vf = subprocess.run([matrixlib.CARDBOT, "verify", path], capture_output=True, text=True, timeout=60)
        R.check(vf.returncode == 0, "%d (f): cardbot verify accepts the decrypted record: %s" % (
            self.num, (vf.stdout + vf.stderr)[-300:]))
        R.check(c.get("info", {}).get("size") == len(plain), "%d (f): info.size is the record's size" % self.num)
        self.notes.append("record by encrypted attachment: %d bytes" % len(plain))

    def quiesce(self):
        """The players stop (a match still on waits for them) and the
        server's events stop growing for two seconds: what the checks read
        is complete."""
        self.stop.set()
        base = self.hs.base
        end = time.time() + 30
        last, since = len(base.events), time.time()
        while time.time() < end and time.time() - since < 2.0:
            time.sleep(0.2)
            if len(base.events) != last:
                last, since = len(base.events), time.time()

    # ---- checks ----
    def analyse(self):
        super().analyse()
        hs, base, bot = self.hs, self.hs.base, self.botid
        # Let the last events be decrypted (or time out as undecryptable).
        hs.wait(lambda: hs._next >= len(base.events), HOLD + 5)
        with base.lock:
            raw = list(base.events)
        dms = base.direct_rooms(bot)
        encrypted_rooms = {e["room_id"] for e in raw if e["type"] == "m.room.encryption"}
        R.check(self.room in encrypted_rooms, "%d (a): the table's room has no m.room.encryption" % self.num)
        for u, rid in dms.items():
            R.check(rid in encrypted_rooms, "%d (a): %s's direct room %s is not encrypted" % (self.num, u, rid))
            p = self.nio.get(u)
            R.check(p is None or p.encrypted_room(rid), "%d (a): %s's client does not see its direct room as "
                    "encrypted" % (self.num, u))
        R.check(len(dms) >= len(self.humans), "%d (a): %d direct rooms for %d players" % (self.num, len(dms),
                                                                                        len(self.humans)))
        mine, plain = in_clear(raw, bot)
        planted = dict(raw[-1], type="m.room.message", sender=bot, room_id=self.room, content={"body": "psst"})
        planted.pop("state_key", None)
        R.check(in_clear(raw + [planted], bot)[1], "%d (a): self-test: a planted plaintext line of the bot's "
                "in the encrypted room went unnoticed" % self.num)
        R.check(mine and not plain, "%d (a): the bot sent %d of its %d events in encrypted rooms in the clear: %r" % (
            self.num, len(plain), len(mine), [(e["type"], lines_of(e)[:1]) for e in plain[:3]]))
        # Every player decrypted every bot event of their rooms: the table's
        # (from their join) and their direct room.
        join_pos, join_ts = {}, {}
        for e in raw:
            if e["type"] == "m.room.member" and e["content"].get("membership") == "join":
                join_pos.setdefault((e["room_id"], e["state_key"]), e["pos"])
                join_ts.setdefault((e["room_id"], e["state_key"]), e.get("origin_server_ts", 0))
        for uid, p in self.nio.items():
            rooms = {self.room} | ({dms[uid]} if uid in dms else set())
            due = [e for e in mine if e["type"] == "m.room.encrypted" and e["room_id"] in rooms
                   and e["pos"] > join_pos.get((e["room_id"], uid), float("inf"))]
            # (every one of them received: the last sync may still be on its way)
            p.wait_for(lambda: all(e["event_id"] in p.by_id for e in due) and not [
                x for x in p.undecrypted() if x["sender"] == bot and x["event_id"] in {e["event_id"] for e in due}],
                10)
            missing = [e for e in due if not (p.by_id.get(e["event_id"]) and
                                              not p.by_id[e["event_id"]]["undecryptable"])]
            early_ids = set()
            if uid in self.late_ids:
                # The bot learns of a join from its next sync: what it sent
                # before (a second or so) went to the members it knew.
                jts = join_ts.get((self.room, uid), 0)
                early = [e for e in missing if e.get("origin_server_ts", 0) - jts < LATE_GRACE_MS]
                missing = [e for e in missing if e not in early]
                early_ids = {e["event_id"] for e in early}
                self.notes.append("%s could not read %d bot lines sent within %.0f s of the join" % (
                    p.name, len(early), LATE_GRACE_MS / 1000.0))
            R.check(due and not missing, "%d (a): %s did not decrypt %d of the bot's %d events%s" % (
                self.num, p.name, len(missing), len(due), (": e.g. %s in %s, not received" % (
                    missing[0]["event_id"], missing[0]["room_id"]) if missing and not p.by_id.get(
                    missing[0]["event_id"]) else "")))
            due_ids = {e["event_id"] for e in due}
            bad = [x for x in p.undecrypted() if x["sender"] == bot and x["event_id"] in due_ids
                   and x["event_id"] not in early_ids]
            history = [x for x in p.undecrypted() if x["sender"] == bot and x["event_id"] not in due_ids]
            if history:
                # (Lines from before the join come as history, without their keys: expected.)
                self.notes.append("%s got %d earlier bot lines as history, unreadable" % (p.name, len(history)))
            R.check(not bad, "%d (a): %s holds %d undecryptable events from the bot" % (self.num, p.name, len(bad)))
            R.check(not p.errors, "%d: %s's client: %s" % (self.num, p.name, p.errors[:2]))
        # The bot said "could not read" only to the bogus message.
        cnr = [e for e in hs.bot_messages(bot) if COULD_NOT_READ in e["content"].get("body", "")]
        R.check(len(cnr) == (1 if self.bogus else 0), "%d (d): %d %r lines (one for the bogus message only): %r" % (
            self.num, len(cnr), COULD_NOT_READ, [lines_of(e)[:1] for e in cnr[:3]]))
        if self.late:
            uid, pos = self.late
            p = self.nio[uid]
            jts = join_ts.get((self.room, uid), 0)
            after = [e for e in mine if e["room_id"] == self.room and e["pos"] > pos and e["type"] == "m.room.encrypted"
                     and e.get("origin_server_ts", 0) - jts >= LATE_GRACE_MS]
            read = [e for e in after if p.by_id.get(e["event_id"]) and not p.by_id[e["event_id"]]["undecryptable"]]
            R.check(after and len(read) == len(after), "%d (b): the late player read %d of the bot's %d lines "
                    "from %.0f s after joining" % (self.num, len(read), len(after), LATE_GRACE_MS / 1000.0))
            self.notes.append("the late player read %d of %d bot lines" % (len(read), len(after)))
        # Privacy in every deal, over the decrypted view (as matrix_synapse's rush checks it).
        with base.lock:
            evs = [e for e in hs.events if e["pos"] >= self.start_pos]
        starts = [e["pos"] for e in evs if e["type"] == "m.room.message" and e["sender"] == bot
                  and e["room_id"] == self.room and any(play304lib.DEAL_RE.match(s) for line in lines_of(e)
                                                        for s in play304lib.segs(play304lib.strip_colours(line)))]
        bounds = starts + [float("inf")]
        room_pos = [e["pos"] for e in evs if e["type"] == "m.room.message" and e["sender"] == bot
                    and e["room_id"] == self.room]
        for k, pos in enumerate(starts, start=1):
            first = pos
            if k > 1:
                before = [x for x in room_pos if x < pos]
                first = before[-1] + 1 if before else pos
            leaks, _ = self.privacy([e for e in evs if (first <= e["pos"] < bounds[k] and e["room_id"] != self.room)
                                     or pos <= e["pos"] < bounds[k]], dms)
            R.check(not leaks, "%d (a): privacy in deal %d: %s" % (self.num, k, leaks[:3]))
        self.notes.append("privacy checked over %d deals" % len(starts))
        # One device through restarts (the account kept in the database):
        # the players know that one device of the bot's, no other.
        devs = {r.get("device") for r in base.requests if r["path"].endswith("/login") and r.get("status") == 200
                and r.get("user") == bot}
        R.check(len(devs) == 1, "%d (c): the bot logged in as %d devices: %s" % (self.num, len(devs), sorted(
            d or "?" for d in devs)))
        for uid, p in self.nio.items():
            R.check(len(p.devices_of(bot)) == 1, "%d (c): %s knows %d devices of the bot: %s" % (
                self.num, p.name, len(p.devices_of(bot)), p.devices_of(bot)))
        # The pickle key never reaches the log (which runs at debug here).
        log = self.bot.log_text()
        R.check(self.pickle not in log and self.pickle[:16] not in log,
                "%d: the pickle key is in the bot's log" % self.num)
        # `cardbot device` prints that device and the fingerprint of its
        # ed25519 key as the players know it (groups of four characters).
        p0 = next(iter(self.nio.values()))
        known = list(p0.client.device_store.active_user_devices(bot)) if p0.client is not None else []
        out = subprocess.run([matrixlib.CARDBOT, "device", os.path.join(self.tmp, "data", "cardbot.db")],
                             capture_output=True, timeout=30)
        text = out.stdout.decode("utf-8", "replace")
        if known:
            ed = known[0].ed25519
            fp = " ".join(ed[i:i + 4] for i in range(0, len(ed), 4))
            R.check(out.returncode == 0 and ("device %s" % known[0].device_id) in text and fp in text,
                    "%d: cardbot device does not print the device %s with fingerprint %s: rc %d %r %r" % (
                        self.num, known[0].device_id, fp, out.returncode, text, out.stderr[-300:]))
            R.check("pickle" not in text.lower() and "secret" not in text.lower(),
                    "%d: cardbot device prints more than public keys: %r" % (self.num, text))
            self.notes.append("cardbot device printed the fingerprint the players know (%s...)" % fp[:9])
        else:
            R.check(False, "%d: the players know no device of the bot's" % self.num)
        # The bot's key traffic, as seen on the way to the server.
        kinds = [r["path"] for r in base.requests if r.get("user") == bot or r.get("user") is None]
        for what in ("/keys/upload", "/keys/query", "/keys/claim", "/sendToDevice/"):
            R.check(any(what in k for k in kinds), "%d: the bot never made a %s request" % (self.num, what))

    def teardown(self):
        self.stop.set()
        for p in self.nio.values():
            try:
                p.stop()
            except Exception:  # noqa: BLE001
                pass
        super().teardown()

    def run(self):
        super().run()
        if self.notes:
            print("    " + "; ".join(self.notes))


class SynapseTable(Table):
    on_synapse = True


def main():
    t0 = time.time()
    why = e2eelib.nio_missing()
    if why:
        skip("every scenario: %s" % why)
        print("%s: 0 passed, 0 failed" % NAME)
        return 0
    if not ONLY or 0 in ONLY:
        try:
            scenario0()
        except Exception:  # noqa: BLE001
            traceback.print_exc()
            R.check(False, "0: %s" % traceback.format_exc().strip().splitlines()[-1])
    no_bot = bot_encrypts()
    if no_bot:
        skip("scenarios 1 and 2 (the bot in encrypted rooms): %s" % no_bot)
    else:
        if not ONLY or 1 in ONLY:
            why = synapselib.synapse_missing()
            if why:
                skip("scenario 1 (Synapse): %s" % why)
            else:
                SynapseTable(1, "Synapse: an encrypted room, a whole match, a late fifth player, two restarts, "
                             "an unreadable message", match=True, restarts=True, fifth=True).run()
        if not ONLY or 2 in ONLY:
            Table(2, "the stand-in: an encrypted room, one deal, an unreadable message").run()
    print("  total %.1f s" % (time.time() - t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
