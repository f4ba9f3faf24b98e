#!/usr/bin/env python3
"""matrix_xsign.py: the bot's cross-signing identity and SAS verification, with Element's stack on a real Synapse.

Issue 28 part 2: Element put a red shield ("Encrypted by a device not
verified by its owner", UNSIGNED_DEVICE) on every message of the bot. Here
a player on matrix-js-sdk 43 with its Rust crypto (tests/lib/element/
verifier.mjs, the stack Element Web runs), with a cross-signing identity of
its own as Element makes at first login, shares an encrypted room with the
bot (encryption = true, logging in with its password) on Synapse 1.67:

  1. the bot publishes master, self-signing and user-signing keys (through
     Synapse's interactive auth, password flow) and signs its device:
     /keys/query shows them and the self-signing signature on the device;
  2. before verifying, the player sees the bot's message with no shield
     (what Element shows for any unverified user), not UNSIGNED_DEVICE;
  3. the player verifies the bot's device by SAS (requestDeviceVerification,
     m.sas.v1): `cardbot device DATABASE` lists the same emoji and numbers
     as the player's client shows, the operator confirms with `cardbot
     device DATABASE confirm TXN`, both sides finish, and the player's
     crypto counts the bot's device and its cross-signing identity as
     verified; the bot's next message shows no shield;
  4. SIGTERM, then kill -9: the bot comes back as the same device with the
     same master key, asks the homeserver nothing about cross-signing again,
     and the player still sees its new messages as verified.
  5. a denied verification (`deny TXN`) ends cancelled on both sides;
  6. another player verifies the bot in a room they share with it
     (requestVerificationDM: Element's "Verify" on a user), with the same
     outcome as by to-device.

Needs ../shared/synapse and Element's stack in build/element (make
element-deps). Environment: CARDBOT. Prints "matrix_xsign: N passed, M failed".
"""
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import elementlib  # noqa: E402
import matrixlib  # noqa: E402
import synapselib  # noqa: E402
from matrixlib import Bot, Results  # noqa: E402

NAME = "matrix_xsign"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
MODULES, NODE = elementlib.MODULES, elementlib.NODE
CARDBOT = os.environ.get("CARDBOT", os.path.join(REPO, "bin", "cardbot"))
R = Results(NAME)


class Verifier:
    """tests/lib/element/verifier.mjs, one player (its head says the protocol)."""

    def __init__(self, log_path):
        self.log = open(log_path, "ab")
        env = dict(os.environ, ELEMENT_MODULES=MODULES)
        self.proc = subprocess.Popen([NODE, os.path.join(REPO, "tests", "lib", "element", "verifier.mjs")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, env=env, cwd=os.path.join(REPO, "tests", "lib"))
        self.tags = itertools.count(1)
        self.replies = {}
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            m = json.loads(raw)
            with self.cond:
                self.replies[m.get("re")] = m
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def send(self, op, **args):
        tag = next(self.tags)
        self.proc.stdin.write((json.dumps(dict(args, op=op, tag=tag)) + "\n").encode())
        self.proc.stdin.flush()
        return tag

    def reply(self, tag, timeout=180):
        end = time.time() + timeout
        with self.cond:
            while tag not in self.replies:
                if time.time() > end or self.proc.poll() is not None:
                    raise RuntimeError("verifier.mjs: no answer (tag %d)" % tag)
                self.cond.wait(0.5)
            r = self.replies.pop(tag)
        if not r.get("ok"):
            raise RuntimeError("verifier.mjs: %s" % r.get("error"))
        return r

    def call(self, op, timeout=180, **args):
        return self.reply(self.send(op, **args), timeout)

    def stop(self):
        try:
            self.proc.stdin.write(b'{"op": "quit"}\n')
            self.proc.stdin.flush()
            self.proc.wait(15)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
        self.log.close()


def wait_log(bot, text, start=0, timeout=120):
    """The bot's log from offset start once it holds text, else None."""
    end = time.time() + timeout
    while time.time() < end:
        with open(bot.log, encoding="utf-8", errors="replace") as f:
            f.seek(start)
            got = f.read()
        if text in got:
            return got
        if not bot.alive():
            return None
        time.sleep(0.2)
    return None


def log_size(bot):
    return os.path.getsize(bot.log) if os.path.exists(bot.log) else 0


def bot_keys(hs, botid, token):
    """What /keys/query says of the bot: (master key, self-signing key, devices {id: keys})."""
    out = hs.api_ok("POST", "/_matrix/client/v3/keys/query", {"device_keys": {botid: []}}, token)
    mk = out.get("master_keys", {}).get(botid, {}).get("keys", {})
    sk = out.get("self_signing_keys", {}).get(botid, {}).get("keys", {})
    return (list(mk.values()) or [None])[0], (list(sk.values()) or [None])[0], out.get("device_keys", {}).get(botid, {})


def device_cmd(tmp, *args):
    p = subprocess.run([CARDBOT, "device", os.path.join(tmp, "data", "cardbot.db"), *args], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def waiting_listed(tmp, txn):
    """`cardbot device DATABASE`'s output once it lists verification txn."""
    end = time.time() + 60
    while time.time() < end:
        rc, text = device_cmd(tmp)
        if txn in text:
            return text
        time.sleep(0.2)
    return text


def verify(R, v, tmp, botid, device, answer, room=None):
    """The player verifies the bot's device (in room, if given); the operator answers from the database.
    Returns the SAS reply."""
    sas = v.call("verify", user=botid, device=device, room=room)
    listed = waiting_listed(tmp, sas["txn"])
    R.check(sas["decimals"] and sas["decimals"] in listed,
            "the numbers the player sees (%s) are listed by cardbot device: %r" % (sas["decimals"], listed[-400:]))
    R.check(sas["emoji"] and sas["emoji"] in listed,
            "the emoji the player sees (%s) are listed by cardbot device: %r" % (sas["emoji"], listed[-400:]))
    rc, text = device_cmd(tmp, answer, sas["txn"])
    R.check(rc == 0, "cardbot device %s TXN: exit %d, %s" % (answer, rc, text))
    return sas


def main():
    why = synapselib.synapse_missing() or elementlib.element_missing()
    if why:
        print("SKIP: %s" % why)
        print("%s: 0 passed, 0 failed" % NAME)
        return 0
    tmp = matrixlib.tempdir()
    hs = synapselib.SynapseHomeserver(limits="off").start()
    bot = v = None
    try:
        botid = hs.add_user("cardbot", password="botpw")
        annid = hs.add_user("ann", "pw")
        bobid = hs.add_user("bob", "pw")
        bot_tok = hs.users[botid]["token"]
        key = os.path.join(tmp, "pickle.key")
        pickle = os.urandom(24).hex()
        with open(key, "w") as f:
            f.write(pickle + "\n")
        os.chmod(key, 0o600)
        bot = Bot(tmp, hs.url, botid, 'password = "botpw";',
                  extra='encryption = true;\n    pickle_key_file = "%s";' % key).start()

        # 1. the keys go up, through interactive auth, and sign the device.
        log = wait_log(bot, "the device is signed by the bot's self-signing key")
        R.check(log is not None, "1: the bot signs its device with its self-signing key (log: %s)"
                % (log or open(bot.log, errors="replace").read()[-1500:]))
        master, ssk, devices = bot_keys(hs, botid, bot_tok)
        R.check(master and ssk, "1: /keys/query lists the bot's master and self-signing keys")
        R.check(len(devices) == 1, "1: the bot has one device: %r" % list(devices))
        device = next(iter(devices), None)
        sigs = devices.get(device, {}).get("signatures", {}).get(botid, {}) if device else {}
        R.check(("ed25519:%s" % ssk) in sigs, "1: the device carries the self-signing key's signature: %r" % sigs)
        uia = [r for r in hs.requests if "device_signing/upload" in r.get("path", "")]
        R.check([r.get("status") for r in uia] == [401, 200],
                "1: the keys went up once, after one interactive-auth round: %r" % [r.get("status") for r in uia])

        # 2. an unverified player: no shield on the bot's messages.
        v = Verifier(os.path.join(tmp, "verifier.log"))
        v.call("login", base=hs.url, user=annid, password="pw", cross_signing=True)
        room = v.call("room", invite=[botid])["room_id"]
        v.call("say", room=room, body="!help")
        sh = v.call("shield", sender=botid)
        R.check(sh["shield"] == "NONE" and sh["reason"] != "UNSIGNED_DEVICE",
                "2: an unverified player sees the bot's message without a shield: %r" % sh)
        st = v.call("status", user=botid, device=device)
        R.check(st["device_signed_by_owner"] is True and not st["user_cross_signing_verified"],
                "2: the bot's device is signed by its owner, its identity not yet verified: %r" % st)

        # 5 (first, while the player is unverified): a denied verification ends cancelled.
        deny = v.send("verify", user=botid, device=device)
        sas = v.reply(deny)
        waiting_listed(tmp, sas["txn"])
        rc, text = device_cmd(tmp, "deny", sas["txn"])
        R.check(rc == 0, "5: cardbot device deny TXN: exit %d, %s" % (rc, text))
        R.check(wait_log(bot, "cancelled: the operator says the strings differ", 0) is not None,
                "5: the bot cancels a verification the operator denied")
        end = v.call("ended")
        R.check(end["phase"] == "Cancelled" and end["code"] == "m.mismatched_sas",
                "5: the player's client sees it cancelled as m.mismatched_sas: %r" % end)
        st = v.call("status", user=botid, device=device)
        R.check(not st["user_cross_signing_verified"] and not st["device_verified"],
                "5: a denied verification verifies nothing: %r" % st)

        # 3. the SAS verification, confirmed by the operator.
        sas = verify(R, v, tmp, botid, device, "confirm")
        v.call("confirm", timeout=120)
        R.check(wait_log(bot, "done; both sides verified", 0) is not None,
                "3: the bot logs the verification as done")
        st = v.call("status", user=botid, device=device, wait_verified=True)
        R.check(st["user_cross_signing_verified"] and st["device_verified"],
                "3: the player's crypto verified the bot's identity and device: %r" % st)
        t = time.time() * 1000
        v.call("say", room=room, body="!help")
        sh = v.call("shield", sender=botid, after=t)
        R.check(sh["shield"] == "NONE", "3: a player who verified the bot sees no shield: %r" % sh)
        rc, text = device_cmd(tmp)
        R.check(sas["txn"] not in text, "3: a finished verification is no longer listed as waiting")

        # 4. SIGTERM, then kill -9: the same device, the same master key, nothing asked again.
        for sig, what in ((signal.SIGTERM, "SIGTERM"), (signal.SIGKILL, "kill -9")):
            nreq = len(hs.requests)
            start = log_size(bot)
            bot.stop(sig)
            bot.proc.wait(30)
            bot.start()
            R.check(wait_log(bot, "end-to-end encryption on", start) is not None, "4 %s: the bot starts again" % what)
            t = time.time() * 1000
            v.call("say", room=room, body="!help")
            sh = v.call("shield", sender=botid, after=t)
            R.check(sh["shield"] == "NONE", "4 %s: its messages still show no shield: %r" % (what, sh))
            m2, s2, d2 = bot_keys(hs, botid, bot_tok)
            R.check(m2 == master and s2 == ssk, "4 %s: the same master and self-signing keys" % what)
            R.check(list(d2) == [device], "4 %s: the same single device: %r" % (what, list(d2)))
            again = [r for r in hs.requests[nreq:] if "device_signing" in r.get("path", "")
                     or "signatures/upload" in r.get("path", "")]
            R.check(not again, "4 %s: no cross-signing upload after the restart: %r" % (what, again))
            log = open(bot.log, errors="replace").read()[start:]
            R.check("new cross-signing keys" not in log, "4 %s: no new keys are made" % what)
            st = v.call("status", user=botid, device=device)
            R.check(st["user_cross_signing_verified"], "4 %s: the bot stays verified: %r" % (what, st))

        # 6. another player verifies the bot in a room (Element's "Verify" on a user).
        v.stop()
        v = Verifier(os.path.join(tmp, "verifier-bob.log"))
        v.call("login", base=hs.url, user=bobid, password="pw", cross_signing=True)
        room2 = v.call("room", invite=[botid])["room_id"]
        v.call("say", room=room2, body="!help")
        sh = v.call("shield", sender=botid)
        R.check(sh["shield"] == "NONE", "6: bob, unverified, sees no shield: %r" % sh)
        start = log_size(bot)
        sas = verify(R, v, tmp, botid, device, "confirm", room=room2)
        v.call("confirm", timeout=120)
        R.check(wait_log(bot, "done; both sides verified", start) is not None,
                "6: the in-room verification is done on the bot's side")
        R.check(("in " + room2) in open(bot.log, errors="replace").read()[start:],
                "6: the bot took it as a verification in the room")
        st = v.call("status", user=botid, device=device, wait_verified=True)
        R.check(st["user_cross_signing_verified"] and st["device_verified"],
                "6: bob's crypto verified the bot's identity and device: %r" % st)
        t = time.time() * 1000
        v.call("say", room=room2, body="!help")
        sh = v.call("shield", sender=botid, after=t)
        R.check(sh["shield"] == "NONE", "6: bob, having verified the bot, sees no shield: %r" % sh)

        log = open(bot.log, errors="replace").read()
        R.check(pickle not in log and "botpw" not in log, "the pickle key and the password never reach the log")
    except Exception as e:  # noqa: BLE001
        import traceback
        traceback.print_exc()
        R.check(False, "the scenario raised %s" % e)
        if v:
            try:
                print("  the player has of the bot: %r" % v.call("events", sender=botid, timeout=30)["events"][-5:])
            except Exception:  # noqa: BLE001
                pass
        print("  the bot's log: %s" % bot.log if bot else "")
    finally:
        if v:
            v.stop()
        if bot:
            bot.stop()
        hs.stop()
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
