#!/usr/bin/env python3
"""irc_newcomer.py: what a newcomer meets (issue 30), through the real
cardbot on a real ngircd. Each check failed before its fix.

  answers   with no table open in a channel, every command of the bot's
            list (read from its own help) gets at least one answer, typed
            in the channel and typed privately; what answers is told
            apart from what came before by a private `lang` after each
            command, whose one answer closes the command's.
  past      `!history` where no table is open answers from the channel's
            stored matches (a match played and stopped there), and
            privately `#chan history` too; `history` privately naming no
            channel asks which.
  notify    `!notify` where no table is open: told when a table opens
            there (privately, naming the game), and `!notify` again stops it.
  rules     `!rules` where no table is open says what each game is.
  private   the bot's default (no private_notice in its configuration) sends
            private lines by PRIVMSG, which opens a window of its own in
            irssi, weechat, HexChat and The Lounge; the first time someone
            sits the channel hears where their cards will come, and only
            the first time; `!private notice` turns them into NOTICEs (the
            answer already one), remembered across a restart; `!private
            msg` turns them back.

Ends with "irc_newcomer: N passed, M failed". Environment: CARDBOT, NGIRCD.
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

passed = failed = 0
SENTINEL = "You read me"


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (" (%s)" % detail) if detail else ""))


def bot_lines(c, start=0):
    return [strip_colours(m.text) for m in c.from_bot("cardbot", start)]


def wait_for(c, start, sub, timeout=10.0):
    c.wait(lambda: any(sub in t for t in bot_lines(c, start)), timeout)
    return any(sub in t for t in bot_lines(c, start))


def answer_of(c, target, text):
    """The bot's lines that answer `text` sent to target: those before the
    answer to a private `lang` sent right after it (None: no such answer)."""
    k = len(c.lines)
    c.privmsg(target, text)
    c.privmsg("cardbot", "lang")
    want = 2 if text.lstrip("!").split()[0] == "lang" else 1
    c.wait(lambda: sum(SENTINEL in t for t in bot_lines(c, k)) >= want, 10)
    got = bot_lines(c, k)
    seen = 0
    for i, t in enumerate(got):
        if SENTINEL in t:
            seen += 1
            if seen == want:
                return got[:i] if want == 1 else got[:i] + [t]
    return None


def commands(c):
    k = len(c.lines)
    c.privmsg("cardbot", "help")
    wait_for(c, k, "commands")
    for t in bot_lines(c, k):
        if "commands" in t:
            return re.findall(r"!([a-z0-9]+)", t.split(":", 1)[1] if ":" in t else t)
    return []


def main():
    tmp = irclib.tempdir()
    irc = NgIRCd(tmp)
    irc.start()
    bot = Bot(tmp, irc.port, channels=("#n", "#m", "#k"))
    # Many commands in a row from one person: no flood limit in the way.
    with open(bot.cfg) as f:
        cfg = f.read()
    with open(bot.cfg, "w") as f:
        cfg = cfg.replace('prefix = "!";', 'prefix = "!";\n  commands_burst = 1000;\n  commands_per_minute = 60000;')
        f.write(cfg.replace("private_notice = true;", ""))
    bot.start()
    try:
        ann, bob = Client(irc.port, "ann").connect(), Client(irc.port, "bob").connect()
        for c in (ann, bob):
            c.join("#n")
            c.join("#m")
        # The bot is in the channels once it answers there.
        k = len(ann.lines)
        for _ in range(20):
            ann.privmsg("#m", "!table")
            if wait_for(ann, k, "No table", 1):
                break

        # answers
        cmds = commands(ann)
        check(len(cmds) > 30 and "history" in cmds and "sit" in cmds, "answers: the help lists the commands", cmds)
        silent_room, silent_private = [], []
        for cmd in cmds:
            if cmd in ("304", "new"):
                continue  # they open a table
            got = answer_of(ann, "#n", "!" + cmd)
            if not got:
                silent_room.append((cmd, got))
            got = answer_of(ann, "cardbot", cmd)
            if not got:
                silent_private.append((cmd, got))
        check(not silent_room, "answers: every command typed in a channel with no table gets an answer", silent_room)
        check(not silent_private, "answers: every command typed privately at no table gets an answer", silent_private)
        got = answer_of(ann, "#n", "!weather")
        check(got == [], "answers: a word that is none of the bot's commands gets no answer in the channel", got)

        # past
        k = len(ann.lines)
        ann.privmsg("#n", "!304")
        wait_for(ann, k, "ann sits in seat 1")
        for _ in range(3):
            ann.privmsg("#n", "!bot")
        wait_for(ann, k, "four are seated")
        ann.privmsg("#n", "!start")
        check(wait_for(ann, k, "Deal 1", 15), "past: a match starts")
        ann.privmsg("#n", "!stop")
        check(wait_for(ann, k, "stops the table"), "past: the match is stopped")
        got = answer_of(ann, "#n", "!history")
        check(got and any("Last matches here" in t and "#1" in t for t in got),
              "past: !history where no table is open names the channel's stopped match", got)
        got = answer_of(ann, "cardbot", "#n history")
        check(got and any("Last matches here" in t and "#1" in t for t in got),
              "past: privately, '#chan history' answers from that channel's matches", got)
        got = answer_of(ann, "cardbot", "history")
        check(got and any("Which channel" in t and "/msg cardbot #channel history" in t for t in got),
              "past: privately naming no channel, history asks which", got)
        got = answer_of(bob, "#m", "!history")
        check(got and any("No finished matches" in t for t in got), "past: another channel has no matches", got)

        # notify
        got = answer_of(bob, "#m", "!notify")
        check(got and any("when one opens" in t for t in got), "notify: !notify where no table is open is taken",
              got)
        k = len(bob.lines)
        ann.privmsg("#m", "!new rook")
        check(wait_for(bob, k, "A rook table is open in #m"), "notify: told privately when a table opens there",
              bot_lines(bob, k))
        ann.privmsg("#m", "!stop")
        check(wait_for(ann, k, "stops the table"), "notify: the table is stopped")
        got = answer_of(bob, "#m", "!notify")
        check(got and any("no longer" in t for t in got), "notify: !notify again stops it", got)
        k = len(bob.lines)
        ann.privmsg("#m", "!304")
        wait_for(ann, k, "ann sits in seat 1")
        got = answer_of(bob, "cardbot", "lang")
        told = [strip_colours(m.text) for m in bob.from_bot("cardbot", k) if m.target.lower() == "bob"]
        check(not any("table is open" in t for t in told), "notify: not told once stopped", told)

        # rules
        got = answer_of(bob, "#n", "!rules")
        check(got and any(t.startswith("304:") for t in got) and any(t.startswith("Trump304:") for t in got)
              and any(t.startswith("Rook:") for t in got), "rules: where no table is open, what each game is", got)

        # private
        cat = Client(irc.port, "cat").connect()
        cat.join("#k")
        k = len(cat.lines)
        cat.privmsg("#k", "!304")
        check(wait_for(cat, k, "cat sits in seat 1"), "private: cat opens a table")
        where = "cat: your cards come as private messages from cardbot"
        check(wait_for(cat, k, where), "private: the channel hears where a newcomer's cards will come",
              bot_lines(cat, k))
        # (the seat key comes privately after the channel's line: waited for, not assumed)
        cat.wait(lambda: any(m.target.lower() == "cat" for m in cat.from_bot("cardbot", k)), 10)
        mine = [m for m in cat.from_bot("cardbot", k) if m.target.lower() == "cat"]
        check(mine and all(m.cmd == "PRIVMSG" for m in mine), "private: private lines come by PRIVMSG by default",
              [(m.cmd, m.text) for m in mine])
        k = len(cat.lines)
        cat.privmsg("#k", "!leave")
        cat.privmsg("#k", "!sit")
        check(wait_for(cat, k, "cat sits in seat 1"), "private: cat sits again")
        answer_of(cat, "cardbot", "lang")
        check(not any(where in t for t in bot_lines(cat, k)), "private: told only the first time",
              bot_lines(cat, k))
        k = len(cat.lines)
        cat.privmsg("#k", "!private notice")
        wait_for(cat, k, "My private lines come to you as notices")
        got = [m for m in cat.from_bot("cardbot", k) if m.target.lower() == "cat"]
        check(got and got[-1].cmd == "NOTICE" and "as notices" in got[-1].text,
              "private: !private notice is answered by NOTICE", [(m.cmd, m.text) for m in got])
        k = len(cat.lines)
        cat.privmsg("cardbot", "hand")
        cat.wait(lambda: any(m.target.lower() == "cat" for m in cat.from_bot("cardbot", k)), 10)
        got = [m for m in cat.from_bot("cardbot", k) if m.target.lower() == "cat"]
        check(got and all(m.cmd == "NOTICE" for m in got), "private: then private lines come by NOTICE",
              [(m.cmd, m.text) for m in got])
        bot.stop()
        bot.start()
        k = len(cat.lines)
        for _ in range(20):
            cat.privmsg("cardbot", "private")
            if wait_for(cat, k, "My private lines", 1):
                break
        got = [m for m in cat.from_bot("cardbot", k) if m.target.lower() == "cat"]
        check(got and got[0].cmd == "NOTICE" and "as notices" in got[0].text,
              "private: the choice outlives a restart", [(m.cmd, m.text) for m in got])
        k = len(cat.lines)
        cat.privmsg("cardbot", "private msg")
        wait_for(cat, k, "My private lines")
        got = [m for m in cat.from_bot("cardbot", k) if m.target.lower() == "cat"]
        check(got and got[-1].cmd == "PRIVMSG" and "as private messages" in got[-1].text,
              "private: !private msg turns them back to PRIVMSG", [(m.cmd, m.text) for m in got])
        got = answer_of(cat, "cardbot", "private sometimes")
        check(got and any("usage" in t for t in got), "private: a wrong word gets the usage", got)
    finally:
        bot.stop()
        irc.stop()
    print("irc_newcomer: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
