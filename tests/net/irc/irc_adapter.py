#!/usr/bin/env python3
"""irc_adapter.py: the IRC adapter end to end, through tests/tools/irc_echo.

Against a real ngircd on 127.0.0.1 (plain and TLS, throttling off for the
scripted clients; a second ngircd with its default throttling for the pacing
test) and against a fake server written here for what ngircd cannot do: SASL
(ngircd has none; a real SASL server needs inspircd plus atheme services) and
garbage on the wire. Standard library only; every process started is stopped
in a finally block. Closing line: "irc_adapter: N passed, M failed".
"""
import base64
import os
import random
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

BUILD = os.environ.get("BUILD", "build/rel")
ECHO = os.path.join(BUILD, "tools", "irc_echo")
NGIRCD = "/usr/sbin/ngircd"
PATTERN = "ab\u2660\u2665 "   # what "long N" repeats: 9 bytes
SASL_PASS = "s3cret-Sasl-pw"

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


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Proc:
    """A child process whose stdout and stderr lines are collected with times."""

    def __init__(self, args, name, merge=False):
        self.name = name
        self.p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT if merge else subprocess.PIPE)
        procs.append(self)
        self.out, self.err = [], []
        self.cv = threading.Condition()
        self.threads = [threading.Thread(target=self._read, args=(self.p.stdout, self.out), daemon=True)]
        if not merge:
            self.threads.append(threading.Thread(target=self._read, args=(self.p.stderr, self.err), daemon=True))
        for t in self.threads:
            t.start()

    def _read(self, stream, into):
        for raw in iter(stream.readline, b""):
            with self.cv:
                into.append((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\n")))
                self.cv.notify_all()
        with self.cv:
            self.cv.notify_all()

    def wait(self, regex, timeout, since=0, stream="out"):
        """Index of the first line at or after `since` matching regex, or None."""
        lines = self.out if stream == "out" else self.err
        rx = re.compile(regex)
        deadline = time.monotonic() + timeout
        with self.cv:
            while True:
                for i in range(since, len(lines)):
                    if rx.search(lines[i][1]):
                        return i
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cv.wait(min(left, 0.2))

    def text(self, stream="out"):
        with self.cv:
            return "\n".join(l for _, l in (self.out if stream == "out" else self.err))

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(5)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        for t in self.threads:
            t.join(2)
        return self.p.returncode


def echo(name, *args):
    return Proc([ECHO, "--name", name] + list(args), name)


def stop_echo(p):
    """Stops an echo host; it must quit cleanly and, under sanitizers, say nothing."""
    rc = p.stop()
    err = p.text("err")
    bad = [w for w in ("AddressSanitizer", "LeakSanitizer", "runtime error:") if w in err]
    check(p.name + ": clean exit", rc == 0 and not bad, "rc=%s %s" % (rc, bad))
    check(p.name + ": no password in its log", SASL_PASS not in err and "nickserv-pw" not in err)


class Client:
    """A scripted IRC user on a plain socket."""

    def __init__(self, port, nick):
        self.nick = nick
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buf = b""
        self.lines = []
        self.pos = 0
        self.send("NICK " + nick)
        self.send("USER " + nick + " 0 * :scripted player")
        if not self.wait(lambda l: b" 001 " in l, 5):
            raise RuntimeError(nick + " could not register")

    def send(self, line):
        self.sock.sendall((line.encode() if isinstance(line, str) else line) + b"\r\n")

    def pump(self, timeout):
        r, _, _ = select.select([self.sock], [], [], timeout)
        if r:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError(self.nick + ": connection closed")
            self.buf += data
        while b"\r\n" in self.buf:
            line, self.buf = self.buf.split(b"\r\n", 1)
            if line.startswith(b"PING"):
                self.send(b"PONG" + line[4:])
            self.lines.append((time.monotonic(), line))

    def wait(self, pred, timeout):
        """The next line (time, bytes) matching pred; lines before it are passed over."""
        deadline = time.monotonic() + timeout
        while True:
            for i in range(self.pos, len(self.lines)):
                if pred(self.lines[i][1]):
                    self.pos = i + 1
                    return self.lines[i]
            self.pos = len(self.lines)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.pump(min(left, 0.2))

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def said(frm, cmd, target):
    head = (":%s!" % frm).encode()
    mid = (" %s %s :" % (cmd, target)).encode()
    return lambda l: l.startswith(head) and mid in l


def text_of(line):
    return line.split(b" :", 1)[1]


def long_text(n):
    """The text "long N" makes: whole characters of PATTERN, at most n bytes."""
    out, size, i = [], 0, 0
    while True:
        ch = PATTERN[i % len(PATTERN)]
        b = len(ch.encode())
        if size + b > n:
            return "".join(out)
        out.append(ch)
        size += b
        i += 1


def valid_utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def colour_spans(b):
    """Byte ranges (start, end) of mIRC colour codes in b, body only (after \\x03)."""
    spans, i = [], 0
    while i < len(b):
        if b[i] == 3:
            j = i + 1
            k = 0
            while j < len(b) and k < 2 and chr(b[j]).isdigit():
                j += 1
                k += 1
            if k and j + 1 < len(b) and b[j] == ord(",") and chr(b[j + 1]).isdigit():
                j += 2
                if j < len(b) and chr(b[j]).isdigit():
                    j += 1
            spans.append((i + 1, j))
            i = j
        else:
            i += 1
    return spans


# ---- ngircd ----

def ngircd_conf(tmp, name, port, throttle, ssl_port=None):
    path = os.path.join(tmp, name + ".conf")
    lines = [
        "[Global]", "Name = %s.test" % name, "Info = cardbot test server", "Listen = 127.0.0.1",
        "Ports = %d" % port, 'MotdPhrase = "test"', "AdminInfo1 = test", "AdminInfo2 = test",
        "AdminEMail = test@localhost",
        "[Limits]", "MaxConnectionsIP = 0", "MaxNickLength = 30", "MaxJoins = 0", "PingTimeout = 120",
    ]
    if not throttle:
        lines.append("MaxPenaltyTime = 0")   # ngircd.conf(5): 0 disables penalties altogether
    lines += ["[Options]", "DNS = no", "Ident = no", "PAM = no"]
    if ssl_port:
        # DHFile: without one ngircd generates 2048-bit DH parameters at
        # every start, seconds of CPU that a busy machine stretched past
        # the wait for its "ready" line; make_certs writes the RFC 7919
        # group, which costs nothing.
        lines += ["[SSL]", "CertFile = " + os.path.join(tmp, "server.pem"),
                  "KeyFile = " + os.path.join(tmp, "server.key"), "DHFile = " + os.path.join(tmp, "dh.pem"),
                  "Ports = %d" % ssl_port]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(path, 0o644)
    return path


def start_ngircd(conf, name, port):
    p = Proc([NGIRCD, "-n", "-f", conf], name, merge=True)
    if p.wait(r"Server .* ready", 10) is None:
        raise RuntimeError(name + " did not start:\n" + p.text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(name + " does not listen on %d" % port)


def make_certs(tmp):
    def run(*args):
        subprocess.run(["openssl"] + list(args), cwd=tmp, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=cardbot test CA")
    run("req", "-x509", *ec, "-keyout", "wrong.key", "-out", "wrong.pem", "-days", "2", "-subj", "/CN=another CA")
    run("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost")
    with open(os.path.join(tmp, "ext.cnf"), "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                "extendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf")
    run("genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048", "-out", "dh.pem")
    for f in ("server.pem", "server.key", "dh.pem"):
        os.chmod(os.path.join(tmp, f), 0o644)   # ngircd may read them as "nobody"; a throwaway key
    fp = subprocess.run(["openssl", "x509", "-in", "server.pem", "-noout", "-fingerprint", "-sha256"],
                        cwd=tmp, check=True, capture_output=True, text=True).stdout
    return fp.strip().split("=", 1)[1]


# ---- the tests on ngircd ----

def test_ngircd(tmp, port, ssl_port, conf):
    alice = Client(port, "alice")
    alice.send("JOIN #t")
    alice.send("JOIN #t2")
    alice.wait(lambda l: b"JOIN" in l and b"#t2" in l, 5)
    holder = Client(port, "echobot")   # holds the nick the bot wants
    holder.send("JOIN #t")
    holder.wait(lambda l: b"JOIN" in l, 5)

    bot = echo("main", "--server", "127.0.0.1", "--port", str(port), "--nick", "echobot",
               "--channel", "#t", "--channel", "#t2", "--accept-invites", "--pace-burst", "20",
               "--pace-rate", "20", "--reconnect-min", "300", "--reconnect-max", "1500")
    try:
        i = bot.wait(r"^room_ready #t as echobot_$", 10)
        check("registers with nick_ when the nick is taken, and joins", i is not None, bot.text())
        check("joins the second channel too", bot.wait(r"^room_ready #t2 ", 5) is not None)
        check("link up reported", bot.wait(r"^link up as echobot_", 1) is not None)

        holder.send("QUIT :bye")
        holder.close()
        got = alice.wait(lambda l: l.startswith(b":echobot_!") and b" NICK " in l, 5)
        check("regains its nick once it frees", got and got[1].endswith(b"echobot"), got)

        alice.send("PRIVMSG #t :echo hello \u2660 world".encode())
        got = alice.wait(said("echobot", "PRIVMSG", "#t"), 5)
        check("echo in the channel", got and text_of(got[1]) == "hello \u2660 world".encode(), got)

        alice.send("PRIVMSG echobot :echo secret")
        got = alice.wait(said("echobot", "PRIVMSG", "alice"), 5)
        check("echo in private comes back by PRIVMSG (private_notice's default)", got and text_of(got[1]) == b"secret",
              got)

        alice.send("PRIVMSG echobot :\x01VERSION\x01")
        got = alice.wait(said("echobot", "NOTICE", "alice"), 5)
        check("answers CTCP VERSION", got and text_of(got[1]) == b"\x01VERSION cardbot\x01", got)

        alice.send("PRIVMSG echobot :\x01PING 12345\x01")
        alice.send("PRIVMSG echobot :\x01TIME\x01")
        alice.send("PRIVMSG echobot :echo after-ctcp")
        got = alice.wait(said("echobot", "PRIVMSG", "alice"), 5)
        check("other CTCP is dropped, not answered nor passed on",
              got and text_of(got[1]) == b"after-ctcp" and "PING 12345" not in bot.text(), got)

        alice.send("PRIVMSG #t :\x01ACTION waves\x01")
        check("a CTCP ACTION is passed on as sent",
              bot.wait(r"^message #t alice \x01ACTION waves\x01$", 5) is not None)

        bob = Client(port, "bob")
        bob.send("JOIN #t")
        check("a join is reported", bot.wait(r"^joined #t bob$", 5) is not None)
        bob.send("NICK bobby")
        check("a nick change is reported as renamed", bot.wait(r"^renamed bob bobby$", 5) is not None)
        bob.send("PART #t :see you")
        check("a part is reported with its reason", bot.wait(r"^left #t bobby see you$", 5) is not None)
        bob.send("JOIN #t")
        bot.wait(r"^joined #t bobby$", 5)
        bob.send("QUIT :gone")
        bob.close()
        check("a quit is reported as leaving the network", bot.wait(r"^left \* bobby ", 5) is not None)

        # A long line: split into several lines, each within 512 bytes as
        # relayed (prefix included), each valid UTF-8, nothing lost.
        n = 1500
        want = long_text(n).encode()
        alice.send("PRIVMSG #t :long %d" % n)
        parts, sizes, ok_utf8 = [], [], True
        while len(b" ".join(parts)) < len(want):
            got = alice.wait(said("echobot", "PRIVMSG", "#t"), 5)
            if not got:
                break
            sizes.append(len(got[1]) + 2)
            ok_utf8 = ok_utf8 and valid_utf8(text_of(got[1]))
            parts.append(text_of(got[1]))
        check("a long line arrives in several lines", len(parts) >= 4, len(parts))
        check("each relayed line is at most 512 bytes with CRLF", sizes and max(sizes) <= 512, sizes)
        check("each piece is valid UTF-8", ok_utf8)
        check("the pieces join to the original (split at spaces)", b" ".join(parts) == want,
              (len(b" ".join(parts)), len(want)))

        # Colour codes: text with no spaces, so cuts fall between characters;
        # at 13 offsets one of them meets a code at the cut. 440 bytes: more
        # than one line holds, less than what the server relays from alice.
        unit = b"\x0304,12\xe2\x99\xa5\xe2\x99\xa0\x0f"
        cut_ok = whole_ok = True
        for off in range(len(unit)):
            body = b"x" * off + unit * ((440 - off) // len(unit))
            alice.send(b"PRIVMSG #t :echo " + body)
            pieces = []
            while len(b"".join(pieces)) < len(body):
                got = alice.wait(said("echobot", "PRIVMSG", "#t"), 5)
                if not got:
                    break
                pieces.append(text_of(got[1]))
            if len(pieces) < 2 or b"".join(pieces) != body or not all(valid_utf8(p) for p in pieces):
                whole_ok = False
            pos = 0
            for p in pieces[:-1]:
                pos += len(p)
                if any(s < pos < e for s, e in colour_spans(body)):
                    cut_ok = False
        check("coloured text split on character boundaries, nothing lost", whole_ok)
        check("no cut inside a colour code (\\x03NN,NN)", cut_ok)

        # Kicked: reported, then rejoined after a delay.
        mark = len(bot.out)
        alice.send("KICK #t echobot :out you go")
        check("a kick is reported as room_lost", bot.wait(r"^room_lost #t out you go$", 5, mark) is not None)
        check("rejoins after a kick", bot.wait(r"^room_ready #t ", 5, mark) is not None)

        # Banned: kicked, the rejoin fails with 474, and it gives up.
        mark = len(bot.out)
        emark = len(bot.err)
        alice.send("MODE #t2 +b echobot!*@*")
        alice.send("KICK #t2 echobot :banned")
        check("kicked from #t2", bot.wait(r"^room_lost #t2 ", 5, mark) is not None)
        check("gives up on a channel it is banned from (log line)",
              bot.wait(r"banned from #t2.*giving up", 6, emark, "err") is not None, bot.text("err"))
        time.sleep(1.0)
        check("and does not rejoin it", bot.wait(r"^room_ready #t2 ", 0, mark) is None)

        # Invited: joins.
        alice.send("JOIN #inv")
        alice.wait(lambda l: b"JOIN" in l and b"#inv" in l, 5)
        alice.send("INVITE echobot #inv")
        check("joins a channel it is invited to", bot.wait(r"^room_ready #inv ", 5) is not None)

        # The server restarts: the adapter notices, reconnects and rejoins.
        alice.close()
        mark = len(bot.out)
        server = [p for p in procs if p.name == "ngircd-a" and p.p.poll() is None][0]
        server.stop()
        check("link down on a server restart", bot.wait(r"^link down ", 10, mark) is not None)
        time.sleep(0.5)   # at least one reconnect attempt is refused
        start_ngircd(conf, "ngircd-a", port)
        up = bot.wait(r"^link up ", 15, mark)
        check("reconnects after the restart", up is not None, bot.text("err")[-800:])
        check("rejoins after reconnecting (room_ready again)",
              up is not None and bot.wait(r"^room_ready #t ", 5, up) is not None)
        check("a refused reconnect was retried with backoff",
              re.search(r"connection failed: .*reconnecting in \d+ ms", bot.text("err")) is not None)
    finally:
        stop_echo(bot)
        alice.close()


def test_tls(tmp, port, ssl_port, fingerprint):
    dave = Client(port, "dave")
    try:
        bot = echo("tls-ca", "--server", "localhost", "--port", str(ssl_port), "--tls", "--ca-file",
                   os.path.join(tmp, "ca.pem"), "--nick", "tlsbot", "--channel", "#tls")
        try:
            check("TLS with the right CA: joins", bot.wait(r"^room_ready #tls ", 10) is not None,
                  bot.text("err"))
            check("TLS with the right CA: says so in its log",
                  bot.wait(r"TLS established", 1, 0, "err") is not None)
            dave.send("JOIN #tls")
            dave.wait(lambda l: b"JOIN" in l, 5)
            dave.send("PRIVMSG #tls :echo over tls")
            got = dave.wait(said("tlsbot", "PRIVMSG", "#tls"), 5)
            check("TLS: echo works", got and text_of(got[1]) == b"over tls", got)
        finally:
            stop_echo(bot)

        bot = echo("tls-wrong-ca", "--server", "localhost", "--port", str(ssl_port), "--tls",
                   "--ca-file", os.path.join(tmp, "wrong.pem"), "--nick", "wrongbot", "--channel", "#tls",
                   "--reconnect-min", "5000", "--reconnect-max", "5000")
        try:
            i = bot.wait(r"error: TLS certificate of localhost refused: .*(issuer|verify)", 10, 0, "err")
            check("TLS with a wrong CA: refused with a clear message", i is not None, bot.text("err"))
            check("TLS with a wrong CA: no link", "link up" not in bot.text())
            dave.send("WHOIS wrongbot")
            got = dave.wait(lambda l: b" 401 " in l or b" 311 " in l, 5)
            check("TLS with a wrong CA: never registered on the server", got and b" 401 " in got[1], got)
        finally:
            stop_echo(bot)

        bot = echo("tls-pin", "--server", "127.0.0.1", "--port", str(ssl_port), "--tls",
                   "--fingerprint", fingerprint, "--nick", "pinbot", "--channel", "#tls")
        try:
            check("TLS pinned by fingerprint, no CA: joins", bot.wait(r"^room_ready #tls ", 10) is not None,
                  bot.text("err"))
        finally:
            stop_echo(bot)

        wrong = "00:" + fingerprint[3:] if not fingerprint.startswith("00") else "11:" + fingerprint[3:]
        bot = echo("tls-wrong-pin", "--server", "127.0.0.1", "--port", str(ssl_port), "--tls",
                   "--fingerprint", wrong, "--nick", "pinbot2", "--channel", "#tls",
                   "--reconnect-min", "5000", "--reconnect-max", "5000")
        try:
            i = bot.wait(r"does not match the pinned fingerprint", 10, 0, "err")
            check("TLS with a wrong pin: refused with a clear message", i is not None, bot.text("err"))
            check("TLS with a wrong pin: no link", "link up" not in bot.text())
        finally:
            stop_echo(bot)
    finally:
        dave.close()


def test_pacing(port, throttled):
    """Burst 4, then 2 lines a second. Without server throttling the spacing
    is the adapter's alone; with ngircd's throttling on, lines must still
    all arrive and the server must keep the bot."""
    tag = "pacing (server throttling %s)" % ("on" if throttled else "off")
    carol = Client(port, "carol")
    bot = echo("pacing-" + ("on" if throttled else "off"), "--server", "127.0.0.1", "--port", str(port),
               "--nick", "pacebot", "--channel", "#p", "--pace-burst", "4", "--pace-rate", "2")
    try:
        check(tag + ": joins", bot.wait(r"^room_ready #p ", 10) is not None, bot.text("err"))
        carol.send("JOIN #p")
        carol.wait(lambda l: b"JOIN" in l, 5)
        carol.send("PRIVMSG #p :burst 10")
        times, texts = [], []
        for _ in range(10):
            got = carol.wait(said("pacebot", "PRIVMSG", "#p"), 15)
            if not got:
                break
            times.append(got[0])
            texts.append(text_of(got[1]))
        check(tag + ": all 10 lines arrive, in order",
              texts == [("burst line %d of 10" % i).encode() for i in range(1, 11)], texts)
        if not throttled:
            # At most 4 tokens at the start, then 2 a second: 6 more take 3 s.
            span = times[-1] - times[0] if len(times) == 10 else 0
            check(tag + ": 10 lines take 2.5 s or more (%.2f s)" % span, span >= 2.5, span)
        check(tag + ": the server kept the bot", "link down" not in bot.text())
    finally:
        stop_echo(bot)
        carol.close()


# ---- a fake server for SASL and garbage ----

class Fake:
    def __init__(self):
        self.ls = socket.socket()
        self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(1)
        self.port = self.ls.getsockname()[1]
        self.conn = None
        self.buf = b""
        self.got = []

    def accept(self):
        self.ls.settimeout(10)
        self.conn, _ = self.ls.accept()

    def send(self, data):
        self.conn.sendall(data)

    def line(self, timeout=5):
        deadline = time.monotonic() + timeout
        while b"\r\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.conn], [], [], left)
            if r:
                data = self.conn.recv(65536)
                if not data:
                    return None
                self.buf += data
        l, self.buf = self.buf.split(b"\r\n", 1)
        self.got.append(l)
        return l

    def until(self, pred, timeout=5):
        deadline = time.monotonic() + timeout
        while True:
            l = self.line(max(0.0, deadline - time.monotonic()))
            if l is None or pred(l):
                return l

    def close(self):
        for s in (self.conn, self.ls):
            if s:
                s.close()


def fake_register(fake, nick="saslbot"):
    """After CAP: waits for NICK and USER, welcomes, and accepts the JOIN."""
    seen = set(l.split(b" ")[0] for l in fake.got)
    while not {b"NICK", b"USER"} <= seen:
        l = fake.line()
        if l is None:
            return False
        seen.add(l.split(b" ")[0])
    fake.send((":fake.test 001 %s :Welcome\r\n:fake.test 376 %s :End of MOTD\r\n" % (nick, nick)).encode())
    j = fake.until(lambda l: l.startswith(b"JOIN"))
    if not j:
        return False
    fake.send((":%s!u@h JOIN :%s\r\n" % (nick, j.split(b" ")[1].decode())).encode())
    return True


def sasl_session(name, mode, user="bot-account", password=SASL_PASS):
    """One connection to the fake server. mode: ok, fail, nosasl, nocap."""
    fake = Fake()
    args = ["--server", "127.0.0.1", "--port", str(fake.port), "--nick", "saslbot", "--channel", "#s",
            "--reconnect-min", "5000", "--reconnect-max", "5000"]
    if mode != "nocap":
        args += ["--sasl-user", user, "--sasl-pass", password]
    else:
        args += ["--server-pass", "srv-pw", "--nickserv-pass", "nickserv-pw"]
    bot = echo(name, *args)
    fake.accept()
    first = fake.line()
    check(name + ": CAP LS 302 is the first line", first == b"CAP LS 302", first)
    if mode == "nocap":
        fake.send(b":fake.test 421 * CAP :Unknown command\r\n")
        check(name + ": registers when the server knows no CAP", fake_register(fake))
        check(name + ": and sends no CAP END", b"CAP END" not in fake.got)
        check(name + ": sends the server password before NICK",
              b"PASS srv-pw" in fake.got and fake.got.index(b"PASS srv-pw") < fake.got.index(b"NICK saslbot"),
              fake.got)
        users = [i for i, l in enumerate(fake.got) if l.startswith(b"USER ")]
        got = fake.got[users[0] + 1:] if users else fake.got
        check(name + ": identifies to NickServ first after registering",
              got[:1] == [b"PRIVMSG NickServ :IDENTIFY nickserv-pw"], got[:3])
        check(name + ": joins", bot.wait(r"^room_ready #s ", 5) is not None)
        return fake, bot
    offer = b"multi-prefix sasl=PLAIN,EXTERNAL" if mode != "nosasl" else b"multi-prefix"
    fake.send(b":fake.test CAP * LS * :away-notify\r\n:fake.test CAP * LS :" + offer + b"\r\n")
    if mode == "nosasl":
        l = fake.until(lambda l: l.startswith(b"CAP"))
        check(name + ": CAP END right after LS when SASL is not offered", l == b"CAP END", l)
        check(name + ": says SASL is not offered",
              bot.wait(r"offers no SASL", 5, 0, "err") is not None, bot.text("err"))
        check(name + ": registers and joins", fake_register(fake) and bot.wait(r"^room_ready #s ", 5) is not None)
        return fake, bot
    l = fake.until(lambda l: l.startswith(b"CAP"))
    check(name + ": requests sasl", l == b"CAP REQ :sasl", l)
    fake.send(b":fake.test CAP * ACK :sasl\r\n")
    l = fake.until(lambda l: l.startswith(b"AUTHENTICATE") or l.startswith(b"CAP"))
    check(name + ": AUTHENTICATE PLAIN", l == b"AUTHENTICATE PLAIN", l)
    fake.send(b"AUTHENTICATE +\r\n")
    chunks = []
    while True:
        l = fake.until(lambda l: l.startswith(b"AUTHENTICATE") or l.startswith(b"CAP"))
        if not l or not l.startswith(b"AUTHENTICATE "):
            break
        chunk = l.split(b" ", 1)[1]
        if chunk == b"+":
            break
        chunks.append(chunk)
        if len(chunk) < 400:
            break
    payload = b"".join(chunks)
    want = base64.b64encode(b"\0" + user.encode() + b"\0" + password.encode())
    check(name + ": the PLAIN payload is base64 of \\0user\\0password", payload == want)
    check(name + ": payload sent in 400-byte pieces", all(len(c) == 400 for c in chunks[:-1])
          and (len(want) % 400 != 0 or chunks and len(chunks[-1]) == 400), [len(c) for c in chunks])
    check(name + ": no CAP END before the SASL result", b"CAP END" not in fake.got)
    if mode == "ok":
        fake.send(b":fake.test 900 saslbot saslbot!u@h bot-account :You are now logged in\r\n"
                  b":fake.test 903 saslbot :SASL authentication successful\r\n")
    else:
        fake.send(b":fake.test 904 saslbot :SASL authentication failed\r\n")
    l = fake.until(lambda l: l.startswith(b"CAP") or l.startswith(b"AUTHENTICATE"))
    check(name + ": CAP END after the SASL result", l == b"CAP END", l)
    if mode == "fail":
        check(name + ": logs the failure clearly",
              bot.wait(r"error: SASL authentication as bot-account failed \(904", 5, 0, "err") is not None,
              bot.text("err"))
    else:
        check(name + ": logs the account", bot.wait(r"logged in as account bot-account", 5, 0, "err") is not None)
    check(name + ": registers and joins", fake_register(fake) and bot.wait(r"^room_ready #s ", 5) is not None)
    return fake, bot


def test_garbage(fake, bot):
    """Garbage from the server must not crash the adapter nor reach the host raw."""
    rng = random.Random(304)
    junk = [
        bytes(rng.randrange(256) for _ in range(300)),
        bytes(rng.randrange(1, 256) for _ in range(600)),          # over-long random
        b"x" * 5000,                                                # over-long, no structure
        b":alice!a@h PRIVMSG #s :echo " + b"y" * 3000,             # over-long, valid start
        b"001", b":", b":only.a.prefix", b"NOTICE justone", b"PRIVMSG #s", b":a!b@c PRIVMSG #s :\x01",
        b":a!b@c PRIVMSG #s :\x01DCC SEND f 2130706433 1 1\x01", b"\x00\x00\x00", b" ", b":srv 433",
        b"PING", b":a!b@c KICK #s", b":a!b@c NICK", b":a!b@c JOIN", b":a!b@c PART", b":a!b@c QUIT",
        b":a!b@c INVITE saslbot", b"CAP * LS :sasl", b"AUTHENTICATE +", b":srv 904 * :late",
        b"@tag=1;x=y :a!b@c PRIVMSG #s :echo tagged", b":a!b@c PRIVMSG #s :\x01ACTION",
        b"12345 six", b":a!b@c PRIV\xffMSG #s :hi", b":\xff\xfe!x@y PRIVMSG #s :echo from-bad-nick",
    ]
    for j in junk:
        fake.send(j + b"\r\n")
    fake.send(b":alice!a@h PRIVMSG #s :echo \xff\xfeok\xc3\r\n")
    fake.send(b":alice!a@h PRIVMSG #s :echo one\r:alice!a@h PRIVMSG #s :echo two\n")
    fake.send(b":alice!a@h PRIVMSG #s :echo alive\r\n")
    replies = []
    while True:
        l = fake.until(lambda l: l.startswith(b"PRIVMSG #s :") or l.startswith(b"AUTHENTICATE"), 10)
        if l is None:
            break
        replies.append(l)
        if l == b"PRIVMSG #s :alive":
            break
    texts = [r.split(b" :", 1)[1] if b" :" in r else r for r in replies]
    check("garbage: still answers afterwards", b"alive" in texts, texts[-5:])
    check("garbage: process still running", bot.p.poll() is None)
    check("garbage: no second AUTHENTICATE after SASL finished",
          not any(r.startswith(b"AUTHENTICATE") for r in replies))
    bad = [t for t in texts if t.startswith(b"\xef\xbf\xbd") or b"ok" in t]
    check("garbage: invalid UTF-8 reaches the host as U+FFFD",
          b"\xef\xbf\xbd\xef\xbf\xbdok\xef\xbf\xbd" in texts, texts)
    check("garbage: every reply is valid UTF-8", all(valid_utf8(t) for t in texts), bad)
    check("garbage: a bare CR ends a line", b"one" in texts and b"two" in texts, texts)
    check("garbage: message tags are skipped", b"tagged" in texts, texts)
    check("garbage: an over-long line is cut, not passed whole",
          any(t.startswith(b"yyyy") and len(t) < 500 for t in texts), [len(t) for t in texts])
    check("garbage: malformed lines were logged and dropped",
          bot.wait(r"dropped a malformed line", 1, 0, "err") is not None, bot.text("err")[-600:])
    check("garbage: the host saw no CTCP or DCC", "DCC" not in bot.text() and "\x01" not in bot.text())


def main():
    tmp = tempfile.mkdtemp(prefix="cardbot-irc-")
    os.chmod(tmp, 0o755)   # ngircd may drop to "nobody" and must read its files
    try:
        if not check("irc_echo is built (" + ECHO + ")", os.access(ECHO, os.X_OK)):
            return
        if not check("ngircd is installed (deploy/deps.sh)", os.access(NGIRCD, os.X_OK)):
            return
        fingerprint = make_certs(tmp)
        port_a, ssl_a, port_b = free_port(), free_port(), free_port()
        conf_a = ngircd_conf(tmp, "a", port_a, throttle=False, ssl_port=ssl_a)
        conf_b = ngircd_conf(tmp, "b", port_b, throttle=True)
        start_ngircd(conf_a, "ngircd-a", port_a)
        start_ngircd(conf_b, "ngircd-b", port_b)

        test_ngircd(tmp, port_a, ssl_a, conf_a)
        test_tls(tmp, port_a, ssl_a, fingerprint)
        test_pacing(port_a, throttled=False)
        test_pacing(port_b, throttled=True)

        fake, bot = sasl_session("sasl-ok", "ok")
        try:
            test_garbage(fake, bot)
        finally:
            stop_echo(bot)
            fake.close()
        for name, mode, kw in (("sasl-fail", "fail", {}), ("sasl-none", "nosasl", {}), ("no-cap", "nocap", {}),
                               ("sasl-400", "ok", {"user": "u" * 100, "password": "p" * 198}),
                               ("sasl-long", "ok", {"user": "v" * 150, "password": "q" * 250})):
            fake, bot = sasl_session(name, mode, **kw)
            stop_echo(bot)
            fake.close()
    except Exception as e:   # a broken harness is a failure, never a pass
        import traceback
        traceback.print_exc()
        check("harness ran to the end", False, repr(e))
    finally:
        for p in procs:
            if p.p.poll() is None:
                p.p.kill()
                p.p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    t0 = time.monotonic()
    main()
    print("(%.1f s)" % (time.monotonic() - t0))
    print("irc_adapter: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
