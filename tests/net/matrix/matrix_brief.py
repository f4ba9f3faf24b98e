#!/usr/bin/env python3
"""matrix_brief.py: a 304 deal at a human pace under Synapse's default rate limit.

The test homeserver enforces Synapse's default message limit on the bot
(0.2 events a second after a burst of 10, direct rooms included, a
createRoom counted twice). The bot runs with its default Matrix setting,
rate_limited = true, and so speaks briefly: a move the room saw typed is
not repeated, a trick is told in one line, hands go privately when they
change (the deal, the last four cards, the trump card coming back) rather
than at every turn, and the turn is named only in lines that go out anyway.

Four scripted people sit down and play one deal at a human pace (MX_THINK
seconds a move, 3 by default) the way people would in such a room: they
type bids, passes and face-up cards in the room, send face-down cards and
the trump card in their direct room, and follow the play from what the
room shows (each other's commands and the bot's lines), not from private
prompts. Checks: the deal ends; no send of the bot's was refused with 429
between the start and the end of the deal (the players never waited on
the bot); no move of theirs was refused (the room told them enough);
privacy over everything each player received; every request matched the
spec. Figures: events per deal (room and direct rooms), requests, the
command-to-reply latency where a reply was due, memory.

Second scenario: two people and two computer players, brief, at a quick
pace without a limit: computer moves are told, the deal ends, privacy.
Environment: CARDBOT, MX_THINK, MX_BRIEF_SPEED, MX_VERBOSE=1, MX_ONLY.
Prints "matrix_brief: N passed, M failed".
"""
import os
import re
import sys
import time
import traceback
from collections import deque

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import play304lib  # noqa: E402
import matrix_game  # noqa: E402
from matrix_game import Player, Scenario, lines_of, pct  # noqa: E402

R = matrix_game.R
R.name = "matrix_brief"
# MX_BRIEF_SPEED=k plays k times faster against a limit k times higher:
# the same pace against the same budget, three times sooner. `make test`
# plays at 3 (a move a second against 0.6 messages a second after a burst
# of 10); `make test-long` at 1 (3 s a move against Synapse's own 0.2),
# and tests/net/matrix/matrix_synapse_limits.py plays Synapse's own limit at a human
# pace on the real server in every run.
SPEED = max(1.0, float(os.environ.get("MX_BRIEF_SPEED", "3")))
THINK = float(os.environ.get("MX_THINK", "3")) / SPEED
VERBOSE = os.environ.get("MX_VERBOSE") == "1"

PLAY_STARTS_RE = re.compile(r"^play begins \((?:open|closed)\): (?P<name>\S+) leads")
DEALT_REST_RE = re.compile(r"^the last four cards are dealt; eight-card bidding, (?P<name>\S+) first")
TRICK_ALL_RE = re.compile(r"^trick (?P<n>\d+):(?P<cards>.*); (?P<name>\S+) wins it$")
NOT_ACCEPTED_RE = re.compile(r"^(?P<name>\S+): not accepted")
WON8_RE = re.compile(r"^(?P<name>\S+) wins the eight-card bidding at")
COMPUTER_RE = re.compile(r"^(?P<name>\S+) \(a computer player\) sits in seat (?P<k>\d+)")
BID_RE = re.compile(r"^(?P<name>\S+) (?:bids \S+|passes|answers for their partner: \S+)$")
ASK_RE = re.compile(r"^(?P<name>\S+) asks (?P<partner>\S+) to bid$")


class BriefPlayer(Player):
    """A person in a brief room: follows the deal from the room's lines."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.hand = set()
        self.refused = []
        self.trace = deque(maxlen=24)  # what I last saw and how I read it, for a refusal's report
        self.want_hand = False
        self.computers = {}      # name -> seat
        self.deal = 0
        self.reset()

    def reset(self):
        self.phase = None
        self.turn = None
        self.bids = 0            # bids and passes in this bidding round
        self.calls = []          # each of them: True for a bid
        self.asker = None        # a seat that asked its partner to bid for it
        self.trumper = None
        self.my_trump = None     # my trump suit while I am the trumper
        self.trump_down = False  # my trump card lies on the table
        self.trump_open = False
        self.leader = None
        self.trick = []          # (seat, card or None)
        self.ntricks = 0         # tricks finished
        self.played = set()      # cards I played in this deal
        self.last_played = None  # the card of my last move, until the bot accepts or refuses it
        self.have_hand = getattr(self, "next_hand", False)  # a hand line came in this deal
        self.next_hand = False
        self.acted_at = None     # the state in which I last acted
        self.due = None          # when I act: (time, state)

    # -- seats
    def seat_of(self, name):
        if name in self.sc.humans:
            return self.sc.humans.index(name)
        return self.computers.get(name)

    @property
    def me(self):
        return self.sc.humans.index(self.name)

    def name_of_user(self, uid):
        for n, u in self.sc.ids.items():
            if u == uid:
                return n
        return None

    def state(self):
        return (self.deal, self.phase, self.turn, self.bids, self.ntricks, self.leader, len(self.trick))

    # -- the event stream
    def run(self):
        hs = self.sc.hs
        try:
            while not self.sc.stop.is_set():
                with hs.cond:
                    if len(hs.events) <= self.pos:
                        hs.cond.wait(0.1)
                    new = hs.events[self.pos:]
                    self.pos += len(new)
                for e in new:
                    self.handle(e)
                self.maybe_act()
        except Exception:
            self.errors.append(traceback.format_exc())

    def handle(self, e):
        hs, bot = self.sc.hs, self.sc.botid
        if self.invited(e):
            return
        if e["type"] != "m.room.message":
            return
        if e["room_id"] == self.sc.room:
            if e["sender"] == bot:
                for line in lines_of(e):
                    for s in play304lib.segs(line):
                        self.on_bot(play304lib.strip_colours(s))
            else:
                n = self.name_of_user(e["sender"])
                if n is not None:
                    self.on_command(n, e["content"].get("body", ""))
            return
        room = hs.rooms.get(e["room_id"])
        if e["sender"] != bot or not room or not room.is_direct or hs.membership(self.uid, room.id) != "join":
            return
        self.dm = room.id
        for line in lines_of(e):
            h = play304lib.parse_hand(line)
            if h:
                # (the next deal's hand may come before the room's deal line;
                # a hand line the bot's budget held back may predate my last plays)
                self.next_hand = self.phase in (None, "done") and h["phase"] == "bid4"
                self.hand = set(h["hand"]) - (set() if self.next_hand else self.played)
                self.have_hand = True
                self.trump_down = h["table"] is not None
                if self.want_hand:
                    # the answer to `hand`: act on it if it is my turn, else
                    # wait for the room to say whose turn it is
                    self.want_hand = False
                    if h["turn"]:
                        self.play_from(h)
                    else:
                        self.turn = None
            elif play304lib.REFUSAL_RE.match(play304lib.strip_colours(line)) and \
                    not play304lib.INSP_RE.match(play304lib.strip_colours(line)):
                self.refused.append(line)
                self.refused.append("what %s saw before: %s" % (self.name, " | ".join(self.trace)))
                self.unplay()
                self.ask_hand()

    def on_bot(self, s):
        self.on_bot_read(s)
        self.trace.append("bot: %s -> %r" % (s, self.state()))

    def on_bot_read(self, s):
        m = COMPUTER_RE.match(s)
        if m:
            self.computers[m.group("name")] = int(m.group("k")) - 1
            return
        m = BID_RE.match(s)
        if m and self.phase in ("bid4", "bid8") and self.seat_of(m.group("name")) == self.turn:
            self.bid_done(self.turn, "passes" not in s)
            return
        m = ASK_RE.match(s)
        if m and self.phase == "bid4":
            # the partner bids or passes in the asker's turn
            self.asker, self.turn = self.seat_of(m.group("name")), self.seat_of(m.group("partner"))
            return
        m = play304lib.PROMPT_RE.match(s)
        if m and self.phase in ("bid4", "bid8", "play") and (m.group("what") == "play") == (self.phase == "play"):
            # a prompt, where the bot gives one, says whose turn it is; one
            # naming a player who has a card in this trick crossed their move
            # (sent as they played), and a person would pass over it
            seat = self.seat_of(m.group("name"))
            if self.phase != "play" or seat not in [k for k, _ in self.trick]:
                self.turn = seat
            return
        m = play304lib.DEAL_RE.match(s)
        if m:
            self.reset()
            self.deal = int(m.group("n"))
            self.phase, self.turn = "bid4", self.seat_of(m.group("first"))
            return
        m = play304lib.WON_RE.match(s)
        if m:
            self.phase, self.trumper = "trump", m.group("name")
            self.turn = self.seat_of(self.trumper)
            return
        m = DEALT_REST_RE.match(s)
        if m:
            self.phase, self.bids, self.calls, self.turn = "bid8", 0, [], self.seat_of(m.group("name"))
            return
        m = PLAY_STARTS_RE.match(s)
        if m:
            self.phase, self.leader, self.trick = "play", self.seat_of(m.group("name")), []
            self.turn = self.leader
            return
        m = TRICK_ALL_RE.match(s)
        if m:
            self.leader, self.trick = self.seat_of(m.group("name")), []
            self.ntricks += 1
            self.turn = self.leader
            return
        m = play304lib.DOWN_RE.match(s) or play304lib.TCARD_RE.match(s)
        if m and self.phase == "play":
            self.add_card(self.seat_of(m.group("name")), None)
            return
        m = play304lib.PLAYED_RE.match(s)
        if m and self.phase == "play":
            self.add_card(self.seat_of(m.group("name")), play304lib.cards_in(m.group("card"))[0])
            return
        if play304lib.REVEALED_RE.match(s) or play304lib.OPENED_RE.match(s):
            self.trump_open = True
            return
        m = NOT_ACCEPTED_RE.match(s)
        if m:
            if m.group("name") == self.name:
                self.refused.append(s)
                self.unplay()
            self.undo(self.seat_of(m.group("name")))
            if m.group("name") == self.name:
                self.ask_hand()
            return
        if play304lib.END_RE.match(s) or play304lib.OTHER_END_RE.search(s):
            self.phase = "done"

    def on_command(self, name, body):
        self.on_command_read(name, body)
        self.trace.append("%s: %s -> %r" % (name, body, self.state()))

    def on_command_read(self, name, body):
        w = body.strip().split()
        if not w or not w[0].startswith("!"):
            return
        cmd, seat = w[0][1:].lower(), self.seat_of(name)
        if seat is None or seat != self.turn:
            return
        if self.phase in ("bid4", "bid8") and cmd in ("bid", "b", "pass"):
            self.bid_done(seat, cmd != "pass")
        elif self.phase == "play" and cmd in ("play", "p") and len(w) == 2:
            cs = play304lib.cards_in(w[1].upper().replace("S", "\u2660").replace("H", "\u2665")
                                   .replace("D", "\u2666").replace("C", "\u2663"))
            self.add_card(seat, cs[0] if cs else None)

    def bid_done(self, seat, bid):
        """A bid or a pass; the turn passes on, or nobody's until the bot
        says how the bidding ended (the four-card round ends on three
        passes after a bid or four passes; the eight-card one goes round
        once)."""
        if self.asker is not None:
            seat, self.asker = self.asker, None
        self.bids += 1
        self.calls.append(bid)
        self.turn = (seat + 1) % 4
        c = self.calls
        if self.phase == "bid8" and len(c) >= 4:
            self.turn = None
        elif self.phase == "bid4" and ((len(c) >= 4 and any(c[:-3]) and not any(c[-3:])) or c == [False] * 4):
            self.turn = None

    def add_card(self, seat, card):
        if seat is None:
            return
        self.trick.append((seat, card))
        self.turn = (self.leader + len(self.trick)) % 4 if len(self.trick) < 4 else None

    def undo(self, seat):
        if self.phase in ("bid4", "bid8") and self.calls:
            self.bids -= 1
            self.calls.pop()
            self.turn = seat
        elif self.phase == "play" and self.trick and self.trick[-1][0] == seat:
            self.trick.pop()
            self.turn = seat

    # -- acting
    def maybe_act(self):
        st = self.state()
        # (a person waits for their hand before choosing a trump or a card)
        if self.turn != self.me or self.phase in (None, "done") or st == self.acted_at or self.want_hand or \
                (self.phase in ("trump", "play") and not self.have_hand):
            self.due = None
            return
        if self.due is None or self.due[1] != st:
            self.due = (time.time() + self.sc.think, st)
            return
        if time.time() < self.due[0]:
            return
        self.acted_at, self.due = st, None
        self.act_now()

    def room(self, text):
        self.actions.append((time.time(), text))
        self.trace.append("I say in the room: %s" % text)
        self.sc.hs.say(self.uid, self.sc.room, text)

    def private(self, text):
        self.actions.append((time.time(), text))
        self.trace.append("I say privately: %s" % text)
        self.sc.hs.say(self.uid, self.dm, text)

    def discard(self, card):
        self.hand.discard(card)
        self.played.add(card)
        self.last_played = card

    def unplay(self):
        """My last move was refused: its card is still mine (the hand the
        bot sends next says so, and must not be read without it)."""
        if self.last_played is not None:
            self.played.discard(self.last_played)
            self.last_played = None

    @staticmethod
    def word(card):
        return card.lower()

    def act_now(self):
        if self.phase == "bid4":
            self.room("!bid 60" if self.bids == 0 else "!pass")
        elif self.phase == "bid8":
            self.room("!pass")
        elif self.phase == "trump":
            by_suit = {}
            for c in self.hand:
                by_suit.setdefault(c[-1], []).append(c)
            best = max(sorted(by_suit.values()), key=len)
            card = sorted(best)[0]
            self.my_trump = card[-1]
            self.private("trump " + self.word(card))
        elif self.phase == "play":
            self.play()

    def play(self):
        hand = sorted(self.hand)
        trumper = self.trumper == self.name and self.my_trump is not None
        if not self.trick:
            if not hand:
                self.private("play trump")
                return
            pick = hand
            if trumper and not self.trump_open:
                pick = [c for c in hand if c[-1] != self.my_trump] or hand
            self.room("!play " + self.word(pick[0]))
            self.discard(pick[0])
            return
        led = self.trick[0][1][-1] if self.trick[0][1] else None
        follow = [c for c in hand if c[-1] == led]
        if follow:
            self.room("!play " + self.word(follow[0]))
            self.discard(follow[0])
        elif self.trump_open and hand:
            self.room("!play " + self.word(hand[0]))
            self.discard(hand[0])
        elif trumper:
            plain = [c for c in hand if c[-1] != self.my_trump]
            if plain:
                self.private("play " + self.word(plain[0]))
                self.discard(plain[0])
            else:
                self.private("play trump")
        elif hand:
            self.private("play " + self.word(hand[0]))
            self.discard(hand[0])
        else:
            self.ask_hand()  # lost track: a person would ask

    def ask_hand(self):
        """Lost track (a refusal, no card left): ask the bot, as a person would."""
        if not self.want_hand and self.dm:
            self.want_hand = True
            self.private("hand")

    def play_from(self, h):
        """After asking: what the bot's own hand line allows."""
        self.acted_at = self.state()
        if h["phase"] in ("bid4", "bid8"):
            self.room("!pass")
        elif h["phase"] == "trump" and h["hand"]:
            self.my_trump = sorted(h["hand"])[0][-1]
            self.private("trump " + self.word(sorted(h["hand"])[0]))
        elif h["may"]:
            self.discard(h["may"][0])
            self.private("play " + self.word(h["may"][0]))
        elif h["may_trump"]:
            self.private("play trump")


class Brief(Scenario):
    player_class = BriefPlayer
    rate_limited = True

    def __init__(self, *a, bot_extra="", **k):
        super().__init__(*a, **k)
        # The bot is told the limit (as an operator would: Synapse's own
        # unless MX_BRIEF_SPEED raised it); it only ever learns lower ones.
        if self.rate and not bot_extra:
            bot_extra = "rate_messages_per_minute = %d; rate_burst = %d;" % (round(self.rate[1] * 60), self.rate[0])
        self.bot_extra = bot_extra

    def open_table(self):
        """People sit down at their own pace, then chat until the game
        starts (the bot's burst comes back meanwhile)."""
        hs = self.hs
        n0 = len(hs.events)
        a = self.humans[0]
        hs.say(self.ids[a], self.room, "!304")
        if not self.wait_seg(lambda s: s.startswith("%s sits in seat 1" % a), 20, n0):
            raise RuntimeError("no table: " + self.bot.log_tail())
        for k, n in enumerate(self.humans[1:], start=2):
            time.sleep(self.think)
            hs.say(self.ids[n], self.room, "!sit")
            if not self.wait_seg(lambda s, n=n, k=k: s.startswith("%s sits in seat %d" % (n, k)), 30, n0):
                raise RuntimeError("%s did not sit" % n)
        for k in range(self.computers):
            hs.say(self.ids[a], self.room, "!bot")
            if not self.wait_seg(lambda s, k=k: "(a computer player) sits in seat %d" % (len(self.humans) + k + 1)
                                 in s, 20, n0):
                raise RuntimeError("no computer player")
        for p in self.players.values():
            p.start()
        # Every direct room made (when each sat down) and joined.
        ok = hs.wait(lambda: len([u for u, r in hs.direct_rooms(self.botid).items()
                                  if hs.membership(u, r) == "join"]) == len(self.humans), 30)
        R.check(ok, "%d: the direct rooms were not made when people sat down" % self.num)
        if self.rate:
            # (Seating cost the bot a sit line and a room creation, counted
            # twice, for each player: the burst is spent. People chat a
            # little before someone types !start.)
            hs.wait(lambda: hs.rate_tokens(self.botid) >= self.rate[0] - 0.05, 90)
            self.figures["tokens_at_start"] = hs.rate_tokens(self.botid)
        self.start_pos = len(hs.events)
        self.req0 = len(hs.requests)
        self.t_start = time.time()
        hs.say(self.ids[a], self.room, "!start")

    def body(self):
        ok = self.wait_deal()
        R.check(ok, "%d: the deal did not end: %s; players: %r" % (
            self.num, self.bot.log_tail(), {n: (p.phase, p.turn, p.bids, p.leader, p.trick, sorted(p.hand),
                                                p.errors[:1]) for n, p in self.players.items()}))
        if not ok and VERBOSE:
            for e in self.hs.messages(self.start_pos):
                print("      %s %s: %s" % (e["room_id"][:6], e["sender"], e["content"].get("body", "")[:200]))

    def analyse(self):
        super().analyse()
        f = self.figures
        hs, bot = self.hs, self.botid
        refused = {n: p.refused for n, p in self.players.items() if p.refused}
        R.check(not refused, "%d: moves refused (the room did not tell the players enough): %r" % (self.num, refused))
        # Replies where one was due: for each line of the bot's in the room,
        # the time since the command that caused it.
        with hs.lock:
            evs = list(hs.events[self.start_pos:])
        last_cmd, lat = None, []
        for e in evs:
            if e["type"] != "m.room.message":
                continue
            if e["sender"] != bot and e["content"].get("body", "").startswith(("!", "play", "trump")):
                last_cmd = e["t"]
            elif e["sender"] == bot and last_cmd is not None:
                lat.append(e["t"] - last_cmd)
                last_cmd = None
        f["latency"] = lat
        if self.rate:
            R.check(f.get("status_429") == 0, "%d: the bot's sends met %d refusals (429) during the deal: players "
                    "waited on it" % (self.num, f.get("status_429", -1)))
            allowed = self.rate[0] + self.rate[1] * f["deal_seconds"]
            f["allowed"] = allowed
        R.check(f["room_events"] > 0 and f["dm_events"] > 0, "%d: no events counted" % self.num)
        # Private lines name the table by the room's alias, not its id; the
        # alias also names it in a private command.
        hands = [line for e in evs if e["type"] == "m.room.message" and e["sender"] == bot
                 and e["room_id"] != self.room for line in lines_of(e) if play304lib.parse_hand(line)]
        R.check(hands and all(line.startswith("[%s: " % self.alias) for line in hands),
                "%d: hand lines do not name the table by its alias: %r" % (self.num, hands[:1]))
        if self.num == 1:
            p = self.players[self.humans[0]]
            n0 = len(hs.events)
            hs.say(p.uid, p.dm, "%s table" % self.alias)
            R.check(hs.wait(lambda: any(e["sender"] == bot and e["room_id"] == p.dm and self.alias in
                                        e["content"].get("body", "") for e in hs.events[n0:]), 10),
                    "1: a private command naming the table by its alias was not answered")
            self.rooms_by_name(p)
        trick_lines = [s for e in hs.bot_messages(bot, self.room, self.start_pos) for line in lines_of(e)
                       for s in play304lib.segs(play304lib.strip_colours(line)) if TRICK_ALL_RE.match(s)]
        R.check(len(trick_lines) == 8 or any(play304lib.OTHER_END_RE.search(s) for s in self.room_segments(
            self.start_pos)), "%d: %d trick lines, not 8" % (self.num, len(trick_lines)))
        R.check(all(len(TRICK_ALL_RE.match(s).group("cards").split(",")) == 4 for s in trick_lines),
                "%d: a trick line without its four cards: %r" % (self.num, trick_lines[:2]))
        # The players' own moves typed in the room were not repeated by the
        # bot (their bids and passes all were; cards sent privately are told).
        typed = set()
        for e in evs:
            if e["type"] == "m.room.message" and e["room_id"] == self.room and e["sender"] != bot:
                w = e["content"].get("body", "").split()
                if len(w) == 2 and w[0] == "!play":
                    typed.add((self.players[self.name_of(e["sender"])].name, w[1].upper()))
        echoed = []
        for e in hs.bot_messages(bot, self.room, self.start_pos):
            for line in lines_of(e):
                for s in play304lib.segs(play304lib.strip_colours(line)):
                    m = play304lib.PLAYED_RE.match(s)
                    if m and (m.group("name"), play304lib.cards_in(m.group("card"))[0]) in typed:
                        echoed.append(s)
                    m = re.match(r"^(\S+) (?:bids \S+|passes)$", s)
                    if m and m.group(1) in self.humans:
                        echoed.append(s)
        R.check(not echoed, "%d: moves the room saw typed were repeated: %r" % (self.num, echoed[:3]))

    def rooms_by_name(self, p):
        """Lines name rooms as people know them, never by id; a player at
        two tables names one by number, alias or name in private, and the
        reply to an ambiguous private command says how, for Matrix."""
        hs, bot = self.hs, self.botid
        ids = [line for e in hs.bot_messages(bot) for line in lines_of(e) if re.search(r"![\w.=-]+:\w", line)]
        R.check(not ids, "1: the bot's lines show room ids: %r" % ids[:2])
        second = hs.create_room(p.uid, invite=[bot], name="Card room")
        if not hs.wait(lambda: hs.membership(bot, second) == "join", 15):
            R.check(False, "1: the bot did not join a second room")
            return
        time.sleep(0.5)
        n0 = len(hs.events)
        hs.say(p.uid, second, "!304")
        R.check(self.hs.wait(lambda: any(e["room_id"] == second and e["sender"] == bot for e in hs.events[n0:]), 20),
                "1: no table in the second room")
        def reply(text, pred, what):
            n = len(hs.events)
            hs.say(p.uid, p.dm, text)
            got = hs.wait(lambda: next((b for e in hs.events[n:] if e["sender"] == bot and e["room_id"] == p.dm
                                        for b in lines_of(e) if pred(b)), None), 20)
            R.check(got, "1: %s: no answer to %r in the direct room" % (what, text))
            return got or ""
        amb = reply("hand", lambda b: "several tables" in b, "ambiguous")
        R.check("#channel" not in amb and "1: %s" % self.alias in amb and "2: Card room" in amb
                and "e.g. 1 play" in amb, "1: the ambiguous-command reply is not worded for Matrix: %r" % amb)
        for text, label in (("2 table", "Card room"), ("card room table", "Card room"), ("1 table", self.alias),
                            ("%s table" % self.alias, self.alias)):
            got = reply(text, lambda b, label=label: b.startswith("[%s" % label) or label in b, text)
            R.check(label in got, "1: %r was not answered for %s: %r" % (text, label, got))

    def name_of(self, uid):
        return next(n for n, u in self.ids.items() if u == uid)

    def run(self):
        super().run()
        f = self.figures
        if "room_events" in f:
            print("    brief: %d room + %d direct-room events per deal = %d sends in %.0f s (%s allowed); "
                  "replies p50 %.0f ms p99 %.0f ms; bucket at the start %s" % (
                      f["room_events"], f["dm_events"], f["sends"], f["deal_seconds"],
                      "%.1f" % f["allowed"] if "allowed" in f else "no limit",
                      pct(f["latency"], 50) * 1000, pct(f["latency"], 99) * 1000,
                      "%.1f" % f["tokens_at_start"] if "tokens_at_start" in f else "-"))
        if VERBOSE:
            for n, p in self.players.items():
                print("    %s: %d moves, refused %r, errors %r" % (n, len(p.actions), p.refused[:2], p.errors[:1]))


def main():
    if not os.path.exists(matrix_game.matrixlib.CARDBOT):
        print("matrix_brief: no cardbot binary at %s" % matrix_game.matrixlib.CARDBOT)
        print("matrix_brief: 0 passed, 1 failed")
        return 1
    only = {int(x) for x in os.environ.get("MX_ONLY", "").split(",") if x.strip()}
    scs = [
        Brief(1, "four people at %.1f s a move, %s" % (
            THINK, "Synapse's limit" if SPEED == 1 else "%.1f a second after 10" % (0.2 * SPEED)),
              rate=(10, 0.2 * SPEED), think=THINK,
              deal_timeout=60 + 60 * THINK),
        Brief(2, "two people and two computers, brief, no limit", humans=("ann", "bob"), computers=2,
              think=0.3, deal_timeout=120, bot_extra="rate_messages_per_minute = 60000; rate_burst = 1000;"),
    ]
    t0 = time.time()
    for sc in scs:
        if not only or sc.num in only:
            sc.run()
    print("  total %.1f s" % (time.time() - t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
