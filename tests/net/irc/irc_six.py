#!/usr/bin/env python3
"""irc_six.py: a whole six-player 304 match ("304six") through the real
cardbot and a real ngircd.

One ngircd (127.0.0.1, free port), `$CARDBOT run -c FILE` (default
bin/cardbot), an observer in #304 who never sits, and three scripted human
players who are plain socket clients (tests/lib/irclib.py): ann opens a 304
table (`!304`), switches it to six seats (`!new 304 6`), sets `!set scoring
bank` (the losing side pays into the bank: the match ends in fewer deals,
by the table's own rules), bob takes `!sit 2`, cat `!sit 6` and `!ascii`
(letters: "6S"), computer players take `!bot 3`, `!bot 4`, `!bot 5`, and
ann `!start`s (scenario 1). Scenario 2 seats six humans (`!new 304six`,
`!sit` and `!sit N`), so every hand of every deal is known. Teams in
scenario 1: seats 1, 3, 5 (ann and two computers) against 2, 4, 6 (bob, a
computer, cat). The players act only on what the bot tells them:
each answers a private hand line that says "your turn", bidding from its
turn prompt's range (160 in the four-card bidding when nobody has bid, 250
in the six-card bidding when offered) and playing the first card of the
bot's "you may play" list (face-down plays and the trump card privately).
The match is played until the bot says "the match is over".

Checks, over every transcript (tests/lib/sixlib.py, MatchCheck): privacy (no
private line names a card dealt to another player before the channel
showed it, the trumper's inspection line excepted; no channel line names a
card before it is played or shown: never a face-down card, never the trump
card before it is opened or revealed); hands of 4 then 6 cards each deal;
tricks 1..6 of six cards from the six seats; end lines that agree with the
bid; tokens as the token table says under bank scoring; no move taken
from the bot's own lists refused; the match-end line once, naming the side
with tokens; the asked partner is the next teammate in turn order (bob
asks whenever offered; in the six-human match ann and dan). The observer
eve, never seated, sends !table, !score, !last and !hand every 3 s: what
she is told privately names only cards the channel already showed. Also:
the table switched to six seats, the ascii reader saw letters only, a six
was played, the bot stayed up; and a self-test plants
defects in the transcripts and expects each to be caught.

Ends with "irc_six: N passed, M failed". Environment: CARDBOT (binary),
NGIRCD (server), IRC_SIX_ONLY (scenarios to run, e.g. "2"), IRC_SIX_TIMEOUT
(a guard: seconds for each whole match, default 1800; STALL, 45 s without a line, is the real bound), SIX_DUMP=1 (write each match's
transcripts to a temporary file and print its name), IRC_SIX_VERBOSE=1
(transcript tails on failure), IRC_SIX_KEEP=1 (keep the temporary
directory on failure).
"""
import os
import re
import sys
import threading
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
import sixlib  # noqa: E402
from play304lib import Pacer  # noqa: E402
from irclib import Bot, Client, NgIRCd  # noqa: E402
from sixlib import Line, segs  # noqa: E402

NAME = "irc_six"
CHAN = "#304"
BOTNICK = "cardbot"
# A match is waited for until it ends, or until STALL seconds pass with no
# line from the bot (stuck), or the bot dies: events, not a clock, so a
# busy machine only makes it slower. TIMEOUT only ends a test whose bot
# keeps talking for ever (a match ends within its tokens' deals).
TIMEOUT = float(os.environ.get("IRC_SIX_TIMEOUT", "1800"))
VERBOSE = os.environ.get("IRC_SIX_VERBOSE") == "1"
STALL = 45.0   # seconds without a channel line from the bot: the match is stuck


class Results:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, cond, text):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: %s" % (text if len(text) < 600 else text[:600] + "..."))
            sys.stdout.flush()
        return cond


R = Results()


def bot_msgs(client):
    with client.cond:
        return [m for m in client.lines if m.src.lower() == BOTNICK and m.cmd in ("NOTICE", "PRIVMSG")]


def to_lines(client):
    return [Line(m.t, m.target.lower() == CHAN, m.text) for m in bot_msgs(client)]


class Player(threading.Thread):
    """A scripted player: reads its lines; on a private hand line saying
    "your turn" it moves as sixlib.decide says, from the bot's own lists.
    In a bidding it first waits (up to 3 s) for its turn prompt in the
    channel, which the bot sends before the hand."""

    def __init__(self, client, ascii=False, bids_in_channel=False, asks=False):
        super().__init__(daemon=True)
        self.asks, self.asked = asks, None
        self.c = client
        self.name0 = client.nick
        self.ascii = ascii
        self.bids_in_channel = bids_in_channel
        self.pacer = Pacer()
        self.stop = threading.Event()
        self.idx = 0
        self.chan_seen = 0
        self.deal = 0
        self.prompt = None          # options of my last turn prompt since my last move
        self.pending = None         # (hand, since)
        self.done = set()
        self.nacts = 0     # moves sent: a hand line that repeats after one is a new turn
        self.actions = []           # (deal, kind, card, facedown)
        self.sent = []              # (time, text)
        self.errors = []

    def send(self, target, text):
        self.pacer.take()
        self.sent.append((time.time(), text))
        try:
            self.c.privmsg(target, text)
        except OSError:
            pass

    def run(self):
        try:
            while not self.stop.is_set():
                with self.c.cond:
                    if len(self.c.lines) <= self.idx:
                        self.c.cond.wait(0.1)
                    new = self.c.lines[self.idx:]
                    self.idx += len(new)
                for m in new:
                    self.handle(m)
                if self.pending:
                    h, since = self.pending
                    if h["phase"] not in ("bid4", "bid6") or sixlib.prompt_fits(h, self.prompt) or \
                            time.time() - since > 3:
                        self.pending = None
                        self.act(h)
        except Exception:
            self.errors.append(traceback.format_exc())

    def handle(self, m):
        if m.src.lower() != BOTNICK or m.cmd not in ("NOTICE", "PRIVMSG"):
            return
        if m.target.lower() == CHAN:
            self.chan_seen += 1
            for s in segs(m.text):
                p = sixlib.PROMPT_RE.match(s)
                if p and p.group("name").lower() == self.c.nick.lower() and p.group("what") == "bid":
                    self.prompt = p.group("opts") or ""
            if sixlib.deal_ended(m.text):
                self.deal += 1
                self.prompt = None
            return
        h = sixlib.parse_hand(m.text, self.ascii)
        if not h or not h["turn"]:
            return
        key = (h["raw"], self.chan_seen, self.nacts)
        if key in self.done:
            return
        self.done.add(key)
        self.pending = (h, time.time())

    def act(self, h):
        self.nacts += 1
        ask = self.asks and self.asked != self.deal
        text, kind, card, down = sixlib.decide(h, self.prompt, ask, getattr(self, "z", None))
        if kind == "partner":
            self.asked = self.deal
        self.prompt = None
        if text is None:
            self.errors.append("no move for %r" % h["raw"])
            return
        if kind in ("bid", "pass", "partner") and self.bids_in_channel:
            self.send(CHAN, "!" + text)
        else:
            self.send(BOTNICK, text)
        self.actions.append((self.deal, kind, card, down))


def wait_seg(client, pred, timeout, start=0):
    def look():
        for m in client.lines[start:]:
            if m.src.lower() == BOTNICK and m.target.lower() == CHAN:
                if any(pred(s) for s in segs(irclib.strip_colours(m.text))):
                    return True
        return False
    return client.wait(look, timeout)


def bot_in_channel(client):
    for m in client.lines:
        if m.cmd == "JOIN" and m.src.lower() == BOTNICK:
            return True
        if m.cmd == "353" and re.search(r"(^|\s)[@+]?%s(\s|$)" % BOTNICK, m.text, re.I):
            return True
    return False


SCENARIOS = [
    {"num": 1, "title": "three humans (cat reads ascii) and three computer players", "new": "!new 304 6",
     "humans": [("ann", 1, False, True), ("bob", 2, False, False), ("cat", 6, True, False)],
     "bots": [("ann", 3), ("ann", 4), ("bob", 5)], "asks": ("bob",)},
    {"num": 2, "title": "six humans (every hand known: 36 cards a deal)", "new": "!new 304six",
     "humans": [("ann", 1, False, False), ("bob", None, False, False), ("cat", None, False, False),
                ("dan", 5, False, True), ("fay", None, False, False), ("gus", None, False, False)],
     "bots": [], "asks": ("ann", "dan")},
]
SCENARIOS += sixlib.SIZE_SCENARIOS   # the other table sizes, through the same checks


def main():
    for path, what in ((irclib.CARDBOT, "built"), (irclib.NGIRCD, "installed")):
        if not os.access(path, os.X_OK):
            print("%s: %s is not %s" % (NAME, path, what))
            print("%s: 0 passed, 1 failed" % NAME)
            return 1
    t0 = time.time()
    only = set(x.strip() for x in os.environ.get("IRC_SIX_ONLY", "").split(",") if x.strip())
    for sc in SCENARIOS:
        if only and str(sc["num"]) not in only:
            continue
        t1 = time.time()
        f0 = R.failed
        print("scenario %d: %s" % (sc["num"], sc["title"]))
        sys.stdout.flush()
        ctx = {"tmp": irclib.tempdir(), "clients": {}, "players": []}
        try:
            play(ctx, sc)
        except Exception:
            traceback.print_exc()
            R.check(False, "exception: %s" % traceback.format_exc().strip().splitlines()[-1])
        finally:
            cleanup(ctx)
        show(ctx)
        print("%s scenario %d (%.0f s)" % ("PASS" if R.failed == f0 else "FAIL", sc["num"], time.time() - t1))
        sys.stdout.flush()
    print("  total time %.0f s" % (time.time() - t0))
    print("%s: %d passed, %d failed" % (NAME, R.passed, R.failed))
    return 1 if R.failed else 0


def play(ctx, sc):
    tmp, clients, players = ctx["tmp"], ctx["clients"], ctx["players"]
    srv = ctx["srv"] = NgIRCd(tmp)
    srv.start()
    bot = ctx["bot"] = Bot(tmp, srv.port, nick=BOTNICK, extra_tables="deal_pause_ms = 300;\n  computer_delay_ms = 0;")
    bot.start()
    eve = ctx["eve"] = Client(srv.port, "eve").connect()
    eve.join(CHAN)
    if not R.check(eve.wait(lambda: bot_in_channel(eve), 15), "the bot did not join %s: %s" % (
            CHAN, bot.log_tail())):
        return
    ascii = {n for n, _, a, _ in sc["humans"] if a}
    for n, _, a, chan_bids in sc["humans"]:
        clients[n] = Client(srv.port, n).connect()
        clients[n].join(CHAN)
        # the players exist from here (their pacers keep every command, setup
        # too, under the bot's per-person limit); they read from the start
        players.append(Player(clients[n], ascii=a, bids_in_channel=chan_bids, asks=n in sc.get("asks", ())))
    pl = {p.name0: p for p in players}
    first = sc["humans"][0][0]
    size = sc.get("size", "six")
    z = sixlib.SIZES[size]
    for p in players:   # the size's bid thresholds for the scripted choices
        p.z = z
    steps = [
        (first, "!304", lambda s: s.startswith("%s sits in seat 1" % first), "!304 opens a table, %s in seat 1" % first),
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
        steps.append((who, "!bot %d" % seat, lambda s, seat=seat: re.match(
            r"^\S+ \(a computer player\) sits in seat %d$" % seat, s), "!bot %d" % seat))
    for who, text, pred, what in steps:
        k = len(eve.lines)
        pl[who].send(CHAN, text)
        if not R.check(wait_seg(eve, pred, 10, k), "%s: no such answer in the channel; it said %r" % (
                what, [irclib.strip_colours(m.text) for m in bot_msgs(eve)[-4:]])):
            return
    for n in ascii:   # letters instead of suit symbols (answered privately)
        k = len(clients[n].lines)
        pl[n].send(CHAN, "!ascii")
        clients[n].wait(lambda: any(m.src.lower() == BOTNICK and m.target.lower() != CHAN
                                    for m in clients[n].lines[k:]), 5)
    for p in players:
        p.start()
    # eve, who is not seated, asks about the table now and then (answers in
    # the channel or privately: either way they may name only public cards)
    watch_stop = threading.Event()
    ctx["watch_stop"] = watch_stop

    def watch():
        k = 0
        while not watch_stop.wait(3.0):
            eve.privmsg(CHAN, ("!table", "!score", "!last", "!hand")[k % 4])
            k += 1
    threading.Thread(target=watch, daemon=True).start()
    start = len(eve.lines)
    t_start = time.time()
    pl[first].send(CHAN, "!start")
    R.check(wait_seg(eve, lambda s: s.startswith("a match of"), 10, start),
            "!start: no match began: %r" % [irclib.strip_colours(m.text) for m in bot_msgs(eve)[-4:]])
    # the match, to its end
    over = False
    last_n, last_t = 0, time.time()
    while time.time() - t_start < TIMEOUT:
        if wait_seg(eve, lambda s: sixlib.MATCH_WON_RE.match(s), 1, start):
            over = True
            break
        n = len(eve.lines)
        if n != last_n:
            last_n, last_t = n, time.time()
        elif time.time() - last_t > STALL or not bot.alive():
            break
    took = time.time() - t_start
    watch_stop.set()
    time.sleep(1.0)   # the last private lines
    for p in players:
        p.stop.set()
        p.join(3)
    R.check(over, "the match did not end within %.0f s (%s); the channel's last lines: %r; players' last "
            "private lines: %r" % (TIMEOUT, "stalled" if time.time() - t_start < TIMEOUT else "timeout",
                                    [irclib.strip_colours(m.text) for m in bot_msgs(eve)[-6:]],
                                    {p.name0: [irclib.strip_colours(m.text) for m in bot_msgs(p.c)
                                               if m.target.lower() != CHAN][-2:] for p in players}))
    R.check(bot.alive(), "the bot died: %s" % bot.log_tail())
    for p in players:
        R.check(not p.errors, "player %s: %s" % (p.name0, [e.strip().splitlines()[-1] for e in p.errors][:3]))
    # the transcripts
    streams = {n: to_lines(c) for n, c in clients.items()}
    observer = [x for x in to_lines(eve) if x.chan]
    actions = {p.name0: p.actions for p in players}
    mc = sixlib.MatchCheck(streams, observer, ascii=ascii, actions=actions, scoring="bank",
                           watchers={"eve": to_lines(eve)}, size=size)
    fails = mc.run()
    if os.environ.get("SIX_DUMP") == "1":
        print("  transcripts in %s" % sixlib.dump("irc_six", streams, observer))
    for f in fails[:15]:
        print("    " + (f if len(f) < 400 else f[:400] + "..."))
    if len(fails) > 15:
        print("    ... %d more" % (len(fails) - 15))
    R.check(not fails, "the match's transcripts: %d findings (above); transcripts kept in %s" % (
        len(fails), sixlib.dump("irc_six", streams, observer) if fails else ""))
    R.check(mc.stats["deals"] >= 1 and mc.stats["tricks"] >= z["hand"], "no deal was played through: %r" % mc.stats)
    # the ascii readers saw letters only
    for n in ascii:
        hands = [x.text for x in streams[n] if not x.chan and sixlib.HAND_RE.match(x.text)]
        R.check(hands and not any(sixlib.CARD_RE.search(t) for t in hands),
                "%s (ascii) was sent suit symbols: %r" % (n, [t for t in hands if sixlib.CARD_RE.search(t)][:1]))
    sixes_played = [s for x in observer for s in segs(x.text) if sixlib.PLAYED_RE.match(s)
                    and sixlib.PLAYED_RE.match(s).group("card").startswith("6")]
    if size == "six":
        R.check(sixes_played or mc.stats["cards_played"] == 0, "no six was played in the whole match")
    # every move accepted is checked per deal; moves made at all:
    nmoves = sum(len(p.actions) for p in players)
    R.check(nmoves > 0, "the scripted players made no move")
    # the self-test: the checks catch planted defects
    if not fails and over:
        missed = sixlib.self_test(streams, observer, ascii=ascii, actions=actions, size=size)
        R.check(not missed, "self-test: planted defects not caught: %s" % missed)
    st = mc.stats
    print("  match: %d deals, %d tricks, %d cards played (%d face down) in %.0f s; %d six-card biddings won, "
          "%d pcc, %d caps, %d partner asks, %d inspection lines; first hands seen %d times, "
              "second-round hands %d times; %d sixes played" % (
              st["deals"], st["tricks"], st["cards_played"], st["facedown"], took, st["bid6_won"], st["pcc"],
              st["caps"], st.get("asks", 0), st.get("inspections", 0), st["hands4"], st["hands6"],
                  len(sixes_played)))
    print("  lines: %d in the channel (the longest %d characters), %d private to the %d humans, %d to eve (not "
          "seated: !table, !score, !last, !hand); %d moves by the humans" % (
              st["channel_lines"], st.get("longest", 0), st["private_lines"], len(players),
              st.get("watcher_lines", 0), nmoves))
    return


def cleanup(ctx):
    if ctx.get("watch_stop"):
        ctx["watch_stop"].set()
    for p in ctx["players"]:
        p.stop.set()
    for c in list(ctx["clients"].values()) + [ctx.get("eve")]:
        if c:
            try:
                c.quit("done")
            except Exception:
                pass
    bot = ctx.get("bot")
    if bot:
        bot.stop()
        try:
            with open(bot.log, "rb") as f:
                log = f.read().decode("utf-8", "replace")
        except OSError:
            log = ""
        R.check("AddressSanitizer" not in log and "runtime error" not in log, "sanitizer report: %s" % bot.log_tail())
    if ctx.get("srv"):
        ctx["srv"].stop()
    if R.failed and os.environ.get("IRC_SIX_KEEP") == "1":
        print("  kept %s" % ctx["tmp"])
    else:
        irclib.rmtree(ctx["tmp"])


def show(ctx):
    eve, clients, bot = ctx.get("eve"), ctx["clients"], ctx.get("bot")
    if R.failed and VERBOSE and eve is not None:
        print("---- channel (last 40) ----")
        for m in bot_msgs(eve)[-40:]:
            print("   ", irclib.strip_colours(m.text)[:300])
        for n, c in (clients or {}).items():
            print("---- %s private (last 10) ----" % n)
            for m in [m for m in bot_msgs(c) if m.target.lower() != CHAN][-10:]:
                print("   ", irclib.strip_colours(m.text)[:300])
        if bot:
            print("---- bot log ----")
            print(bot.log_tail(30))


if __name__ == "__main__":
    sys.exit(main())
