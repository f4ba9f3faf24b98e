#!/usr/bin/env python3
"""irc_casemap.py: names compared as the server compares them (005 CASEMAPPING), through the real cardbot (issue 29.1).

Three real servers, each with its own bot and scripted players:

  stranger  ngircd, which says CASEMAPPING=ascii and lets `alice[` and
            `alice{` be online at once as two people. alice[ opens a table
            with three computer players and deals; on her turn to bid the
            other one, alice{, types !pass, !leave and !sit 1: each is
            refused (she has no seat; seat 1 is taken), the channel hears
            none of it, alice[ bids and plays on, and alice{ is shown no
            card and no seat key. Before issue 29 the bot folded nicks by
            RFC 1459 whatever the server said: "alice[ passes", "alice[
            leaves", "alice{ takes seat 1", and alice's hand to alice{.
  rfc1459   a real inspircd 3 set to <options casemapping="rfc1459">, where
            `[` is the upper case of `{`: the bot sits in #cards[, alice[
            joins it as #CARDS{, plays, asks privately for "#CARDS{ hand"
            and is answered (the server's channel); she steps out, becomes
            ALICE{ out of the bot's sight (the same nick to the server),
            comes back, and is asked for her seat key as the seat's nick,
            not refused as a stranger; with it she has her seat and hand;
            then boss[ stops the table as the operator BOSS{!*@*.
            Before issue 29 the private "#CARDS{" found no table and the
            mask matched nobody (the host compared rooms and masks by
            ASCII case alone); a bot that folded by ascii everywhere would
            fail the seat's check too.
  account   a real inspircd 3 set to ascii, with the IRCv3 account modules,
            linked to atheme-services (ascii too): alice[ registers with
            NickServ, so her seat is her account's and needs no key; on her
            turn alice{, logged in to nothing, is refused !pass and a hand.
            Before issue 29 the adapter took alice{ for the person it
            tracked as alice[ (RFC 1459 folding): her untagged message
            logged alice[ out in the bot's eyes, and "alice[ passes".

Every wait is for a line; a "nothing else was said" check is made after a
later line that must come after it (a room's lines go out in order, and so
do the answers to one person). Ends with "irc_casemap: N passed, M failed".
Environment: CARDBOT, NGIRCD, INSPIRCD, ATHEME, IRC_CASEMAP_ONLY (stranger,rfc1459,account),
IRC_CASEMAP_VERBOSE=1.
"""
import os
import re
import sys
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
import irc_accounts  # noqa: E402  (its inspircd with the IRCv3 account modules, and NickServ)
import irc_sasl  # noqa: E402  (its inspircd and atheme starters)
from irc_seats import HAND, KEY_RE, P  # noqa: E402  (a scripted person and the bot's words)
from irclib import Bot, NgIRCd  # noqa: E402

VERBOSE = os.environ.get("IRC_CASEMAP_VERBOSE") == "1"
ONLY = [w for w in os.environ.get("IRC_CASEMAP_ONLY", "").split(",") if w]
NOT_SEATED = r"you do not have a seat at this table"
# alice['s pass as the channel hears it: her own, or her answer when her
# partner (a computer player) asked her to bid for the team.
ALICE_PASSES = r"alice\[ (passes|answers for their partner: pass)"

passed = failed = 0


class Person(P):
    """irc_seats' person, waiting longer by default: the suite also runs under the sanitizers beside a CPU hog."""

    def wait(self, start, pat, where=None, timeout=20.0):
        return P.wait(self, start, pat, where, timeout)


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (" (%s)" % detail) if detail else ""))
    sys.stdout.flush()
    return cond


def dump(*people):
    if VERBOSE:
        for p in people:
            print("---- %s" % p.nick)
            for t in p.lines():
                print("  " + t)


def wait_own(p, cmd, start):
    """Waits for the server's echo of p's own JOIN or PART (the bot has seen it by then, or will before p's next
    line reaches it)."""
    return p.c.wait(lambda: any(m.cmd == cmd and m.src.lower() == p.nick.lower() for m in p.c.lines[start:]), 10)


def open_table(p, chan, new="!304"):
    """p opens a table in chan, seats computers in seats 2-4 and deals; the line that starts the deal."""
    k = p.mark()
    p.say(chan, new)
    p.wait(k, r"sits in seat 1", chan)
    for s in (2, 3, 4):
        p.say(chan, "!bot %d" % s)
    p.wait(k, r"\(a computer player\) sits in seat 4", chan)
    k = p.mark()
    p.say(chan, "!start")
    return p.wait(k, r"^(?:Deal|deal) 1\b", chan, timeout=60)


def sc_stranger(port):
    chan = "#cm"
    # ngircd refuses [ and { in a user name; and the bot would take someone from alice's user@host for her.
    alice, eve = Person(port, "alice[", "alice"), Person(port, "alice{", "eve")
    alice.c.join(chan)
    eve.c.join(chan)
    check(eve.nick == "alice{" and alice.nick == "alice[", "stranger: ngircd keeps alice[ and alice{ apart")
    k0 = alice.mark()
    check(open_table(alice, chan), "stranger: alice[ deals with three computer players", alice.lines(k0, chan))
    check(alice.wait(k0, HAND, "priv"), "stranger: alice[ is shown her hand")
    check(alice.wait(k0, r"alice\[: your turn to bid", chan, timeout=60), "stranger: it comes to alice['s turn",
          alice.lines(k0, chan)[-5:])
    # From here nothing moves until alice[ bids: every line in the channel is someone's doing.
    ka, ke = alice.mark(), eve.mark()
    eve.say(chan, "!pass")
    check(eve.wait(ke, NOT_SEATED, "priv"), "stranger: alice{'s !pass is refused: she has no seat",
          eve.lines(ke))
    k = eve.mark()
    eve.say(chan, "!leave")
    check(eve.wait(k, NOT_SEATED, "priv"), "stranger: so is her !leave", eve.lines(k))
    k = eve.mark()
    eve.say(chan, "!sit 1")
    check(eve.wait(k, r"that seat is taken", "priv"), "stranger: and her !sit 1: alice[ holds it", eve.lines(k))
    # alice[ passes herself: anything alice{ made the table say in the channel would come before this.
    alice.say(chan, "!pass")
    said = alice.wait(ka, ALICE_PASSES, chan)
    check(said, "stranger: alice['s own !pass is taken", alice.lines(ka))
    before = alice.lines(ka, chan)
    before = before[:before.index(said)] if said in before else before
    check(not [t for t in before if re.search(r"passes|leaves|takes seat|sits in", t)],
          "stranger: the channel heard nothing of alice{'s commands", before)
    # Each person's answers go out in order: a reply to her next command comes after any earlier one.
    k = alice.mark()
    alice.msg("%s hand" % chan)
    check(alice.wait(k, HAND, "priv"), "stranger: alice[ still holds seat 1 and her hand", alice.lines(k))
    check(not alice.find(ka, r"not your turn|do not have a seat", "priv"),
          "stranger: alice[ was refused nothing", alice.lines(ka, "priv"))
    k = eve.mark()
    eve.msg("%s hand" % chan)
    check(eve.wait(k, NOT_SEATED, "priv"), "stranger: alice{ asking for a hand is told she has no seat",
          eve.lines(k))
    check(not eve.find(0, HAND, "priv") and not eve.find(0, KEY_RE, "priv"),
          "stranger: alice{ was shown no card of alice['s and no seat key", eve.lines(0, "priv"))
    dump(alice, eve)
    for p in (alice, eve):
        p.c.quit()


def sc_rfc1459(port):
    chan = "#cards["
    alice = Person(port, "alice[", "alice")
    k = alice.mark()
    alice.c.join("#CARDS{")
    wait_own(alice, "JOIN", k)
    check(any(m.cmd == "JOIN" and m.target == chan for m in alice.c.lines[k:]),
          "rfc1459: the server takes #CARDS{ for #cards[", [m.raw for m in alice.c.lines[k:] if m.cmd == "JOIN"])
    k0 = alice.mark()
    check(open_table(alice, chan), "rfc1459: alice[ deals in #cards[", alice.lines(k0))
    key = re.search(KEY_RE, alice.wait(k0, KEY_RE, "priv") or "")
    check(key, "rfc1459: she is told a seat key")
    check(alice.wait(k0, HAND, "priv"), "rfc1459: and shown her hand")
    # On her turn nothing moves until she does: the next hand she is shown answers her.
    check(alice.wait(k0, r"alice\[: your turn to bid", chan, timeout=60), "rfc1459: it comes to alice['s turn")
    alice.wait(k0, r"your turn\] hand: ", "priv")
    k = alice.mark()
    alice.msg("#CARDS{ hand")
    answer = alice.wait(k, HAND + "|No table is open", "priv")
    check(answer and re.search(HAND, answer), "rfc1459: a private \"#CARDS{ hand\" names the table of #cards[",
          alice.lines(k))
    # Out of the bot's sight she becomes ALICE{, which the server holds to be her nick in another case.
    k = alice.mark()
    alice.c.raw("PART %s :brb" % chan)
    wait_own(alice, "PART", k)
    check(alice.c.rename("ALICE{"), "rfc1459: the server lets alice[ be ALICE{")
    k = alice.mark()
    alice.c.join(chan)
    alice.msg("%s hand" % chan)
    check(alice.wait(k, r"I lost sight of the player of seat 1 .*claim KEY", "priv"),
          "rfc1459: ALICE{ is the nick of seat 1 (asked for its key, not told she has no seat)", alice.lines(k))
    check(not alice.find(k, NOT_SEATED, "priv"), "rfc1459: she is not taken for a stranger", alice.lines(k))
    if key:
        k = alice.mark()
        alice.msg("%s claim %s" % (chan, key.group(1)))
        check(alice.wait(k, r"ALICE\{ is back in seat 1", chan), "rfc1459: with the key she has her seat back",
              alice.lines(k))
        check(alice.wait(k, HAND, "priv"), "rfc1459: and her hand")
    # The operator's mask names BOSS{, which boss[ is to this server.
    boss = Person(port, "boss[", "boss")
    boss.c.join(chan)
    k = alice.mark()
    boss.say(chan, "!stop")
    check(alice.wait(k, r"boss\[ stops the table", chan), "rfc1459: boss[ is the operator BOSS{!*@* and stops it",
          alice.lines(k) + boss.lines(k))
    dump(alice, boss)
    for p in (alice, boss):
        p.c.quit()


def sc_account(port):
    """On an ascii server with services: alice[ is logged in to her account; alice{, who is not, is nobody's."""
    chan = "#acct"
    alice = Person(port, "alice[", "alice")
    check(irc_accounts.nickserv(alice.c, "REGISTER %s alice@example.com" % "Acct-s3cret-pw9", r"is now registered"),
          "account: NickServ registers the account alice[ and logs her in")
    alice.c.join(chan)
    k0 = alice.mark()
    check(open_table(alice, chan), "account: alice[ deals", alice.lines(k0))
    check(alice.wait(k0, HAND, "priv"), "account: alice[ is shown her hand")
    check(not alice.find(k0, KEY_RE, "priv"), "account: and needs no seat key: the bot knows her account",
          alice.lines(k0, "priv"))
    check(alice.wait(k0, r"alice\[: your turn to bid", chan, timeout=60), "account: it comes to alice['s turn")
    eve = Person(port, "alice{", "eve")
    eve.c.join(chan)
    ka, ke = alice.mark(), eve.mark()
    eve.say(chan, "!pass")
    check(eve.wait(ke, NOT_SEATED, "priv"), "account: alice{'s !pass is refused: she has no seat", eve.lines(ke))
    k = eve.mark()
    eve.msg("%s hand" % chan)
    check(eve.wait(k, NOT_SEATED, "priv"), "account: nor a hand", eve.lines(k))
    alice.say(chan, "!pass")
    said = alice.wait(ka, ALICE_PASSES, chan)
    check(said, "account: alice['s own !pass is taken", alice.lines(ka))
    before = alice.lines(ka, chan)
    before = before[:before.index(said)] if said in before else before
    check(not [t for t in before if re.search(r"passes|leaves|takes seat|sits in", t)],
          "account: the channel heard nothing of alice{'s commands", before)
    k = alice.mark()
    alice.msg("%s hand" % chan)
    check(alice.wait(k, HAND, "priv"), "account: alice[ still has her seat and hand", alice.lines(k))
    check(not alice.find(ka, r"not your turn|do not have a seat|claim KEY", "priv"),
          "account: alice[ was refused nothing and is not asked for a key", alice.lines(ka, "priv"))
    check(not eve.find(0, HAND, "priv"), "account: alice{ was shown no card", eve.lines(0, "priv"))
    dump(alice, eve)
    for p in (alice, eve):
        p.c.quit()


def with_bot(tmp, port, chans, fn, operators=()):
    bot = Bot(tmp, port, channels=chans, grace_seconds=120,
              extra_tables="computer_delay_ms = 300;\n  deal_pause_ms = 300;")
    with open(bot.cfg) as f:
        cfg = f.read()
    ops = "\n  operators = [ %s ];" % ", ".join('"%s"' % o for o in operators) if operators else ""
    with open(bot.cfg, "w") as f:
        f.write(cfg.replace("bot = {", "bot = {\n  commands_burst = 100;\n  commands_per_minute = 6000;" + ops, 1))
    bot.start()
    try:
        # The bot is in its channels when a look at one shows it there.
        obs = irclib.Client(port, "observer").connect()
        seen = False
        deadline = time.monotonic() + 15
        while not seen and time.monotonic() < deadline:
            n = len(obs.lines)
            obs.raw("NAMES %s" % chans[0])
            obs.wait(lambda: any(m.cmd == "366" for m in obs.lines[n:]), 5)
            seen = any(m.cmd == "353" and re.search(r"(^|[ @+])cardbot( |$)", m.text) for m in obs.lines[n:])
            if not seen:
                time.sleep(0.2)
        obs.quit()
        check(seen, "the bot joins %s" % chans[0], bot.log_tail())
        fn(port)
        check(bot.alive(), "the bot is still running", bot.log_tail())
    finally:
        bot.stop()
    with open(bot.log, "rb") as f:
        log = f.read().decode("utf-8", "replace")
    check(not re.search(r"runtime error|AddressSanitizer|LeakSanitizer", log), "no sanitizer report in the bot's log")
    return log


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        check(False, "cardbot and ngircd are installed", (irclib.CARDBOT, irclib.NGIRCD))
        return
    if not ONLY or "stranger" in ONLY:
        tmp = irclib.tempdir()
        srv = NgIRCd(tmp)
        try:
            srv.start()
            t0 = time.monotonic()
            log = with_bot(tmp, srv.port, ("#cm",), sc_stranger)
            check(re.search(r"names compare as ascii \(005 CASEMAPPING=ascii\)", log),
                  "stranger: the bot logs the server's rule", log[-2000:])
            print("stranger: %.1f s" % (time.monotonic() - t0))
        except Exception:
            check(False, "stranger raised", traceback.format_exc())
        finally:
            srv.stop()
            irclib.rmtree(tmp)
    if not ONLY or "rfc1459" in ONLY:
        tmp = irclib.tempdir()
        try:
            if not check(os.access(irc_sasl.INSPIRCD, os.X_OK), "inspircd is installed (deploy/deps.sh)"):
                return
            irc_sasl.make_cert(tmp)
            port = irclib.free_port()
            irc_sasl.start_inspircd(tmp, port, irclib.free_port(), irclib.free_port(), casemapping="rfc1459")
            t0 = time.monotonic()
            log = with_bot(tmp, port, ("#cards[",), sc_rfc1459, operators=("BOSS{!*@*",))
            check(re.search(r"names compare as rfc1459 \(005 CASEMAPPING=rfc1459\)", log),
                  "rfc1459: the bot logs the server's rule", log[-2000:])
            print("rfc1459: %.1f s" % (time.monotonic() - t0))
        except Exception:
            check(False, "rfc1459 raised", traceback.format_exc())
        finally:
            for p in reversed(irc_sasl.procs):
                try:
                    p.stop()
                except Exception:
                    pass
            del irc_sasl.procs[:]
            irclib.rmtree(tmp)

    if not ONLY or "account" in ONLY:
        tmp = irclib.tempdir()
        try:
            if not check(os.access(irc_sasl.INSPIRCD, os.X_OK) and os.access(irc_sasl.ATHEME, os.X_OK),
                         "inspircd and atheme-services are installed (deploy/deps.sh)"):
                return
            port, link_port = irclib.free_port(), irclib.free_port()
            irc_accounts.start_inspircd_ircv3(tmp, port, link_port, casemapping="ascii")
            atheme, alog = irc_sasl.start_atheme(tmp, link_port, casemapping="ascii")
            if not check(irc_sasl.wait_file(alog, r"finished synching with uplink", 15, atheme),
                         "account: atheme links to inspircd", irc_sasl.tail(alog)):
                return
            t0 = time.monotonic()
            log = with_bot(tmp, port, ("#acct",), sc_account)
            check(re.search(r"names compare as ascii \(005 CASEMAPPING=ascii\)", log),
                  "account: the bot logs the server's rule", log[-2000:])
            check(re.search(r"alice\[ is now account:alice\[", log) and not re.search(r"alice\{ is now", log),
                  "account: the bot learned alice['s account, and gave alice{ none", log[-3000:])
            print("account: %.1f s" % (time.monotonic() - t0))
        except Exception:
            check(False, "account raised", traceback.format_exc())
        finally:
            for p in reversed(irc_sasl.procs):
                try:
                    p.stop()
                except Exception:
                    pass
            del irc_sasl.procs[:]
            irclib.rmtree(tmp)


if __name__ == "__main__":
    main()
    print("irc_casemap: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
