#!/usr/bin/env python3
"""irc_games.py: one whole deal of Trump304 and one of Rook through the real
cardbot on a real ngircd.

Trump304 with three players (two scripted IRC clients and a computer
player) in #t304, Rook with four (two clients, two computer players) in
#rook, both at once on one bot. The clients play only from what the bot
tells them: the turn prompt in the channel with their nick, and their
private hand line (positions, "you may play"). They bid, lay the trump card
and exchange privately (Trump304), ask for the trump with !reveal when they
may, discard privately and name a colour (Rook).

Checks over everything each client received:
  (a) every card named in a channel line is one being played ("NAME CARD"),
      or the trump card shown by a reveal; the trump card laid face down and
      Rook's discard never appear in the channel before they are public;
  (b) no private line to a client names a card that was at that moment in
      the other client's hand;
  (c) the deal is whole (the end line and the score), moves taken from the
      bot's own lists are never refused, and no line is broken UTF-8.
Prints figures (channel and private lines per deal) and ends with
"irc_games: N passed, M failed". Environment: CARDBOT, NGIRCD,
IRC_GAMES_VERBOSE=1 (print the transcripts).
"""
import os
import subprocess
import json
import re
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

BOTNICK = "cardbot"
SEP = " \u00b7 "
VERBOSE = os.environ.get("IRC_GAMES_VERBOSE") == "1"
SUITS = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}
T_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[789JQKA])([\u2660\u2665\u2666\u2663])")
R_CARD = re.compile(r"(?<![0-9A-Za-z])(1[0-4]|[1-9])([RGYB])(?![0-9A-Za-z])|\bROOK\b")
NO_REVIEW = "taken tricks may not be looked at again until the hand ends"  # Rook's answer to !last
HAND_RE = re.compile(r"^\[(?P<room>#\S+): (?P<state>[^\]]*)\] hand: (?P<rest>.*)$")

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)
    return cond


def cards(game, text):
    """Card codes named in a line, as the bot's own codes ("JS", "14R", "ROOK")."""
    t = strip_colours(text)
    if game == "trump304":
        return [r + SUITS[s].upper() for r, s in T_CARD.findall(t)]
    return [m.group(0) if m.group(0) == "ROOK" else m.group(1) + m.group(2) for m in R_CARD.finditer(t)]


def hand_parts(text):
    """(hand cards, cards one may play, the face-down trump card or None) of a hand line."""
    m = HAND_RE.match(strip_colours(text))
    if not m:
        return None
    rest = m.group("rest")
    parts = rest.split(" | ")
    hand = parts[0]
    may = trump_card = discard = None
    for p in parts[1:]:
        if p.startswith("you may play:"):
            may = p[len("you may play:"):]
        elif p.startswith("your trump card (face down):"):
            trump_card = p[len("your trump card (face down):"):]
        elif p.startswith("discard CARD (not a counter):"):
            discard = p[len("discard CARD (not a counter):"):]
    return m.group("room"), hand, may, trump_card, discard


class Player:
    def __init__(self, port, nick, chan, game, record):
        self.c = Client(port, nick, record)
        self.nick, self.chan, self.game = nick, chan, game
        self.seen = 0
        self.hand = []
        self.may = []
        self.discard_ok = []
        self.laid = None          # Trump304: the trump card this client laid
        self.discarded = None     # Rook: this client's discard
        self.revealed_once = False
        self.bidder = False       # bids on its first turn
        self.bid_once = False
        self.cuts = 0             # cuts made when offered
        self.asked_last = False   # !last asked once in play
        self.sent_at = {}
        self.pending = None       # the latest prompt not yet answered

    def code(self, card):
        if self.game == "trump304":
            return card[:-1].lower() + card[-1].lower()
        return card.lower()

    def step(self):
        """Reads new lines; answers the latest prompt addressed to this
        client once what it needs has come: a move waits for the hand line
        that lists the cards it may play (or discard), which may arrive after
        the prompt (a busy machine sends it late)."""
        lines = self.c.from_bot(BOTNICK, self.seen)
        if not lines:
            return
        self.seen = self.c.lines.index(lines[-1]) + 1
        for m in lines:
            text = strip_colours(m.text)
            if m.target.lower() == self.nick.lower():
                hp = hand_parts(m.text)
                if hp and hp[0] == self.chan:
                    self.hand = cards(self.game, hp[1])
                    self.may = cards(self.game, hp[2]) if hp[2] else []
                    self.discard_ok = cards(self.game, hp[4]) if hp[4] else []
            elif m.target.lower() == self.chan:
                for seg in text.split(SEP):
                    if seg.startswith(self.nick + ": "):
                        self.pending = seg
        if self.pending and self.answer(self.pending):
            self.pending = None

    def say(self, text, private=False):
        if private:
            self.c.privmsg(BOTNICK, "%s %s" % (self.chan, text))
        else:
            self.c.privmsg(self.chan, text)

    def answer(self, prompt):
        """Answers prompt; False when the hand line it needs has not come yet."""
        if "you may cut the deck" in prompt:
            self.cuts += 1
            self.say("!cut 7")
        elif "your turn to bid" in prompt:
            if self.bidder and not self.bid_once:
                # the first to speak of the two bids once, to take the
                # private steps (trump card, exchange, nest) itself
                self.bid_once = True
                n = re.search(r"\((\d+)", prompt)
                low = int(n.group(1)) if n else 150
                want = 250 if self.game == "trump304" else 150
                self.say("!bid %d" % (max(low, want) if "or more" in prompt else low))
            elif "or pass" in prompt or "(pass)" in prompt:
                self.say("!pass")
            else:
                n = re.search(r"\((\d+)", prompt)
                self.say("!bid %s" % (n.group(1) if n else "150"))
        elif "lay your trump card" in prompt:
            if not self.hand:
                return False
            self.laid = self.hand[-1]
            self.say("trump %d" % len(self.hand), private=True)
        elif "exchange two cards" in prompt:
            self.say("exchange 1 2", private=True)
        elif "discard one card" in prompt:
            if not self.discard_ok:
                return False
            self.discarded = self.discard_ok[-1]
            self.discard_ok = []
            self.say("discard %s" % self.code(self.discarded), private=True)
        elif "name the trump colour" in prompt:
            self.say("!trump black")
        elif "your turn to play" in prompt:
            if "!reveal" in prompt and not self.revealed_once:
                self.revealed_once = True
                self.say("!reveal")
                return True
            if not self.may:
                return False
            if not self.asked_last and (self.game == "rook" or len(self.hand) <= 8):
                # Trump304 keeps !last; Rook refuses it during a hand (004)
                self.asked_last = True
                self.say("!last")
            self.say("!play %s" % self.code(self.may[0]))
            self.may = []
        return True


CUTOFF = {}  # channel: the time its first deal ended (later deals are not checked)


def chan_lines(p):
    end = CUTOFF.get(p.chan, float("inf"))
    return [m for m in p.c.from_bot(BOTNICK) if m.target.lower() == p.chan and m.t <= end]


def priv_lines(p):
    end = CUTOFF.get(p.chan, float("inf"))
    return [m for m in p.c.from_bot(BOTNICK) if m.target.lower() == p.nick.lower() and m.t <= end]


def hand_before_deal(p):
    """Private hand lines p received before the channel's line of their deal
    ("Deal N:"), in the order p received the bot's lines: none expected."""
    told = set()
    early = []
    for m in p.c.from_bot(BOTNICK):
        text = strip_colours(m.text)
        if m.target.lower() == p.chan:
            told.update(int(n) for n in re.findall(r"Deal (\d+):", text))
        elif m.target.lower() == p.nick.lower() and "] hand: " in text:
            if not told:
                early.append(text)
    return early


def privacy(game, players):
    """(a) and (b) over the transcripts of the players of one table."""
    a = players[0]
    public = set()
    leaks = []
    laid = {p.laid for p in players if p.laid}
    revealed = False
    for m in chan_lines(a):
        for seg in strip_colours(m.text).split(SEP):
            named = cards(game, seg)
            if re.search(r"trump card \S+|the card laid face down was \S+", seg):
                revealed = True
                public.update(named)
                continue
            if not named:
                continue
            if re.match(r"^\S+ \S+( \(cuts\))?$", seg) and len(named) == 1:
                public.update(named)
            else:
                leaks.append("channel: " + seg)
            if set(named) & laid and not revealed:
                leaks.append("channel names the laid trump card before a reveal: " + seg)
    for p in players:
        if p.discarded and p.discarded in {c for m in chan_lines(a) for c in cards(game, m.text)}:
            leaks.append("channel names %s's discard %s" % (p.nick, p.discarded))
    # (b): a private line names none of the other client's cards at that time
    # (cards already played in the channel are public: !last names them)
    played = [(m.t, set(cards(game, seg))) for m in chan_lines(a) for seg in strip_colours(m.text).split(SEP)
              if re.match(r"^\S+ \S+( \(cuts\))?$", seg)]
    for p in players:
        for q in players:
            if q is p:
                continue
            q_hand = set()
            q_lines = priv_lines(q)
            qi = 0
            for m in priv_lines(p):
                while qi < len(q_lines) and q_lines[qi].t <= m.t:
                    hp = hand_parts(q_lines[qi].text)
                    if hp and hp[0] == q.chan:
                        q_hand = set(cards(game, hp[1]))
                    qi += 1
                seen = set().union(*[c for t, c in played if t <= m.t])
                bad = (set(cards(game, m.text)) & q_hand) - seen
                if bad:
                    leaks.append("private to %s names %s of %s: %s" % (p.nick, ",".join(sorted(bad)), q.nick,
                                                                     strip_colours(m.text)))
    return leaks


def cut_checks(game, p):
    """The cut offers seen in one channel: each to the seat after the dealer
    (Trump304, 002 2.2) or before it (Rook, 004); returns (offers, cuts, problems)."""
    segs = [seg for m in p.c.from_bot(BOTNICK) if m.target.lower() == p.chan
            for seg in strip_colours(m.text).split(SEP)]
    seats = None
    offers = cuts = 0
    problems = []
    pending = None
    for seg in segs:
        m = re.match(r"^a match of \S+ begins: (.*)$", seg)
        if m:
            alone = re.match(r"^(.*), each on their own$", m.group(1))  # three who play alone
            sides = [[x] for x in alone.group(1).split(", ")] if alone else \
                [x.split(" & ") for x in m.group(1).split(" against ")]
            seats = [sides[0][0], sides[1][0], sides[0][1], sides[1][1]] if len(sides) == 2 and len(sides[0]) == 2 \
                else [x[0] for x in sides]
            continue
        m = re.match(r"^(\S+): you may cut the deck before the next deal: !cut N \(1 to (\d+)\)", seg)
        if m:
            offers += 1
            pending = m.group(1)
            if m.group(2) != ("56" if game == "rook" else "31"):
                problems.append("offer with the wrong range: " + seg)
            continue
        m = re.match(r"^(\S+) cuts the deck at (\d+)$", seg)
        if m:
            cuts += 1
            if m.group(1) != pending:
                problems.append("a cut by someone not offered it: " + seg)
            continue
        m = re.match(r"^Deal \d+: (\S+) deals;", seg)
        if m and pending and seats:
            n = len(seats)
            d = seats.index(m.group(1)) if m.group(1) in seats else -1
            want = seats[(d + n - 1) % n] if game == "rook" else seats[(d + 1) % n]
            if d < 0 or pending != want:
                problems.append("the cut was offered to %s, not %s (dealer %s)" % (pending, want, m.group(1)))
            pending = None
    return offers, cuts, problems


def play_deal(players, end_marker, timeout):
    end = time.time() + timeout
    a = players[0]
    while time.time() < end:
        for p in players:
            p.step()
        if any(end_marker in strip_colours(m.text) for m in chan_lines(a)):
            return True
        time.sleep(0.02)
    return False


def tell_stall(name, players, bot):
    """What the players of a stalled deal last heard, and the bot's log: a
    failure says where the deal stood."""
    print("%s stalled; the last lines its players received:" % name)
    seen = []
    for p in players:
        for m in p.c.from_bot(BOTNICK)[-12:]:
            if m.target.lower() == p.nick.lower() or p.nick == players[0].nick:
                seen.append((m.t, "%s <- %s: %s" % (p.nick, m.target, strip_colours(m.text))))
    for _, line in sorted(seen)[-20:]:
        print("  " + line)
    for p in players:
        print("  %s: %s, pending prompt %r, sent last %r, server errors %s" % (
            p.nick, "disconnected" if p.c.closed_by_server else "connected", p.pending,
            p.c.sent[-3:], p.c.errors[-2:]))
    print(bot.log_tail(20))


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        print("irc_games: cardbot or ngircd is missing")
        print("irc_games: 0 passed, 1 failed")
        return 1
    tmp = irclib.tempdir()
    srv = NgIRCd(tmp)
    srv.start()
    bot = Bot(tmp, srv.port, channels=("#t304", "#rook"), extra_tables="computer_delay_ms = 100;")
    # Scripted players answer at once: a per-player command limit above theirs.
    with open(bot.cfg) as f:
        cfg = f.read()
    with open(bot.cfg, "w") as f:
        # (The cut offer is waited for as people would: its window is not
        # what is tested, and a busy machine can bring the offer late.)
        f.write(cfg.replace("bot = {", "bot = {\n  commands_burst = 100;\n  commands_per_minute = 6000;", 1)
                .replace("cut_offer_seconds = 4;", "cut_offer_seconds = 60;"))
    bot.start()
    t0 = time.time()
    try:
        ann = Player(srv.port, "ann", "#t304", "trump304", None)
        bob = Player(srv.port, "bob", "#t304", "trump304", None)
        cat = Player(srv.port, "cat", "#rook", "rook", None)
        dan = Player(srv.port, "dan", "#rook", "rook", None)
        everyone = [ann, bob, cat, dan]
        ann.bidder = cat.bidder = True
        for p in everyone:
            p.c.connect()
            p.c.join(p.chan)
        ok = ann.c.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == BOTNICK for m in ann.c.lines), 5) or True
        time.sleep(1.0)  # the bot joins its channels
        # Trump304 for three: ann, bob, a computer player.
        ann.say("!new trump304 3")
        time.sleep(0.3)
        bob.say("!sit")
        ann.say("!bot")
        ann.say("!set pace casual")  # the 30-second timer is not what this test waits for
        # Rook: cat, dan (seats 1 and 3: partners) and two computer players.
        cat.say("!new rook")
        time.sleep(0.3)
        cat.say("!bot 2")
        dan.say("!sit 3")
        cat.say("!bot 4")
        time.sleep(0.5)
        ann.say("!start")
        cat.say("!start")
        ok_t = play_deal([ann, bob], "· tokens: ", 120)
        ok_r = play_deal([cat, dan], "· score: ", 120)
        check(ok_t, "a whole Trump304 deal is played (ends with the tokens)")
        check(ok_r, "a whole Rook hand is played (ends with the score)")
        for ok, name, ps in ((ok_t, "Trump304 deal 1", [ann, bob]), (ok_r, "Rook hand 1", [cat, dan])):
            if not ok:
                tell_stall(name, ps, bot)
        time.sleep(0.5)
        for p in (ann, cat):
            ends = [m.t for m in chan_lines(p) if re.search(r"· (tokens|score): ", strip_colours(m.text))]
            if ends:
                CUTOFF[p.chan] = ends[0]
        t_chan = [strip_colours(m.text) for m in chan_lines(ann)]
        r_chan = [strip_colours(m.text) for m in chan_lines(cat)]
        check(any("a match of Trump304 begins" in s for s in t_chan), "the Trump304 match begins in #t304")
        check(any(re.search(r"bid \d+ and took \d+: (made|failed)", s) or "spoilt trumps" in s for s in t_chan),
              "the Trump304 deal has its result line")
        check(any("tokens: " in s for s in t_chan), "the Trump304 tokens are told")
        check(any(" tokens from " in s for s in t_chan) or any("spoilt trumps" in s for s in t_chan),
              "the Trump304 deal says who paid whom (seed 002, 3.0)")
        check(any(re.search(r"team bid \d+ and took \d+: (made|set)", s) for s in r_chan),
              "the Rook hand has its result line")
        check(any("takes the nest card" in s for s in r_chan) and any("discards a card face down" in s for s in r_chan),
              "the nest and the discard are told without their cards")
        check(any("names trumps: " in s for s in r_chan), "the trump colour is told")
        for p in everyone:
            refused = [strip_colours(m.text) for m in priv_lines(p) if re.match(r"^\[#\S+\] ", m.text)
                       and NO_REVIEW not in m.text
                       and not re.match(r"^\[#\S+\] your seat key is ", strip_colours(m.text))]
            check(not refused, "%s's moves were not refused: %s" % (p.nick, refused[:2]))
            bad = [m.raw for m in p.c.lines if "\ufffd" in m.text]
            check(not bad, "%s received only valid UTF-8" % p.nick)
        for p in everyone:
            early = hand_before_deal(p)
            check(not early, "%s's first hand came after the channel heard of the deal (%s)" % (p.nick, early[:1]))
        lt = privacy("trump304", [ann, bob])
        lr = privacy("rook", [cat, dan])
        check(not lt, "Trump304: no card leaks (%s)" % lt[:3])
        check(not lr, "Rook: no card leaks (%s)" % lr[:3])
        # The checks can fail: a planted channel line naming one of bob's cards.
        bob_hands = [hand_parts(m.text) for m in priv_lines(bob)]
        bob_cards = [c for hp in bob_hands if hp for c in cards("trump304", hp[1])]
        if bob_cards and CUTOFF.get("#t304"):
            sym = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
            c = bob_cards[0]
            planted = irclib.Msg(CUTOFF["#t304"] - 0.001, BOTNICK, "NOTICE", "#t304",
                                 "Robo-South bids 160 \u00b7 psst: bob holds %s%s" % (c[:-1], sym[c[-1]]), "", 1)
            ann.c.lines.append(planted)
            check(any("psst" in x for x in privacy("trump304", [ann, bob])), "a planted leak is caught")
            ann.c.lines.remove(planted)
        check(any("lays a trump card face down" in s for s in t_chan), "a trump card was laid face down")
        print("figures: trump304: trumper %s; exchange by a client: %s; reveal asked: %s; rook: discard by a client: %s"
              % ("a client" if ann.laid or bob.laid else "the computer player",
                 any("puts two cards down" in s for s in t_chan),
                 any("asks for the trump" in s or "reveals the trump" in s for s in t_chan),
                 bool(cat.discarded or dan.discarded)))
        # Figures: lines of one deal.
        for name, ps in (("trump304", [ann, bob]), ("rook", [cat, dan])):
            ch = len(chan_lines(ps[0]))
            pv = [len(priv_lines(p)) for p in ps]
            print("figures: %s deal 1: %d channel lines, private lines %s" %
                  (name, ch, ", ".join("%s %d" % (p.nick, n) for p, n in zip(ps, pv))))
        # !table, !score, !rules answer for the new games
        n0 = len(ann.c.lines)
        ann.say("!score")
        ann.c.privmsg(BOTNICK, "#t304 rules more")
        ann.c.wait(lambda: any("Trump304 with 3 players" in strip_colours(m.text) for m in ann.c.lines[n0:]), 5)
        got = [strip_colours(m.text) for m in ann.c.from_bot(BOTNICK, n0)]
        check(any(s.startswith("Trump304: ") for s in got), "!score answers in the channel")
        check(any("Trump304 with 3 players" in s for s in got), "!rules names the game privately")
        # A complete game of Rook: cat and dan play on with the computer
        # players until a team reaches 500 (Trump304's tokens only add up,
        # so its match has no end of its own: the table stops it). The
        # privacy checks above cover the first hand; from here on every
        # line counts.
        CUTOFF.pop(cat.chan, None)
        t_full = time.time()
        full = play_deal([cat, dan], "the match is over", int(os.environ.get("ROOK_GAME_SECONDS", "240")))
        r_all = [strip_colours(m.text) for m in chan_lines(cat)]
        hands = sum(1 for x in r_all for sg in x.split(" \u00b7 ") if re.search(r"team bid \d+ and took \d+: (made|set)", sg))
        check(full, "a complete game of Rook is played to its end on the IRC server (%d hands, %.0f s)" % (
            hands, time.time() - t_full))
        if not full and ok_r:
            tell_stall("the Rook game", [cat, dan], bot)
        for p in (cat, dan):
            refused = [strip_colours(m.text) for m in priv_lines(p) if re.match(r"^\[#\S+\] ", m.text)
                       and NO_REVIEW not in m.text
                       and not re.match(r"^\[#\S+\] your seat key is ", strip_colours(m.text))]
            check(not refused, "%s's moves over the whole game were not refused: %s" % (p.nick, refused[:2]))
        print("figures: rook complete game: %d hands in %.0f s" % (hands, time.time() - t_full))
        # The cut (Trump304: the seat after the dealer; Rook: the seat before),
        # answered by the clients with !cut 7; the decks are checked against
        # their commitments by cardbot verify below.
        for game, p in (("trump304", ann), ("rook", cat)):
            offers, cuts, problems = cut_checks(game, p)
            check(not problems, "%s: the cut is offered to the right seat: %s" % (game, problems[:2]))
            print("figures: %s: %d cut offers, %d cuts" % (game, offers, cuts))
        rook_cuts = cat.cuts + dan.cuts
        check(rook_cuts > 0 and cut_checks("rook", cat)[1] == rook_cuts,
              "Rook: the clients cut when offered (%d), and each cut is told" % rook_cuts)
        # !last: Rook refuses it during a hand with the reason; Trump304 shows the last trick.
        r_priv = [strip_colours(m.text) for p in (cat, dan) for m in p.c.from_bot(BOTNICK)
                  if m.target.lower() == p.nick.lower()]
        check(any(NO_REVIEW in x for x in r_priv),
              "Rook: !last is refused during a hand, with the reason")
        t_priv = [strip_colours(m.text) for p in (ann, bob) for m in p.c.from_bot(BOTNICK)
                  if m.target.lower() == p.nick.lower()]
        check(any(re.match(r"^#t304: last trick \(\d+\):", x) for x in t_priv) or not (ann.asked_last or bob.asked_last),
              "Trump304: !last shows the last trick")
        for p in everyone:
            p.say("!stop")
        time.sleep(0.5)
        if VERBOSE:
            for p in everyone:
                for m in p.c.from_bot(BOTNICK):
                    print("%s <- %s: %s" % (p.nick, m.target, strip_colours(m.text)))
    except Exception as e:  # a broken run is a failure, not a crash
        check(False, "the run raised %r" % e)
        print(bot.log_tail(30))
    finally:
        bot.stop()
        srv.stop()
    # Every deal stored for the new games checks against its commitment and
    # replays cleanly (cardbot export, then cardbot verify).
    try:
        db = os.path.join(tmp, "data", "cardbot.db")
        out = subprocess.run([irclib.CARDBOT, "export", db], capture_output=True, text=True)
        ids = [line.split()[0] for line in out.stdout.splitlines() if line.strip()]
        check(out.returncode == 0 and len(ids) >= 2, "cardbot export lists the matches (%s)" % out.stderr.strip())
        for mid in ids:
            rec = subprocess.run([irclib.CARDBOT, "export", db, mid], capture_output=True, text=True)
            path = os.path.join(tmp, "m%s.json" % mid)
            with open(path, "w") as f:
                f.write(rec.stdout)
            game = json.loads(rec.stdout).get("game") if rec.returncode == 0 else None
            vf = subprocess.run([irclib.CARDBOT, "verify", path], capture_output=True, text=True)
            check(vf.returncode == 0, "match %s (%s): cardbot verify accepts every deal: %s" % (
                mid, game, (vf.stdout + vf.stderr)[-300:]))
    finally:
        irclib.rmtree(tmp)
    print("irc_games: took %.0fs" % (time.time() - t0))
    print("irc_games: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
