#!/usr/bin/env python3
"""check_deb.py DEB: installs the cardbot package on this machine, as its
operator would, and takes it through its life (`make check-deb`; root only;
not part of `make test`, since it installs a package system-wide).

- dpkg -i: the binary runs and says the changelog's version; the cardbot
  system user exists with no login shell; /var/lib/cardbot is its own, mode
  0700; /etc/cardbot/cardbot.cfg is a conffile, readable by root and the
  cardbot group only; the man pages and the changelog are where man and
  Debian look; the unit is deploy/cardbot.service's hardening run as User=
  cardbot (no DynamicUser), passes systemd-analyze verify, scores at most
  2.0 in systemd-analyze security, and is not enabled;
- the binary is run the way the unit runs it (its User, Group,
  WorkingDirectory and UMask, read from the installed unit): ExecStartPre's
  check-config accepts the shipped configuration (and the user nobody may
  not read it); with the configuration edited to a local ngircd, ExecStart
  joins the channel, opens a table, writes its database under
  /var/lib/cardbot as the cardbot user (mode 0600), and stops cleanly;
- with a match in progress in that database (tests/store/releases/release-*.db),
  the package is upgraded over itself: the operator's edited configuration
  is kept, the database is untouched, and the bot resumes the match;
- dpkg --purge: binary, configuration, state and the permission override are
  gone (the user stays, as Debian's practice is).
A cardbot package installed before the test is left alone: the test stops.
Two checks on one machine (two CI runs at once) take turns, on a lock of
their own: the second found the first one's package installed, or its dpkg
found the first one's holding dpkg's lock.
"""
import fcntl
import glob
import grp
import hashlib
import os
import pwd
import re
import shutil
import signal
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import irclib  # noqa: E402
from irclib import Client, NgIRCd, strip_colours  # noqa: E402

UNIT = "/lib/systemd/system/cardbot.service"
CFG = "/etc/cardbot/cardbot.cfg"
STATE = "/var/lib/cardbot"
passed = failed = 0


def check(ok, what, detail=None):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + ("" if detail is None else ": %s" % (detail,)))
    return ok


def run(cmd, **kw):
    kw.setdefault("timeout", 300)
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return r.returncode, r.stdout, r.stderr


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def directives(text):
    d = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;[":
            continue
        k, _, v = line.partition("=")
        d.setdefault(k.strip(), []).append(v.strip())
    return d


def as_unit(d):
    """preexec for a process started as the unit starts its own."""
    user = d["User"][-1]
    group = d.get("Group", [user])[-1]
    umask = int(d.get("UMask", ["0022"])[-1], 8)
    pw = pwd.getpwnam(user)
    gid = grp.getgrnam(group).gr_gid

    def pre():
        os.setgroups([])
        os.setgid(gid)
        os.setuid(pw.pw_uid)
        os.umask(umask)
    return pre


def installed():
    rc, out, _ = run(["dpkg-query", "-W", "-f=${Status}", "cardbot"])
    return rc == 0 and "ok installed" in out


def check_install(deb):
    rc, out, err = run(["dpkg", "-i", deb])
    if not check(rc == 0, "dpkg -i installs the package", out + err):
        return None
    check(installed(), "dpkg knows cardbot as installed")
    want = run(["dpkg-parsechangelog", "-l", os.path.join(ROOT, "debian", "changelog"), "-S", "Version"])[1].strip()
    rc, out, err = run(["/usr/bin/cardbot", "version"])
    check(rc == 0 and out.strip() == "cardbot " + want.replace("~", "-"),
          "the installed binary runs and says the changelog's version %s" % want, out + err)
    try:
        pw = pwd.getpwnam("cardbot")
        check(pw.pw_uid < 1000 and pw.pw_shell in ("/usr/sbin/nologin", "/bin/false"),
              "cardbot is a system user with no login shell", (pw.pw_uid, pw.pw_shell))
        check(pw.pw_dir == STATE, "its home is " + STATE, pw.pw_dir)
    except KeyError:
        check(False, "the cardbot user exists")
        return None
    st = os.stat(STATE)
    check(stat.S_ISDIR(st.st_mode) and st.st_uid == pw.pw_uid and stat.S_IMODE(st.st_mode) == 0o700,
          STATE + " belongs to cardbot, mode 0700", (st.st_uid, oct(st.st_mode)))
    conffiles = run(["dpkg-query", "-W", "-f=${Conffiles}", "cardbot"])[1]
    check(CFG in conffiles, CFG + " is a conffile", conffiles)
    st = os.stat(CFG)
    check(st.st_uid == 0 and st.st_gid == grp.getgrnam("cardbot").gr_gid and stat.S_IMODE(st.st_mode) == 0o640,
          CFG + " is root:cardbot, mode 0640", (st.st_uid, st.st_gid, oct(st.st_mode)))
    with open(CFG, "rb") as a, open(os.path.join(ROOT, "config", "cardbot.cfg"), "rb") as b:
        check(a.read() == b.read(), CFG + " is the commented example config/cardbot.cfg")
    for page in ("cardbot", "cardbot.cfg"):
        rc, out, _ = run(["man", "-w", page], env=dict(os.environ, MANPATH="/usr/share/man"))
        check(rc == 0 and out.strip().startswith("/usr/share/man/"), "man finds " + page, out)
    check(os.path.exists("/usr/share/doc/cardbot/changelog.gz"), "the changelog is in /usr/share/doc/cardbot")
    return pw


def check_unit():
    text = open(UNIT, encoding="utf-8").read()
    d = directives(text)
    deploy = directives(open(os.path.join(ROOT, "deploy", "cardbot.service"), encoding="utf-8").read())
    check(d.get("User") == ["cardbot"] and d.get("Group") == ["cardbot"] and "DynamicUser" not in d,
          "the unit runs as User=cardbot, Group=cardbot, not a DynamicUser", (d.get("User"), d.get("DynamicUser")))
    check(d.get("ExecStart") == ["/usr/bin/cardbot run -c " + CFG], "the unit runs /usr/bin/cardbot", d.get("ExecStart"))
    lost = sorted(k for k in deploy if k != "DynamicUser" and
                  [v.replace("/usr/local/bin/", "/usr/bin/") for v in deploy[k]] != d.get(k))
    check(not lost, "every other directive is deploy/cardbot.service's", lost)
    check(not os.path.exists("/etc/systemd/system/multi-user.target.wants/cardbot.service"),
          "the service is not enabled at installation (the config is an example)")
    env = dict(os.environ, SYSTEMD_LOG_COLOR="0", SYSTEMD_PAGER="")
    rc, out, err = run(["systemd-analyze", "verify", UNIT], env=env)
    check(rc == 0 and err.strip() == "", "systemd-analyze verify: no complaint", out + err)
    rc, out, err = run(["systemd-analyze", "security", "--offline=true", "--no-pager", UNIT], env=env)
    m = re.search(r"Overall exposure level for \S+: ([0-9.]+)", out + err)
    check(m is not None and float(m.group(1)) <= 2.0, "systemd-analyze security: exposure %s, at most 2.0"
          % (m.group(1) if m else "?"), (out + err)[-300:])
    return d


def check_start_pre(d):
    pre = d["ExecStartPre"][-1].split()
    cwd = d["WorkingDirectory"][-1]
    rc, out, err = run(pre, preexec_fn=as_unit(d), cwd=cwd)
    check(rc == 0, "ExecStartPre as the unit's user: `%s` accepts the shipped configuration" % " ".join(pre),
          out + err)
    nobody = dict(d, User=["nobody"], Group=["nogroup"])
    rc, out, err = run(pre, preexec_fn=as_unit(nobody), cwd="/")
    check(rc != 0 and CFG in out + err, "the user nobody may not read the configuration", (rc, out + err))


def operator_config(port):
    with open(CFG, "w") as f:
        f.write(f"""# Edited by the operator (tests/ops/package/check_deb.py).
bot = {{ prefix = "!"; data_dir = "./data"; commands_burst = 100; }};
tables = {{ computer_delay_ms = 300; deal_pause_ms = 300; }};
networks = ( {{ name = "test"; type = "irc"; server = "127.0.0.1"; port = {port}; tls = false;
  nick = "cardbot"; channels = ( "#304" ); pace_burst = 100; pace_per_second = 50;
  reconnect_min_seconds = 1; reconnect_max_seconds = 2; }} );
""")


def start_bot(d, log):
    cmd = d["ExecStart"][-1].split()
    return subprocess.Popen(cmd, preexec_fn=as_unit(d), cwd=d["WorkingDirectory"][-1], stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def stop_bot(p):
    p.send_signal(signal.SIGTERM)
    try:
        return p.wait(20)
    except subprocess.TimeoutExpired:
        p.kill()
        return None


def bot_said(w, text, since=0):
    return any(m.src.lower() == "cardbot" and text in strip_colours(m.text) for m in list(w.lines)[since:])


def check_run(d, ircd, tmp, pw):
    log = open(os.path.join(tmp, "bot1.log"), "wb")
    p = start_bot(d, log)
    w = Client(ircd.port, "watcher").connect()
    w.join("#304")
    joined = w.wait(lambda: any(m.cmd == "JOIN" and m.src.lower() == "cardbot" for m in list(w.lines)), 20)
    check(joined, "ExecStart as the unit's user: the bot joins the channel of the edited configuration")
    time.sleep(0.3)
    w.privmsg("#304", "!304")
    check(w.wait(lambda: bot_said(w, "seat 1"), 15), "it answers !304 with a table")
    db = os.path.join(STATE, "data", "cardbot.db")
    rc = stop_bot(p)
    check(rc == 0, "it stops cleanly on SIGTERM", rc)
    w.close()
    if check(os.path.isfile(db), "its database is " + db):
        st = os.stat(db)
        check(st.st_uid == pw.pw_uid and stat.S_IMODE(st.st_mode) == 0o600,
              "the database belongs to cardbot, mode 0600 (the unit's UMask)", (st.st_uid, oct(st.st_mode)))


def check_upgrade(deb, d, ircd, tmp, pw):
    fixtures = sorted(glob.glob(os.path.join(ROOT, "tests", "store", "releases", "release-*.db")))
    if not check(fixtures, "a kept database with a match in progress (tests/store/releases/release-*.db)"):
        return
    data = os.path.join(STATE, "data")
    for f in glob.glob(os.path.join(data, "cardbot.db*")):
        os.remove(f)
    db = os.path.join(data, "cardbot.db")
    shutil.copy(fixtures[-1], db)
    os.chown(db, pw.pw_uid, pw.pw_gid)
    os.chmod(db, 0o600)
    cfg_before = digest(CFG)
    db_before = digest(db)
    rc, out, err = run(["dpkg", "-i", deb])
    check(rc == 0, "the package upgrades over itself (dpkg -i again)", out + err)
    check(digest(CFG) == cfg_before, "the upgrade keeps the operator's edited configuration")
    st = os.stat(CFG)
    check(stat.S_IMODE(st.st_mode) == 0o640 and st.st_gid == pw.pw_gid, "and its mode 0640 root:cardbot",
          oct(st.st_mode))
    check(digest(db) == db_before, "the upgrade leaves the database as it was")
    log = open(os.path.join(tmp, "bot2.log"), "wb")
    p = start_bot(d, log)
    w = Client(ircd.port, "watcher").connect()
    w.join("#304")
    check(w.wait(lambda: bot_said(w, "the game resumes where it was"), 30),
          "after the upgrade the bot resumes the stored match")
    rc = stop_bot(p)
    check(rc == 0, "and stops cleanly", rc)
    w.close()


def check_purge():
    rc, out, err = run(["dpkg", "--purge", "cardbot"])
    check(rc == 0, "dpkg --purge removes the package", out + err)
    check(not installed(), "dpkg no longer knows cardbot")
    for path in ("/usr/bin/cardbot", UNIT, CFG, "/etc/cardbot", STATE):
        check(not os.path.exists(path), path + " is gone")
    rc, out, _ = run(["dpkg-statoverride", "--list", CFG])
    check(rc != 0, "the permission override is gone", out)


def main():
    if len(sys.argv) != 2 or not os.path.isfile(sys.argv[1]):
        print("usage: check_deb.py cardbot_VERSION_ARCH.deb (make check-deb builds it)")
        print("check_deb: 0 passed, 1 failed")
        return 1
    deb = os.path.abspath(sys.argv[1])
    if os.geteuid() != 0:
        print("check_deb: installs a package: run it as root")
        print("check_deb: 0 passed, 1 failed")
        return 1
    turn = open("/run/lock/cardbot-check-deb.lock", "w")
    try:
        fcntl.flock(turn, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print("check_deb: another check of the package runs on this machine; waiting for it to end")
        sys.stdout.flush()
        fcntl.flock(turn, fcntl.LOCK_EX)
    if installed():
        print("check_deb: a cardbot package is installed here already; it is left alone")
        print("check_deb: 0 passed, 1 failed")
        return 1
    t0 = time.time()
    tmp = irclib.tempdir()
    ircd = NgIRCd(tmp)
    try:
        pw = check_install(deb)
        if pw is not None:
            d = check_unit()
            check_start_pre(d)
            ircd.start()
            operator_config(ircd.port)
            check_run(d, ircd, tmp, pw)
            check_upgrade(deb, d, ircd, tmp, pw)
    except Exception as e:  # noqa: BLE001
        import traceback
        traceback.print_exc()
        check(False, "the test ran to its end (%s)" % e)
    finally:
        ircd.stop()
        if installed():
            check_purge()
        for name in ("bot1.log", "bot2.log"):
            path = os.path.join(tmp, name)
            if failed and os.path.exists(path):
                print("-- " + name)
                print(open(path, encoding="utf-8", errors="replace").read()[-3000:])
        irclib.rmtree(tmp)
    print("check_deb: %.0f s" % (time.time() - t0))
    print("check_deb: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
