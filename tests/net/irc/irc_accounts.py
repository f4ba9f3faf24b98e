#!/usr/bin/env python3
"""irc_accounts.py: the IRC adapter learns services accounts (IRCv3).

ngircd has no services, so this is a protocol-level test (GUIDE section 4):
a scripted IRC server in this file, on a free 127.0.0.1 port, that the real
cardbot ($CARDBOT run -c FILE) connects to. The server speaks for the
people too: their lines are written byte for byte, malformed ones included.

First connection: the server offers account-notify and extended-join (no
account-tag), and WHOX as the 13th parameter of 005 (beyond the 10 that
libircclient keeps). Checked: the bot asks for exactly those capabilities,
ends CAP, queries WHOX after joining; a seat taken by a logged-in person
(known from WHOX) follows them through a nick change (display name too),
is not inherited by the next holder of the old nick, and belongs to their
second client logged in to the same account;
a login seen through ACCOUNT moves a seat to the account, so the same
person's second client (extended JOIN with the account) can leave it;
"account:Boss" as operator: a "boss" without the account, or logged in to
another, cannot stop a table; a nick shaped like "account:Boss" cannot;
WHOX replies with another token or for another channel teach nothing; after
ACCOUNT Boss the same person can.
Second connection (the server drops the first): account-tag offered too,
over a multi-line CAP LS, and no WHOX (the bot must not send WHO). Checked:
untagged, empty, repeated, escaped-space, client-only, over-long and garbage
account tags grant nothing; a seat follows a tagged person through a nick
change; a client never seen before, tagged with the account, is the same
player; a private command with the Boss tag stops a table.
Third connection: the bot is configured for SASL, so it sends two REQs; the
account capabilities are refused (NAK) and sasl granted: the bot logs in,
ends CAP only after 903, and the adapter hears 900; extended JOINs and
account tags the server sends anyway are then not believed, WHOX still is.
Throughout, malformed ACCOUNT, JOIN, 354 and tag lines are sent, and the bot
must stay up, answer, and exit cleanly (no sanitizer report in its log).

Then the same rules against a real inspircd 3 (modules ircv3 and
ircv3_accounttag) linked to atheme-services, started with irc_sasl.py's
helpers: someone not logged in cannot stop a table; once they IDENTIFY to
the operator's account they can; the account's first client, logged in
before the bot arrived, can too under a new nick.

Standard library only. Closing line: "irc_accounts: N passed, M failed".
"""
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import shutil
import base64

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import irclib  # noqa: E402
import irc_sasl  # noqa: E402  (its inspircd and atheme helpers)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CARDBOT = os.environ.get("CARDBOT", os.path.join(ROOT, "bin", "cardbot"))
if not os.path.isabs(CARDBOT):
    CARDBOT = os.path.join(ROOT, CARDBOT)
NICK = "cardbot"
CHAN = "#304"
WAIT = 5.0

passed = 0
failed = 0
BOT = [None]   # the cardbot process


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok   - " + name)
    else:
        failed += 1
        print("FAIL - " + name + (": " + str(detail)[:600] if detail != "" else ""))
    sys.stdout.flush()
    return cond


def parse(line):
    """(command, params) of a line the bot sent."""
    rest = line
    if rest.startswith(":"):
        rest = rest.split(" ", 1)[1] if " " in rest else ""
    params = []
    cmd, _, rest = rest.partition(" ")
    while rest:
        rest = rest.lstrip(" ")
        if rest.startswith(":"):
            params.append(rest[1:])
            break
        p, _, rest = rest.partition(" ")
        if p:
            params.append(p)
    return cmd.upper(), params


class Conn:
    """The bot's connection to the scripted server: every line it sends is kept."""

    def __init__(self, sock):
        self.sock = sock
        self.lines = []
        self.cond = threading.Condition()
        self.closed = False
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        buf = b""
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                with self.cond:
                    self.closed = True
                    self.cond.notify_all()
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                text = line.rstrip(b"\r").decode("utf-8", "replace")
                with self.cond:
                    self.lines.append(text)
                    self.cond.notify_all()
                if text.startswith("PING"):
                    self.send("PONG irc.test :" + text.split(" ", 1)[-1].lstrip(":"))

    def send(self, line):
        data = line if isinstance(line, bytes) else line.encode("utf-8")
        try:
            self.sock.sendall(data + b"\r\n")
        except OSError:
            pass

    def mark(self):
        with self.cond:
            return len(self.lines)

    def wait(self, pred, timeout=WAIT, start=0):
        """The first line from index start for which pred(cmd, params, line) holds, or None."""
        end = time.time() + timeout
        with self.cond:
            while True:
                for line in self.lines[start:]:
                    cmd, params = parse(line)
                    if pred(cmd, params, line):
                        return line
                left = end - time.time()
                if left <= 0 or self.closed:
                    return None
                self.cond.wait(min(left, 0.2))

    def said(self, start, timeout, target=None, text=None):
        """A NOTICE or PRIVMSG from the bot (to target, containing text) after start."""
        def pred(cmd, params, line):
            if cmd not in ("NOTICE", "PRIVMSG") or len(params) < 2:
                return False
            if target is not None and params[0].lower() != target.lower():
                return False
            return text is None or text in params[1]
        return self.wait(pred, timeout, start)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.t.join(2)


def handshake(srv, ls_lines, want_req, isupport, whox_replies, sasl=False, nak=False):
    """Accepts the bot and registers it; returns the Conn, or None. sasl: the
    bot also asks for sasl (a REQ of its own) and logs in; nak: the account
    capabilities are refused."""
    srv.settimeout(0.5)
    sock, end = None, time.time() + 20
    while sock is None:
        try:
            sock, _ = srv.accept()
        except socket.timeout:
            if time.time() > end or BOT[0].poll() is not None:
                check("the bot connects", False, "exit status %s" % BOT[0].poll())
                return None
    sock.settimeout(None)
    c = Conn(sock)
    got = c.wait(lambda cmd, p, l: cmd == "CAP" and p[:1] == ["LS"])
    check("the bot starts with CAP LS", got is not None and "302" in got, got)
    if not c.wait(lambda cmd, p, l: cmd == "USER"):
        check("the bot sends NICK and USER", False, c.lines)
        return None
    for l in ls_lines:
        c.send(l)
    req = c.wait(lambda cmd, p, l: cmd == "CAP" and p[:1] == ["REQ"] and p[-1] != "sasl")
    asked = set(parse(req)[1][-1].split()) if req else set()
    check("the bot asks for %s" % " ".join(sorted(want_req)), asked == set(want_req), req)
    if sasl:
        sreq = c.wait(lambda cmd, p, l: cmd == "CAP" and p[:1] == ["REQ"] and p[-1] == "sasl")
        check("and for sasl in a request of its own", sreq is not None, c.lines)
    c.send(":irc.test CAP %s %s :%s" % (NICK, "NAK" if nak else "ACK", " ".join(sorted(asked))))
    if sasl:
        m = c.mark()
        c.send(":irc.test CAP %s ACK :sasl" % NICK)
        c.wait(lambda cmd, p, l: cmd == "AUTHENTICATE" and p == ["PLAIN"], start=m)
        c.send("AUTHENTICATE +")
        auth = c.wait(lambda cmd, p, l: cmd == "AUTHENTICATE" and p != ["PLAIN"], start=m)
        try:
            cred = base64.b64decode(parse(auth)[1][0]) if auth else b""
        except ValueError:
            cred = b""
        check("the bot logs in by SASL PLAIN", cred == b"\0cardbot\0" + SASL_PW.encode(), auth)
        time.sleep(0.2)
        check("and does not end CAP before SASL is over",
              not any(parse(l)[:2] == ("CAP", ["END"]) for l in c.lines), c.lines)
        c.send(":irc.test 900 %s %s!cb@bot.test CardBotAcct :You are now logged in as CardBotAcct" % (NICK, NICK))
        c.send(":irc.test 903 %s :SASL authentication successful" % NICK)
    end = c.wait(lambda cmd, p, l: cmd == "CAP" and p[:1] == ["END"])
    check("the bot ends CAP once its requests are answered", end is not None, c.lines)
    c.send(":irc.test 001 %s :Welcome to the test network" % NICK)
    c.send(":irc.test 005 %s %s :are supported by this server" % (NICK, isupport))
    c.send(":irc.test 376 %s :End of MOTD" % NICK)
    j = c.wait(lambda cmd, p, l: cmd == "JOIN" and p and CHAN in p[0].split(","))
    if not check("the bot joins " + CHAN, j is not None, c.lines):
        return None
    m = c.mark()
    c.send(":%s!cb@bot.test JOIN %s * :cardbot card games" % (NICK, CHAN))
    c.send(":irc.test 353 %s = %s :%s alice carol" % (NICK, CHAN, NICK))
    c.send(":irc.test 366 %s %s :End of NAMES" % (NICK, CHAN))
    if whox_replies is not None:
        who = c.wait(lambda cmd, p, l: cmd == "WHO", start=m)
        check("after joining, the bot asks WHO %s %%tcna,304" % CHAN,
              who is not None and parse(who)[1][:2] == [CHAN, "%tcna,304"], who)
        for r in whox_replies:
            c.send(r)
        c.send(":irc.test 315 %s %s :End of WHO" % (NICK, CHAN))
    # The bot is in: it answers in the channel.
    m = c.mark()
    c.send(":probe!p@probe.test PRIVMSG %s :!help" % CHAN)
    check("the bot answers after joining", c.said(m, WAIT) is not None, c.lines[-5:])
    return c


def say(c, who, text, target=CHAN, tag=None):
    m = c.mark()
    c.send(("@%s " % tag if tag is not None else "") + ":%s PRIVMSG %s :%s" % (who, target, text))
    return m


def nick_of(who):
    return who.split("!", 1)[0]


SASL_PW = "acct-test-pw"
NOT_SEATED = "do not have a seat"
STOPS = "stops the table"


def refused_stop(c, who, why, tag=None, target=CHAN, text="!stop"):
    m = say(c, who, text, target, tag)
    got = c.said(m, WAIT, nick_of(who), NOT_SEATED)
    stopped = c.said(m, 0.3, CHAN, STOPS)
    check(why, got is not None and stopped is None, c.lines[m:])


def phase1(c):
    # A seat taken by alice, logged in to AliceAcct (known from WHOX).
    m = say(c, "alice!a@alice.test", "!304")
    check("alice opens a table", c.said(m, WAIT, CHAN, "table is open") is not None, c.lines[m:])
    c.send(":alice!a@alice.test NICK alice2")
    m = say(c, "alice2!a@alice.test", "!table")
    got = c.said(m, WAIT, CHAN, "alice2")
    check("a logged-in player's seat shows the new nick after a nick change", got is not None, c.lines[m:])
    # Someone else takes the nick alice: no seat comes with it.
    c.send(":alice!x@other.test JOIN %s * :not alice" % CHAN)
    m = say(c, "alice!x@other.test", "!leave")
    check("the next holder of the old nick has no seat (the seat is the account's)",
          c.said(m, WAIT, "alice", NOT_SEATED) is not None, c.lines[m:])
    m = say(c, "alice2!a@alice.test", "!sit")
    check("and the logged-in player still has it", c.said(m, WAIT, "alice2", "already have a seat") is not None,
          c.lines[m:])
    c.send(":alice_phone!a@phone.test JOIN %s AliceAcct :Alice on the phone" % CHAN)
    m = say(c, "alice_phone!a@phone.test", "!sit")
    check("her second client, logged in to the same account (WHOX said so for the first), has the seat too",
          c.said(m, WAIT, "alice_phone", "already have a seat") is not None, c.lines[m:])

    # carol (WHOX: no account) sits, then logs in: the seat moves to her
    # account, and her second client, logged in too, may leave it.
    m = say(c, "carol!c@carol.test", "!sit")
    check("carol sits", c.said(m, WAIT, CHAN, "carol") is not None, c.lines[m:])
    c.send(":carol!c@carol.test ACCOUNT CarolAcct")
    c.send(":carol_phone!c@phone.test JOIN %s CarolAcct :Carol on the phone" % CHAN)
    m = say(c, "carol_phone!c@phone.test", "!leave")
    got = c.said(m, WAIT, CHAN, "carol leaves")
    check("after ACCOUNT, the seat is the account's: her other client leaves it", got is not None, c.lines[m:])

    # A nick change the bot cannot follow (a nick with ':') forgets the
    # person: whoever shows up under the old nick inherits nothing.
    c.send(":alice2!a@alice.test NICK al:ice")
    c.send(":alice2!z@other.test JOIN %s * :someone else" % CHAN)
    m = say(c, "alice2!z@other.test", "!sit")
    got = c.said(m, WAIT, CHAN, "alice2")
    check("after an unfollowable nick change, the next alice2 gets no seat of the account's",
          got is not None and not any("already have a seat" in l for l in c.lines[m:]), c.lines[m:])

    # Malformed lines: none may crash the bot or grant anything.
    for l in [b"ACCOUNT", b":nobody!n@h.test ACCOUNT", b":x!y@z.test ACCOUNT Boss extra words",
              b":irc.test ACCOUNT Boss", b"ACCOUNT Boss", b":weird!w@h.test JOIN " + CHAN.encode(),
              b":weird2!w@h.test JOIN " + CHAN.encode() + b" " + b"B" * 300 + b" :r",
              b":weird3!w@h.test JOIN " + CHAN.encode() + b" \xff\xfeBoss :r", b"JOIN", b":irc.test 354",
              b":irc.test 354 cardbot 304", b":irc.test 354 cardbot 304 " + CHAN.encode() + b" eve",
              b":irc.test 354 cardbot 304 " + CHAN.encode() + b" mallory " + b"Boss" * 30,
              b":irc.test 354 cardbot 999 " + CHAN.encode() + b" eve Boss",
              b":irc.test 354 cardbot 304 #other eve Boss", b":irc.test 900", b":irc.test 900 cardbot",
              b":irc.test 901 cardbot", b":a:b!c@d.test ACCOUNT Boss", b":eve!e@e.test ACCOUNT :",
              b":eve!e@e.test ACCOUNT " + b"\x01\x02", b"@account=Boss :eve!e@e.test JOIN " + CHAN.encode()]:
        c.send(l)
    refused_stop(c, "eve!e@e.test", "WHOX replies with another token or channel, and junk, teach nothing")
    refused_stop(c, "mallory!m@m.test", "an over-long account name is not believed")
    refused_stop(c, "weird3!w@h.test", "an account name that is not UTF-8 is not believed")
    m = say(c, "account:Boss!x@evil.test", "!stop")
    check("a nick shaped like account:Boss is no operator (its lines are ignored)",
          c.said(m, 1.0, CHAN, STOPS) is None, c.lines[m:])

    # boss without the account, then logged in to another, then to Boss.
    c.send(":boss!b@boss.test JOIN %s * :The boss" % CHAN)
    refused_stop(c, "boss!b@boss.test", "a user with the operator's nick but no account cannot stop a table")
    c.send(":boss!b@boss.test ACCOUNT NotBoss")
    refused_stop(c, "boss!b@boss.test", "nor logged in to another account")
    c.send(":boss!b@boss.test ACCOUNT Boss")
    m = say(c, "boss!b@boss.test", "!stop")
    check("after ACCOUNT Boss, the operator account:Boss stops the table",
          c.said(m, WAIT, CHAN, STOPS) is not None, c.lines[m:])


def phase2(c):
    m = say(c, "dave!d@dave.test", "!304")
    check("dave opens a table", c.said(m, WAIT, CHAN, "table is open") is not None, c.lines[m:])
    c.send(":boss!b@boss.test JOIN %s * :The boss" % CHAN)
    bad = [None, "account=", "account", "+account=Boss", "account=Bo\\sss", "account=Boss;account=Boss",
           "account=" + "B" * 200, ";;;=;account\\", "account=*", "draft/account=Boss", "account=Bo ss"]
    for tag in bad:
        if tag == "account=Bo ss":
            # The space ends the tags: "ss" is then taken as the prefix-less command.
            m = say(c, "boss!b@boss.test", "!stop", tag=tag)
            check("a tag section broken by a space is dropped", c.said(m, 0.5, CHAN, STOPS) is None, c.lines[m:])
            continue
        refused_stop(c, "boss!b@boss.test", "tag %r grants nothing" % tag, tag=tag)
    # A long prefix with a long account name: the relay's ACCOUNT line would not fit.
    refused_stop(c, "boss!" + "u" * 200 + "@" + "h" * 240 + ".test",
                 "a tag too long to pass on with a long prefix grants nothing", tag="account=" + "Boss" * 50)
    # Tags longer than a 512-byte line, and tag sections without a message.
    c.send(b"@x=" + b"y" * 9000 + b" :boss!b@boss.test PRIVMSG " + CHAN.encode() + b" :!stop")
    c.send(b"@account=Boss")
    c.send(b"@")
    c.send(b"@account=Boss :boss!b@boss.test")
    m = say(c, "probe!p@probe.test", "!table")
    check("the bot still answers after over-long and broken tag lines", c.said(m, WAIT, CHAN) is not None,
          c.lines[m:])
    check("and none of them stopped the table", not any(STOPS in l for l in c.lines[m - 20:]), c.lines[m - 20:])

    # A seat follows a tagged person through a nick change.
    c.send(":eve!e@eve.test JOIN %s EveAcct :Eve" % CHAN)
    m = say(c, "eve!e@eve.test", "!sit", tag="account=EveAcct")
    check("eve (tagged EveAcct) sits", c.said(m, WAIT, CHAN, "eve") is not None, c.lines[m:])
    c.send(":eve!e@eve.test NICK eve2")
    m = say(c, "eve2!e@eve.test", "!sit", tag="account=EveAcct")
    check("after a nick change the tagged person still has the seat",
          c.said(m, WAIT, "eve2", "already have a seat") is not None, c.lines[m:])
    m = say(c, "eve2!e@eve.test", "!table", tag="account=EveAcct")
    check("and it shows the new nick", c.said(m, WAIT, CHAN, "eve2") is not None, c.lines[m:])
    m = say(c, "eve_tab!e@tab.test", "!sit", target=CHAN, tag="account=EveAcct")
    check("a client never seen before, tagged EveAcct, is the same player (answered by its own nick)",
          c.said(m, WAIT, "eve_tab", "already have a seat") is not None, c.lines[m:])
    m = say(c, "eve_tab!e@tab.test", "!sit", target=CHAN)
    got = c.said(m, WAIT, CHAN, "eve_tab")
    check("the same nick without the tag is someone else, and takes a seat of its own", got is not None,
          c.lines[m:])
    # A server-time style tag list with the account in the middle; a private command naming the table.
    m = say(c, "boss!b@boss.test", "%s stop" % CHAN, target=NICK,
            tag="time=2026-01-01T00:00:00.000Z;account=Boss;msgid=abc\\:def")
    check("a private command tagged account=Boss stops the table", c.said(m, WAIT, CHAN, STOPS) is not None,
          c.lines[m:])


def write_config(tmp, port, reconnect=(1, 2), sasl_pw=None):
    """The bot's configuration: "account:boss" is its one operator."""
    sasl = '\n    sasl_user = "cardbot";\n    sasl_password = "%s";' % sasl_pw if sasl_pw else ""
    cfg = os.path.join(tmp, "cardbot.cfg")
    log = os.path.join(tmp, "cardbot.log")
    with open(cfg, "w") as f:
        f.write(f"""bot = {{
  prefix = "!";
  log_level = "debug";
  data_dir = "{tmp}/data";
  allow_invites = false;
  operators = [ "account:boss" ];
  commands_burst = 1000;
  commands_per_minute = 60000;
}};
tables = {{
  pace = "casual";
  grace_seconds = 120;
  computer_level = "normal";
}};
networks = (
  {{
    name = "test";
    type = "irc";
    server = "127.0.0.1";
    port = {port};
    tls = false;
    nick = "{NICK}";
    channels = ( "{CHAN}" );
    private_notice = true;
    pace_burst = 100;
    pace_per_second = 50;
    reconnect_min_seconds = {reconnect[0]};
    reconnect_max_seconds = {reconnect[1]};
    accept_invites = false;{sasl}
  }}
);
""")
    os.chmod(cfg, 0o600)
    return cfg, log


def stop_bot(bot):
    if bot.poll() is None:
        bot.send_signal(signal.SIGTERM)
        try:
            bot.wait(10)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait(5)
    return bot.returncode


def sanitizer_report(log):
    with open(log, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    return text, re.findall(r"(?:ERROR: AddressSanitizer|runtime error|LeakSanitizer).*", text)


def start_inspircd_ircv3(tmp, port, link_port, casemapping=None):
    """inspircd with the IRCv3 account modules (ircv3: account-notify and
    extended-join; ircv3_accounttag), linked to atheme as irc_sasl.py does;
    casemapping as irc_sasl.start_inspircd's."""
    conf = os.path.join(tmp, "inspircd.conf")
    with open(conf, "w") as f:
        f.write(f"""<server name="irc.test" description="cardbot test server" network="testnet" id="42X">
<admin name="test" nick="test" email="test@localhost">
<bind address="127.0.0.1" port="{port}" type="clients">
<bind address="127.0.0.1" port="{link_port}" type="servers">
<connect name="main" allow="*" timeout="60" pingfreq="120" localmax="1000" globalmax="1000"
         maxconnwarn="off" resolvehostnames="no" useident="no" limit="5000" fakelag="off"
         threshold="1000" commandrate="1000000">
<path configdir="{tmp}" datadir="{tmp}" logdir="{tmp}" runtimedir="{tmp}">
<pid file="{tmp}/inspircd.pid">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{tmp}/inspircd.log">
<dns server="127.0.0.1" timeout="1">
<module name="cap">
<module name="ircv3">
<module name="ircv3_accounttag">
<module name="sasl">
<module name="services_account">
<module name="spanningtree">
<link name="services.test" ipaddr="127.0.0.1" port="{link_port}" allowmask="127.0.0.0/8"
      sendpass="{irc_sasl.LINK_PW}" recvpass="{irc_sasl.LINK_PW}">
<uline server="services.test" silent="yes">
<sasl target="services.test">
""")
        if casemapping:
            f.write('<options casemapping="%s">\n' % casemapping)
    binary = os.path.join(tmp, "inspircd")
    shutil.copy(irc_sasl.INSPIRCD, binary)
    args = ["--config", conf, "--nofork", "--nopid"]
    if os.geteuid() == 0:
        args.append("--runasroot")
    out = os.path.join(tmp, "inspircd.out")
    try:
        p = irc_sasl.Proc([binary] + args, "inspircd", out=out, stop_signal=signal.SIGKILL)
    except PermissionError:
        p = irc_sasl.Proc([irc_sasl.INSPIRCD] + args, "inspircd", out=out, stop_signal=signal.SIGKILL)
    if not all(irclib.wait_port(x, 10) for x in (port, link_port)) or p.p.poll() is not None:
        raise RuntimeError("inspircd did not start:\n" + irc_sasl.tail(out))
    return p


def nickserv(cl, text, expect, timeout=10):
    n = len(cl.lines)
    cl.privmsg("NickServ", text)
    rx = re.compile(expect, re.I)
    return cl.wait(lambda: any(m.src == "NickServ" and rx.search(irclib.strip_colours(m.text))
                               for m in cl.lines[n:]), timeout)


def from_bot(cl, n, pred, timeout=WAIT):
    """A line from the bot to this client (channel or private) after index n."""
    ok = cl.wait(lambda: any(pred(m) for m in cl.from_bot(NICK, n)), timeout)
    return ok, [m.text for m in cl.from_bot(NICK, n)]


def phase_services():
    """The same rules against a real inspircd and atheme-services."""
    if not check("inspircd and atheme-services are installed (deploy/deps.sh)",
                 os.access(irc_sasl.INSPIRCD, os.X_OK) and os.access(irc_sasl.ATHEME, os.X_OK)):
        return
    tmp = tempfile.mkdtemp(prefix="cardbot-acct-svc-")
    clients, bot = [], None
    try:
        port, link_port = irclib.free_port(), irclib.free_port()
        start_inspircd_ircv3(tmp, port, link_port)
        atheme, alog = irc_sasl.start_atheme(tmp, link_port)
        if not check("services: atheme links to inspircd",
                     irc_sasl.wait_file(alog, r"finished synching with uplink", 15, atheme), irc_sasl.tail(alog)):
            return
        pw, email = "Acct-s3cret-pw9", "boss@example.com"
        boss = irclib.Client(port, "Boss").connect()
        clients.append(boss)
        check("services: NickServ registers the account Boss (and logs its client in)",
              nickserv(boss, "REGISTER %s %s" % (pw, email), r"is now registered"))
        boss.join(CHAN)
        alice = irclib.Client(port, "alice").connect()
        clients.append(alice)
        alice.join(CHAN)
        cfg, log = write_config(tmp, port)
        logf = open(log, "ab")
        bot = subprocess.Popen([CARDBOT, "run", "-c", cfg], stdout=logf, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, cwd=tmp)
        logf.close()
        irclib._PROCS.append(bot)
        joined = alice.wait(lambda: any(m.cmd == "JOIN" and m.src == NICK for m in alice.lines), 15)
        if not check("services: the bot joins " + CHAN, joined, [m.raw for m in alice.lines[-5:]]):
            return
        time.sleep(0.5)   # its WHO reply
        n = len(alice.lines)
        alice.privmsg(CHAN, "!304")
        check("services: alice opens a table", from_bot(alice, n, lambda m: "table is open" in m.text)[0])

        mallory = irclib.Client(port, "mallory").connect()
        clients.append(mallory)
        mallory.join(CHAN)
        n = len(mallory.lines)
        mallory.privmsg(CHAN, "!stop")
        ok, got = from_bot(mallory, n, lambda m: NOT_SEATED in m.text)
        check("services: mallory, not logged in, cannot stop the table", ok, got)
        check("services: mallory logs in to Boss (a second client of the account)",
              nickserv(mallory, "IDENTIFY Boss %s" % pw, r"identified|logged in"))
        n = len(alice.lines)
        mallory.privmsg(CHAN, "!stop")
        ok, got = from_bot(alice, n, lambda m: STOPS in m.text)
        check("services: once logged in to Boss (account-notify, account tag), mallory stops it", ok, got)

        n = len(alice.lines)
        alice.privmsg(CHAN, "!304")
        from_bot(alice, n, lambda m: "table is open" in m.text)
        boss.rename("BossAway")
        n = len(alice.lines)
        boss.privmsg(CHAN, "!stop")
        ok, got = from_bot(alice, n, lambda m: STOPS in m.text)
        check("services: Boss, logged in before the bot came, stops the next table under a new nick",
              ok, got)
        text, _ = sanitizer_report(log)
        check("services: the server granted the account capabilities (the bot learned accounts)",
              "mallory is now account:Boss" in text, text[-1500:])
        check("services: the bot is still running", bot.poll() is None, bot.returncode)
    except Exception as e:   # a broken harness is a failure, never a pass
        import traceback
        traceback.print_exc()
        check("services: harness ran to the end", False, repr(e))
    finally:
        for cl in clients:
            cl.close()
        if bot is not None:
            rc = stop_bot(bot)
            check("services: the bot exits cleanly", rc == 0, rc)
            text, san = sanitizer_report(os.path.join(tmp, "cardbot.log"))
            check("services: no sanitizer report in the bot's log", not san, san[:3])
            if failed:
                print("--- bot log (services, last 30 lines) ---")
                print("\n".join(text.splitlines()[-30:]))
        for p in reversed(irc_sasl.procs):
            try:
                p.stop()
            except Exception:
                pass
        shutil.rmtree(tmp, ignore_errors=True)


def phase_scripted():
    tmp = tempfile.mkdtemp(prefix="cardbot-acct-")
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    port = srv.getsockname()[1]
    cfg, log = write_config(tmp, port, sasl_pw=SASL_PW)
    logf = open(log, "ab")
    bot = subprocess.Popen([CARDBOT, "run", "-c", cfg], stdout=logf, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, cwd=tmp)
    logf.close()
    irclib._PROCS.append(bot)
    BOT[0] = bot
    c = None
    try:
        c = handshake(srv, [":irc.test CAP * LS :multi-prefix account-notify extended-join away-notify"],
                      ["account-notify", "extended-join"],
                      "NETWORK=test CASEMAPPING=rfc1459 CHANTYPES=# PREFIX=(ov)@+ NICKLEN=30 CHANNELLEN=50 "
                      "TOPICLEN=300 AWAYLEN=200 KICKLEN=300 MODES=4 MAXLIST=b:100 WHOX",
                      [":irc.test 354 %s 304 %s alice AliceAcct" % (NICK, CHAN),
                       ":irc.test 354 %s 304 %s carol 0" % (NICK, CHAN)])
        if c:
            phase1(c)
            c.send("ERROR :Closing link (test)")
            c.close()
        c = handshake(srv, [":irc.test CAP * LS * :multi-prefix away-notify account-notify",
                            ":irc.test CAP * LS :extended-join account-tag server-time"],
                      ["account-notify", "extended-join", "account-tag"], "NETWORK=test", None)
        if c:
            check("without WHOX in ISUPPORT the bot sends no WHO",
                  not any(parse(l)[0] == "WHO" for l in c.lines), [l for l in c.lines if "WHO" in l])
            phase2(c)
            c.send("ERROR :Closing link (test)")
            c.close()
        c = handshake(srv, [":irc.test CAP * LS :account-notify extended-join account-tag sasl=PLAIN,EXTERNAL"],
                      ["account-notify", "extended-join", "account-tag"], "NETWORK=test WHOX", None,
                      sasl=True, nak=True)
        if c:
            phase3(c)
        check("the bot is still running", bot.poll() is None, bot.returncode)
    except Exception as e:
        import traceback
        traceback.print_exc()
        check("harness ran to the end", False, repr(e))
    finally:
        stop_bot(bot)
        if c:
            c.close()
        srv.close()
    check("the bot exits cleanly on SIGTERM", bot.returncode == 0, bot.returncode)
    text, san = sanitizer_report(log)
    check("no sanitizer report in the bot's log", not san, san[:3])
    check("the adapter hears 900 and logs the bot's own account",
          "the bot is logged in to the account CardBotAcct" in text, text[-800:])
    if failed:
        print("--- bot log (last 40 lines) ---")
        print("\n".join(text.splitlines()[-40:]))
    shutil.rmtree(tmp, ignore_errors=True)


def phase3(c):
    """The account capabilities refused: tags and extended JOINs the server
    sends anyway are not believed; WHOX still is."""
    m = say(c, "dave!d@dave.test", "!304")
    check("dave opens a table", c.said(m, WAIT, CHAN, "table is open") is not None, c.lines[m:])
    c.send(":boss!b@boss.test JOIN %s Boss :The boss" % CHAN)
    refused_stop(c, "boss!b@boss.test", "with the capabilities refused, an extended JOIN is not believed")
    refused_stop(c, "boss!b@boss.test", "nor an account tag", tag="account=Boss")
    c.send(":irc.test 354 %s 304 %s boss Boss" % (NICK, CHAN))
    c.send(":irc.test 315 %s %s :End of WHO" % (NICK, CHAN))
    m = say(c, "boss!b@boss.test", "!stop")
    check("but a WHOX reply is: boss stops the table", c.said(m, WAIT, CHAN, STOPS) is not None, c.lines[m:])


def main():
    t0 = time.time()
    phase_scripted()
    print("scripted server: %.1f s" % (time.time() - t0))
    t1 = time.time()
    phase_services()
    print("inspircd and atheme: %.1f s" % (time.time() - t1))
    print("irc_accounts: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
