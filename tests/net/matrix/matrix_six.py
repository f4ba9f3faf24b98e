#!/usr/bin/env python3
"""matrix_six.py: a whole six-player 304 match ("304six") through the real
cardbot and the test homeserver (tests/lib/matrixlib.py: every request the bot
makes is checked against the Matrix spec).

Three scripted Matrix users play with three computer players, as in
tests/net/irc/irc_six.py: ann opens a table in the room (`!304`), switches it to six
seats (`!new 304six`, the alias of `!new 304 6`), sets `!set scoring bank`;
bob `!sit 2`, cat `!sit 6` and `!ascii`; `!bot 3`, `!bot 4`, `!bot 5`;
`!start`. Each player accepts the bot's invitation to a direct room, reads
its hands there and answers each hand line that says "your turn" in that
direct room (ann bids in the table's room), choosing only from what the bot
said (its turn prompt in the room, the "you may play" list: sixlib.decide).
The match is played until the room hears "the match is over".

Checks: the same checks over every transcript as irc_six.py (sixlib.py,
MatchCheck: privacy of every direct room and of the room, hands of 4 then 6,
tricks of six cards from six seats, end lines, bank tokens, no honest move
refused, the match-end line), and for Matrix: every direct room holds the
bot and its one player only, no transaction id stored twice, no spec
violation, the bot alive and no sanitizer report; a self-test plants
defects in the transcripts and expects each to be caught.

Scenario 2 seats six people (`!new 304 6`, `!sit`, `!sit 5`), so every
hand is known (36 distinct cards a deal); ann and dan ask their partner
whenever the bot offers it, bob in scenario 1 (the asked seat must be the
next teammate in turn order).

Ends with "matrix_six: N passed, M failed". Environment: CARDBOT,
MX_SIX_ONLY (scenarios, e.g. "1"), MX_SIX_TIMEOUT (a guard, seconds for each whole
match, default 1800; STALL, 45 s without a line, is the real bound), SIX_DUMP=1 (keep the transcripts in a temporary
file), MX_VERBOSE=1
(the room's last lines and the bot's log tail on failure).
"""
import os
import re
import shutil
import sys
import threading
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrixlib  # noqa: E402
import sixlib  # noqa: E402
from matrixlib import Bot, Homeserver, Results  # noqa: E402
from sixlib import Line, segs  # noqa: E402

VERBOSE = os.environ.get("MX_VERBOSE") == "1"
# A match is waited for until it ends, or until STALL seconds pass with no
# line from the bot (stuck), or the bot dies: events, not a clock, so a
# busy machine only makes it slower. TIMEOUT only ends a test whose bot
# keeps talking for ever (a match ends within its tokens' deals).
TIMEOUT = float(os.environ.get("MX_SIX_TIMEOUT", "1800"))
STALL = 45.0
R = Results("matrix_six")


def lines_of(ev):
    b = ev["content"].get("body")
    return b.split("\n") if isinstance(b, str) else []


class Player(threading.Thread):
    """A simulated Matrix user at the table (see irc_six.Player)."""

    def __init__(self, hs, botid, room, uid, name, ascii=False, bids_in_room=False, asks=False):
        super().__init__(daemon=True)
        self.asks, self.asked = asks, None
        self.hs, self.botid, self.room, self.uid, self.name = hs, botid, room, uid, name
        self.ascii, self.bids_in_room = ascii, bids_in_room
        self.stop = threading.Event()
        self.pos = 0
        self.room_seen = 0
        self.deal = 0
        self.prompt = None
        self.pending = None
        self.done = set()
        self.nacts = 0     # moves sent: a hand line that repeats after one is a new turn
        self.actions = []
        self.log = []      # (time, what was sent, the prompt it went by, the hand line)
        self.errors = []
        self.dm = None

    def run(self):
        hs = self.hs
        try:
            while not self.stop.is_set():
                with hs.cond:
                    if len(hs.events) <= self.pos:
                        hs.cond.wait(0.1)
                    new = hs.events[self.pos:]
                    self.pos += len(new)
                for e in new:
                    self.handle(e)
                if self.pending:
                    h, since = self.pending
                    if h["phase"] not in ("bid4", "bid6") or sixlib.prompt_fits(h, self.prompt) or \
                            time.time() - since > 3:
                        self.pending = None
                        self.act(h)
        except Exception:
            self.errors.append(traceback.format_exc())

    def handle(self, e):
        hs = self.hs
        if e["type"] == "m.room.member" and e.get("state_key") == self.uid and e["sender"] == self.botid and \
                e["content"].get("membership") == "invite":
            hs.join(self.uid, e["room_id"])
            return
        if e["type"] != "m.room.message" or e["sender"] != self.botid:
            return
        if e["room_id"] == self.room:
            self.room_seen += 1
            for line in lines_of(e):
                for s in segs(line):
                    p = sixlib.PROMPT_RE.match(s)
                    if p and p.group("name") == self.name and p.group("what") == "bid":
                        self.prompt = p.group("opts") or ""
                if sixlib.deal_ended(line):
                    self.deal += 1
                    self.prompt = None
            return
        room = hs.rooms.get(e["room_id"])
        if not room or not room.is_direct or hs.membership(self.uid, room.id) != "join":
            return
        self.dm = room.id
        for line in lines_of(e):
            h = sixlib.parse_hand(line, self.ascii)
            if not h or not h["turn"]:
                continue
            key = (h["raw"], self.room_seen, self.nacts)
            if key in self.done:
                continue
            self.done.add(key)
            self.pending = (h, time.time())

    def act(self, h):
        self.nacts += 1
        ask = self.asks and self.asked != self.deal
        text, kind, card, down = sixlib.decide(h, self.prompt, ask, getattr(self, "z", None))
        if kind == "partner":
            self.asked = self.deal
        self.prompt_used, self.prompt = self.prompt, None
        if text is None:
            self.errors.append("no move for %r" % h["raw"])
            return
        self.log.append((time.time(), text, self.prompt_used, h["raw"]))
        if kind in ("bid", "pass", "partner") and self.bids_in_room:
            self.hs.say(self.uid, self.room, "!" + text)
        else:
            self.hs.say(self.uid, self.dm, text)
        self.actions.append((self.deal, kind, card, down))


def main():
    if not os.path.exists(matrixlib.CARDBOT):
        print("matrix_six: no cardbot binary at %s" % matrixlib.CARDBOT)
        print("matrix_six: 0 passed, 1 failed")
        return 1
    only = set(x.strip() for x in os.environ.get("MX_SIX_ONLY", "").split(",") if x.strip())
    for sc in SCENARIOS:
        if not only or str(sc["num"]) in only:
            run(sc)
    return R.finish()


SCENARIOS = [
    {"num": 1, "title": "three humans (cat reads ascii) and three computer players", "new": "!new 304six",
     "humans": [("ann", 1, False, True), ("bob", 2, False, False), ("cat", 6, True, False)],
     "bots": [("ann", 3), ("ann", 4), ("bob", 5)], "asks": ("bob",)},
    {"num": 2, "title": "six humans (every hand known: 36 cards a deal)", "new": "!new 304 6",
     "humans": [("ann", 1, False, False), ("bob", None, False, False), ("cat", None, True, False),
                ("dan", 5, False, True), ("fay", None, False, False), ("gus", None, False, False)],
     "bots": [], "asks": ("ann", "dan")},
]
SCENARIOS += sixlib.SIZE_SCENARIOS   # the other table sizes, through the same checks


def run(sc, make_hs=None):
    """One scenario; make_hs: a started homeserver (default the stand-in;
    tests/net/matrix/matrix_synapse.py passes a real Synapse)."""
    t0 = time.time()
    f0 = R.failed
    print("scenario %d: %s" % (sc["num"], sc["title"]))
    tmp = matrixlib.tempdir()
    hs = make_hs() if make_hs else Homeserver().start()
    bot = None
    players = []
    try:
        botid = hs.add_user("cardbot", password="botpw")
        names = [h[0] for h in sc["humans"]]
        ascii = {h[0] for h in sc["humans"] if h[2]}
        ids = {n: hs.add_user(n, name=n) for n in names}
        eve = hs.add_user("eve", name="eve")
        room = hs.create_room(ids["ann"], alias="#304:" + getattr(hs, "server", matrixlib.SERVER), invite=[botid])
        for n in names[1:]:
            hs.join(ids[n], room)
        hs.join(eve, room)
        bot = Bot(tmp, hs.url, botid, 'password = "botpw";')
        with open(bot.cfg) as f:
            cfg = f.read()
        cfg = cfg.replace("deal_pause_ms = 500;", "deal_pause_ms = 300;").replace("computer_delay_ms = 50;",
                                                                                  "computer_delay_ms = 0;")
        with open(bot.cfg, "w") as f:
            f.write(cfg)
        bot.start()
        if not R.check(hs.wait(lambda: hs.membership(botid, room) == "join", 15),
                       "the bot did not join: " + bot.log_tail()):
            return
        time.sleep(0.3)
        players += [Player(hs, botid, room, ids[n], n, ascii=a, bids_in_room=chan, asks=n in sc.get("asks", ()))
                    for n, _, a, chan in sc["humans"]]
        for p in players:
            p.start()

        def room_segs(start=0):
            return [s for e in hs.bot_messages(botid, room, start) for line in lines_of(e) for s in segs(line)]

        first = names[0]
        size = sc.get("size", "six")
        z = sixlib.SIZES[size]
        for p in players:   # the size's bid thresholds for the scripted choices
            p.z = z
        steps = [
            (first, "!304", lambda s: s.startswith("%s sits in seat 1" % first), "!304 opens a table"),
            (first, sc["new"], lambda s: s.startswith("This table now plays %s (%d seats)" % (z["name"], z["seats"])),
             "%s switches the table to %d seats" % (sc["new"], z["seats"])),
            (first, "!set scoring bank", lambda s: s.startswith("scoring is now bank"), "!set scoring bank"),
        ]
        for n, seat, _, _ in sc["humans"][1:]:
            if seat:
                steps.append((n, "!sit %d" % seat, lambda s, n=n, seat=seat: s == "%s sits in seat %d" % (n, seat),
                              "%s: !sit %d" % (n, seat)))
            else:
                steps.append((n, "!sit", lambda s, n=n: re.match(r"^%s sits in seat [1-8]$" % n, s), "%s: !sit" % n))
        for who, seat in sc["bots"]:
            steps.append((who, "!bot %d" % seat, lambda s, seat=seat: sixlib.BOT_SIT_RE.match(s) and
                          s.endswith("seat %d" % seat), "!bot %d" % seat))
        for who, text, pred, what in steps:
            k = len(hs.events)
            hs.say(ids[who], room, text)
            if not R.check(hs.wait(lambda: any(pred(s) for s in room_segs(k)), 10),
                           "%s: no such answer in the room; it said %r" % (what, room_segs()[-4:])):
                return
        for n in ascii:
            k = len(hs.events)
            hs.say(ids[n], room, "!ascii")
            hs.wait(lambda: any(e["sender"] == botid and e["room_id"] != room and e["type"] == "m.room.message"
                                and "letters" in e["content"].get("body", "") for e in hs.events[k:]), 5)
        start = len(hs.events)
        t_start = time.time()
        hs.say(ids[first], room, "!start")
        R.check(hs.wait(lambda: any(s.startswith("a match of") for s in room_segs(start)), 10),
                "!start: no match began: %r" % room_segs()[-4:])
        over = False
        last_n, last_t = 0, time.time()
        while time.time() - t_start < TIMEOUT:
            if hs.wait(lambda: any(sixlib.MATCH_WON_RE.match(s) for s in room_segs(start)), 1):
                over = True
                break
            n = len(hs.events)
            if n != last_n:
                last_n, last_t = n, time.time()
            elif time.time() - last_t > STALL or not bot.alive():
                break
        took = time.time() - t_start
        time.sleep(1.0)
        for p in players:
            p.stop.set()
            p.join(3)
        R.check(over, "the match did not end within %.0f s; the room's last lines: %r; the last lines of each "
                "direct room: %r" % (TIMEOUT, room_segs()[-6:], {
                    p.name: [x for e in hs.bot_messages(botid, p.dm) for x in lines_of(e)][-2:] if p.dm else None
                    for p in players}))
        if not over and VERBOSE:
            for e in hs.bot_messages(botid, room)[-12:]:
                print("    room %.3f %r" % (e["t"], lines_of(e)))
            for p in players:
                for e in (hs.bot_messages(botid, p.dm) if p.dm else [])[-6:]:
                    print("    %s dm %.3f %r" % (p.name, e["t"], lines_of(e)))
                for x in p.log[-5:]:
                    print("    %s sent %.3f %r by prompt %r on %r" % (p.name, x[0], x[1], x[2], x[3]))
        R.check(bot.alive(), "the bot died: %s" % bot.log_tail())
        for p in players:
            R.check(not p.errors, "player %s: %s" % (p.name, [e.strip().splitlines()[-1] for e in p.errors][:3]))
        # the transcripts, in the homeserver's order
        with hs.lock:
            events = list(hs.events)
        dms = hs.direct_rooms(botid)
        streams = {p.name: [] for p in players}
        observer = []
        for e in events:
            if e["type"] != "m.room.message" or e["sender"] != botid:
                continue
            for line in lines_of(e):
                if e["room_id"] == room:
                    observer.append(Line(e["t"], True, line))
                    for p in players:
                        streams[p.name].append(Line(e["t"], True, line))
                else:
                    for p in players:
                        if dms.get(p.uid) == e["room_id"]:
                            streams[p.name].append(Line(e["t"], False, line))
        known = set(dms.values()) | {room}
        stray = [e["room_id"] for e in events if e["type"] == "m.room.message" and e["sender"] == botid
                 and e["room_id"] not in known]
        R.check(not stray, "bot messages in rooms that are neither the table's nor a player's direct room: %s" %
                sorted(set(stray)))
        for p in players:
            R.check(dms.get(p.uid) is not None and p.dm == dms.get(p.uid),
                    "%s has no direct room with the bot (%r, %r)" % (p.name, dms.get(p.uid), p.dm))
        for u, rid in dms.items():
            r = hs.rooms[rid]
            others = [x for x, m in r.members.items() if m in ("join", "invite") and x not in (botid, u)]
            R.check(not others, "the direct room of %s also holds %s" % (u, others))
        txns = [e.get("txn") for e in events if e["sender"] == botid and e["type"] == "m.room.message"]
        R.check(len(txns) == len(set(txns)), "a transaction id was stored twice")
        actions = {p.name: p.actions for p in players}
        mc = sixlib.MatchCheck(streams, observer, ascii=ascii, actions=actions, scoring="bank", split="hands",
                               size=size)
        fails = mc.run()
        if os.environ.get("SIX_DUMP") == "1":
            print("  transcripts in %s" % sixlib.dump("matrix_six", streams, observer))
        for f in fails[:15]:
            print("    " + (f if len(f) < 400 else f[:400] + "..."))
        if len(fails) > 15:
            print("    ... %d more" % (len(fails) - 15))
        R.check(not fails, "the match's transcripts: %d findings (above); transcripts kept in %s" % (
            len(fails), sixlib.dump("matrix_six", streams, observer) if fails else ""))
        R.check(mc.stats["deals"] >= 1 and mc.stats["tricks"] >= z["hand"], "no deal was played through: %r" % mc.stats)
        for n in ascii:
            hands = [x.text for x in streams[n] if not x.chan and sixlib.HAND_RE.match(x.text)]
            R.check(hands and not any(sixlib.CARD_RE.search(t) for t in hands),
                    "%s (ascii) was sent suit symbols: %r" % (n, [t for t in hands if sixlib.CARD_RE.search(t)][:1]))
        sixes_played = [s for x in observer for s in segs(x.text) if sixlib.PLAYED_RE.match(s)
                        and sixlib.PLAYED_RE.match(s).group("card").startswith("6")]
        if size == "six":
            R.check(sixes_played or mc.stats["cards_played"] == 0, "no six was played in the whole match")
        if not fails and over:
            missed = sixlib.self_test(streams, observer, ascii=ascii, actions=actions, split="hands", size=size)
            R.check(not missed, "self-test: planted defects not caught: %s" % missed)
        st = mc.stats
        nmoves = sum(len(p.actions) for p in players)
        print("  match: %d deals, %d tricks, %d cards played (%d face down) in %.0f s; %d six-card biddings won, "
              "%d pcc, %d caps, %d partner asks, %d inspection lines; first hands seen %d times, "
              "second-round hands %d times; %d sixes played" % (
                  st["deals"], st["tricks"], st["cards_played"], st["facedown"], took, st["bid6_won"], st["pcc"],
                  st["caps"], st.get("asks", 0), st.get("inspections", 0), st["hands4"], st["hands6"],
                  len(sixes_played)))
        print("  hands stored in a direct room before the room's end line of the deal before: %d" %
              getattr(mc, "early", 0))
        print("  lines: %d in the room, %d in the direct rooms; %d moves by the humans; %d requests" % (
            st["channel_lines"], st["private_lines"], nmoves, len(hs.requests)))
    except Exception:
        traceback.print_exc()
        R.check(False, "exception: %s" % traceback.format_exc().strip().splitlines()[-1])
    finally:
        for p in players:
            p.stop.set()
        if bot is not None:
            alive = bot.alive()
            bot.stop()
            log = bot.log_text()
            R.check("AddressSanitizer" not in log and "runtime error" not in log, "sanitizer: %s" % bot.log_tail())
            if VERBOSE and R.failed:
                print(bot.log_tail(40))
            del alive
        R.check(not hs.violations, "spec violations: %s" % hs.violations[:5])
        hs.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        print("%s scenario %d (%.1f s)" % ("PASS" if R.failed == f0 else "FAIL", sc["num"], time.time() - t0))


if __name__ == "__main__":
    sys.exit(main())
