#!/usr/bin/env python3
"""irc_queue_full.py: when the bot's queue for a network is full, whoever loses lines is told (issue 29).

A real ngircd and the real bot at its default pacing (a burst of 4, then a
line a second). watch opens a 304 table of four computer players in each
of eight channels, with no pause between moves or deals: the matches say
far more than a line a second, and the send queue reaches its 1,000 lines.
Checked:
  - the bot's log says the queue is full (the premise);
  - each channel that lost lines is told so, once, in a line that comes
    ahead of its other waiting lines (within a minute, not after the
    thousand lines ahead of it);
  - watch's private question, asked while the queue is full, loses its
    answer and watch is told, once;
  - a CTCP VERSION and a PING from watch are answered all the same;
  - the bot is still running, with no sanitizer report.
Ends with "irc_queue_full: N passed, M failed". Environment: CARDBOT, NGIRCD.
"""
import os
import re
import sys
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

BOTNICK = "cardbot"
CHANS = tuple("#q%d" % i for i in range(1, 9))   # eight: enough lines under the sanitizers too
ROOM_NOTE = "Some of my lines here were dropped"
PRIVATE_NOTE = "Some of my lines to you were dropped: I had more to say"

passed = failed = 0


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (" (%s)" % detail) if detail else ""))


def read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        print("irc_queue_full: cardbot or ngircd is missing")
        print("irc_queue_full: 0 passed, 1 failed")
        return 1
    tmp = irclib.tempdir()
    srv = NgIRCd(tmp)
    srv.start()
    bot = Bot(tmp, srv.port, channels=CHANS, pace_burst=None,
              extra_tables="computer_delay_ms = 0;\n  deal_pause_ms = 0;")
    bot.start()
    w = None
    try:
        w = Client(srv.port, "watch").connect()
        for ch in CHANS:
            w.join(ch)
        if not w.wait(lambda: all(any(m.cmd == "JOIN" and m.src.lower() == BOTNICK and m.target.lower() == ch
                                      for m in w.lines) or any(m.cmd == "353" and BOTNICK in m.text.lower()
                                                              and ch in m.raw.decode("utf-8", "replace").lower()
                                                              for m in w.lines) for ch in CHANS), 30):
            raise RuntimeError("the bot is not in every channel: " + bot.log_tail())

        def bot_said(ch, pat, start=0):
            rx = re.compile(pat)
            return any(m.src.lower() == BOTNICK and m.target.lower() == ch and rx.search(strip_colours(m.text))
                       for m in w.lines[start:])
        # Four computer players in each channel; watch only looks on. Each
        # step waits for its answer (commands count against watch: 60 a minute).
        for ch in CHANS:
            for cmd, pat in (("!304", r"watch sits in seat 1"), ("!bot all", r"four are seated"),
                             ("!leave", r"watch leaves"), ("!bot", r"four are seated"),
                             ("!start", r"a match of 304 begins")):
                n = len(w.lines)
                w.privmsg(ch, cmd)
                if not w.wait(lambda: bot_said(ch, pat, n) or "send queue full" in read(bot.log), 120):
                    raise RuntimeError("%s in %s: no %r: %s" % (cmd, ch, pat, bot.log_tail()))
                if "send queue full" in read(bot.log):
                    break
                time.sleep(1.1)
        full = w.wait(lambda: "send queue full" in read(bot.log), 180)
        check(full, "the send queue filled", bot.log_tail())
        if not full:
            return
        full_at = time.time()
        n = len(w.lines)
        w.privmsg(BOTNICK, "%s table" % CHANS[0])
        told = w.wait(lambda: any(m.src.lower() == BOTNICK and m.target.lower() == "watch"
                                  and PRIVATE_NOTE in m.text for m in w.lines[n:]), 120)
        check(told, "watch, whose answer was dropped, is told", bot.log_tail())
        # A single CTCP VERSION and PING still get their answers (kept
        # past the cap), while the queue is full.
        n = len(w.lines)
        w.raw("PRIVMSG %s :\x01VERSION\x01" % BOTNICK)
        w.raw("PRIVMSG %s :\x01PING 42\x01" % BOTNICK)
        for what, text in (("VERSION", "\x01VERSION "), ("PING", "\x01PING 42\x01")):
            check(w.wait(lambda: any(m.src.lower() == BOTNICK and m.cmd == "NOTICE" and m.text.startswith(text)
                                     for m in w.lines[n:]), 120) and "send queue full" in read(bot.log),
                  "a CTCP %s is answered while the queue is full" % what, bot.log_tail())
        w.wait(lambda: False, max(0.0, 60 - (time.time() - full_at)))
        log = read(bot.log)
        lost = [ch for ch in CHANS if "lines to %s were dropped" % ch in log]
        check(lost, "the log names the channels that lost lines", bot.log_tail())
        for ch in lost:
            notes = [m for m in w.lines if m.src.lower() == BOTNICK and m.target.lower() == ch
                     and ROOM_NOTE in m.text]
            check(len(notes) == 1, "%s, which lost lines, is told once within a minute (%d times)"
                  % (ch, len(notes)))
        privates = [m for m in w.lines if m.src.lower() == BOTNICK and m.target.lower() == "watch"
                    and PRIVATE_NOTE in m.text]
        check(len(privates) == 1, "watch is told once (%d times)" % len(privates))
        print("figures: the queue filled; %d of %d channels lost lines and were told; the first note %.1f s after"
              % (len(lost), len(CHANS), min([m.t for m in w.lines if ROOM_NOTE in m.text] or [full_at]) - full_at))
        check(bot.alive(), "the bot is still running", bot.log_tail())
        check(not re.search(r"runtime error|AddressSanitizer|LeakSanitizer", read(bot.log)),
              "no sanitizer report in the log")
    except Exception:
        check(False, "the scenario raised", traceback.format_exc())
    finally:
        if w:
            w.quit()
        bot.stop()
        srv.stop()
        irclib.rmtree(tmp)
    print("irc_queue_full: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
