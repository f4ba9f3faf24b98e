#!/usr/bin/env python3
"""irc_lang.py: a whole 304 match in Tamil, and Trump304 and Rook in
Sinhala, through the real cardbot on a real ngircd.

The bot's config gives #ta `lang = "ta"` (a channel line); #si has none
and is switched with `!set lang si`. Four scripted people: bob chooses
`!lang si` and cat `!lang en` privately; ann and dan keep the room's.
In #ta they play a 304 match to its real end ("the match is over", in
Tamil): ann and cat bid 250 whenever nobody has bid and everyone else
passes, so tokens move fast (3 or 4 a deal) and the match ends in a few
deals. In deal 2 the bot is killed (SIGKILL) and started again on the
same database; the match resumes and bob and cat still read their own
languages (their `!lang` was stored). Then in #si ann, bob and cat and a
computer player play two deals of Trump304 and two of Rook (a stall
prints the channel's and the players' last lines).

A player acts on a turn line unless it is the hand line it read just
before (the same turn sent again). It once skipped every line it had ever
acted on, and the last trick's line of two Rook deals is often word for
word the same (one card left, trumps Black, bid 150 by ann): the player
never played it and the deal stalled (2 of 10 runs).

Players read only what the bot tells them, in the language they read:
their hand lines are found with the bot's own tables (tests/lib/langlib.py);
what language a line is in is judged by its letters alone.

Checks over every line the bot sent (tests/lib/langlib.py's check_line):
  - every room line of #ta is Tamil, of #si (after the switch) Sinhala:
    no letter of the other script, and no English word left once names,
    cards, rooms, numbers and command words are taken out (a segment of
    names and cards only is exempt);
  - every private line is in its reader's language: bob Sinhala, cat
    English (no Tamil or Sinhala letter), ann and dan the language of the
    room the line is about (its [#room] tag; untagged: either of theirs);
  - every line is valid UTF-8 and no IRC line is over 512 bytes;
  - privacy (langlib.privacy): no private line names a card in someone
    else's hand, no room line a card still in a hand of someone it does
    not name;
  - the match ends, resumes after the restart, bob and cat are answered
    in their languages after it; two deals of each other game end;
  - the checks themselves catch a planted English line and a planted leak.
Ends with "irc_lang: N passed, M failed". Environment: CARDBOT, NGIRCD,
IRC_LANG_VERBOSE=1 (transcript tails on failure), IRC_LANG_KEEP=1,
IRC_LANG_ONLY=rook (only the Rook deals in #si: no 304 match, no
Trump304, no planted-leak checks), IRC_LANG_ROOK_DEALS=N (default 2).
"""
import os
import re
import signal
import sys
import threading
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
import langlib  # noqa: E402
from play304lib import Pacer  # noqa: E402  (under the bot's per-person command limit)
from irclib import Bot, Client, NgIRCd  # noqa: E402
from langlib import SEP, strip_colours, text, template_re  # noqa: E402

BOTNICK = "cardbot"
VERBOSE = os.environ.get("IRC_LANG_VERBOSE") == "1"
# A guard only: a match is waited for while the bot keeps talking (45 s
# without a line is a stall), since a busy machine stretches it.
MATCH_TIMEOUT = float(os.environ.get("IRC_LANG_MATCH_SECONDS", "1800"))
ONLY = os.environ.get("IRC_LANG_ONLY", "")   # "rook": only the Rook deals in #si (no 304 match, no Trump304)
ROOK_DEALS = int(os.environ.get("IRC_LANG_ROOK_DEALS", "2"))
PEOPLE = ("ann", "bob", "cat", "dan")
CHOSEN = {"bob": "si", "cat": "en"}
ROBOTS = ("Robo-North", "Robo-East", "Robo-South", "Robo-West")
NAMES = list(PEOPLE) + list(ROBOTS) + [BOTNICK, "eve"]

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)
    return cond


def segs_of(lines, chan):
    return [(m.t, s) for m in lines if m.src.lower() == BOTNICK and m.cmd in ("NOTICE", "PRIVMSG")
            and m.target.lower() == chan for s in strip_colours(m.text).split(SEP)]


def joined(msgs, who):
    """The bot's private lines to who, each with the lines it was split
    into over 512 bytes put back (a piece that does not open with a room
    tag continues the line before it: the bot cuts at a space it drops)."""
    out = []
    for m in msgs:
        if m.src.lower() != BOTNICK or m.cmd not in ("NOTICE", "PRIVMSG") or m.target.lower() != who:
            continue
        t = strip_colours(m.text)
        if out and not re.match(r"^\[[#&]", t) and re.match(r"^\[[#&]", out[-1][1]):
            out[-1] = (out[-1][0], out[-1][1] + " " + t)
        else:
            out.append((m.t, t))
    return out


def count(lines, chan, lang, tid):
    rx = template_re(text(lang, tid))
    return sum(1 for _, s in segs_of(lines, chan) if rx.match(s))


class Person(threading.Thread):
    """Answers each of its hand lines that says it is its turn, privately,
    naming the table's room."""

    def __init__(self, client, stop):
        super().__init__(daemon=True)
        self.c, self.stop = client, stop
        self.idx = 0
        # room -> (the last hand line read, epoch): a turn line the same as
        # the hand line just before it is the same turn sent again, not a
        # new one. (Not every line ever acted on: the last trick's line of
        # two deals can be word for word the same, e.g. Rook's "trick 14,
        # trumps Black, bid 150 by ann, your turn] hand: 1:2Y | you may
        # play: 2Y", and the player then never played that card.)
        self.done = {}
        self.epoch = 0
        self.bidder = {}       # room -> bids (see langlib.decide)
        self.bid_done = {}     # (room, deal key) -> True
        self.game = {}         # room -> "304" | "trump304" | "rook"
        self.errors = []
        self.moves = 0
        self.keys = {}         # room -> seat key
        self.pacer = Pacer()

    def send_to(self, target, text):
        self.pacer.take()
        self.c.privmsg(target, text)

    def send(self, text):
        self.pacer.take()
        try:
            self.c.privmsg(BOTNICK, text)
        except OSError:
            pass

    def run(self):
        try:
            while not self.stop.is_set():
                with self.c.cond:
                    if len(self.c.lines) <= self.idx:
                        self.c.cond.wait(0.2)
                    new = self.c.lines[self.idx:]
                    self.idx += len(new)
                if new:
                    time.sleep(0.15)  # the rest of a line cut in two comes right after it
                    with self.c.cond:
                        more = self.c.lines[self.idx:]
                        self.idx += len(more)
                    for t, line in joined(new + more, self.c.nick):
                        self.handle(line)
        except Exception:
            self.errors.append(traceback.format_exc())

    def handle(self, line):
        for lang in ("en", "ta", "si"):
            k = template_re(text(lang, "T_SEAT_KEY")).match(line)
            if k:
                self.keys[k.group("g1")] = k.group("g2")
            c = template_re(text(lang, "T_CLAIM_HOW")).match(line)
            if c and c.group("g1") in self.keys:
                # the bot lost sight of us (its restart): show the seat key
                self.send("%s claim %s" % (c.group("g1"), self.keys[c.group("g1")]))
                self.send("%s hand" % c.group("g1"))
                return
        h = None
        for lang in ("en", "ta", "si"):
            for g in ("304", "rook"):
                h = langlib.parse_hand(line, lang, g)
                if h and (g == "rook") == (self.game.get(h["room"]) == "rook"):
                    break
                h = None
            if h:
                break
        if not h:
            return
        room = h["room"]
        again = self.done.get(room) == (h["raw"], self.epoch)
        self.done[room] = (h["raw"], self.epoch)
        if not h["turn"] or again:
            return
        game = self.game.get(room, "304")
        cmd = langlib.decide(h, game, self.bidder.get(room, False), self.bid_done.get(room, False))
        if cmd.startswith("bid"):
            self.bid_done[room] = True
        self.moves += 1
        self.send("%s %s" % (room, cmd))


class Run:
    def __init__(self):
        self.tmp = irclib.tempdir()
        self.srv = NgIRCd(self.tmp)
        self.stop = threading.Event()
        self.clients = {}
        self.persons = {}
        self.bot = None
        self.lang_from = {}      # person -> index of the first line after their !lang answer
        self.si_from = None      # eve's index of the first #si line after the switch
        self.si_time = None      # and its time
        self.restart_at = None
        self.t_match = None

    # -- the bot --
    def make_bot(self):
        self.bot = Bot(self.tmp, self.srv.port, nick=BOTNICK, channels=("#ta", "#si"), pace_burst=100,
                       pace_per_second=50,
                       extra_tables='deal_pause_ms = 0;\n  computer_delay_ms = 0;\n  computer_level = "easy";')
        with open(self.bot.cfg) as f:
            cfg = f.read()
        cfg = cfg.replace('channels = ( "#ta", "#si" );', 'channels = ( { name = "#ta"; lang = "ta"; }, "#si" );')
        cfg = cfg.replace("cut_offer_seconds = 4;", "cut_offer_seconds = 0;")
        cfg = cfg.replace('computer_level = "normal";', "")
        with open(self.bot.cfg, "w") as f:
            f.write(cfg)

    def wait_seg(self, client, chan, pred, timeout, start=0):
        def look():
            return any(pred(s) for _, s in segs_of(client.lines[start:], chan))
        return client.wait(look, timeout)

    def private_after(self, who, start, pred, timeout=10):
        c = self.clients[who]
        return c.wait(lambda: any(pred(strip_colours(m.text)) for m in c.from_bot(BOTNICK, start)
                                  if m.target.lower() == who), timeout)

    def run(self):
        self.srv.start()
        self.make_bot()
        self.bot.start()
        eve = Client(self.srv.port, "eve").connect()
        self.clients["eve"] = eve
        for ch in ("#ta", "#si"):
            eve.join(ch)
        if not eve.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == BOTNICK for m in eve.lines) or
                        any(m.cmd == "353" and BOTNICK in m.text for m in eve.lines), 15):
            raise RuntimeError("the bot did not join: " + self.bot.log_tail())
        time.sleep(1.0)
        for n in PEOPLE:
            c = Client(self.srv.port, n).connect()
            c.join("#ta")
            c.join("#si")
            self.clients[n] = c
            self.persons[n] = Person(c, self.stop)
        # bob and cat choose their language privately
        for n, lang in CHOSEN.items():
            c = self.clients[n]
            n0 = len(c.lines)
            c.privmsg(BOTNICK, "lang " + lang)
            ok = self.private_after(n, n0, lambda s: s != "" , 10)
            check(ok, "%s's !lang %s was not answered" % (n, lang))
            self.lang_from[n] = len(c.lines)
            got = [strip_colours(m.text) for m in c.from_bot(BOTNICK, n0)]
            check(got and langlib.check_line(got[0], lang, NAMES) is None and
                  (lang == "en" or langlib.SCRIPT[lang].search(got[0])),
                  "%s's !lang answer is not in %s: %r" % (n, lang, got[:1]))
        for n in ("ann", "dan"):
            self.lang_from[n] = 0
        if ONLY == "rook":
            for p in self.persons.values():
                p.start()
            self.t304_rook()
            return
        # the Tamil table: four people
        ann = self.clients["ann"]
        n0 = len(eve.lines)
        ann.privmsg("#ta", "!304")
        seat = template_re(text("ta", "T_SIT"), anchored=False) if "T_SIT" in langlib.TABLES["ta"] else None
        del seat
        for n in PEOPLE[1:]:
            time.sleep(0.3)
            self.clients[n].privmsg("#ta", "!sit")
        # everyone seated: the !start answer says the match begins
        time.sleep(1.5)
        for n in ("ann", "cat"):
            self.persons[n].bidder["#ta"] = True
        for p in self.persons.values():
            p.game["#ta"] = "304"
            p.start()
        ann.privmsg("#ta", "!start")
        self.t_match = time.time()
        ok = self.wait_seg(eve, "#ta", lambda s: template_re(text("ta", "T_DEAL")).match(s), 15, n0)
        if not check(ok, "no deal began in #ta: %s" % self.bot.log_tail()):
            return
        # deal 2: the bot is killed after a few cards and started again
        ok = eve.wait_active(lambda: count(eve.lines, "#ta", "ta", "T_DEAL") >= 2, guard=MATCH_TIMEOUT)
        check(ok, "deal 2 never began")
        if ok:
            k = len(eve.lines)
            eve.wait(lambda: len(segs_of(eve.lines[k:], "#ta")) >= 10, 20)
            self.restart_at = time.time()
            self.bot.proc.send_signal(signal.SIGKILL)
            self.bot.proc.wait(5)
            for p in self.persons.values():
                p.epoch += 1
            time.sleep(0.5)
            r0 = {n: len(self.clients[n].lines) for n in PEOPLE}
            e0 = len(eve.lines)
            self.bot.start()
            back = self.wait_seg(eve, "#ta", lambda s: s.startswith(text("ta", "T_RESUMED").split(":")[0]), 30, e0)
            check(back, "the bot did not say in Tamil that the match resumes: %s" % self.bot.log_tail())
            for n in PEOPLE:
                self.persons[n].send("#ta hand")
            time.sleep(4)
            for n in PEOPLE:   # once more, after any seat-key claim
                self.persons[n].done.clear()
                self.persons[n].send("#ta hand")
            for n, lang in (("bob", "si"), ("cat", "en"), ("dan", "ta")):
                got = self.private_after(n, r0[n], lambda s, lang=lang: langlib.parse_hand(s, lang) is not None, 30)
                check(got, "after the restart %s's hand did not come in %s (the !lang choice was lost?)" % (n, lang))
        # the match's end
        won = template_re(text("ta", "T_MATCH_WON"))
        ok = eve.wait_active(lambda: any(won.match(s) for _, s in segs_of(eve.lines, "#ta")), guard=MATCH_TIMEOUT)
        self.match_seconds = time.time() - self.t_match
        self.deals_304 = count(eve.lines, "#ta", "ta", "T_DEAL")
        check(ok, "the 304 match did not end (stalled 45 s, or past %.0f s; %d deals): %s" % (MATCH_TIMEOUT, self.deals_304,
                                                                           self.bot.log_tail()))
        print("figures: 304 match in Tamil: %d deals, %.0f s (with a restart)" % (self.deals_304, self.match_seconds))
        self.t304_rook()

    def t304_rook(self):
        eve, ann = self.clients["eve"], self.clients["ann"]
        # #si is in English until !set lang si
        n0 = len(eve.lines)
        self.persons["ann"].send_to("#si", "!new trump304")
        self.wait_seg(eve, "#si", lambda s: True, 10, n0)
        n1 = len(eve.lines)
        self.persons["ann"].send_to("#si", "!set lang si")
        ok = self.wait_seg(eve, "#si", lambda s: langlib.SI.search(s), 10, n1)
        check(ok, "!set lang si was not answered in Sinhala in #si")
        self.si_from = len(eve.lines)
        self.si_time = eve.lines[-1].t
        plan = (("trump304", 2), ("rook", ROOK_DEALS))
        if ONLY == "rook":
            plan = plan[1:]
        for game, deals in plan:
            start = len(eve.lines)
            if game == "rook":
                self.rook_from = time.time()
                self.persons["ann"].send_to("#si", "!new rook")
            for n in ("bob", "cat"):
                time.sleep(0.3)
                self.persons[n].send_to("#si", "!sit")
            time.sleep(0.3)
            self.persons["ann"].send_to("#si", "!bot")
            time.sleep(1.0)
            for n in ("ann", "bob", "cat"):
                self.persons[n].game["#si"] = game
                self.persons[n].bidder["#si"] = n == "ann"
                self.persons[n].bid_done["#si"] = False
            t0 = time.time()
            # a new deal: the bidder bids again
            dl = template_re(text("si", "T_G_DEAL"))

            def deals_seen():
                return sum(1 for _, s in segs_of(eve.lines[start:], "#si") if dl.match(s))

            self.persons["ann"].send_to("#si", "!start")
            seen = 0
            end = time.time() + 120
            while time.time() < end and deals_seen() <= deals:
                if deals_seen() != seen:
                    seen = deals_seen()
                    self.persons["ann"].bid_done["#si"] = False
                time.sleep(0.1)
            if deals_seen() <= deals:
                last = [x for _, x in segs_of(eve.lines[start:], "#si")][-10:]
                priv = {n: [strip_colours(m.text)[:200] for m in self.clients[n].from_bot(BOTNICK, 0)][-3:]
                        for n in ("ann", "bob", "cat")}
                print("stalled: #si's last lines %r; private: %r" % (last, priv))
            check(deals_seen() > deals, "%s: %d deals did not end in 120 s (%d began): %s" % (
                game, deals, deals_seen(), self.bot.log_tail()))
            print("figures: %s in Sinhala: %d deals in %.0f s" % (game, deals, time.time() - t0))
            for n in ("ann", "bob", "cat"):
                self.persons[n].send_to("#si", "!stop")
                time.sleep(0.3)
            time.sleep(1.5)

    # -- the checks --
    def lang_of_private(self, who, line, t):
        if who in CHOSEN:
            return [CHOSEN[who]]
        m = re.match(r"^\[([#&]\S*?)[:\]]", strip_colours(line))
        if m:
            if m.group(1).lower() == "#ta":
                return ["ta"]
            return ["si"] if self.si_time is not None and t >= self.si_time else ["en"]
        # About no room (e.g. "Slow down please"): either room's, or the
        # bot's default (English) for someone who chose none.
        return ["ta", "si", "en"]

    def analyse(self):
        eve = self.clients["eve"]
        problems = []
        for who, c in self.clients.items():
            for m in c.from_bot(BOTNICK):
                if not langlib.utf8_ok(m.raw):
                    problems.append("not UTF-8 to %s: %r" % (who, m.raw[:120]))
                if len(m.raw) + 2 > 512:
                    problems.append("a line of %d bytes to %s" % (len(m.raw) + 2, who))
        check(not problems, "encoding or length: %s" % problems[:3])
        # room lines
        bad = []
        n_ta = n_si = 0
        for i, m in enumerate(eve.lines):
            if m.src.lower() != BOTNICK or m.cmd not in ("NOTICE", "PRIVMSG"):
                continue
            if m.target.lower() == "#ta":
                n_ta += 1
                why = langlib.check_line(m.text, "ta", NAMES)
                if why:
                    bad.append("#ta: %s: %r" % (why, strip_colours(m.text)[:200]))
            elif m.target.lower() == "#si" and self.si_from is not None and i >= self.si_from:
                n_si += 1
                why = langlib.check_line(m.text, "si", NAMES)
                if why:
                    bad.append("#si: %s: %r" % (why, strip_colours(m.text)[:200]))
        for b in bad[:20]:
            print("  room line: " + b)
        check(not bad, "%d room lines not in the room's language (of %d #ta, %d #si)" % (len(bad), n_ta, n_si))
        check((ONLY or n_ta > 100) and n_si > 20, "too few room lines to judge: %d #ta, %d #si" % (n_ta, n_si))
        # private lines
        bad = []
        npriv = {}
        for who in PEOPLE:
            c = self.clients[who]
            lines = c.from_bot(BOTNICK, self.lang_from.get(who, 0))
            for m in lines:
                if m.target.lower() != who:
                    continue
                npriv[who] = npriv.get(who, 0) + 1
                langs = self.lang_of_private(who, m.text, m.t)
                whys = [langlib.check_line(m.text, lg, NAMES) for lg in langs]
                if all(whys):
                    bad.append("to %s (%s): %s: %r" % (who, "/".join(langs), whys[0], strip_colours(m.text)[:200]))
        for b in bad[:20]:
            print("  private line: " + b)
        check(not bad, "%d private lines not in their reader's language (%s)" % (len(bad), npriv))
        check(all(npriv.get(n, 0) > 30 for n in PEOPLE if not ONLY or n != "dan"), "too few private lines: %s" % npriv)
        # privacy
        leaks = self.privacy()
        for x in leaks[:10]:
            print("  leak: " + x)
        check(not leaks, "%d privacy leaks" % len(leaks))
        if not ONLY:   # the planted leaks need the #ta match
            self.self_test()
        self.player_test()
        for p in self.persons.values():
            for e in p.errors:
                check(False, "player %s: %s" % (p.c.nick, e.strip().splitlines()[-1]))

    def privacy(self, plant_private=None, plant_room=None):
        eve = self.clients["eve"]
        leaks = []
        for room, game in (("#ta", "304"), ("#si", "trump304"), ("#si", "rook")):
            hands, private = {}, {}
            for who in PEOPLE:
                hs = langlib.Hands()
                priv = []
                for mt, t in joined(self.clients[who].lines, who):
                    if not re.match(r"^\[%s[:\]]" % re.escape(room), t, re.I):
                        continue
                    if room == "#si" and self._game_at(mt) != game:
                        continue
                    for lg in ("en", "ta", "si"):
                        h = langlib.parse_hand(t, lg, "rook" if game == "rook" else "304")
                        if h:
                            hs.add(mt, h["hand"])
                            break
                    priv.append((mt, t))
                if plant_private and plant_private[0] == who and room == "#ta":
                    priv.append(plant_private[1](hands, priv))
                hands[who] = hs
                private[who] = priv
            chan = [(m.t, m.text) for m in eve.from_bot(BOTNICK) if m.target.lower() == room and
                    (room == "#ta" or self._game_at(m.t) == game)]
            if plant_room and room == "#ta":
                chan.append(plant_room(hands))
            leaks += langlib.privacy(hands, private, chan, {n: [n] for n in PEOPLE},
                                     "rook" if game == "rook" else "304")
        return leaks

    def _game_at(self, t):
        return "rook" if self.rook_from is not None and t >= self.rook_from else "trump304"

    rook_from = None

    def player_test(self):
        """The scripted player plays the last trick of a deal whose line is
        word for word the one of a deal before, and not a turn sent twice."""
        class Fake:
            nick = "cat"

            def __init__(self):
                self.sent = []

            def privmsg(self, target, txt):
                self.sent.append(txt)
        en = langlib.TABLES["en"]
        turn = "#si: trick 14, trumps Black, bid 150 by ann" + en["T_STATE_YOUR_TURN"]
        last = en["T_HAND"].replace("{1}", turn).replace("{2}", "1:2Y" + en["T_HAND_MAY_PLAY"].replace("{1}", "2Y"))
        bidding = en["T_HAND"].replace("{1}", "#si: " + en["T_G_STATE_BID"]).replace("{2}", "1:2Y 2:5R")
        p = Person(Fake(), self.stop)
        p.game["#si"] = "rook"
        for line in (last, last, bidding, last):
            p.handle(line)
        check(p.c.sent == ["#si play 2y", "#si play 2y"], "the player's moves on a repeated last trick: %r" % p.c.sent)

    def self_test(self):
        """The checks catch a planted English room line, an English word in
        a Tamil private line, and a card leaked privately and in the room."""
        check(langlib.check_line("ann wins trick 3", "ta", NAMES) is not None, "an English room line was not caught")
        check(langlib.check_line("\u0b95\u0bc8 3: ann wins", "ta", NAMES) is not None,
              "an English word in a Tamil line was not caught")
        check(langlib.check_line("ann J\u2660", "ta", NAMES) is None, "a name and a card alone were not exempt")
        check(langlib.check_line("\u0b95\u0bc8", "en", NAMES) is not None, "Tamil to an English reader was not caught")
        # a leak: a card of dan's, said to ann while dan held it
        dan = [(t, langlib.parse_hand(x, "ta")) for t, x in joined(self.clients["dan"].lines, "dan")]
        dan = [(t, h) for t, h in dan if h and h["room"] == "#ta" and len(h["hand"]) >= 2]
        if not check(len(dan) >= 2, "no hand lines of dan to plant a leak with"):
            return
        # (two hand lines a second apart that follow each other, so of one
        # deal: a later deal's last cards may be a subset of an earlier
        # hand, and a card named between two deals is nobody's)
        held = langlib.Hands()
        for t, h in dan:
            held.add(t, h["hand"])
        pairs = [(a, b) for a, b in zip(dan, dan[1:]) if b[0] - a[0] > 1.0
                 and set(b[1]["hand"]) <= set(a[1]["hand"]) and b[1]["hand"]]
        plants = [(c, (a[0] + b[0]) / 2) for a, b in pairs for c in sorted(set(a[1]["hand"]) & set(b[1]["hand"]))
                  if held.held_around((a[0] + b[0]) / 2, c, 0.3)]
        if not check(plants, "no two hand lines of dan a second apart in one deal, with a card kept between"):
            return
        card, tm = [plants[0][0]], plants[0][1]
        sym = card[0][:-1] + {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[card[0][-1]]
        got = self.privacy(plant_private=("ann", lambda hands, priv: (tm, "[#ta] psst " + sym)))
        check(any("private line to ann names %s" % card[0] in x for x in got), "a planted private leak was not caught")
        got = self.privacy(plant_room=lambda hands: (tm, "eve: " + sym))
        check(any("room line names %s" % card[0] in x for x in got), "a planted room leak was not caught")

    def teardown(self):
        self.stop.set()
        for c in self.clients.values():
            try:
                c.quit("done")
            except Exception:
                pass
        if self.bot:
            self.bot.stop()
        self.srv.stop()
        if not os.environ.get("IRC_LANG_KEEP"):
            irclib.rmtree(self.tmp)


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        print("irc_lang: cardbot or ngircd is missing")
        print("irc_lang: 0 passed, 1 failed")
        return 1
    t0 = time.time()
    r = Run()
    try:
        r.run()
        r.analyse()
    except Exception:
        check(False, "exception: " + traceback.format_exc().strip().splitlines()[-1])
        if VERBOSE:
            traceback.print_exc()
    finally:
        if os.environ.get("IRC_LANG_KEEP"):
            for n, c in r.clients.items():
                with open(os.path.join(r.tmp, "transcript-%s.txt" % n), "w") as f:
                    f.write("\n".join(repr(m) for m in c.lines))
        if failed and VERBOSE:
            for n, c in r.clients.items():
                print("---- %s (last 25) ----" % n)
                for m in c.lines[-25:]:
                    print("  ", repr(m)[:300])
            if r.bot:
                print(r.bot.log_tail(30))
        r.teardown()
    print("figures: total %.0f s" % (time.time() - t0))
    print("irc_lang: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
