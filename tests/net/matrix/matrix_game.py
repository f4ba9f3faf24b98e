#!/usr/bin/env python3
"""matrix_game.py: whole 304 deals through the real cardbot and the test homeserver.

Scripted players are simulated Matrix users of tests/lib/matrixlib.py: they
open and join the table with commands in the room, accept the bot's
invitations to their direct rooms, read their hands there and answer each
"your turn" hand line with a move sent in their direct room. Scenarios:

  1 four players, one deal: figures (events per deal in the room and in
    each direct room, requests per deal, command-to-reply latency, memory);
  2 two players and two computer players, and a third who never accepts the
    invitation to their direct room: the bot asks them in the room, the game
    waits on them; once they accept, the deal completes;
  3 faults on sends during a deal: 429 (retry_after_ms), 500s, a connection
    dropped after the homeserver stored the event, garbage replies, direct
    rooms whose createRoom answer comes after a sync told of them: the deal
    completes, no message is posted twice (retries keep their transaction
    id), lines queued meanwhile are merged;
  4 a homeserver rate limit as Synapse ships it is enforced for the bot
    (MX_SYNAPSE_RATE=1: 0.2 a second after a burst of 10, players taking 3 s
    a move; by default 3 a second after 10 so the test stays short): the
    deal completes, every 429 is honoured, queued lines are merged;
  5 a restart mid-deal: the bot comes back with its sync token and device,
    the table resumes and the deal completes.

After each deal, over everything each player received (their direct room):
no card dealt to someone else appears there unless already shown in the
room or in the trumper's inspection line; the hands dealt are disjoint;
every direct room holds only the bot and its player; every request matched
the spec. Prints "matrix_game: N passed, M failed".
Scenario 4 runs from tests/net/matrix/matrix_rate.py (to keep each test short); the
others run here. Environment: CARDBOT, MX_ONLY (any scenarios, 4 included),
MX_VERBOSE=1, MX_SYNAPSE_RATE=1.
"""
import os
import re
import shutil
import sys
import threading
import time
import traceback
import urllib.parse

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import play304lib  # noqa: E402  (its hand-line parser and line patterns)
import irclib  # noqa: E402
import matrixlib  # noqa: E402
from matrixlib import Bot, Homeserver, Results  # noqa: E402

VERBOSE = os.environ.get("MX_VERBOSE") == "1"
ONLY = {int(x) for x in os.environ.get("MX_ONLY", "").split(",") if x.strip()}
R = Results("matrix_game")


def lines_of(ev):
    return ev["content"].get("body", "").split("\n") if isinstance(ev["content"].get("body"), str) else []


def pct(v, p):
    if not v:
        return float("nan")
    v = sorted(v)
    return v[min(len(v) - 1, max(0, int(round(p / 100.0 * (len(v) - 1)))))]


class Player(threading.Thread):
    def __init__(self, sc, uid, name, join_dm=True):
        super().__init__(daemon=True)
        self.sc, self.uid, self.name = sc, uid, name
        self.join_dm = join_dm
        self.pos = 0
        self.rewind = False   # set by the test: read everything again (under the lock)
        self.room_seen = 0    # the bot's events in the table's room so far
        self.done = set()
        self.actions = []     # (time, text)
        self.errors = []
        self.dm = None

    def run(self):
        hs = self.sc.hs
        try:
            while not self.sc.stop.is_set():
                with hs.cond:
                    if self.rewind:
                        self.pos, self.rewind = 0, False
                    if len(hs.events) <= self.pos:
                        hs.cond.wait(0.2)
                    new = hs.events[self.pos:]
                    self.pos += len(new)
                for e in new:
                    self.handle(e)
        except Exception:
            self.errors.append(traceback.format_exc())

    def invited(self, e):
        """Accepts the bot's invitation to a direct room (when willing);
        True when e was such an invitation."""
        if e["type"] == "m.room.member" and e.get("state_key") == self.uid and e["sender"] == self.sc.botid and \
                e["content"].get("membership") == "invite":
            if self.join_dm:
                self.sc.hs.join(self.uid, e["room_id"])
            return True
        return False

    def handle(self, e):
        hs, bot = self.sc.hs, self.sc.botid
        if self.invited(e):
            return
        if e["type"] != "m.room.message" or e["sender"] != bot:
            return
        room = hs.rooms.get(e["room_id"])
        if room and room.id == self.sc.room:
            # the same hand line after the game moved on is a new prompt (an
            # ask for a partner's bid, then one's own turn, read alike)
            self.room_seen += 1
        if room and room.id == self.sc.room and any(play304lib.RESUMED in x for x in lines_of(e)):
            self.done.clear()  # the bot is back: it prompts again
            return
        if not room or not room.is_direct or hs.membership(self.uid, room.id) != "join":
            return
        self.dm = room.id
        for line in lines_of(e):
            h = play304lib.parse_hand(line)
            if not h or not h["turn"]:
                continue
            key = (h["raw"], self.room_seen)
            if key in self.done:
                continue
            self.done.add(key)
            self.act(h)

    def say(self, text):
        self.actions.append((time.time(), text))
        self.sc.hs.say(self.uid, self.dm, text)

    def act(self, h):
        time.sleep(self.sc.think)
        if h["phase"] == "bid4":
            self.say("pass" if re.search(r"four-card bidding, \d+ by ", h["state"]) else "bid 60")
        elif h["phase"] == "bid8":
            self.say("pass")
        elif h["phase"] == "trump":
            self.say("trump 1")
        elif h["phase"] == "play":
            may = h["may"] or []
            if may:
                self.say("play " + may[0])
            elif h["may_trump"]:
                self.say("play trump")
            else:
                self.errors.append("no legal card in %r" % h["raw"])
        else:
            self.errors.append("a turn in an unknown phase: %r" % h["raw"])


class Scenario:
    player_class = Player
    rate_limited = False   # the bot's config: False as after an admin lifted the limit
    bot_extra = ""         # more of the bot's network configuration

    def __init__(self, num, title, humans=("ann", "bob", "cat", "dan"), computers=0, never_join=(), think=0.0,
                 rate=None, deal_timeout=90):
        self.num, self.title = num, title
        self.humans, self.computers = list(humans), computers
        self.never_join = set(never_join)
        self.think = think
        self.rate = rate
        self.deal_timeout = deal_timeout
        self.stop = threading.Event()
        self.figures = {}
        self.fails0 = R.failed
        self.bot = self.hs = None

    def make_hs(self):
        """The homeserver, started: the spec-checking stand-in here; a real
        Synapse in tests/net/matrix/matrix_synapse.py."""
        return Homeserver().start()

    def setup(self):
        self.tmp = matrixlib.tempdir()
        hs = self.hs = self.make_hs()
        self.botid = hs.add_user("cardbot", password="botpw")
        self.ids = {n: hs.add_user(n, name=n) for n in self.humans}
        self.eve = hs.add_user("eve", name="eve")
        first = self.ids[self.humans[0]]
        self.alias = "#304:" + getattr(hs, "server", matrixlib.SERVER)
        self.room = hs.create_room(first, alias=self.alias, invite=[self.botid])
        for n in self.humans[1:]:
            hs.join(self.ids[n], self.room)
        hs.join(self.eve, self.room)
        hs.rate = self.rate
        self.bot = Bot(self.tmp, hs.url, self.botid, 'password = "botpw";', rate_limited=self.rate_limited,
                       extra=self.bot_extra)
        self.bot.start()
        if not hs.wait(lambda: hs.membership(self.botid, self.room) == "join", 15):
            raise RuntimeError("the bot did not accept the invitation: " + self.bot.log_tail())
        time.sleep(0.3)
        self.players = {n: self.player_class(self, self.ids[n], n, n not in self.never_join) for n in self.humans}

    def room_segments(self, start=0):
        out = []
        for e in self.hs.bot_messages(self.botid, self.room, start):
            for line in lines_of(e):
                out += play304lib.segs(line)
        return out

    def wait_seg(self, pred, timeout=15, start=0):
        return self.hs.wait(lambda: any(pred(s) for s in self.room_segments(start)), timeout)

    def wait_seg_moving(self, pred, stall, start=0):
        """Wait for a line of the bot's in the room while the game moves:
        False only when the bot says nothing in the room for `stall`
        seconds (a stall, however slow the machine), not after a fixed
        time."""
        while True:
            seen = len(self.hs.bot_messages(self.botid, self.room, start))
            if not self.hs.wait(lambda: any(pred(s) for s in self.room_segments(start))
                                or len(self.hs.bot_messages(self.botid, self.room, start)) > seen, stall):
                return False
            if any(pred(s) for s in self.room_segments(start)):
                return True

    def open_table(self):
        hs = self.hs
        n0 = len(hs.events)
        a = self.humans[0]
        hs.say(self.ids[a], self.room, "!304")
        if not self.wait_seg(lambda s: s.startswith("%s sits in seat 1" % a), 10, n0):
            raise RuntimeError("no table: " + self.bot.log_tail())
        for k, n in enumerate(self.humans[1:], start=2):
            hs.say(self.ids[n], self.room, "!sit")
            if not self.wait_seg(lambda s, n=n, k=k: s.startswith("%s sits in seat %d" % (n, k)), 10, n0):
                raise RuntimeError("%s did not sit" % n)
        for k in range(self.computers):
            hs.say(self.ids[a], self.room, "!bot")
            if not self.wait_seg(lambda s, k=k: "(a computer player) sits in seat %d" % (len(self.humans) + k + 1)
                                 in s, 10, n0):
                raise RuntimeError("no computer player")
        for p in self.players.values():
            p.start()
        self.start_pos = len(hs.events)
        self.req0 = len(hs.requests)
        self.t_start = time.time()
        hs.say(self.ids[a], self.room, "!start")

    def deal_done(self):
        segs = self.room_segments(self.start_pos)
        for i, s in enumerate(segs):
            if play304lib.END_RE.match(s) or play304lib.OTHER_END_RE.search(s):
                return any(play304lib.TOKENS_RE.match(x) for x in segs[i + 1:]) or \
                    play304lib.OTHER_END_RE.search(s)
        return False

    def wait_deal(self):
        return self.hs.wait(self.deal_done, self.deal_timeout)

    def body(self):
        R.check(self.wait_deal(), "%d: the deal did not end: %s" % (self.num, self.bot.log_tail()))

    # -------------------------------------------------------- analysis
    def analyse(self):
        hs, bot = self.hs, self.botid
        with hs.lock:
            events = list(hs.events[self.start_pos:])
        end_pos = None
        for e in events:
            if e["type"] == "m.room.message" and e["sender"] == bot and e["room_id"] == self.room:
                if any(play304lib.TOKENS_RE.match(s) for line in lines_of(e) for s in play304lib.segs(line)):
                    end_pos = e["pos"]
                    break
        if end_pos is None:
            end_pos = events[-1]["pos"] if events else self.start_pos
        deal = [e for e in events if e["pos"] <= end_pos]
        dms = hs.direct_rooms(bot)
        # The direct rooms are recorded in the bot's m.direct account data.
        with hs.lock:
            md = hs.account_data.get((bot, "m.direct"), (0, {}))[1]
        R.check(all(rid in md.get(u, []) for u, rid in dms.items()) and dms,
                "%d: m.direct %r does not list the direct rooms %r" % (self.num, md, dms))
        # Every direct room holds the bot and one player, nobody else.
        for u, rid in dms.items():
            r = hs.rooms[rid]
            others = [x for x, m in r.members.items() if m in ("join", "invite") and x not in (bot, u)]
            R.check(not others, "%d: direct room of %s also holds %s" % (self.num, u, others))
        leaks, dm_first = self.privacy(events, dms)
        R.check(not leaks, "%d: privacy: %s" % (self.num, leaks[:5]))
        # A hand (or prompt) replaced by a newer one before it was sent is
        # dropped: no event of a direct room holds two of one table's.
        stale = [lines_of(e) for e in events if e["type"] == "m.room.message" and e["sender"] == bot
                 and e["room_id"] in dms.values() and sum(1 for x in lines_of(e) if play304lib.parse_hand(x)) > 1]
        R.check(not stale, "%d: %d direct-room events carry a stale hand beside its successor: %r" % (
            self.num, len(stale), stale[:1]))
        # No message stored twice: every event has its own transaction id.
        txns = [e.get("txn") for e in events if e["sender"] == bot and e["type"] == "m.room.message"]
        R.check(len(txns) == len(set(txns)), "%d: a transaction id was stored twice" % self.num)
        # Figures.
        room_ev = [e for e in deal if e["type"] == "m.room.message" and e["sender"] == bot
                   and e["room_id"] == self.room]
        per_dm = {rid: len(ps) for rid, ps in dm_first.items()}
        dm_ev = [e for e in events if e["pos"] in set().union(*dm_first.values())] if dm_first else []
        t_end = hs.events[end_pos]["t"]
        reqs = [r for r in hs.requests[self.req0:] if r.get("user") == bot and r["t"] <= t_end]
        sends = [r for r in reqs if "/send/" in r["path"]]
        self.figures.update({
            "room_events": len(room_ev), "dm_events": len(dm_ev), "per_dm": sorted(per_dm.values()),
            "room_lines": sum(len(lines_of(e)) for e in room_ev), "dm_lines": sum(len(lines_of(e)) for e in dm_ev),
            "requests": len(reqs), "sends": len(sends), "deal_seconds": t_end - self.t_start,
            "mentions": sum(1 for e in room_ev if e["content"].get("m.mentions", {}).get("user_ids")),
            "retried_sends": sum(1 for r in sends if r.get("dedup")),
            "status_429": sum(1 for r in sends if r["status"] == 429),
        })
        for e in room_ev:
            c = e["content"]
            ids = c.get("m.mentions", {}).get("user_ids", [])
            if ids:
                R.check(c["msgtype"] == "m.text" and all("https://matrix.to/#/" + u in c.get("formatted_body", "")
                                                         for u in ids),
                        "%d: a mention without m.text and pill: %r" % (self.num, c))
        # Red suits in colour in HTML, and no control code left in any body.
        red = [e for e in dm_ev if "\u2665" in e["content"].get("body", "") or "\u2666" in e["content"].get("body", "")]
        R.check(red and all('data-mx-color="#ff0000"' in e["content"].get("formatted_body", "") for e in red),
                "%d: a red suit without colour in HTML: %r" % (self.num, [e["content"] for e in red][:1]))
        R.check(not any(re.search(r"[\x00-\x09\x0b-\x1f]", e["content"].get("body", "")) for e in room_ev + dm_ev),
                "%d: a control code in a body" % self.num)
        # Latency: a player's command to the bot's next event in the room or their direct room.
        lat = []
        for p in self.players.values():
            for t, _ in p.actions:
                nxt = [e["t"] for e in events if e["sender"] == bot and e["type"] == "m.room.message" and e["t"] >= t
                       and e["room_id"] in (self.room, p.dm)]
                if nxt:
                    lat.append(nxt[0] - t)
        self.figures["latency"] = lat
        for p in self.players.values():
            R.check(not p.errors, "%d: player %s: %s" % (self.num, p.name, p.errors[:2]))
        if self.num == 1 and not leaks:
            # Self-test: the check must see a card of another player's hand
            # planted in someone's direct room.
            a, b = self.ids[self.humans[0]], self.ids[self.humans[1]]
            theirs = sorted(set(c for e in events if e["room_id"] == dms.get(b) and e["sender"] == bot
                                for line in lines_of(e) if play304lib.parse_hand(line)
                                for c in play304lib.parse_hand(line)["hand"]))
            mine = set(c for e in events if e["room_id"] == dms.get(a) and e["sender"] == bot
                       for line in lines_of(e) if play304lib.parse_hand(line) for c in play304lib.parse_hand(line)["hand"])
            other = [c for c in theirs if c not in mine]
            if other:
                sym = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
                fake = dict(events[0], room_id=dms[a], sender=bot, type="m.room.message", pos=events[0]["pos"] + 1,
                            content={"msgtype": "m.notice", "body": "psst: %s%s" % (other[0][:-1], sym[other[0][-1]])})
                planted, _ = self.privacy([fake] + events, dms)
                R.check(planted, "1: self-test: a planted card of %s in %s's direct room went unnoticed" % (b, a))

    def privacy(self, events, dms):
        """(leaks, {direct room: positions of its first deal's events})."""
        bot = self.botid
        # Privacy. Each direct room's stream is cut into deals where a hand
        # line goes back to four-card bidding (under throttling the next
        # deal's hand can be stored before the room's end line); the first
        # deal is checked. Own cards come from hand lines; public cards from
        # the room, in the order of the event stream.
        leaks = []
        room_of = {rid: u for u, rid in dms.items()}
        seg = {}
        last_phase = {}
        last_bid4 = {}     # direct room: the cards of its last four-card hand
        deal_cards = {}    # direct room: every card its hands showed in this deal
        first_deal = []    # (event, user, line) in the first deal of each direct room
        # A hand thrown in, or a deal where all pass, ends the deal in the
        # four-card bidding (a computer player may throw in before anyone
        # else speaks): whatever the bot sent after the room heard of it
        # belongs to the next deal, whose hands are in that bidding too.
        redeal = None
        for e in events:
            if e["type"] == "m.room.message" and e["sender"] == bot and e["room_id"] == self.room and any(
                    play304lib.OTHER_END_RE.search(sg) and ("throws in" in sg or "all pass" in sg)
                    for line in lines_of(e) for sg in play304lib.segs(line)):
                redeal = e["pos"]
                break
        for e in events:
            if e["type"] != "m.room.message" or e["sender"] != bot or e["room_id"] == self.room:
                continue
            u = room_of.get(e["room_id"])
            if redeal is not None and e["pos"] > redeal and u is not None:
                seg[u] = max(seg.get(u, 0), 1)
            if u is None:
                leaks.append("a bot message in an unknown room %s" % e["room_id"])
                continue
            for line in lines_of(e):
                h = play304lib.parse_hand(line)
                if h:
                    # A new deal: back to four-card bidding, four cards
                    # other than the last four-card hand's, or more than
                    # the eight cards one deal gives a seat (throttled, a
                    # direct room may hear only some of a deal's hands).
                    cards = frozenset(h["hand"])
                    if (h["phase"] == "bid4" and (last_phase.get(u) not in (None, "bid4", "other")
                                                  or last_bid4.get(u, cards) != cards)) \
                            or len(deal_cards.get(u, frozenset()) | cards) > 8:
                        seg[u] = seg.get(u, 0) + 1
                        deal_cards[u] = frozenset()
                    deal_cards[u] = deal_cards.get(u, frozenset()) | cards
                    if h["phase"] == "bid4":
                        last_bid4[u] = cards
                    last_phase[u] = h["phase"]
                if seg.get(u, 0) == 0:
                    first_deal.append((e, u, line))
        own = {}
        for e, u, line in first_deal:
            h = play304lib.parse_hand(line)
            if h:
                own.setdefault(u, set()).update(h["hand"])
        seen_hands = list(own.items())
        for i in range(len(seen_hands)):
            for j in range(i + 1, len(seen_hands)):
                both = seen_hands[i][1] & seen_hands[j][1]
                if both:
                    leaks.append("%s and %s were both shown %s as their own" % (seen_hands[i][0], seen_hands[j][0],
                                                                              sorted(both)))
        for u, cs in own.items():
            if len(cs) > 8:
                leaks.append("%s was shown %d cards as their own" % (u, len(cs)))
        room_cards = []    # (pos, cards)
        for e in events:
            if e["type"] == "m.room.message" and e["sender"] == bot and e["room_id"] == self.room:
                room_cards.append((e["pos"], set(c for line in lines_of(e) for c in play304lib.named_cards(line))))
        for e, u, line in first_deal:
            if play304lib.INSP_RE.match(irclib.strip_colours(line)):
                continue
            public = set()
            for pos, cs in room_cards:
                if pos < e["pos"]:
                    public |= cs
            bad = set(play304lib.named_cards(line)) - own.get(u, set()) - public
            if bad:
                leaks.append("%s received %s in %r" % (u, sorted(bad), line[:120]))
        dm_first = {}
        for e, u, line in first_deal:
            dm_first.setdefault(e["room_id"], set()).add(e["pos"])
        return leaks, dm_first

    def teardown(self):
        self.stop.set()
        if self.bot is None:
            if self.hs is not None:
                self.hs.stop()
            return
        rss = self.bot.rss_kb() if self.bot and self.bot.alive() else None
        if rss:
            self.figures["rss_kb"] = rss
        alive = self.bot.alive()
        self.bot.stop()
        R.check(alive, "%d: the bot died: %s" % (self.num, self.bot.log_tail()))
        R.check(not self.hs.violations, "%d: spec violations: %s" % (self.num, self.hs.violations[:5]))
        log = self.bot.log_text()
        R.check("AddressSanitizer" not in log and "runtime error" not in log, "%d: sanitizer: %s" %
                (self.num, self.bot.log_tail()))
        self.hs.stop()
        if VERBOSE and R.failed > self.fails0:
            print(self.bot.log_tail(80))
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run(self):
        t0 = time.time()
        try:
            self.setup()
            self.open_table()
            self.body()
            self.analyse()
        except Exception:
            traceback.print_exc()
            R.check(False, "%d: %s" % (self.num, traceback.format_exc().strip().splitlines()[-1]))
        finally:
            try:
                self.teardown()
            except Exception:
                traceback.print_exc()
        f = self.figures
        print("  scenario %d (%s): %.1f s" % (self.num, self.title, time.time() - t0))
        if "room_events" in f:
            lat = f["latency"]
            print("    per deal: %d room events (%d lines), %d direct-room events %s (%d lines); %d requests, "
                  "%d sends, %d mentions; deal took %.1f s" % (
                      f["room_events"], f["room_lines"], f["dm_events"], f["per_dm"], f["dm_lines"], f["requests"],
                      f["sends"], f["mentions"], f["deal_seconds"]))
            print("    command to reply: p50 %.0f ms, p99 %.0f ms over %d commands; 429s %d, resent %d; rss %s kB" % (
                pct(lat, 50) * 1000, pct(lat, 99) * 1000, len(lat), f["status_429"], f["retried_sends"],
                f.get("rss_kb", "?")))


class NeverJoins(Scenario):
    def body(self):
        hs = self.hs
        late = self.humans[-1]
        uid = self.ids[late]
        asked = self.wait_seg(lambda s: s.startswith("%s: I have sent you private messages" % late), 20,
                              self.start_pos)
        R.check(asked, "2: %s was not asked in the room to accept the direct room: %s" % (late, self.bot.log_tail()))
        # The game waits: nothing ends while they are out.
        time.sleep(2.0)
        # (A first bidder may throw the hand in before it is anyone else's
        # turn: that deal ends at once, and the next one waits instead.)
        thrown = any("throws in" in sg for sg in self.room_segments(self.start_pos))
        R.check(thrown or not self.deal_done(), "2: the deal ended without %s" % late)
        dm = hs.direct_rooms(self.botid).get(uid)
        R.check(dm is not None and hs.membership(uid, dm) == "invite", "2: no pending invitation for %s" % late)
        # Then they accept: their hand is there (history) and the game goes on.
        p = self.players[late]
        p.join_dm = True
        if dm:
            hs.join(uid, dm)
            with hs.cond:
                p.rewind = True  # read what was sent before they joined
                hs.cond.notify_all()
        R.check(self.wait_deal(), "2: the deal did not end after %s joined: %s; the room's last lines: %r; %s's "
                "direct room: %r; players: %r" % (
                    late, self.bot.log_tail(), self.room_segments(self.start_pos)[-6:], late,
                    [x for e in hs.bot_messages(self.botid, dm) for x in lines_of(e)][-4:] if dm else None,
                    {n: (len(q.actions), q.errors[:1], q.dm) for n, q in self.players.items()}))


class Faults(Scenario):
    def open_table(self):
        # createRoom answered late, after the room and the player's join came
        # down a sync: the direct room must still be one, and private. (The
        # bot makes each direct room when its player sits down.)
        self.hs.fault(lambda r, b: r["path"].endswith("/createRoom"), ("after", ("sleep", 2.5)), times=4)
        super().open_table()

    def body(self):
        hs = self.hs
        # Stale hands: ann asks for her hand three times while her direct
        # room is held back (a 429); only the newest hand may go out.
        ann = self.players[self.humans[0]]
        dm = hs.wait(lambda: hs.direct_rooms(self.botid).get(ann.uid), 10)
        if dm:
            hs.fault(lambda r, b, dm=dm: "/send/" in r["path"] and dm in urllib.parse.unquote(r["path"]),
                     ("status", 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "slow down", "retry_after_ms": 1500}))
            for _ in range(3):
                hs.say(ann.uid, dm, "hand")
        is_send = lambda r, b: "/send/" in r["path"]  # noqa: E731
        hs.fault(is_send, ("status", 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "slow down",
                                           "retry_after_ms": 700}), times=3)
        hs.fault(is_send, ("status", 500, {"errcode": "M_UNKNOWN", "error": "oops"}), times=2)
        hs.fault(is_send, ("after", ("drop",)), times=3)
        hs.fault(is_send, ("after", ("raw", 200, b'{"event_id": "$tru')), times=2)
        hs.fault(is_send, ("status", 502, {"errcode": "M_UNKNOWN", "error": "bad gateway"}), times=1)
        hs.fault(is_send, ("partial", 200, b'{"event_id": "$abc'), times=2)
        R.check(self.wait_deal(), "3: the deal did not end under faults: %s" % self.bot.log_tail())
        left = [f for f in hs.faults if f[2] > 0]
        R.check(not left, "3: not every fault was met (%d left)" % len(left))
        dedup = sum(1 for r in hs.requests if r.get("dedup"))
        R.check(dedup >= 3, "3: sends whose reply was lost were not retried with the same transaction id (%d)" % dedup)
        R.check("retry_after_ms 700;" in self.bot.log_text(), "3: retry_after_ms not honoured")
        R.check("already known from a sync" in self.bot.log_text(),
                "3: the late createRoom answers did not come after the sync (the race was not exercised)")


class RateLimited(Scenario):
    def body(self):
        R.check(self.wait_deal(), "4: the deal did not end under the rate limit: %s" % self.bot.log_tail())


class Restart(Scenario):
    def body(self):
        hs = self.hs
        ok = self.wait_seg(lambda s: play304lib.TRICK_RE.match(s) and " wins trick 2" in s, 60, self.start_pos)
        R.check(ok, "5: trick 2 never ended; the room's last lines: %r; players: %r; bot: %s" % (
            self.room_segments(self.start_pos)[-6:], {n: (len(p.actions), p.errors[:1], p.dm)
                                                      for n, p in self.players.items()}, self.bot.log_tail(8)))
        self.bot.stop()
        stopped = len(hs.events)
        time.sleep(0.5)
        self.bot.start()
        back = self.wait_seg(lambda s: s.startswith(play304lib.RESUMED), 20, stopped)
        R.check(back, "5: the table did not resume after the restart: %s" % self.bot.log_tail())
        full = [r for r in hs.requests if r.get("full_state")]
        R.check(full, "5: no full-state sync after the restart")
        R.check(self.wait_deal(), "5: the deal did not end after the restart: %s" % self.bot.log_tail())
        logins = [r for r in hs.requests if r["path"].endswith("/login")]
        R.check(len({r.get("device") for r in logins}) == 1, "5: a new device at each login: %s" %
                [r.get("device") for r in logins])
        created = [r for r in hs.requests if r.get("created")]
        R.check(len(created) == len(self.humans), "5: %d direct rooms made for %d players (not reused after the "
                "restart?)" % (len(created), len(self.humans)))
        self.figures["restart"] = True
        if VERBOSE:
            for n, p in self.players.items():
                print("    %s acted %d times; last: %s" % (n, len(p.actions), p.actions[-3:]))


def main(skip=(4,), name=None):
    if name:
        R.name = name
    if not os.path.exists(matrixlib.CARDBOT):
        print("%s: no cardbot binary at %s" % (R.name, matrixlib.CARDBOT))
        print("%s: 0 passed, 1 failed" % R.name)
        return 1
    synapse = os.environ.get("MX_SYNAPSE_RATE") == "1"
    scs = [
        Scenario(1, "four players"),
        NeverJoins(2, "two computers, a player who joins late", humans=("ann", "bob"), computers=2,
                   never_join=("bob",)),
        Faults(3, "faults on sends"),
        Restart(5, "a restart mid-deal"),
        RateLimited(4, "rate limit %s" % ("0.2/s after 10 (Synapse)" if synapse else "3/s after 10"),
                    rate=(10, 0.2 if synapse else 3.0), think=3.0 if synapse else 0.2,
                    deal_timeout=900 if synapse else 240),
    ]
    t0 = time.time()
    for sc in scs:
        if ONLY and sc.num not in ONLY:
            continue
        if not ONLY and sc.num in skip:
            continue
        sc.run()
    print("  total %.1f s" % (time.time() - t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
