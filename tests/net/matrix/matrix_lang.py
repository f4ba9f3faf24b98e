#!/usr/bin/env python3
"""matrix_lang.py: a whole 304 match in Tamil through the real cardbot and
the spec-checked test homeserver (tests/lib/matrixlib.py).

ann opens a table in a room and switches it with `!set lang ta`; bob
chooses `!lang si` and cat `!lang en` (said in the room: answered in
their direct rooms); ann and dan keep the room's. The four scripted
players read their hands in their direct rooms, in their languages
(found with the bot's own tables, tests/lib/langlib.py), and answer there.
ann and cat bid 250 whenever nobody has bid, everyone else passes, so the
match ends in a few deals; it is played to "the match is over" in Tamil.

Checks over every event the bot sent:
  - every line of every room event after the switch is Tamil (the rule of
    langlib.check_line: no Sinhala letter, no English word once names,
    cards, numbers and command words are out; names and cards alone are
    exempt); every line in bob's direct room is Sinhala, in cat's English,
    in ann's and dan's Tamil;
  - every HTML formatted_body parses as well-formed HTML (every tag
    closed, only the tags the bot uses) and carries the same text as the
    plain body (tags taken out, entities read, spaces folded);
  - privacy (langlib.privacy over the homeserver's event order): no direct
    room names a card in another person's hand, no room line a card still
    in the hand of someone it does not name;
  - the match ends; no spec violation; the checks catch planted defects.
Ends with "matrix_lang: N passed, M failed". Environment: CARDBOT,
MX_VERBOSE=1 (the bot's log tail on failure), MX_LANG_SECONDS.
"""
import html
import html.parser
import os
import re
import shutil
import sys
import threading
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import langlib  # noqa: E402
import matrixlib  # noqa: E402
from langlib import SEP, text, template_re  # noqa: E402
from matrixlib import Bot, Homeserver, Results  # noqa: E402

VERBOSE = os.environ.get("MX_VERBOSE") == "1"
R = Results("matrix_lang")
# A guard only: the match is waited for while events keep coming (45 s
# without one is a stall), since a busy machine stretches it.
MATCH_TIMEOUT = float(os.environ.get("MX_LANG_SECONDS", "1800"))
PEOPLE = ("ann", "bob", "cat", "dan")
# Room and direct-room events are sent from separate queues, so a hand is
# compared with the room only this many events away (privacy, below).
PRIVACY_MARGIN = 20

LANG = {"ann": "ta", "bob": "si", "cat": "en", "dan": "ta"}
NAMES = list(PEOPLE) + ["Robo-North", "Robo-East", "Robo-South", "Robo-West", "cardbot", "eve"]
TAGS = {"b", "i", "u", "em", "strong", "font", "span", "code", "pre", "br", "a", "p", "blockquote", "del", "s"}


def lines_of(ev):
    b = ev["content"].get("body")
    return b.split("\n") if isinstance(b, str) else []


class HtmlCheck(html.parser.HTMLParser):
    """Well-formed (every opened tag closed in order), known tags, and the text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.out = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag not in TAGS:
            self.errors.append("unknown tag <%s>" % tag)
        if tag == "br":
            self.out.append("\n")
        else:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self.out.append("\n")
        else:
            self.errors.append("self-closed <%s/>" % tag)

    def handle_endtag(self, tag):
        if tag == "br":
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.out.append(data)


def html_problem(body, fb):
    p = HtmlCheck()
    try:
        p.feed(fb)
        p.close()
    except Exception as e:  # noqa: BLE001
        return "unparsable: %s" % e
    if p.stack:
        p.errors.append("unclosed %s" % p.stack)
    if p.errors:
        return "; ".join(p.errors[:3])

    def fold(s):
        return re.sub(r"\s+", " ", html.unescape(s)).strip()
    if fold("".join(p.out)) != fold(body):
        return "the HTML says %r, the body %r" % (fold("".join(p.out))[:160], fold(body)[:160])
    return None


class Player(threading.Thread):
    def __init__(self, sc, uid, name):
        super().__init__(daemon=True)
        self.sc, self.uid, self.name = sc, uid, name
        self.pos = 0
        # The hand line read last: a turn line the same as it is the same
        # turn sent again. (Not every line ever acted on: a deal's last
        # trick can read word for word as an earlier deal's, and skipping
        # it stalled the match, as irc_lang's Rook deals did.)
        self.last_hand = None
        self.dm = None
        self.errors = []
        self.bidder = name in ("ann", "cat")

    def run(self):
        hs = self.sc.hs
        try:
            while not self.sc.stop.is_set():
                with hs.cond:
                    if len(hs.events) <= self.pos:
                        hs.cond.wait(0.2)
                    new = hs.events[self.pos:]
                    self.pos += len(new)
                for e in new:
                    self.handle(e)
        except Exception:
            self.errors.append(traceback.format_exc())

    def handle(self, e):
        hs, bot = self.sc.hs, self.sc.botid
        if e["type"] == "m.room.member" and e.get("state_key") == self.uid and e["sender"] == bot and \
                e["content"].get("membership") == "invite":
            hs.join(self.uid, e["room_id"])
            return
        if e["type"] != "m.room.message" or e["sender"] != bot:
            return
        room = hs.rooms.get(e["room_id"])
        if not room or not room.is_direct or hs.membership(self.uid, room.id) != "join":
            return
        self.dm = room.id
        for line in lines_of(e):
            h = None
            for lang in ("ta", "si", "en"):
                h = langlib.parse_hand(line, lang)
                if h:
                    break
            if not h:
                continue
            prev, self.last_hand = self.last_hand, h["raw"]
            if not h["turn"] or h["raw"] == prev:
                continue
            cmd = langlib.decide(h, "304", self.bidder, False)
            time.sleep(0.02)
            hs.say(self.uid, self.dm, cmd)


class Run:
    def __init__(self):
        self.stop = threading.Event()
        self.tmp = matrixlib.tempdir()
        self.hs = Homeserver().start()
        self.bot = None
        self.switch_pos = None
        self.lang_pos = {}

    def room_segs(self, start=0):
        return [s for e in self.hs.bot_messages(self.botid, self.room, start) for line in lines_of(e)
                for s in langlib.strip_colours(line).split(SEP)]

    def said(self, pred, start, timeout=15):
        return self.hs.wait(lambda: any(pred(s) for s in self.room_segs(start)), timeout)

    def run(self):
        hs = self.hs
        self.botid = hs.add_user("cardbot", password="botpw")
        self.ids = {n: hs.add_user(n, name=n) for n in PEOPLE}
        self.room = hs.create_room(self.ids["ann"], alias="#ta:" + matrixlib.SERVER, invite=[self.botid])
        for n in PEOPLE[1:]:
            hs.join(self.ids[n], self.room)
        self.bot = Bot(self.tmp, hs.url, self.botid, 'password = "botpw";',
                       tables='computer_level = "easy";\n  cut_offer_seconds = 0;')
        with open(self.bot.cfg) as f:
            cfg = f.read()
        cfg = cfg.replace("deal_pause_ms = 500;", "deal_pause_ms = 0;").replace("computer_delay_ms = 50;",
                                                                                "computer_delay_ms = 0;")
        with open(self.bot.cfg, "w") as f:
            f.write(cfg)
        self.bot.start()
        if not hs.wait(lambda: hs.membership(self.botid, self.room) == "join", 15):
            raise RuntimeError("the bot did not join: " + self.bot.log_tail())
        self.players = {n: Player(self, self.ids[n], n) for n in PEOPLE}
        for p in self.players.values():
            p.start()
        ann = self.ids["ann"]
        n0 = len(hs.events)
        hs.say(ann, self.room, "!304")
        if not self.said(lambda s: "ann" in s, n0):
            raise RuntimeError("no table: " + self.bot.log_tail())
        n1 = len(hs.events)
        hs.say(ann, self.room, "!set lang ta")
        R.check(self.said(lambda s: langlib.TA.search(s), n1), "!set lang ta was not answered in Tamil")
        self.switch_pos = max(e["pos"] for e in hs.bot_messages(self.botid, self.room, n1)) if \
            hs.bot_messages(self.botid, self.room, n1) else n1
        for n, lang in (("bob", "si"), ("cat", "en")):
            k = len(hs.events)
            hs.say(self.ids[n], self.room, "!lang " + lang)
            got = hs.wait(lambda: [e for e in hs.bot_messages(self.botid, None, k) if e["room_id"] != self.room], 15)
            R.check(got, "%s's !lang %s was not answered privately" % (n, lang))
            if got:
                self.lang_pos[n] = got[0]["pos"]
        for n in PEOPLE[1:]:
            k = len(hs.events)
            hs.say(self.ids[n], self.room, "!sit")
            if not self.said(lambda s, n=n: s.startswith(n + " "), k):
                raise RuntimeError("%s did not sit: %s" % (n, self.bot.log_tail()))
        time.sleep(0.5)
        self.start_pos = len(hs.events)
        t0 = time.time()
        hs.say(ann, self.room, "!start")
        won = template_re(text("ta", "T_MATCH_WON"))
        ok = self.hs.wait_active(lambda: any(won.match(s) for s in self.room_segs(self.start_pos)), guard=MATCH_TIMEOUT)
        deal = template_re(text("ta", "T_DEAL"))
        ndeals = sum(1 for s in self.room_segs(self.start_pos) if deal.match(s))
        R.check(ok, "the match did not end (stalled 45 s, or past %.0f s; %d deals): %s" % (MATCH_TIMEOUT, ndeals,
                                                                         self.bot.log_tail()))
        print("figures: 304 match in Tamil on Matrix: %d deals, %.0f s" % (ndeals, time.time() - t0))
        time.sleep(1.0)

    def analyse(self):
        hs, bot = self.hs, self.botid
        with hs.lock:
            events = [e for e in hs.events if e["type"] == "m.room.message" and e["sender"] == bot]
        dms = hs.direct_rooms(bot)
        who_dm = {rid: u for u, rid in dms.items()}
        name_of = {v: k for k, v in self.ids.items()}
        R.check(all(self.ids[n] in dms for n in PEOPLE), "not everyone has a direct room: %s" % sorted(dms))
        bad_lang, bad_html = [], []
        n_room = n_dm = 0
        for e in events:
            c = e["content"]
            if "formatted_body" in c:
                why = html_problem(c.get("body", ""), c["formatted_body"])
                if why:
                    bad_html.append(why)
            if e["room_id"] == self.room:
                if e["pos"] <= self.switch_pos:
                    continue
                lang, who = "ta", "the room"
                n_room += 1
            elif e["room_id"] in who_dm:
                who = name_of.get(who_dm[e["room_id"]], "?")
                if who in self.lang_pos and e["pos"] < self.lang_pos[who]:
                    continue
                lang = LANG.get(who, "ta")
                n_dm += 1
            else:
                continue
            for line in lines_of(e):
                why = langlib.check_line(line, lang, NAMES)
                if why:
                    bad_lang.append("%s (%s): %s" % (who, lang, why))
        for b in bad_lang[:20]:
            print("  line: " + b)
        R.check(not bad_lang, "%d lines not in their reader's language (of %d room, %d direct events)" % (
            len(bad_lang), n_room, n_dm))
        R.check(n_room > 50 and n_dm > 50, "too few events to judge: %d room, %d direct" % (n_room, n_dm))
        for b in bad_html[:10]:
            print("  html: " + b)
        R.check(not bad_html, "%d HTML bodies broken or saying something else" % len(bad_html))
        leaks = self.privacy(events, who_dm, name_of)
        for x in leaks[:10]:
            print("  leak: " + x)
        R.check(not leaks, "%d privacy leaks" % len(leaks))
        R.check(not hs.violations, "spec violations: %s" % hs.violations[:3])
        R.check(self.bot.alive(), "the bot died")
        # the checks catch planted defects
        R.check(html_problem("ann J\u2660", "<b>ann</b> Q\u2660") is not None, "a planted HTML mismatch was missed")
        R.check(html_problem("ann", "<b>ann") is not None, "planted broken HTML was missed")
        R.check(langlib.check_line("ann wins trick 3", "ta", NAMES) is not None, "a planted English line was missed")

        # a card of dan's, said to ann and in the room while dan held it
        # by the checker's own reading, with its margin (two snapshots of
        # dan's far apart may lie in two deals, and the card be ann's in
        # between; read without the margin, a plant in ci28 was nobody's)
        def plant(hands, private, chan):
            seq = hands["dan"].seq
            pairs = [(a, b) for i, a in enumerate(seq) for b in seq[i + 1:]]
            for (t1, h1), (t2, h2) in pairs:
                mid = (t1 + t2) / 2
                keep = set(c for c in h1 & h2 if hands["dan"].held_around(mid, c, PRIVACY_MARGIN)
                           and not hands["ann"].held_around(mid, c, PRIVACY_MARGIN))
                if keep and t2 - t1 > 44 and h2 <= h1:
                    c = sorted(keep)[0]
                    sym = c[:-1] + {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[c[-1]]
                    private["ann"].append(((t1 + t2) / 2, "psst " + sym))
                    chan.append(((t1 + t2) / 2, "eve: " + sym))
                    self.planted = c
                    return
        self.planted = None
        got = self.privacy(events, who_dm, name_of, plant)
        R.check(self.planted and any("to ann names %s" % self.planted in x for x in got) and
                any("room line names %s" % self.planted in x for x in got),
                "planted leaks of %s were not both caught: %s" % (self.planted, got[:3]))
        for p in self.players.values():
            for x in p.errors:
                R.check(False, "player %s: %s" % (p.name, x.strip().splitlines()[-1]))

    def privacy(self, events, who_dm, name_of, plant=None):
        hands = {n: langlib.Hands() for n in PEOPLE}
        private = {n: [] for n in PEOPLE}
        chan = []
        for e in events:
            if e["pos"] < self.start_pos:
                continue
            if e["room_id"] == self.room:
                chan += [(e["pos"], line) for line in lines_of(e)]
            elif e["room_id"] in who_dm:
                who = name_of.get(who_dm[e["room_id"]])
                if who not in hands:
                    continue
                for line in lines_of(e):
                    private[who].append((e["pos"], line))
                    h = langlib.parse_hand(line, LANG[who])
                    if h:
                        hands[who].add(e["pos"], h["hand"])
        if plant:
            plant(hands, private, chan)
        # Room and direct-room events are sent from separate queues (merged
        # while they wait), so their order on the homeserver is not the
        # order of play: a hand is compared with the room only 20 events
        # away, where it is surely of the same moment of the deal.
        return langlib.privacy(hands, private, chan, {n: [n] for n in PEOPLE}, "304", margin=PRIVACY_MARGIN)

    def teardown(self):
        self.stop.set()
        if self.bot:
            self.bot.stop()
        self.hs.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


def main():
    if not os.access(matrixlib.CARDBOT, os.X_OK):
        print("matrix_lang: %s is not built" % matrixlib.CARDBOT)
        print("matrix_lang: 0 passed, 1 failed")
        return 1
    t0 = time.time()
    r = Run()
    try:
        r.run()
        r.analyse()
    except Exception:
        R.check(False, "exception: " + traceback.format_exc().strip().splitlines()[-1])
        if VERBOSE:
            traceback.print_exc()
    finally:
        if R.failed and VERBOSE and r.bot:
            print(r.bot.log_tail(40))
        r.teardown()
    print("figures: total %.0f s" % (time.time() - t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
