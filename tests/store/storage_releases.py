#!/usr/bin/env python3
"""storage_releases.py: upgrades keep every match.

tests/store/releases/release-VERSION-schemaN.db are databases as released cardbots
wrote them, each with a match in progress (made by
tests/store/releases/make_release_db.py: four computer players at a table in
#304 of network "test", stopped mid-deal). For each, the cardbot under test:
- opens it and brings it to the schema a new database gets today;
- resumes the match in #304 where it was (its "I am back" line names the
  deal) and goes on playing it: new cards are stored after the kept ones;
- exports the match afterwards as a record that replays without a refusal;
- refuses the same file marked with a newer schema than its own, with a
  message naming the file and the schema, and leaves the file as it was.
When a release changes the schema, add its database here (the head of
make_release_db.py says how); never remove one. release-0.1.0-dev-schema4-
six.db holds a six-player 304 match ("304six", SEATS=6) as the engine
before issue 31 (one 304 engine for every size) wrote it.
"""
import glob
import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import irclib  # noqa: E402
from irclib import Client, NgIRCd, strip_colours  # noqa: E402

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


def write_cfg(tmp, port):
    cfg = os.path.join(tmp, "cardbot.cfg")
    with open(cfg, "w") as f:
        f.write(f"""bot = {{ prefix = "!"; data_dir = "{tmp}/data"; commands_burst = 100; }};
tables = {{ computer_delay_ms = 100; deal_pause_ms = 100; }};
networks = ( {{ name = "test"; type = "irc"; server = "127.0.0.1"; port = {port}; tls = false;
  nick = "cardbot"; channels = ( "#304" ); pace_burst = 100; pace_per_second = 50;
  reconnect_min_seconds = 1; reconnect_max_seconds = 2; }} );
""")
    return cfg


def pragma(db, name):
    c = sqlite3.connect(db)
    v = c.execute("PRAGMA " + name).fetchone()[0]
    c.close()
    return v


def count_actions(db):
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return c.execute("SELECT count(*) FROM actions WHERE match_id = 1").fetchone()[0]
    finally:
        c.close()


def current_schema(tmp):
    """The schema this cardbot gives a new database."""
    cfg = write_cfg(tmp, 1)
    p = subprocess.Popen([irclib.CARDBOT, "run", "-c", cfg], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = os.path.join(tmp, "data", "cardbot.db")
    for _ in range(50):
        if os.path.exists(db):
            break
        time.sleep(0.1)
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    p.wait(10)
    v = pragma(db, "user_version")
    shutil.rmtree(os.path.join(tmp, "data"))
    return v


def one(fixture, want_schema):
    name = os.path.basename(fixture)
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    ircd.start()
    cfg = write_cfg(tmp, ircd.port)
    os.makedirs(os.path.join(tmp, "data"))
    db = os.path.join(tmp, "data", "cardbot.db")
    shutil.copy(fixture, db)
    kept = count_actions(db)
    old_schema = pragma(db, "user_version")
    log = open(os.path.join(tmp, "bot.log"), "wb")
    p = subprocess.Popen([irclib.CARDBOT, "run", "-c", cfg], stdout=log, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    w = Client(ircd.port, "watcher").connect()
    w.join("#304")
    resumed = w.wait(lambda: any(m.src.lower() == "cardbot" and "the game resumes where it was (deal " in
                                 strip_colours(m.text) for m in list(w.lines)), 30)
    check(resumed, "%s (schema %d): the match resumes where it was" % (name, old_schema))
    more = w.wait(lambda: count_actions(db) >= kept + 4, 60)
    check(more, "%s: the match goes on: moves are stored after the %d kept ones" % (name, kept))
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(20)
    except subprocess.TimeoutExpired:
        p.kill()
    check(p.returncode == 0, "%s: the bot stops cleanly" % name)
    w.close()
    ircd.stop()
    check(pragma(db, "user_version") == want_schema, "%s: the database now has schema %d" % (name, want_schema))
    r = subprocess.run([irclib.CARDBOT, "export", db, "1"], capture_output=True, text=True)
    rec = os.path.join(tmp, "m1.json")
    with open(rec, "w") as f:
        f.write(r.stdout)
    rp = subprocess.run([irclib.CARDBOT, "replay", rec], capture_output=True, text=True)
    check(r.returncode == 0 and rp.returncode == 0 and '"ok": false' not in rp.stdout,
          "%s: the resumed match exports and replays without a refusal %s" % (name, rp.stderr.strip()[-200:]))

    # The same file from a cardbot newer than this one: refused, untouched.
    for f in glob.glob(db + "*"):
        os.remove(f)
    shutil.copy(fixture, db)
    c = sqlite3.connect(db)
    c.execute("PRAGMA user_version=%d" % (want_schema + 1))
    c.commit()
    c.close()
    before = hashlib.sha256(open(db, "rb").read()).hexdigest()
    r = subprocess.run([irclib.CARDBOT, "run", "-c", cfg], capture_output=True, text=True, timeout=20)
    out = r.stdout + r.stderr
    check(r.returncode == 74 and "newer cardbot (schema %d" % (want_schema + 1) in out and db in out,
          "%s marked schema %d: refused with a clear message: %r" % (name, want_schema + 1, out.strip()[-200:]))
    check(hashlib.sha256(open(db, "rb").read()).hexdigest() == before, "%s: the refused file is left as it was"
          % name)
    if failed:
        print(open(os.path.join(tmp, "bot.log"), encoding="utf-8", errors="replace").read()[-2000:])
    irclib.rmtree(tmp)


def main():
    t0 = time.time()
    fixtures = sorted(glob.glob(os.path.join(HERE, "releases", "release-*.db")))
    check(fixtures, "there are kept release databases (tests/store/releases/release-*.db)")
    tmp = irclib.tempdir()
    want = current_schema(tmp)
    irclib.rmtree(tmp)
    for fx in fixtures:
        try:
            one(fx, want)
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            check(False, "%s ran to the end (%s)" % (os.path.basename(fx), e))
    print("storage_releases: %.0f s" % (time.time() - t0))
    print("storage_releases: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
