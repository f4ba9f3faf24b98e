#!/usr/bin/env python3
"""matrix_basic.py: the Matrix adapter of the real cardbot against the test homeserver.

Scenarios (each with its own homeserver and bot process):
  1 login with a password (device id kept), the configured room joined, a
    command answered in the room as m.notice with an HTML formatted_body;
    history from before the first start is not answered;
  2 login with an access token from the environment; whoami check;
  3 a bad access token: a clear error naming the token, no sync attempted;
    a wrong password: a clear error too;
  4 invites: joined when allowed, declined from someone off invite_allow;
    kicked: the bot forgets the room; an encrypted room: said once, left;
  5 faults on /sync: garbage JSON, truncated JSON, a 500, a 429, a dropped
    connection, a huge reply, an event of an unknown type: the bot lives on
    and still answers;
  6 the since token is kept across a restart (when the host stores state):
    no command is answered twice, and one sent while the bot was down is
    answered once;
  7 an unreachable IRC network in the same process does not slow Matrix.
Every request the bot makes is checked against the spec (see matrixlib.py);
any violation fails the scenario. Prints "matrix_basic: N passed, M failed".
Environment: CARDBOT, MX_ONLY (comma list of scenario numbers), MX_VERBOSE=1.
"""
import os
import shutil
import socket
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrixlib  # noqa: E402
from matrixlib import Bot, Homeserver, Results  # noqa: E402

VERBOSE = os.environ.get("MX_VERBOSE") == "1"
ONLY = {int(x) for x in os.environ.get("MX_ONLY", "").split(",") if x.strip()}
R = Results("matrix_basic")


class Env:
    def __init__(self, secret="password", extra="", rooms=True, env=None, bot_rooms=None, allow=True, other="",
                 operators=""):
        self.tmp = matrixlib.tempdir()
        self.hs = Homeserver().start()
        hs = self.hs
        self.botid = hs.add_user("cardbot", password="botpw")
        self.ann = hs.add_user("ann", name="ann")
        self.bob = hs.add_user("bob", name="bob")
        self.room = hs.create_room(self.ann, alias="#304:test") if rooms else None
        if rooms:
            hs.join(self.bob, self.room)
            hs.say(self.ann, self.room, "!304")  # history: must not be answered
        if secret == "password":
            line = 'password = "botpw";'
        elif secret == "token":
            self.token = hs.token_for(self.botid, "TOKDEV")
            line = 'access_token_env = "MX_TEST_TOKEN";'
            env = dict(env or {}, MX_TEST_TOKEN=self.token)
        else:
            line = secret
        self.bot = Bot(self.tmp, hs.url, self.botid, line, rooms=bot_rooms if bot_rooms is not None else
                       (["#304:test"] if rooms else []), extra=extra, allow_invites=allow, other_networks=other,
                       operators=operators)
        self.bot.start(env)

    def in_room(self, room, timeout=10):
        return self.hs.wait(lambda: self.hs.membership(self.botid, room) == "join", timeout)

    def reply(self, start, pred, timeout=10, room=None):
        def look():
            for e in self.hs.bot_messages(self.botid, room, start):
                if pred(e):
                    return e
            return None
        return self.hs.wait(look, timeout)

    def close(self, name):
        alive = self.bot.alive()
        self.bot.stop()
        R.check(alive, "%s: the bot died: %s" % (name, self.bot.log_tail()))
        R.check(not self.hs.violations, "%s: spec violations: %s" % (name, self.hs.violations[:5]))
        R.check("AddressSanitizer" not in self.bot.log_text() and "runtime error" not in self.bot.log_text(),
                "%s: sanitizer report: %s" % (name, self.bot.log_tail()))
        if VERBOSE and (not alive or self.hs.violations):
            print(self.bot.log_tail(60))
        self.hs.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


def sc1():
    e = Env(operators='"@bob:test"')
    hs = e.hs
    R.check(e.in_room(e.room), "1: the bot did not join the configured room: %s" % e.bot.log_tail())
    logins = [r for r in hs.requests if r["path"].endswith("/login")]
    R.check(len(logins) == 1, "1: %d logins" % len(logins))
    time.sleep(1.0)
    R.check(not hs.bot_messages(e.botid), "1: the bot answered history from before it started: %r" %
            [m["content"].get("body") for m in hs.bot_messages(e.botid)])
    n0 = len(hs.events)
    t0 = time.time()
    hs.say(e.ann, e.room, "!304")
    m = e.reply(n0, lambda ev: "sits in seat 1" in ev["content"].get("body", ""), room=e.room)
    R.check(m is not None, "1: no answer to !304: %s" % e.bot.log_tail())
    if m:
        c = m["content"]
        R.check(c.get("msgtype") == "m.notice", "1: the table line is %s, not m.notice" % c.get("msgtype"))
        R.check(c.get("format") == "org.matrix.custom.html" and "formatted_body" in c,
                "1: no HTML formatted_body: %r" % c)
        R.check("ann sits in seat 1" in c["body"], "1: the display name is not shown: %r" % c["body"])
        print("  1: command to reply %.0f ms" % ((m["t"] - t0) * 1000))
    # An HTML-hostile display name is escaped.
    evil = hs.add_user("evil", name="<b>x</b>&amp;")
    hs.join(evil, e.room)
    n0 = len(hs.events)
    hs.say(evil, e.room, "!sit")
    m = e.reply(n0, lambda ev: "seat 2" in ev["content"].get("body", ""), room=e.room)
    R.check(m is not None, "1: no answer to !sit")
    if m:
        fb = m["content"].get("formatted_body", "")
        R.check("<b>x</b>" not in fb and "&lt;b&gt;x&lt;/b&gt;&amp;amp;" in fb,
                "1: a display name is not escaped in HTML: %r" % fb)
    # Operators are matched by user id: bob (configured) may stop a table he does not sit at.
    n0 = len(hs.events)
    hs.say(e.bob, e.room, "!stop")
    R.check(e.reply(n0, lambda ev: "bob stops the table" in ev["content"].get("body", ""), room=e.room) is not None,
            "1: an operator given by Matrix user id could not stop the table")
    # A notice is never answered.
    n0 = len(hs.events)
    hs.say(e.bob, e.room, "!help", msgtype="m.notice")
    time.sleep(1.0)
    R.check(not hs.bot_messages(e.botid, None, n0), "1: the bot answered a notice")
    # The device id from the first login is kept for the next (state, when the host has it).
    e.close("1")


def sc2():
    e = Env(secret="token")
    R.check(e.in_room(e.room), "2: the bot did not join with a token: %s" % e.bot.log_tail())
    R.check(not any(r["path"].endswith("/login") for r in e.hs.requests), "2: logged in despite a token")
    R.check(any(r["path"].endswith("/account/whoami") for r in e.hs.requests), "2: no whoami check")
    n0 = len(e.hs.events)
    e.hs.say(e.ann, e.room, "!304")
    R.check(e.reply(n0, lambda ev: "seat 1" in ev["content"].get("body", "")) is not None,
            "2: no answer with a token")
    e.close("2")


def sc3():
    e = Env(secret='access_token = "nonsense";')
    ok = e.hs.wait(lambda: "refused the access token" in e.bot.log_text(), 10)
    R.check(ok, "3: no clear error for a bad token: %s" % e.bot.log_tail())
    R.check("M_UNKNOWN_TOKEN" in e.bot.log_text(), "3: the error code is not named")
    R.check("nonsense" not in e.bot.log_text(), "3: the token appears in the log")
    time.sleep(0.5)
    R.check(not any("/sync" in r["path"] for r in e.hs.requests), "3: synced with a refused token")
    e.close("3")
    e = Env(secret='password = "wrong";')
    ok = e.hs.wait(lambda: "login as @cardbot:test refused" in e.bot.log_text(), 10)
    R.check(ok, "3: no clear error for a wrong password: %s" % e.bot.log_tail())
    R.check("wrong" not in e.bot.log_text().replace("wrong password", ""), "3: the password appears in the log")
    e.close("3b")


def sc4():
    e = Env(rooms=False, extra='invite_allow = ( "@ann:test", "friends.example" );')
    hs = e.hs
    R.check(hs.wait(lambda: any("/sync" in r["path"] for r in hs.requests), 10), "4: no sync")
    time.sleep(0.3)
    r1 = hs.create_room(e.ann, invite=[e.botid])
    R.check(e.in_room(r1), "4: an allowed invitation was not followed: %s" % e.bot.log_tail())
    r2 = hs.create_room(e.bob, invite=[e.botid])
    R.check(hs.wait(lambda: hs.membership(e.botid, r2) == "leave", 10),
            "4: an invitation from someone off the allowlist was not declined")
    R.check(hs.membership(e.botid, r2) != "join", "4: joined a room of someone off the allowlist")
    # Commands work in the invited room; then a kick.
    n0 = len(hs.events)
    hs.say(e.ann, r1, "!304")
    R.check(e.reply(n0, lambda ev: "seat 1" in ev["content"].get("body", ""), room=r1) is not None,
            "4: no answer in an invited room")
    hs.kick(e.ann, r1, e.botid, "go away")
    R.check(hs.wait(lambda: any(r.get("forgot") == r1 for r in hs.requests), 10),
            "4: the bot did not forget the room it was kicked from: %s" % e.bot.log_tail())
    R.check("kicked by @ann:test: go away" in e.bot.log_text(), "4: the kick is not logged with its reason")
    # An encrypted room: one plain message, then it leaves.
    r3 = hs.create_room(e.ann, invite=[e.botid], encrypted=True)
    R.check(hs.wait(lambda: hs.membership(e.botid, r3) == "leave", 10),
            "4: the bot stayed in an encrypted room: %s" % e.bot.log_tail())
    said = hs.bot_messages(e.botid, r3)
    R.check(len(said) == 1 and "encrypted" in said[0]["content"]["body"],
            "4: not exactly one explanation in the encrypted room: %r" % [m["content"] for m in said])
    e.close("4")


def sc5():
    e = Env()
    hs = e.hs
    R.check(e.in_room(e.room), "5: the bot did not join")
    time.sleep(0.5)
    is_sync = lambda r, b: "/sync" in r["path"]  # noqa: E731
    faults = [
        ("status", 500, {"errcode": "M_UNKNOWN", "error": "boom"}),
        ("raw", 200, b'{"next_batch": "s1", "rooms": {"join": {'),
        ("raw", 200, b"<html>502 bad gateway</html>"),
        ("raw", 200, b'{"next_batch": 5}'),
        ("raw", 200, b'[1,2,3]'),
        ("status", 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "slow", "retry_after_ms": 300}),
        ("drop",),
        ("hang", 6),  # past the bot's own timeout for a 2 s long poll (4 s)
        ("partial", 200, b'{"next_batch": "s99", "rooms": {"join": {"!x:test": {"timeline": {"events": ['),
    ]
    for f in faults:
        hs.fault(is_sync, f)
    n_before = len(hs.requests)
    R.check(hs.wait(lambda: all(x[2] == 0 for x in hs.faults), 40), "5: the bot stopped syncing after faults: %s"
            % e.bot.log_tail())
    R.check("does not parse" in e.bot.log_text(), "5: garbage JSON gets no clear log line")
    R.check(hs.wait(lambda: "Timeout was reached" in e.bot.log_text() or "timed out" in e.bot.log_text(), 10),
            "5: a hung sync was not given up: %s" % e.bot.log_tail())
    retry = [r for r in hs.requests[n_before:] if "/sync" in r["path"]]
    R.check(len(retry) >= len(faults), "5: fewer syncs than faults")
    # An unknown event type and an odd message in the stream, and a huge sync.
    hs.say(e.ann, e.room, "", etype="org.example.weird", content={"x": [1, 2, {"y": None}]})
    hs.say(e.ann, e.room, "", content={"msgtype": "m.text", "body": 42})
    hs.say(e.ann, e.room, "", content={"msgtype": "m.text", "body": "!" + "x" * 70000})
    for i in range(300):
        hs.say(e.bob, e.room, "chatter %d " % i + "y" * 3000)
    time.sleep(1.0)
    n0 = len(hs.events)
    hs.say(e.ann, e.room, "!304")
    R.check(e.reply(n0, lambda ev: "seat 1" in ev["content"].get("body", ""), timeout=20) is not None,
            "5: no answer after the faults: %s" % e.bot.log_tail())
    e.close("5")


def sc6():
    e = Env()
    hs = e.hs
    R.check(e.in_room(e.room), "6: the bot did not join")
    n0 = len(hs.events)
    hs.say(e.ann, e.room, "!304")
    R.check(e.reply(n0, lambda ev: "seat 1" in ev["content"].get("body", "")) is not None, "6: no answer")
    time.sleep(0.5)
    e.bot.stop()
    n1 = len(hs.events)
    hs.say(e.bob, e.room, "!sit")  # while the bot is away
    e.bot.start()
    got = e.reply(n1, lambda ev: "bob sits in seat 2" in ev["content"].get("body", ""), timeout=15)
    kept = "state" if got else "no state"
    time.sleep(1.5)
    seat1 = [m for m in hs.bot_messages(e.botid, e.room, n1) if "sits in seat 1" in m["content"]["body"]]
    R.check(not seat1, "6: a command from before the restart was answered again")
    if got:
        R.check(len([m for m in hs.bot_messages(e.botid, e.room, n1) if "bob sits" in m["content"]["body"]]) == 1,
                "6: the command sent while away was answered twice")
    print("  6: since token across a restart: %s" % ("kept (the command sent while away was answered once)"
                                                     if got else "not kept (the host stores no state yet)"))
    logins = [r for r in hs.requests if r["path"].endswith("/login")]
    devs = {r.get("device") for r in logins}
    print("  6: %d logins, devices %s" % (len(logins), sorted(d for d in devs if d)))
    del kept
    e.close("6")


def sc7():
    # An IRC network that cannot be reached, in the same process: Matrix works on.
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    other = ('{ name = "irc"; type = "irc"; server = "127.0.0.1"; port = %d; nick = "cb"; channels = ( "#304" ); '
             'reconnect_min_seconds = 1; reconnect_max_seconds = 2; },' % port)
    e = Env(other=other)
    R.check(e.in_room(e.room), "7: the bot did not join beside a dead IRC network: %s" % e.bot.log_tail())
    time.sleep(2.5)  # a few IRC reconnect attempts
    n0 = len(e.hs.events)
    t0 = time.time()
    e.hs.say(e.ann, e.room, "!304")
    m = e.reply(n0, lambda ev: "seat 1" in ev["content"].get("body", ""))
    R.check(m is not None, "7: no answer on Matrix while IRC is down: %s" % e.bot.log_tail())
    if m:
        R.check(m["t"] - t0 < 2.0, "7: the answer took %.1f s" % (m["t"] - t0))
    e.close("7")


def main():
    if not os.path.exists(matrixlib.CARDBOT):
        print("matrix_basic: no cardbot binary at %s" % matrixlib.CARDBOT)
        print("matrix_basic: 0 passed, 1 failed")
        return 1
    t0 = time.time()
    for i, f in enumerate((sc1, sc2, sc3, sc4, sc5, sc6, sc7), start=1):
        if ONLY and i not in ONLY:
            continue
        t = time.time()
        try:
            f()
        except Exception as ex:  # a test bug must not hide the summary
            import traceback
            traceback.print_exc()
            R.check(False, "scenario %d raised %r" % (i, ex))
        print("  scenario %d: %.1f s" % (i, time.time() - t))
    print("  total %.1f s" % (time.time() - t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
