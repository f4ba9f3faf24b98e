#!/usr/bin/env python3
"""storage.py: the bot's database under bad conditions, through the real binary.

- a new data_dir gets a WAL database with the current schema;
- a schema-1 database (tests/store/releases/schema_v1.sql, as the first release
  made it) is migrated forward with nothing lost;
- a database from a newer cardbot, a file of garbage, a truncated database,
  another program's SQLite file, a data_dir that is a file, and a database
  the bot may not write are each refused with a message naming the file and
  what to do, and the file is left exactly as it was;
- a full disk (a file size limit on the bot) while computer players play:
  moves are refused and said so, nothing crashes, and when space is back
  the game goes on; the stored record then replays cleanly;
- SIGHUP: a broken new config is refused and the old one kept; a good one
  joins a new channel without dropping the table in the old one.
"""
import hashlib
import os
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import irclib  # noqa: E402
from irclib import Bot, Client, NgIRCd, strip_colours  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what)
    return ok


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def write_cfg(tmp, port=1, channels=("#304",), extra_bot="", data="data", name="cardbot.cfg"):
    cfg = os.path.join(tmp, name)
    chans = ", ".join('"%s"' % c for c in channels)
    with open(cfg, "w") as f:
        f.write(f"""bot = {{ prefix = "!"; data_dir = "{tmp}/{data}"; commands_burst = 100; {extra_bot} }};
tables = {{ computer_delay_ms = 10; deal_pause_ms = 30; }};
networks = ( {{ name = "test"; type = "irc"; server = "127.0.0.1"; port = {port}; tls = false;
  nick = "cardbot"; channels = ( {chans} ); pace_burst = 100; pace_per_second = 50;
  reconnect_min_seconds = 1; reconnect_max_seconds = 2; }} );
""")
    return cfg


def run_briefly(cfg, seconds=1.5, preexec=None):
    """Starts the bot; returns (exit status or None if still running after
    `seconds`, then stopped), and its output."""
    p = subprocess.Popen([irclib.CARDBOT, "run", "-c", cfg], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, preexec_fn=preexec)
    try:
        out, _ = p.communicate(timeout=seconds)
        return p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=10)
        return None, out.decode("utf-8", "replace")


def test_new_and_migrate():
    tmp = irclib.tempdir()
    cfg = write_cfg(tmp)
    st, out = run_briefly(cfg)
    db = os.path.join(tmp, "data", "cardbot.db")
    check(os.path.exists(db) and "created the database" in out, "a new data_dir gets a database: %r" % out[-200:])
    c = sqlite3.connect(db)
    check(c.execute("PRAGMA journal_mode").fetchone()[0] == "wal", "the database uses WAL")
    check(c.execute("PRAGMA user_version").fetchone()[0] == 4, "the database has the current schema (4)")
    check(c.execute("PRAGMA application_id").fetchone()[0] == 0x43423034, "the file is marked as cardbot's")
    c.close()
    # schema 1, as it shipped, with a finished match in it
    os.remove(db)
    for side in ("-wal", "-shm"):
        if os.path.exists(db + side):
            os.remove(db + side)
    c = sqlite3.connect(db)
    with open(os.path.join(HERE, "releases", "schema_v1.sql")) as f:
        c.executescript(f.read())
    c.execute("PRAGMA user_version=1")
    c.execute("PRAGMA application_id=%d" % 0x43423034)
    deck = '["JS", "9S", "AS", "TS", "KS", "QS", "8S", "7S", "JH", "9H", "AH", "TH", "KH", "QH", "8H", "7H", ' \
           '"JD", "9D", "AD", "TD", "KD", "QD", "8D", "7D", "JC", "9C", "AC", "TC", "KC", "QC", "8C", "7C"]'
    c.execute("INSERT INTO matches VALUES(1, 'test', '#304', '304', '{}', 0, 1000, 2000, 1, 0, 22)")
    for s, n in enumerate(["ann", "ben", "cat", "dev"]):
        c.execute("INSERT INTO match_players VALUES(1, ?, ?, ?, 0)", (s, n, n))
        c.execute("INSERT INTO deal_results VALUES(1, 0, ?, 'test', ?, ?, 0, ?, 'passed_out', 0, 0, -1, 0, 0, "
                  "'none', 0)", (s, n, n, s % 2))
    c.execute("INSERT INTO deals VALUES(1, 0, ?, '00', '00', 1)", (deck,))
    for i, who in enumerate([1, 2, 3, 0]):
        c.execute("INSERT INTO actions VALUES(1, 0, ?, ?)", (i, '{"seat": %d, "do": "pass"}' % who))
    c.execute("INSERT INTO users VALUES('test', 'ann', 1)")
    c.commit()
    c.close()
    st, out = run_briefly(cfg)
    check("upgraded the database" in out and "from schema 1 to 4" in out, "a schema-1 database is upgraded: %r"
          % out[-300:])
    c = sqlite3.connect(db)
    check(c.execute("PRAGMA user_version").fetchone()[0] == 4, "after the upgrade the schema is 4")
    check(c.execute("SELECT count(*) FROM user_languages").fetchone()[0] == 0,
          "the upgrade adds the table of chosen languages, empty")
    check(c.execute("SELECT count(*) FROM channel_notify").fetchone()[0] == 0
          and c.execute("SELECT count(*) FROM user_options").fetchone()[0] == 0,
          "the upgrade adds the tables of who hears of new tables and of people's choices, empty")
    check(c.execute("SELECT ascii, language, notices FROM users WHERE user='ann'").fetchone() == (1, "en", 1),
          "a player's setting survives the upgrade, with the new columns' defaults")
    check(c.execute("SELECT count(*) FROM deal_results").fetchone()[0] == 4, "statistics survive the upgrade")
    c.close()
    r = subprocess.run([irclib.CARDBOT, "export", db, "1"], capture_output=True, text=True)
    check(r.returncode == 0 and '"JS"' in r.stdout and '"do": "pass"' in r.stdout,
          "the old match exports as a record after the upgrade")
    path = os.path.join(tmp, "m1.json")
    with open(path, "w") as f:
        f.write(r.stdout)
    rp = subprocess.run([irclib.CARDBOT, "replay", path], capture_output=True, text=True)
    check(rp.returncode == 0 and '"passed_out"' in rp.stdout, "the old match replays: %s" % rp.stderr.strip())
    irclib.rmtree(tmp)


def refused(tmp, cfg, db, what, pattern, prepare=None, preexec=None):
    before = digest(db) if os.path.isfile(db) else None
    st, out = run_briefly(cfg, preexec=preexec)
    check(st == 74 and re.search(pattern, out) and db in out,
          "%s is refused with a clear message (status %s): %r" % (what, st, out.strip()[-240:]))
    if before is not None:
        check(digest(db) == before, "%s: the file is left as it was" % what)


def test_refusals():
    tmp = irclib.tempdir()
    cfg = write_cfg(tmp)
    os.makedirs(os.path.join(tmp, "data"))
    db = os.path.join(tmp, "data", "cardbot.db")
    # newer schema
    run_briefly(cfg)
    c = sqlite3.connect(db)
    c.execute("PRAGMA user_version=99")
    c.commit()
    c.close()
    refused(tmp, cfg, db, "a database from a newer cardbot", r"newer cardbot \(schema 99")
    # garbage
    for side in ("-wal", "-shm"):
        if os.path.exists(db + side):
            os.remove(db + side)
    with open(db, "wb") as f:
        f.write(b"this is not a database at all\n" * 200)
    refused(tmp, cfg, db, "a file of garbage", r"damaged or is not a database")
    # truncated: a real database cut short
    os.remove(db)
    run_briefly(cfg)
    c = sqlite3.connect(db)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.execute("CREATE TABLE filler(x)")
    c.executemany("INSERT INTO filler VALUES(?)", [("x" * 500,) for _ in range(400)])
    c.commit()
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    for side in ("-wal", "-shm"):
        if os.path.exists(db + side):
            os.remove(db + side)
    size = os.path.getsize(db)
    with open(db, "r+b") as f:
        f.truncate(size // 3)
    refused(tmp, cfg, db, "a truncated database", r"damaged")
    # another program's database
    os.remove(db)
    c = sqlite3.connect(db)
    c.execute("CREATE TABLE recipes(name TEXT)")
    c.commit()
    c.close()
    refused(tmp, cfg, db, "another program's SQLite file", r"not cardbot's")
    # data_dir is a file
    cfg2 = write_cfg(tmp, data="plainfile", name="plainfile.cfg")
    with open(os.path.join(tmp, "plainfile"), "w") as f:
        f.write("x")
    st, out = run_briefly(cfg2)
    check(st == 74 and "cannot create the data directory" in out and "plainfile" in out,
          "a data_dir that is a file is refused: %r" % out.strip()[-200:])
    # a database the bot may not write: run it as nobody on root's file
    os.remove(db)
    run_briefly(cfg)
    if os.geteuid() == 0:
        for p in (tmp, os.path.join(tmp, "data")):
            os.chmod(p, 0o755)
        os.chmod(cfg, 0o644)
        os.chmod(db, 0o644)
        for side in ("-wal", "-shm"):
            if os.path.exists(db + side):
                os.remove(db + side)

        def as_nobody():
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
        refused(tmp, cfg, db, "a database the bot may not write", r"read-only|cannot open", preexec=as_nobody)
    else:
        os.chmod(db, 0o444)
        refused(tmp, cfg, db, "a read-only database", r"read-only|cannot open")
    irclib.rmtree(tmp)


def bot_lines(client, chan):
    return [strip_colours(m.text) for m in list(client.lines) if m.src.lower() == "cardbot" and
            m.target.lower() == chan]


def test_disk_full_and_hup():
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    cfg = write_cfg(tmp, port=ircd.port, channels=("#304",))
    logp = os.path.join(tmp, "bot.log")
    logf = open(logp, "wb")
    limit = 400 * 1024

    def small_files():
        # only the soft limit: the test may raise it again later
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
    p = subprocess.Popen([irclib.CARDBOT, "run", "-c", cfg], stdout=logf, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, preexec_fn=small_files)
    logf.close()
    w = Client(ircd.port, "watcher").connect()
    w.join("#304")
    w.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == "cardbot" for m in list(w.lines)), 10)
    time.sleep(0.3)
    for cmd in ["!304", "!leave", "!bot", "!bot", "!bot", "!bot", "!start"]:
        w.privmsg("#304", cmd)
        time.sleep(0.15)
    full = w.wait(lambda: any("I cannot save the game right now" in x for x in bot_lines(w, "#304")), 90)
    check(full, "a full disk is said in the channel")
    check(p.poll() is None, "the bot is still running with a full disk")
    with open(logp, "rb") as f:
        log = f.read().decode("utf-8", "replace")
    check(re.search(r"error: table #304: .*cardbot\.db", log) is not None, "the log names the file that failed")
    n_before = len(bot_lines(w, "#304"))
    time.sleep(1.0)
    resource.prlimit(p.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    back = w.wait(lambda: any("Saving works again" in x for x in bot_lines(w, "#304")), 30)
    check(back, "once there is room again the game goes on")
    time.sleep(1.0)
    check(len(bot_lines(w, "#304")) > n_before + 2, "moves are announced again")
    # SIGHUP with a broken config: refused, old one kept
    good = open(cfg).read()
    with open(cfg, "w") as f:
        f.write(good.replace('prefix = "!";', 'prefix = "!"; no_such_key = 1;'))
    p.send_signal(signal.SIGHUP)
    time.sleep(0.8)
    with open(logp, "rb") as f:
        log = f.read().decode("utf-8", "replace")
    check("has errors" in log and "running configuration is kept" in log and p.poll() is None,
          "SIGHUP with a broken config keeps the old one")
    # a good one with a second channel
    with open(cfg, "w") as f:
        f.write(good.replace('channels = ( "#304" );', 'channels = ( "#304", "#second" );'))
    w.join("#second")
    t1 = time.time()
    p.send_signal(signal.SIGHUP)
    joined = w.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == "cardbot" and m.target.lower() == "#second"
                                and m.t >= t1 for m in list(w.lines)), 10)
    check(joined, "SIGHUP with a new channel: the bot joins it")
    k = len(w.lines)
    w.privmsg("#304", "!score")
    got = w.wait(lambda: any(m.src.lower() == "cardbot" and "tokens" in strip_colours(m.text).lower()
                             for m in list(w.lines)[k:]), 10)
    check(got, "the table in #304 is still there after the reload")
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
    check(p.returncode == 0, "a clean stop after all that")
    w.close()
    ircd.stop()
    db = os.path.join(tmp, "data", "cardbot.db")
    r = subprocess.run([irclib.CARDBOT, "export", db, "1"], capture_output=True, text=True)
    path = os.path.join(tmp, "m1.json")
    with open(path, "w") as f:
        f.write(r.stdout)
    rp = subprocess.run([irclib.CARDBOT, "replay", path], capture_output=True, text=True)
    check(r.returncode == 0 and rp.returncode == 0 and '"ok": false' not in rp.stdout,
          "the match stored across the full disk replays cleanly (no half-written move)")
    irclib.rmtree(tmp)


def main():
    if not os.access(irclib.CARDBOT, os.X_OK):
        print("storage: %s is not built" % irclib.CARDBOT)
        print("storage: 0 passed, 1 failed")
        return 1
    t0 = time.time()
    for t in (test_new_and_migrate, test_refusals, test_disk_full_and_hup):
        try:
            t()
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            check(False, "%s ran to the end (%s)" % (t.__name__, e))
    print("storage: %.0f s" % (time.time() - t0))
    print("storage: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
