#!/usr/bin/env python3
"""irc_sasl.py: the IRC adapter's SASL and NickServ paths against real services.

A real InspIRCd 3 (Debian's inspircd) on free 127.0.0.1 ports, linked to real
Atheme services (atheme-services, protocol/inspircd, SaslServ and NickServ),
each with a generated config and its own database in a temp dir. A scripted
client registers a NickServ account; then tests/tools/irc_echo logs in to it
by SASL PLAIN (plain and over TLS), fails with a wrong password, and
identifies to NickServ through the adapter's nickserv_password path. Success
is judged by the server: WHOIS must show (or not show) 330 "is logged in as".

Runs as the current user; as root inspircd needs --runasroot. inspircd runs
from a copy of its binary in the temp dir: Debian ships an AppArmor profile
for /usr/sbin/inspircd that, where AppArmor is enforcing, forbids reading a
config outside /etc/inspircd. Standard library only; every process started
is stopped in a finally block. Closing line: "irc_sasl: N passed, M failed".
"""
import base64
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402

ROOT = irclib.ROOT
INSPIRCD = os.environ.get("INSPIRCD", "/usr/sbin/inspircd")
ATHEME = os.environ.get("ATHEME", "/usr/bin/atheme-services")


def tools_dir():
    t = os.environ.get("TOOLS") or os.path.join(os.environ.get("BUILD", "build/rel"), "tools")
    return t if os.path.isabs(t) else os.path.join(ROOT, t)


ECHO = os.path.join(tools_dir(), "irc_echo")
ACCOUNT = "cardacct"
PASSWORD = "Sasl-s3cret-pw7"
WRONG = "Wrong-pw-4242x"
LINK_PW = "link-pw-304"
EMAIL = "cardbot@example.com"

passed = 0
failed = 0
procs = []


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok   - " + name)
    else:
        failed += 1
        print("FAIL - " + name + (": " + str(detail) if detail != "" else ""))
    sys.stdout.flush()
    return cond


class Proc:
    """A child process. out=None: stdout and stderr are collected as lines
    (for irc_echo); out=PATH: both go to that file, and the process runs in
    that file's directory (for the daemons). stop() sends stop_signal."""

    def __init__(self, args, name, out=None, stop_signal=signal.SIGTERM):
        self.name = name
        self.stop_signal = stop_signal
        self.lines = {"out": [], "err": []}
        self.cv = threading.Condition()
        self.threads = []
        if out:
            with open(out, "ab") as f:
                self.p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                                          cwd=os.path.dirname(out))
        else:
            self.p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
            for stream, key in ((self.p.stdout, "out"), (self.p.stderr, "err")):
                t = threading.Thread(target=self._read, args=(stream, self.lines[key]), daemon=True)
                t.start()
                self.threads.append(t)
        procs.append(self)
        irclib._PROCS.append(self.p)   # irclib's atexit hook kills what a crash left behind

    def _read(self, stream, into):
        for raw in iter(stream.readline, b""):
            with self.cv:
                into.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self.cv.notify_all()
        with self.cv:
            self.cv.notify_all()

    def wait(self, regex, timeout, stream="out"):
        rx = re.compile(regex)
        deadline = time.monotonic() + timeout
        with self.cv:
            while True:
                if any(rx.search(l) for l in self.lines[stream]):
                    return True
                left = deadline - time.monotonic()
                if left <= 0 or (self.p.poll() is not None and all(not t.is_alive() for t in self.threads)):
                    return any(rx.search(l) for l in self.lines[stream])
                self.cv.wait(min(left, 0.2))

    def text(self, stream="out"):
        with self.cv:
            return "\n".join(self.lines[stream])

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(self.stop_signal)
            try:
                self.p.wait(5)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        for t in self.threads:
            t.join(2)
        return self.p.returncode


def tail(path, n=15):
    try:
        with open(path, "rb") as f:
            return "\n".join(l.decode("utf-8", "replace") for l in f.read().splitlines()[-n:])
    except OSError as e:
        return str(e)


def wait_file(path, regex, timeout, proc=None):
    rx = re.compile(regex)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(path, "rb") as f:
                if rx.search(f.read().decode("utf-8", "replace")):
                    return True
        except OSError:
            pass
        if proc is not None and proc.p.poll() is not None:
            return False
        time.sleep(0.05)
    return False


# ---- the servers ----

def make_cert(tmp):
    """A throwaway self-signed certificate for inspircd's TLS port; its SHA-256 fingerprint."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", "tls.key", "-out", "tls.pem", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   cwd=tmp, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    fp = subprocess.run(["openssl", "x509", "-in", "tls.pem", "-noout", "-fingerprint", "-sha256"],
                        cwd=tmp, check=True, capture_output=True, text=True).stdout
    return fp.strip().split("=", 1)[1]


def start_inspircd(tmp, port, tls_port, link_port, casemapping=None):
    """casemapping: None for the server's default (rfc1459 in InspIRCd 3), or "ascii" or "rfc1459"."""
    conf = os.path.join(tmp, "inspircd.conf")
    with open(conf, "w") as f:
        f.write(f"""<server name="irc.test" description="cardbot test server" network="testnet" id="42X">
<admin name="test" nick="test" email="test@localhost">
<bind address="127.0.0.1" port="{port}" type="clients">
<bind address="127.0.0.1" port="{tls_port}" type="clients" sslprofile="test">
<bind address="127.0.0.1" port="{link_port}" type="servers">
<connect name="main" allow="*" timeout="60" pingfreq="120" localmax="1000" globalmax="1000"
         maxconnwarn="off" resolvehostnames="no" useident="no" limit="5000" fakelag="off"
         threshold="1000" commandrate="1000000">
<path configdir="{tmp}" datadir="{tmp}" logdir="{tmp}" runtimedir="{tmp}">
<pid file="{tmp}/inspircd.pid">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{tmp}/inspircd.log">
<dns server="127.0.0.1" timeout="1">
<module name="cap">
<module name="sasl">
<module name="services_account">
<module name="spanningtree">
<module name="ssl_gnutls">
<sslprofile name="test" provider="gnutls" certfile="{tmp}/tls.pem" keyfile="{tmp}/tls.key"
            requestclientcert="no">
<link name="services.test" ipaddr="127.0.0.1" port="{link_port}" allowmask="127.0.0.0/8"
      sendpass="{LINK_PW}" recvpass="{LINK_PW}">
<uline server="services.test" silent="yes">
<sasl target="services.test">
""")
        if casemapping:
            f.write('<options casemapping="%s">\n' % casemapping)
    # A copy of the binary: an AppArmor profile attaches to /usr/sbin/inspircd by path only.
    binary = os.path.join(tmp, "inspircd")
    shutil.copy(INSPIRCD, binary)
    args = ["--config", conf, "--nofork", "--nopid"]
    if os.geteuid() == 0:
        args.append("--runasroot")   # it refuses root otherwise
    out = os.path.join(tmp, "inspircd.out")
    # SIGKILL: Debian's inspircd 3.15 with ssl_gnutls segfaults in
    # InspIRCd::Exit on SIGTERM (and raises its core limit to dump a core).
    try:
        p = Proc([binary] + args, "inspircd", out=out, stop_signal=signal.SIGKILL)
    except PermissionError:          # a temp dir mounted noexec: the installed binary it is
        p = Proc([INSPIRCD] + args, "inspircd", out=out, stop_signal=signal.SIGKILL)
    ok = all(irclib.wait_port(x, 10) for x in (port, tls_port, link_port))
    if not ok or p.p.poll() is not None or wait_file(out, r"failed to bind", 0.01):
        raise RuntimeError("inspircd did not start:\n" + tail(out) + "\n" + tail(os.path.join(tmp, "inspircd.log")))
    return p


def start_atheme(tmp, link_port, casemapping="rfc1459"):
    """casemapping: the server's, which services must share."""
    data = os.path.join(tmp, "atheme")
    os.makedirs(data)
    conf = os.path.join(tmp, "atheme.conf")
    mods = ["protocol/inspircd", "backend/opensex", "crypto/pbkdf2v2", "nickserv/main", "nickserv/register",
            "nickserv/identify", "nickserv/info", "saslserv/main", "saslserv/plain"]
    with open(conf, "w") as f:
        f.write("".join('loadmodule "modules/%s";\n' % m for m in mods))
        f.write(f"""
serverinfo {{
	name = "services.test";
	desc = "cardbot test services";
	numeric = "00A";
	recontime = 1;
	netname = "testnet";
	hidehostsuffix = "users.test";
	adminname = "test";
	adminemail = "test@example.com";
	registeremail = "noreply@example.com";
	mta = "/bin/true";
	loglevel = {{ all; }};
	maxlogins = 5;
	maxusers = 5;
	mdlimit = 30;
	emaillimit = 10;
	emailtime = 300;
	auth = none;
	casemapping = {casemapping};
}};
uplink "irc.test" {{
	host = "127.0.0.1";
	password = "{LINK_PW}";
	port = {link_port};
}};
nickserv {{
	nick = "NickServ";
	user = "NickServ";
	host = "services.test";
	real = "Nickname Services";
	maxnicks = 5;
	expire = 30;
}};
saslserv {{
	nick = "SaslServ";
	user = "SaslServ";
	host = "services.test";
	real = "SASL Authentication Agent";
}};
general {{
	flood_msgs = 0;
	flood_time = 10;
	ratelimit_uses = 100;
	ratelimit_period = 60;
	kline_time = 7;
	commit_interval = 5;
	uplink_sendq_limit = 1048576;
	language = "en";
	immune_level = immune;
}};
""")
    log = os.path.join(data, "atheme.log")
    p = Proc([ATHEME, "-n", "-c", conf, "-D", data, "-l", log, "-p", os.path.join(data, "atheme.pid")],
             "atheme", out=os.path.join(tmp, "atheme.out"))
    return p, log


# ---- WHOIS as the server sees it ----

def whois(c, nick, timeout=5):
    """(nick exists, account from 330 or None, complete) as the server answers WHOIS now."""
    n = len(c.lines)
    c.raw("WHOIS " + nick)
    done = c.wait(lambda: any(m.cmd == "318" for m in c.lines[n:]), timeout)
    exists, account = False, None
    for m in list(c.lines[n:]):
        _, cmd, params = irclib.parse_line(m.raw.decode("utf-8", "replace"))
        if cmd == "311" and len(params) > 1 and params[1].lower() == nick.lower():
            exists = True
        if cmd == "330" and len(params) > 2 and params[1].lower() == nick.lower():
            account = params[2]
    return exists, account, done


def wait_account(c, nick, timeout):
    """Polls WHOIS until the nick shows an account; the last answer."""
    deadline = time.monotonic() + timeout
    while True:
        exists, account, done = whois(c, nick)
        if account or time.monotonic() >= deadline:
            return exists, account, done
        time.sleep(0.3)


# ---- the adapter through irc_echo ----

def echo(name, port, nick, *args):
    return Proc([ECHO, "--name", name, "--server", "127.0.0.1", "--port", str(port), "--nick", nick,
                 "--channel", "#sasl", "--reconnect-min", "5000", "--reconnect-max", "5000"] + list(args), name)


def stop_echo(p):
    rc = p.stop()
    err = p.text("err")
    bad = [w for w in ("AddressSanitizer", "LeakSanitizer", "runtime error:") if w in err]
    check(p.name + ": clean exit", rc == 0 and not bad, "rc=%s %s" % (rc, bad))
    plain = [base64.b64encode(b"\0%s\0%s" % (ACCOUNT.encode(), pw.encode())).decode() for pw in (PASSWORD, WRONG)]
    check(p.name + ": no password in its log, plain or base64",
          not any(x in err for x in [PASSWORD, WRONG] + plain))


def sasl_ok(tag, port, obs, extra=()):
    nick = "sasl" + tag
    bot = echo("sasl-" + tag, port, nick, "--sasl-user", ACCOUNT, "--sasl-pass", PASSWORD, *extra)
    try:
        ready = bot.wait(r"^room_ready #sasl ", 15)
        check("sasl-%s: registers and joins" % tag, ready, bot.text("err")[-800:])
        check("sasl-%s: the adapter logs the account from 900" % tag,
              bot.wait(r"SASL: logged in as account %s\b" % ACCOUNT, 1, "err"), bot.text("err")[-800:])
        check("sasl-%s: and the 903 success" % tag, bot.wait(r"SASL authentication succeeded", 1, "err"))
        exists, account, done = whois(obs, nick)
        check("sasl-%s: WHOIS on the server shows 330 logged in as %s" % (tag, ACCOUNT),
              exists and account == ACCOUNT, (exists, account, done))
        n = len(obs.lines)
        obs.privmsg("#sasl", "echo logged-in-" + tag)
        got = obs.wait(lambda: any(m.src.lower() == nick and m.cmd == "PRIVMSG" and m.text == "logged-in-" + tag
                                   for m in obs.lines[n:]), 5)
        check("sasl-%s: echoes in the channel" % tag, got)
    finally:
        stop_echo(bot)


def main():
    tmp = irclib.tempdir()
    obs = reg = None
    try:
        if not check("irc_echo is built (" + ECHO + ")", os.access(ECHO, os.X_OK)):
            return
        if not check("inspircd and atheme-services are installed (deploy/deps.sh)",
                     os.access(INSPIRCD, os.X_OK) and os.access(ATHEME, os.X_OK), (INSPIRCD, ATHEME)):
            return
        fingerprint = make_cert(tmp)
        port, tls_port, link_port = irclib.free_port(), irclib.free_port(), irclib.free_port()
        start_inspircd(tmp, port, tls_port, link_port)
        atheme, alog = start_atheme(tmp, link_port)
        linked = wait_file(alog, r"finished synching with uplink", 15, atheme)
        if not check("atheme links to inspircd and finishes its burst", linked,
                     tail(os.path.join(tmp, "atheme.out"), 3) + "\n" + tail(alog)):
            return

        # The account, registered the way a user would.
        reg = irclib.Client(port, ACCOUNT).connect()
        n = len(reg.lines)
        reg.privmsg("NickServ", "REGISTER %s %s" % (PASSWORD, EMAIL))
        done = re.compile(r"\b%s is now registered" % ACCOUNT)
        reg.wait(lambda: any(m.src == "NickServ" and done.search(irclib.strip_colours(m.text))
                             for m in reg.lines[n:]), 10)
        said = " / ".join(irclib.strip_colours(m.text) for m in reg.lines[n:] if m.src == "NickServ")
        check("NickServ REGISTER creates the account %s" % ACCOUNT, done.search(said) is not None, said)

        obs = irclib.Client(port, "observer").connect()
        obs.join("#sasl")
        exists, account, done = whois(obs, ACCOUNT)
        check("WHOIS shows 330 for the registering client (services set accounts on this server)",
              account == ACCOUNT, (exists, account, done))

        sasl_ok("plain", port, obs)
        sasl_ok("tls", tls_port, obs, ("--tls", "--fingerprint", fingerprint))

        bot = echo("sasl-wrong", port, "saslwrong", "--sasl-user", ACCOUNT, "--sasl-pass", WRONG)
        try:
            check("sasl-wrong: the adapter logs a clear SASL failure",
                  bot.wait(r"error: SASL authentication as %s failed \(904" % ACCOUNT, 15, "err"),
                  bot.text("err")[-800:])
            check("sasl-wrong: still registers and joins", bot.wait(r"^room_ready #sasl ", 15))
            check("sasl-wrong: logs no account", "logged in as account" not in bot.text("err"))
            exists, account, done = whois(obs, "saslwrong")
            check("sasl-wrong: WHOIS shows the bot without an account",
                  exists and done and account is None, (exists, account, done))
        finally:
            stop_echo(bot)

        # NickServ IDENTIFY while another client holds the nick: the adapter
        # wears nick_ and names the account ("IDENTIFY cardacct PASSWORD").
        bot = echo("ns-other-nick", port, ACCOUNT, "--nickserv-pass", PASSWORD)
        try:
            check("ns-other-nick: registers as %s_ and joins" % ACCOUNT,
                  bot.wait(r"^room_ready #sasl as %s_$" % ACCOUNT, 15), bot.text() + bot.text("err")[-800:])
            exists, account, done = wait_account(obs, ACCOUNT + "_", 8)
            check("ns-other-nick: WHOIS shows 330 logged in as %s" % ACCOUNT,
                  exists and account == ACCOUNT, (exists, account, done))
        finally:
            stop_echo(bot)

        # The nick free: "IDENTIFY PASSWORD" as the account's own nick.
        reg.quit()
        reg = None
        deadline = time.monotonic() + 5
        while whois(obs, ACCOUNT)[0] and time.monotonic() < deadline:
            time.sleep(0.1)
        bot = echo("ns-own-nick", port, ACCOUNT, "--nickserv-pass", PASSWORD)
        try:
            check("ns-own-nick: registers as %s and joins" % ACCOUNT,
                  bot.wait(r"^room_ready #sasl as %s$" % ACCOUNT, 15), bot.text() + bot.text("err")[-800:])
            exists, account, done = wait_account(obs, ACCOUNT, 8)
            check("ns-own-nick: WHOIS shows 330 logged in as %s" % ACCOUNT,
                  exists and account == ACCOUNT, (exists, account, done))
        finally:
            stop_echo(bot)
    except Exception as e:   # a broken harness is a failure, never a pass
        import traceback
        traceback.print_exc()
        check("harness ran to the end", False, repr(e))
    finally:
        for c in (reg, obs):
            if c:
                c.close()
        for p in reversed(procs):
            try:
                p.stop()
            except Exception:
                pass
        irclib.rmtree(tmp)


if __name__ == "__main__":
    t0 = time.monotonic()
    main()
    print("(%.1f s)" % (time.monotonic() - t0))
    print("irc_sasl: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
