#!/usr/bin/env python3
"""irc_playtest.py: what an outside playtest of the issue 22 build found,
through the real cardbot on a real ngircd (each failed before its fix).

  help      `/msg cardbot help` from someone at no table answers
            "You are not at any table" instead of the command list.
  regrace   a seated player's nick that parts and rejoins the channel over
            and over (unconfirmed: no seat key given) restarts the seat's
            grace at every part, so the seat is never offered to anyone
            else and the channel gets a "has left" line per cycle.
  requit    a spectator who saw a computer's hand, left the seat, quit and
            came back under a new nick from the same client (same
            user@host) may not take another seat in that deal.

Ends with "irc_playtest: N passed, M failed". Environment: CARDBOT, NGIRCD.
"""
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
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
    bot = Bot(tmp, irc.port, channels=("#p", "#q"), grace_seconds=GRACE)
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
        # requit
        for c in (ann, bob):
            c.quit()
        q, eve = Client(irc.port, "qann").connect(), Client(irc.port, "qeve").connect()
        q.join("#q")
        eve.join("#q")
        k = len(q.lines)
        q.privmsg("#q", "!304")
        wait_for(q, k, "qann sits in seat 1")
        for s in (2, 3, 4):
            q.privmsg("#q", "!bot %d" % s)
            time.sleep(0.3)
        q.privmsg("#q", "!start")
        check(wait_for(q, k, "qann: your turn to bid", 20), "requit: the match starts and waits on qann")
        k = len(eve.lines)
        eve.privmsg("#q", "!sit 2")
        check(wait_for(eve, k, "] hand: "), "requit: a spectator takes a computer's seat and its hand")
        eve.privmsg("#q", "!leave")
        wait_for(q, k, "qeve leaves")
        eve.quit()
        time.sleep(0.5)
        zed = Client(irc.port, "qzed")
        zed.username = "qeve"          # the same client, under a new nick
        zed.connect()
        zed.join("#q")
        k = len(zed.lines)
        zed.privmsg("#q", "!sit 3")
        check(wait_for(zed, k, "nobody may see two hands of one deal"),
              "requit: back under a new nick from the same user@host, she may not take another seat",
              bot_lines(zed, k))
        time.sleep(1.0)
        check(not any("] hand: " in t for t in bot_lines(zed, k)), "requit: and is shown no second hand",
              bot_lines(zed, k))
        other = Client(irc.port, "qbob").connect()   # someone else, another user@host
        other.join("#q")
        k = len(other.lines)
        other.privmsg("#q", "!sit 3")
        check(wait_for(other, k, "] hand: "), "requit: someone else from another user@host may substitute",
              bot_lines(other, k))
        for c in (q, zed, other):
            c.quit()
    finally:
        bot.stop()
        irc.stop()
        irclib.rmtree(tmp)
    print("irc_playtest: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
