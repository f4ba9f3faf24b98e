#!/usr/bin/env python3
"""storage_corners.py: the bot's files in odd states, through the real binary, a real ngircd and real SQLite files.

- modes: a new database (and its -wal and -shm) is its owner's alone
  (0600); an older one that others could read is made so; a data_dir that
  others may enter is warned of, in the log and by check-config;
- the database deleted while a match is on (the file, then the whole
  data_dir; once on a full disk, where it is written anew only when there
  is room): the bot notices, says so in the log (error) and at the table,
  writes the file anew from what it has open, and after a kill -9 and a
  restart the match is back; another file put in its place is left alone
  and the bot goes on with a copy of its own, which can be put back;
- a full disk at `!stop`: the stop is not announced (it was not saved)
  and the player is told; once there is room, `!stop` works and after a
  restart the table is gone;
- a full disk just when a new deal is stored: when saving works again at
  that deal, the table hears "Saving works again";
- configuration paths that are FIFOs (the file itself at start and at a
  SIGHUP, a secret file, an @include): refused at once with a clear
  message, never waited on.
"""
import os
import re
import resource
import signal
import sqlite3
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import irclib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

passed = failed = 0
FULL = (1, resource.RLIM_INFINITY)  # a write at any offset past the first byte fails (EFBIG)
ROOM = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what)
    return ok


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def bot_lines(client, chan=None, start=0):
    return [strip_colours(m.text) for m in list(client.lines)[start:] if m.src.lower() == "cardbot"
            and (chan is None or m.target.lower() == chan)]


def log_of(bot):
    with open(bot.log, "rb") as f:
        return f.read().decode("utf-8", "replace")


def start_bot(bot, w):
    k = len(w.lines)
    bot.start()
    return w.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == "cardbot" for m in list(w.lines)[k:]), 15)


def kill9(bot):
    bot.proc.kill()
    bot.proc.wait(5)


def test_modes():
    tmp = irclib.tempdir()
    old = os.umask(0o022)
    try:
        ircd = NgIRCd(tmp)
        ircd.start()
        bot = Bot(tmp, ircd.port)
        w = Client(ircd.port, "ann").connect()
        w.join("#304")
        check(start_bot(bot, w), "the bot starts")
        w.privmsg("#304", "!304")  # a write, so that the -wal and -shm exist
        w.wait(lambda: any("table is open" in x for x in bot_lines(w, "#304")), 10)
        time.sleep(0.5)
        db = os.path.join(tmp, "data", "cardbot.db")
        modes = {s: mode(db + s) for s in ("", "-wal", "-shm") if os.path.exists(db + s)}
        check(len(modes) == 3 and all(m == 0o600 for m in modes.values()),
              "a new database and its -wal and -shm are 0600 under umask 022: %s"
              % {k: oct(v) for k, v in modes.items()})
        check(mode(os.path.join(tmp, "data")) == 0o700, "a new data_dir is 0700")
        bot.stop()
        # an older database others could read, in a data_dir they may enter
        os.chmod(os.path.join(tmp, "data"), 0o755)
        for s in ("", "-wal", "-shm"):
            if os.path.exists(db + s):
                os.chmod(db + s, 0o644)
        check(start_bot(bot, w), "the bot starts again")
        time.sleep(0.5)
        log = log_of(bot)
        check(mode(db) == 0o600, "an existing 0644 database is made 0600 (now %s)" % oct(mode(db)))
        check(re.search(r"warn.*data directory .*data may be read or entered by group or others \(mode 0755\)",
                        log) is not None, "the log warns of a data_dir others may enter")
        bot.stop()
        r = subprocess.run([irclib.CARDBOT, "check-config", bot.cfg], capture_output=True, text=True, timeout=20)
        check(r.returncode == 0 and "warning" in r.stderr and "chmod 700" in r.stderr,
              "check-config warns of a data_dir others may enter: %r" % r.stderr.strip()[-300:])
        os.chmod(os.path.join(tmp, "data"), 0o700)
        r = subprocess.run([irclib.CARDBOT, "check-config", bot.cfg], capture_output=True, text=True, timeout=20)
        check(r.returncode == 0 and "chmod 700" not in r.stderr, "...and not of a 0700 one")
        w.close()
        ircd.stop()
    finally:
        os.umask(old)
    irclib.rmtree(tmp)


def test_deleted():
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    bot = Bot(tmp, ircd.port, extra_tables="computer_delay_ms = 10; deal_pause_ms = 30;")
    w = Client(ircd.port, "ann").connect()
    w.join("#304")
    check(start_bot(bot, w), "the bot starts")
    for cmd in ["!304", "!bot", "!bot", "!bot", "!start"]:
        w.privmsg("#304", cmd)
        time.sleep(0.15)
    check(w.wait(lambda: any(x.startswith("Deal 1:") for x in bot_lines(w, "#304")), 15), "the match is on")
    time.sleep(1.0)
    data = os.path.join(tmp, "data")
    db = os.path.join(data, "cardbot.db")
    for s in ("", "-wal", "-shm"):
        if os.path.exists(db + s):
            os.remove(db + s)
    k = len(w.lines)
    told = w.wait(lambda: any("database file was deleted" in x for x in bot_lines(w, "#304", k)), 15)
    check(told, "the table is told that the database file was deleted")
    check(re.search(r"error: .*cardbot\.db: the database file was deleted", log_of(bot)) is not None,
          "the log says so at error level, naming the file")
    check(os.path.exists(db) and mode(db) == 0o600, "the database is written anew, 0600")
    w.privmsg("#304", "!table")  # some writes into the new file
    time.sleep(0.5)
    # the whole data_dir this time
    irclib.rmtree(data)
    k = len(w.lines)
    told = w.wait(lambda: any("database file was deleted" in x for x in bot_lines(w, "#304", k)), 15)
    check(told and os.path.exists(db), "the whole data_dir deleted: noticed, and written anew")
    kill9(bot)
    c = sqlite3.connect(db)
    n = c.execute("SELECT count(*) FROM tables").fetchone()[0]
    m = c.execute("SELECT count(*) FROM matches WHERE ended IS NULL").fetchone()[0]
    c.close()
    check(n == 1 and m == 1, "the new file holds the table and its match (%d, %d)" % (n, m))
    k = len(w.lines)
    check(start_bot(bot, w), "the bot starts after kill -9")
    back = w.wait(lambda: any("I am back" in x for x in bot_lines(w, "#304", k)), 15)
    check(back, "after the restart the match resumes")
    # another file put in the database's place: left alone; the bot goes
    # on with a copy of its own, which an operator can put back
    time.sleep(1.0)
    os.rename(db, db + ".aside")
    with open(db, "wb") as f:
        f.write(b"the operator's own file\n")
    k = len(w.lines)
    told = w.wait(lambda: any("taken the place of my database" in x for x in bot_lines(w, "#304", k)), 15)
    check(told, "a file put in the database's place: the table is told")
    with open(db, "rb") as f:
        check(f.read() == b"the operator's own file\n", "...the file put there is left alone")
    check(not os.path.exists(db + "-wal") and not os.path.exists(db + "-shm"),
          "...and the bot's -wal and -shm are not left beside it")
    kept = db + ".kept"
    ok = os.path.exists(kept) and mode(kept) == 0o600
    if ok:
        c = sqlite3.connect(kept)
        ok = c.execute("SELECT count(*) FROM tables").fetchone()[0] == 1
        c.close()
    check(ok, "...a copy of the bot's database, with the table, is kept beside it (0600)")
    check(re.search(r"error: .*another file has taken the database's place.*now in .*cardbot\.db\.kept",
                    log_of(bot)) is not None, "...and the log says where")
    w.privmsg("#304", "!table")
    time.sleep(0.5)
    bot.stop()
    os.rename(kept, db)
    k = len(w.lines)
    check(start_bot(bot, w), "the bot starts with the kept copy put back")
    back = w.wait(lambda: any("I am back" in x for x in bot_lines(w, "#304", k)), 15)
    check(back, "...and the match resumes")
    bot.stop()
    w.close()
    ircd.stop()
    irclib.rmtree(tmp)


def test_deleted_disk_full():
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    bot = Bot(tmp, ircd.port, extra_tables="computer_delay_ms = 10; deal_pause_ms = 30;")
    w = Client(ircd.port, "ann").connect()
    w.join("#304")
    check(start_bot(bot, w), "the bot starts")
    for cmd in ["!304", "!bot", "!bot", "!bot", "!start"]:
        w.privmsg("#304", cmd)
        time.sleep(0.15)
    check(w.wait(lambda: any(x.startswith("Deal 1:") for x in bot_lines(w, "#304")), 15), "the match is on")
    time.sleep(1.0)
    db = os.path.join(tmp, "data", "cardbot.db")
    resource.prlimit(bot.proc.pid, resource.RLIMIT_FSIZE, FULL)
    for s in ("", "-wal", "-shm"):
        os.remove(db + s)
    k = len(w.lines)
    told = w.wait(lambda: any("cannot write it anew yet" in x for x in bot_lines(w, "#304", k)), 15)
    check(told, "deleted on a full disk: the table hears the game goes on from memory for now")
    check(not os.path.exists(db) and not os.path.exists(db + ".new"), "...and no half-written file is left")
    resource.prlimit(bot.proc.pid, resource.RLIMIT_FSIZE, ROOM)
    k = len(w.lines)
    told = w.wait(lambda: any("written it anew" in x for x in bot_lines(w, "#304", k)), 15)
    check(told and os.path.exists(db), "with room again, the file is written anew and the table told")
    kill9(bot)
    k = len(w.lines)
    check(start_bot(bot, w), "the bot starts after kill -9")
    check(w.wait(lambda: any("I am back" in x for x in bot_lines(w, "#304", k)), 15), "...and the match resumes")
    bot.stop()
    w.close()
    ircd.stop()
    irclib.rmtree(tmp)


def test_stop_disk_full():
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    bot = Bot(tmp, ircd.port, extra_tables="computer_delay_ms = 10; deal_pause_ms = 30;")
    w = Client(ircd.port, "ann").connect()
    w.join("#304")
    check(start_bot(bot, w), "the bot starts")
    for cmd in ["!304", "!bot", "!bot", "!bot", "!start"]:
        w.privmsg("#304", cmd)
        time.sleep(0.15)
    check(w.wait(lambda: any(x.startswith("Deal 1:") for x in bot_lines(w, "#304")), 15), "the match is on")
    time.sleep(1.0)
    resource.prlimit(bot.proc.pid, resource.RLIMIT_FSIZE, FULL)
    k = len(w.lines)
    w.privmsg("#304", "!stop")
    told = w.wait(lambda: any("could not save the end of the match" in x for x in bot_lines(w, None, k)), 10)
    time.sleep(0.5)
    check(told, "with the disk full, !stop is refused and ann is told why")
    check(not any("stops the table" in x for x in bot_lines(w, "#304", k)),
          "with the disk full, no stop is announced")
    resource.prlimit(bot.proc.pid, resource.RLIMIT_FSIZE, ROOM)
    k = len(w.lines)
    w.privmsg("#304", "!stop")
    check(w.wait(lambda: any("stops the table" in x for x in bot_lines(w, "#304", k)), 10),
          "with room again, !stop stops the table")
    time.sleep(0.3)
    kill9(bot)
    k = len(w.lines)
    check(start_bot(bot, w), "the bot starts after kill -9")
    time.sleep(1.5)
    w.privmsg("#304", "!help")
    w.wait(lambda: any("No table is open here" in x or "commands" in x for x in bot_lines(w, None, k)), 10)
    lines = bot_lines(w, None, k)
    check(not any("I am back" in x for x in lines) and any("No table is open here" in x for x in lines),
          "after the restart the stopped table stays stopped: %r" % lines[-3:])
    bot.stop()
    w.close()
    ircd.stop()
    irclib.rmtree(tmp)


def test_saving_works_at_deal():
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    bot = Bot(tmp, ircd.port, extra_tables="computer_delay_ms = 5; deal_pause_ms = 4000;")
    w = Client(ircd.port, "ann").connect()
    w.join("#304")
    check(start_bot(bot, w), "the bot starts")
    for cmd in ["!304", "!leave", "!bot", "!bot", "!bot", "!bot", "!start"]:
        w.privmsg("#304", cmd)
        time.sleep(0.6)  # within the default limit of 5 commands, then one a second
    # the end of a deal: the next is stored only after the pause
    ended = w.wait(lambda: any("· tokens: " in x for x in bot_lines(w, "#304")), 90)
    check(ended, "computer players finish a deal")
    resource.prlimit(bot.proc.pid, resource.RLIMIT_FSIZE, FULL)
    k = len(w.lines)
    full = w.wait(lambda: any("I cannot save the game right now" in x for x in bot_lines(w, "#304", k)), 15)
    check(full, "the next deal cannot be stored: the table is told")
    resource.prlimit(bot.proc.pid, resource.RLIMIT_FSIZE, ROOM)
    dealt = w.wait(lambda: any(re.match(r"Deal \d+:", x) for x in bot_lines(w, "#304", k)), 20)
    time.sleep(0.3)
    lines = bot_lines(w, "#304", k)
    check(dealt, "the deal is stored once there is room")
    check(any("Saving works again" in x for x in lines), "the table hears that saving works again: %r"
          % [x for x in lines if "Deal" in x or "sav" in x.lower()][:4])
    bot.stop()
    w.close()
    ircd.stop()
    irclib.rmtree(tmp)


def test_fifos():
    tmp = irclib.tempdir()
    fifo = os.path.join(tmp, "fifo.cfg")
    os.mkfifo(fifo)
    for what, args in (("check-config", ["check-config", fifo]), ("run", ["run", "-c", fifo])):
        try:
            r = subprocess.run([irclib.CARDBOT] + args, capture_output=True, text=True, timeout=10,
                               stdin=subprocess.DEVNULL)
            check(r.returncode == 66 and "not a regular file" in r.stderr,
                  "%s on a FIFO: refused at once (%s): %r" % (what, r.returncode, r.stderr.strip()[-200:]))
        except subprocess.TimeoutExpired:
            check(False, "%s on a FIFO: refused at once (it hung)" % what)
    ircd = NgIRCd(tmp)
    ircd.start()
    bot = Bot(tmp, ircd.port)
    good = open(bot.cfg).read()
    # a secret file and an @include that are FIFOs
    os.mkfifo(os.path.join(tmp, "pw.fifo"))
    os.mkfifo(os.path.join(tmp, "inc.fifo"))
    for what, text in (("a secret file", good.replace('nick = "cardbot";',
                                                      'nick = "cardbot"; server_password_file = "pw.fifo";')),
                       ("an @include", '@include "inc.fifo"\n' + good)):
        p = os.path.join(tmp, "x.cfg")
        with open(p, "w") as f:
            f.write(text)
        try:
            r = subprocess.run([irclib.CARDBOT, "check-config", p], capture_output=True, text=True, timeout=10)
            check(r.returncode != 0 and "not a regular file" in r.stderr,
                  "%s that is a FIFO: refused at once: %r" % (what, r.stderr.strip()[-200:]))
        except subprocess.TimeoutExpired:
            check(False, "%s that is a FIFO: refused at once (it hung)" % what)
    # SIGHUP with the configuration replaced by a FIFO
    w = Client(ircd.port, "ann").connect()
    w.join("#304")
    check(start_bot(bot, w), "the bot starts")
    os.remove(bot.cfg)
    os.mkfifo(bot.cfg)
    bot.proc.send_signal(signal.SIGHUP)
    time.sleep(0.5)
    k = len(w.lines)
    w.privmsg("#304", "!304")
    answered = w.wait(lambda: any("table is open" in x for x in bot_lines(w, "#304", k)), 10)
    check(answered, "after a SIGHUP with the configuration a FIFO, the bot still answers")
    log = log_of(bot)
    check("not a regular file" in log and "running configuration is kept" in log,
          "the log says why the reload was refused")
    os.remove(bot.cfg)
    with open(bot.cfg, "w") as f:
        f.write(good)
    bot.stop()
    w.close()
    ircd.stop()
    irclib.rmtree(tmp)


def main():
    if not os.access(irclib.CARDBOT, os.X_OK):
        print("storage_corners: %s is not built" % irclib.CARDBOT)
        print("storage_corners: 0 passed, 1 failed")
        return 1
    t0 = time.time()
    only = sys.argv[1:]
    for t in (test_modes, test_deleted, test_deleted_disk_full, test_stop_disk_full, test_saving_works_at_deal, test_fifos):
        if only and t.__name__ not in only:
            continue
        try:
            t()
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            check(False, "%s ran to the end (%s)" % (t.__name__, e))
    print("storage_corners: %.0f s" % (time.time() - t0))
    print("storage_corners: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
