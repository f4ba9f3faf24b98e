#!/usr/bin/env python3
"""make_release_db.py OUT.db: writes, with the cardbot under test, a database
with a match in progress, to keep in tests/store/releases/ as release-VERSION-
schemaN.db when a release changes the schema (tests/store/storage_releases.py
then proves that every later cardbot opens it, migrates it and resumes the
match).

A real ngircd; network "test", channel "#304"; a person ("watcher") opens a
table and seats four computer players, who play until at least MIN_CARDS
cards of the first deal are out; the bot is then stopped (SIGTERM), and the
file is checkpointed (no -wal beside it) and vacuumed.
Environment: CARDBOT, the binary (default bin/cardbot); SEATS=6 seats six
computer players at a six-player 304 table (`!new 304 6`) instead.
"""
import os
import signal
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "lib"))
import irclib  # noqa: E402
from irclib import Client, NgIRCd  # noqa: E402

MIN_CARDS = 6


def main():
    out = os.path.abspath(sys.argv[1])
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    cfg = os.path.join(tmp, "cardbot.cfg")
    with open(cfg, "w") as f:
        f.write(f"""bot = {{ prefix = "!"; data_dir = "{tmp}/data"; commands_burst = 100; }};
tables = {{ computer_delay_ms = 400; deal_pause_ms = 300; }};
networks = ( {{ name = "test"; type = "irc"; server = "127.0.0.1"; port = {ircd.port}; tls = false;
  nick = "cardbot"; channels = ( "#304" ); pace_burst = 100; pace_per_second = 50; }} );
""")
    p = subprocess.Popen([irclib.CARDBOT, "run", "-c", cfg], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = Client(ircd.port, "watcher").connect()
    w.join("#304")
    w.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == "cardbot" for m in list(w.lines)), 20)
    time.sleep(0.3)
    seats = int(os.environ.get("SEATS", "4"))
    table = ["!304"] + (["!new 304 %d" % seats] if seats != 4 else [])
    for cmd in table + ["!leave"] + ["!bot"] * seats + ["!start"]:
        w.privmsg("#304", cmd)
        time.sleep(0.2)
    db = os.path.join(tmp, "data", "cardbot.db")

    def cards():
        try:
            c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
            n = c.execute("SELECT count(*) FROM actions WHERE action LIKE '%\"card\"%'").fetchone()[0]
            c.close()
            return n
        except sqlite3.Error:
            return 0
    ok = w.wait(lambda: cards() >= MIN_CARDS, 60)
    p.send_signal(signal.SIGTERM)
    p.wait(20)
    w.close()
    ircd.stop()
    if not ok:
        print("make_release_db: fewer than %d cards were played" % MIN_CARDS)
        return 1
    c = sqlite3.connect(db)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.execute("PRAGMA journal_mode=DELETE")
    c.execute("VACUUM")
    c.close()
    os.replace(db, out)
    print("make_release_db: wrote %s (%d cards of the deal played)" % (out, cards_in(out)))
    irclib.rmtree(tmp)
    return 0


def cards_in(path):
    c = sqlite3.connect(path)
    n = c.execute("SELECT count(*) FROM actions WHERE action LIKE '%\"card\"%'").fetchone()[0]
    c.close()
    return n


if __name__ == "__main__":
    sys.exit(main())
