#!/usr/bin/env python3
"""irc_record.py: `!record` over IRC arrives whole (issue 30, point 1).

A real ngircd and the real bot with no public_dir, its send queue paced
(pace_burst 4, 20 lines a second) so that lines wait in it. ann and three
computer players (who move at once) play 304 in #rec, ann passing every
bid and playing the first card the bot offers, until five deals were
played out; ann stops the match, opens a table again and asks `!record`.
The record comes as private notices:

  - the line that announces it says "in N lines", and exactly N pieces
    arrive (no piece split again by the adapter into a lone quote or a
    blank line; issue 30 saw 18 announced and 35 arrived);
  - joined without separators they are the record: JSON that
    `cardbot verify` accepts (issue 30: 3,986 of about 5,200 characters
    arrived, the rest dropped past 16 waiting lines, and verify refused);
  - nothing more comes after the N pieces (a `help` asked next is answered
    right after them), and no line says something was dropped.

Before the fix each of these failed. Ends with "irc_record: N passed,
M failed". Environment: CARDBOT, NGIRCD, IRC_RECORD_TIMEOUT (seconds a
match may take, default 300).
"""
import json
import os
import re
import subprocess
import sys
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
import play304lib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

BOTNICK = "cardbot"
CHAN = "#rec"
DEALS = 5
MATCH_TIMEOUT = float(os.environ.get("IRC_RECORD_TIMEOUT", "300"))
ANNOUNCE = re.compile(r"The record of match (\d+) \(cardbot-record/1 JSON, in (\d+) lines")

passed = failed = 0


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (" (%s)" % detail) if detail else ""))


def said(c, start, pat, timeout, private=None):
    """Waits for a line from the bot matching pat after index start; returns its index or None."""
    rx = re.compile(pat)
    found = []

    def look():
        for i, m in enumerate(c.lines[start:], start):
            if m.src.lower() == BOTNICK and m.cmd in ("NOTICE", "PRIVMSG") and rx.search(strip_colours(m.text)):
                if private is None or (m.target.lower() == c.nick.lower()) == private:
                    found.append(i)
                    return True
        return False
    c.wait(look, timeout)
    return found[0] if found else None


def play_deals(ann, start, deals, timeout):
    """ann plays her seat from ann.lines[start] on: she passes every bid and
    plays the first card her hand line offers, each time that line says it
    is her turn, until `deals` deals were played out (a result line: "X's
    side bid B and took T"). Returns the index after the last one, or None.

    The computers move at once, but never past ann's turn, and her hand
    line waits in the room's story (sendq.h): what the room has not heard
    yet is at most what came after her last move. (Four computers alone ran
    tens of deals ahead of their paced story: a !stop was heard only after
    them, later the busier the machine kept the test from reading.)"""
    i, ended, chan, done = start, 0, 0, set()
    end = time.time() + timeout
    while time.time() < end:
        while i < len(ann.lines):
            m = ann.lines[i]
            i += 1
            if m.src.lower() != BOTNICK or m.cmd not in ("NOTICE", "PRIVMSG"):
                continue
            if m.target.lower() == CHAN:
                chan += 1
                ended += sum(1 for x in play304lib.segs(m.text) if play304lib.END_RE.match(x))
                if ended >= deals:
                    return i
                continue
            h = play304lib.parse_hand(m.text)
            if not h or not h["turn"] or (h["raw"], chan) in done:
                continue
            done.add((h["raw"], chan))   # the same line after the room moved on is a new turn
            if h["phase"] in ("bid4", "bid8"):
                ann.privmsg(BOTNICK, "pass")
            elif h["phase"] == "play" and h["may"]:
                ann.privmsg(BOTNICK, "play " + h["may"][0])
            else:
                raise RuntimeError("ann has no move for %r" % h["raw"])
        n = len(ann.lines)
        ann.wait(lambda: len(ann.lines) > n, end - time.time())
    return None


def bot_lines(c, start):
    return " | ".join(strip_colours(m.text)[:80] for m in c.lines[start:] if m.src.lower() == BOTNICK)[-1500:]


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        print("irc_record: cardbot or ngircd is missing")
        print("irc_record: 0 passed, 1 failed")
        return 1
    tmp = irclib.tempdir()
    srv = NgIRCd(tmp)
    srv.start()
    bot = Bot(tmp, srv.port, channels=(CHAN,), pace_burst=4, pace_per_second=20,
              extra_tables="computer_delay_ms = 0;\n  deal_pause_ms = 0;")
    with open(bot.cfg) as f:
        cfg = f.read()
    with open(bot.cfg, "w") as f:   # ann sets the table up quickly
        f.write(cfg.replace("bot = {", "bot = {\n  commands_burst = 100;\n  commands_per_minute = 6000;", 1))
    bot.start()
    ann = None
    try:
        ann = Client(srv.port, "ann").connect()
        n = len(ann.lines)
        ann.join(CHAN)
        # The bot is in the channel: its JOIN, or its nick in the names list.
        if not ann.wait(lambda: any(m.cmd in ("JOIN", "353") and BOTNICK in m.raw.decode("utf-8", "replace").lower()
                                    for m in ann.lines[n:]), 20):
            raise RuntimeError("the bot did not join: " + bot.log_tail())
        n = len(ann.lines)
        ann.privmsg(CHAN, "!304")
        if said(ann, n, r"ann sits in seat 1", 10) is None:
            raise RuntimeError("no table: " + bot.log_tail())
        for k in range(2, 5):
            ann.privmsg(CHAN, "!bot")
            if said(ann, n, r"\(a computer player\) sits in seat %d" % k, 10) is None:
                raise RuntimeError("no computer player in seat %d: %s" % (k, bot.log_tail()))
        n = len(ann.lines)
        ann.privmsg(CHAN, "!start")
        # Five deals played out (a whole match is tens of deals; three deals
        # of any kind made a record of 14 to 20 lines, and it must be longer
        # than the 16 a person may have waiting; a deal played out is some
        # 1,900 characters, five about 25 lines), then ann stops the match:
        # a stopped match has its record too.
        third = play_deals(ann, n, DEALS, MATCH_TIMEOUT)
        check(third is not None, "%d deals were played out within %.0f s" % (DEALS, MATCH_TIMEOUT),
              bot_lines(ann, n))
        if third is None:
            return
        ann.privmsg(CHAN, "!stop")
        if said(ann, third, r"ann stops the table", 30, private=False) is None:
            raise RuntimeError("ann could not stop the match: " + bot_lines(ann, third))
        deals = sum(1 for m in ann.lines[n:] if m.src.lower() == BOTNICK and "· tokens: " in m.text)
        k = len(ann.lines)
        ann.privmsg(CHAN, "!304")   # a table again, to ask it for the record
        if said(ann, k, r"ann sits in seat 1", 60) is None:
            raise RuntimeError("no table after the stop: " + bot_lines(ann, k))

        n = len(ann.lines)
        ann.privmsg(CHAN, "!record")
        at = said(ann, n, ANNOUNCE.pattern, 20, private=True)
        check(at is not None, "!record is announced privately", bot.log_tail())
        if at is None:
            return
        want = int(ANNOUNCE.search(strip_colours(ann.lines[at].text)).group(2))

        def pieces():
            return [m for m in ann.lines[at + 1:] if m.src.lower() == BOTNICK and m.cmd == "NOTICE"
                    and m.target.lower() == "ann"]
        ann.wait(lambda: len(pieces()) >= want, 30 + want)
        # Anything more would come before the answer to a question asked now
        # (the same person's lines go out in order).
        ann.privmsg(BOTNICK, "help record")
        k = len(ann.lines)
        help_at = said(ann, k, r"record", 30, private=True)
        check(help_at is not None, "the help asked after the record is answered")
        got = [m for m in pieces() if help_at is None or ann.lines.index(m) < help_at]
        check(len(got) == want, "the record was announced in %d lines and %d arrived" % (want, len(got)),
              "; ".join(repr(m.text[:40]) for m in got[:40]))
        dropped = [m.text for m in ann.lines[n:] if m.src.lower() == BOTNICK and "dropped" in m.text]
        check(not dropped, "no line says something was dropped", "; ".join(dropped))
        text = "".join(m.text for m in got)
        try:
            rec = json.loads(text)
        except ValueError as e:
            check(False, "the joined record is JSON", "%s; %d characters" % (e, len(text)))
            return
        check(rec.get("format") == "cardbot-record/1", "the record's format is cardbot-record/1")
        path = os.path.join(tmp, "record.json")
        with open(path, "w") as f:
            f.write(text)
        vf = subprocess.run([irclib.CARDBOT, "verify", path], capture_output=True, text=True, timeout=60)
        check(vf.returncode == 0, "cardbot verify accepts the joined record", (vf.stdout + vf.stderr)[-500:])
        check(want > 16, "the record is longer than one person's 16 waiting lines (%d)" % want)
        print("  a match of %d deals; its record: %d characters in %d lines" % (deals, len(text), want))
        check(bot.alive(), "the bot is still running", bot.log_tail())
        with open(bot.log, "rb") as f:
            log = f.read().decode("utf-8", "replace")
        check(not re.search(r"runtime error|AddressSanitizer|LeakSanitizer", log), "no sanitizer report in the log")
    except Exception:
        check(False, "the scenario raised", traceback.format_exc())
    finally:
        if ann:
            ann.quit()
        bot.stop()
        srv.stop()
        irclib.rmtree(tmp)
    print("irc_record: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
