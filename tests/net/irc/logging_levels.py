#!/usr/bin/env python3
"""logging_levels.py: the bot's log, through the real binary on a real ngircd.

- at log_level "info" a table of four computer players plays several deals
  and no log line names a card (neither a suit symbol nor a code like JS);
- under systemd (JOURNAL_STREAM set) every line starts with its syslog
  priority (<3> <4> <6> <7>) and the priority matches the level word;
- log_level "warn" drops the info lines; "debug" keeps them.
"""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
from irclib import Client, NgIRCd, strip_colours  # noqa: E402

passed = failed = 0
CARD = re.compile(r"[\u2660\u2665\u2666\u2663]|\b(?:10|[789TJQKA])[SHDC]\b")


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what)
    return ok


def run_bot(tmp, port, level, journal, play_seconds):
    cfg = os.path.join(tmp, "log-%s-%d.cfg" % (level, journal))
    with open(cfg, "w") as f:
        f.write(f"""bot = {{ prefix = "!"; data_dir = "{tmp}/data-{level}-{journal}"; log_level = "{level}";
  commands_burst = 100; }};
tables = {{ computer_delay_ms = 10; deal_pause_ms = 20; }};
networks = ( {{ name = "test"; type = "irc"; server = "127.0.0.1"; port = {port}; tls = false;
  nick = "logbot"; channels = ( "#log" ); pace_burst = 100; pace_per_second = 50; }} );
""")
    env = dict(os.environ)
    env.pop("JOURNAL_STREAM", None)
    if journal:
        env["JOURNAL_STREAM"] = "8:12345"
    p = subprocess.Popen([irclib.CARDBOT, "run", "-c", cfg], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, env=env)
    w = Client(port, "w%s%d" % (level[:3], journal)).connect()
    w.join("#log")
    w.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == "logbot" for m in list(w.lines)), 10)
    time.sleep(0.3)
    if play_seconds:
        for cmd in ["!304", "!leave", "!bot", "!bot", "!bot", "!bot", "!start"]:
            w.privmsg("#log", cmd)
            time.sleep(0.1)
        time.sleep(play_seconds)
    deals = sum(1 for m in list(w.lines) if m.src.lower() == "logbot" and "Deal " in strip_colours(m.text))
    w.privmsg("#log", "!stop")
    time.sleep(0.2)
    p.terminate()
    out, _ = p.communicate(timeout=10)
    w.close()
    return out.decode("utf-8", "replace").splitlines(), deals


def main():
    if not os.access(irclib.CARDBOT, os.X_OK) or not os.access(irclib.NGIRCD, os.X_OK):
        print("logging_levels: cardbot or ngircd is missing")
        print("logging_levels: 0 passed, 1 failed")
        return 1
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    try:
        lines, deals = run_bot(tmp, ircd.port, "info", 0, 4.0)
        check(deals >= 2, "computer players played %d deals while the log was watched" % deals)
        carded = [x for x in lines if CARD.search(x)]
        check(not carded, "no log line at info names a card (%d lines): %r" % (len(lines), carded[:2]))
        check(any(": info: " in x or x.startswith("info: ") for x in lines), "info lines are there")
        check(not any(": debug: " in x or x.startswith("debug: ") for x in lines), "no debug lines at info")

        lines, _ = run_bot(tmp, ircd.port, "debug", 1, 1.0)
        prio = {"debug": "7", "info": "6", "warn": "4", "error": "3"}
        bad = []
        for x in lines:
            m = re.match(r"^<(\d)>(?:\S+: )?(debug|info|warn|error): ", x)
            if not m or prio[m.group(2)] != m.group(1):
                bad.append(x)
        check(lines and not bad, "under journald every line starts with its priority (%d lines): %r" % (
            len(lines), bad[:2]))
        check(any(x.startswith("<6>") for x in lines), "info lines are kept at log_level debug")

        lines, _ = run_bot(tmp, ircd.port, "warn", 0, 0)
        check(not any(": info: " in x or x.startswith("info: ") for x in lines),
              "log_level warn drops info lines: %r" % [x for x in lines if "info" in x][:2])
    finally:
        ircd.stop()
        irclib.rmtree(tmp)
    print("logging_levels: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
