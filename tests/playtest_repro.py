#!/usr/bin/env python3
"""playtest_repro.py: two bugs found by the outside playtest (issue 22 build),
reproduced through the real cardbot on a real ngircd. Both fail today.

  help      `/msg cardbot help` from someone at no table answers
            "You are not at any table" instead of the command list.
  regrace   a seated player's nick that parts and rejoins the channel over
            and over (unconfirmed: no seat key given) restarts the seat's
            grace at every part, so the seat is never offered to anyone
            else and the channel gets a "has left" line per cycle.

Ends with "playtest_repro: N passed, M failed". Environment: CARDBOT, NGIRCD.
"""
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import irclib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

passed = failed = 0


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (" (%s)" % detail) if detail else ""))


def bot_lines(c, start=0):
    return [strip_colours(m.text) for m in c.from_bot("cardbot", start)]


def wait_for(c, start, sub, timeout=8.0):
    c.wait(lambda: any(sub in t for t in bot_lines(c, start)), timeout)
    return any(sub in t for t in bot_lines(c, start))


def main():
    tmp = irclib.tempdir()
    irc = NgIRCd(tmp)
    irc.start()
    GRACE = 6
    bot = Bot(tmp, irc.port, channels=("#p",), grace_seconds=GRACE)
    bot.start()
    try:
        ann, bob = Client(irc.port, "ann").connect(), Client(irc.port, "bob").connect()
        time.sleep(1.5)
        # help
        k = bob.mark() if hasattr(bob, "mark") else len(bob.lines)
        bob.privmsg("cardbot", "help")
        bob.wait(lambda: bot_lines(bob, k), 6)
        got = bot_lines(bob, k)
        check(got and "commands" in got[0], "help: private help from someone at no table lists the commands", got)
        # regrace
        ann.join("#p")
        bob.join("#p")
        k = len(ann.lines)
        ann.privmsg("#p", "!304")
        wait_for(ann, k, "ann sits in seat 1")
        for s in (2, 3, 4):
            ann.privmsg("#p", "!bot %d" % s)
            time.sleep(0.3)
        ann.privmsg("#p", "!start")
        check(wait_for(ann, k, "Deal 1", 15), "regrace: the match starts")
        t0 = time.time()
        kb = len(bob.lines)
        while time.time() - t0 < GRACE + 4:
            ann.raw("PART #p")
            ann.raw("JOIN #p")
            time.sleep(1.0)
        left = sum(1 for t in bot_lines(bob, kb) if "ann has left" in t)
        k = len(bob.lines)
        bob.privmsg("#p", "!sit 1")
        ok = wait_for(bob, k, "bob takes seat 1")
        check(ok, "regrace: %ds after ann first left, her grace is over and bob may take seat 1" % (GRACE + 4),
              bot_lines(bob, k))
        check(left <= 2, "regrace: repeated part/join does not say 'has left' each time", "%d lines" % left)
    finally:
        bot.stop()
        irc.stop()
        irclib.rmtree(tmp)
    print("playtest_repro: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
