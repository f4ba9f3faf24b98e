#!/usr/bin/env python3
"""matrix_keyreq.py: the bot answers room key requests (issue 28) on a real Synapse, with nio players.

The bot (encryption = true) is in an encrypted room with ann; it says a
line (m1); cy joins and the bot says another (m2), over the same Megolm
session. Then the bot is restarted (SIGTERM: what the answers need is in
its store), and ann and cy each log in a second device, which sees m1 and
m2 but has no key for them. Each sends a real m.room_key_request (nio's
own, from the undecryptable event) to the bot's user:

  - ann's second device gets an m.forwarded_room_key from the bot, Olm-
    encrypted for it, and decrypts m1 and m2: the session from its first
    message, as ann was there from the start;
  - cy's second device decrypts m2 but not m1: the forwarded session starts
    at the index it had when cy first got it, never earlier;
  - eve, who is not in the room, asks for the same session (first, so the
    bot reads her request before the others): she gets nothing, and the
    bot's log says it refused (at debug); cy asking in the name of ann's
    second device is refused too;
  - a request ann sends while the bot is down, with its cancellation, is
    dropped when both come in the bot's first sync (the bot would have
    answered it first, requests going in order).

nio, like Element, takes forwarded keys only from its own user's devices;
the spec lets the session's creator answer too, so the second devices here
accept a forwarded key from the bot's device (verified, the session asked
for, the room as asked), which is what this checks the bot sends.

Needs ../shared/synapse and python3-matrix-nio with python3-olm (the
system Python: the script runs itself again under /usr/bin/python3).
Environment: CARDBOT. Prints "matrix_keyreq: N passed, M failed".
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import e2eelib  # noqa: E402

e2eelib.reexec()

import signal  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

import matrixlib  # noqa: E402
import synapselib  # noqa: E402
from matrixlib import Bot, Results  # noqa: E402

NAME = "matrix_keyreq"
R = Results(NAME)
MEGOLM = e2eelib.MEGOLM
BOT = {}  # "id": the bot's user id, once registered


def accept_from_bot():
    """nio's second devices take a forwarded key from the bot's device too
    (see the head): the same checks as nio's own, but the sender's user."""
    from nio.crypto.olm_machine import Olm

    def accept(self, sender, sender_key, event):
        req = self.outgoing_key_requests.get(event.session_id)
        dev = self.device_store.device_from_sender_key(event.sender, sender_key)
        return bool(req and event.algorithm == MEGOLM and event.room_id == req.room_id
                    and event.session_id == req.session_id and dev and dev.verified
                    and event.sender == BOT.get("id"))
    Olm._should_accept_forward = accept


def ask(p, ev, device_id=None):
    """p asks the bot's user for the key of ev (a MegolmEvent) by a real
    m.room_key_request, as nio makes it; device_id: another requesting device."""
    from nio.crypto.key_request import OutgoingKeyRequest
    msg = ev.as_key_request(BOT["id"], device_id or p.client.device_id)

    async def go():
        return await p.client.to_device(msg)
    r = e2eelib._run(go(), 30)
    if device_id is None:
        p.client.olm.outgoing_key_requests[ev.session_id] = OutgoingKeyRequest.from_message(msg)
    return r


def pending_of(p, event_id, timeout=30):
    """The MegolmEvent p could not decrypt, by its id (None when p has none)."""
    p.wait_for(lambda: event_id in p.pending, timeout)
    got = p.pending.get(event_id)
    return got[1] if got else None


def first_index(p, room, sender_key, session_id):
    """The first message index of p's inbound copy of the session, or None."""
    s = p.client.olm.inbound_group_store.get(room, sender_key, session_id) if p.client.olm else None
    return s.first_known_index if s is not None else None


def main():
    why = e2eelib.nio_missing() or synapselib.synapse_missing()
    if why or not os.path.exists(matrixlib.CARDBOT):
        print("SKIP: %s" % (why or "no cardbot binary at %s" % matrixlib.CARDBOT))
        print("%s: 0 passed, 0 failed" % NAME)
        return 0
    accept_from_bot()
    t0 = time.time()
    hs = synapselib.SynapseHomeserver(limits="off").start()
    tmp = matrixlib.tempdir()
    players, bot = [], None
    try:
        bot_id = BOT["id"] = hs.add_user("cardbot", password="botpw")
        ids = {n: hs.add_user(n, "pw", name=n) for n in ("ann", "cy", "eve")}

        def player(n, **kw):
            p = e2eelib.Player(hs.hs_url, ids[n], "pw", name=n, auto_join=False, **kw).start()
            players.append(p)
            return p
        ann, eve = player("ann"), player("eve")
        room = ann.create_room(invite=[bot_id], encrypted=True, alias="keys")
        key = os.path.join(tmp, "pickle.key")
        with open(key, "w") as f:
            f.write(os.urandom(24).hex() + "\n")
        os.chmod(key, 0o600)
        bot = Bot(tmp, hs.url, bot_id, 'password = "botpw";',
                  extra='encryption = true;\n    pickle_key_file = "%s";' % key).start()
        if not hs.wait(lambda: hs.membership(bot_id, room) == "join", 60):
            raise RuntimeError("the bot did not join: " + bot.log_tail())
        if not ann.wait_for(lambda: ann.trusts(bot_id), 60):
            raise RuntimeError("ann never learnt the bot's device: " + bot.log_tail())

        def bot_line(p, text, timeout=60):
            return p.wait_for(lambda: next(iter(p.find(room_id=room, sender=bot_id, contains=text)), None), timeout)
        ann.say(room, "!304")
        m1 = bot_line(ann, "ann sits in seat 1")
        if not m1:
            raise RuntimeError("the bot never answered !304: " + bot.log_tail())
        cy = player("cy")
        cy.join(room)
        if not cy.wait_for(lambda: cy.trusts(bot_id), 60):
            raise RuntimeError("cy never learnt the bot's device")
        cy.say(room, "!sit")
        m2 = bot_line(cy, "cy sits in seat 2")
        if not m2:
            raise RuntimeError("the bot never seated cy: " + bot.log_tail())
        def raw(e):
            st, out = ann.api("GET", "/_matrix/client/v3/rooms/%s/event/%s" % (room, e["event_id"]))
            return out if st == 200 else {"content": {}}
        m1_enc, m2_enc = raw(m1), raw(m2)
        s1, s2 = m1_enc["content"].get("session_id"), m2_enc["content"].get("session_id")
        skey = m1_enc["content"].get("sender_key")
        R.check(s1 and s2 and skey, "the bot's lines are Megolm events (%r)" % m1_enc)
        # Synapse names ann in device_lists.changed when cy joins, so the bot
        # renews the room's key then: m2 is under a session cy had from its
        # start, m1 under one cy never had. (Were they one session, cy's
        # copy would have to start after m1: checked below either way.)
        R.check(not cy.by_id.get(m1["event_id"]) or cy.by_id[m1["event_id"]]["undecryptable"],
                "cy, who came after it, could read m1 before any request")

        # A restart: the answers come from what the bot kept. While it is
        # down, ann asks in the name of a device "GHOST" and cancels: both
        # reach the bot in its first sync, and nothing is done for GHOST.
        bot.stop(signal.SIGTERM)
        ghost = {"action": "request", "requesting_device_id": "GHOST", "request_id": "ghost1",
                 "body": {"algorithm": MEGOLM, "room_id": room, "session_id": s1, "sender_key": skey}}
        for content in (ghost, {"action": "request_cancellation", "requesting_device_id": "GHOST",
                                "request_id": "ghost1"}):
            st, out = ann.api("PUT", "/_matrix/client/v3/sendToDevice/m.room_key_request/g%s" % os.urandom(6).hex(),
                              {"messages": {bot_id: {"*": content}}})
            R.check(st == 200, "ann's raw key request goes out (%d %r)" % (st, out))
        restart0 = os.path.getsize(bot.log)
        bot.start()

        ann2, cy2 = player("ann", device_id="ANN2"), player("cy", device_id="CY2")
        for p in (ann2, cy2):
            if not p.wait_for(lambda p=p: p.trusts(bot_id), 60):
                raise RuntimeError("%s's second device never learnt the bot's device" % p.name)
        ev_ann, ev_cy1, ev_cy2 = (pending_of(ann2, m1["event_id"]), pending_of(cy2, m1["event_id"]),
                                  pending_of(cy2, m2["event_id"]))
        if not ev_ann or not ev_cy2:
            raise RuntimeError("the second devices do not hold the bot's lines undecrypted (%r, %r)" % (
                ev_ann, ev_cy2))

        # eve (no member) first, then cy in the name of ann's device, then the real requests.
        log0 = os.path.getsize(bot.log)
        ask(eve, ev_ann)
        ask(cy, ev_ann, device_id="ANN2")
        ask(ann2, ev_ann)
        if ev_cy1 is not None and s1 != s2:
            ask(cy2, ev_cy1)
        ask(cy2, ev_cy2)
        got_ann = ann2.wait_for(lambda: first_index(ann2, room, skey, s1) is not None, 90)
        got_cy = cy2.wait_for(lambda: first_index(cy2, room, skey, s2) is not None, 90)
        R.check(got_ann and first_index(ann2, room, skey, s1) == 0,
                "ann's second device has m1's session from index 0 (got %r): %s" % (
                    first_index(ann2, room, skey, s1), bot.log_tail(8)))
        R.check(got_cy, "cy's second device has m2's session: %s" % bot.log_tail(8))
        R.check(ann2.wait_for(lambda: not ann2.by_id[m1["event_id"]]["undecryptable"], 30),
                "ann's second device decrypts m1")
        R.check(cy2.wait_for(lambda: not cy2.by_id[m2["event_id"]]["undecryptable"], 30),
                "cy's second device decrypts m2")
        if s1 == s2:
            R.check((first_index(cy2, room, skey, s2) or 0) > 0, "cy's copy starts after m1")
        else:
            R.check(first_index(cy2, room, skey, s1) is None, "cy's second device got no key of m1's session")
        r1 = cy2.by_id.get(m1["event_id"])
        R.check(not r1 or r1["undecryptable"], "cy's second device does not decrypt m1, said before cy came")
        R.check(first_index(eve, room, skey, s1) is None, "eve, no member, got no key")
        with open(bot.log, "rb") as f:
            f.seek(restart0)
            since_restart = f.read().decode("utf-8", "replace")
        R.check("device GHOST cancels its key request" in since_restart and "GHOST of" not in since_restart,
                "a request cancelled in the same sync is not answered nor refused: it is gone")
        with open(bot.log, "rb") as f:
            f.seek(log0)
            tail = f.read().decode("utf-8", "replace")
        R.check("key request of %s for %s is refused" % (ids["eve"], room) in tail,
                "the bot's log says eve's request was refused")
        R.check("from ANN2 of %s is refused (not a trusted device)" % ids["cy"] in tail,
                "the bot's log says cy's request for ann's device was refused")
        gone = [ln for ln in tail.splitlines() if "which asked for it" in ln]
        R.check(any("key %s goes to %s's device ANN2" % (s1, ids["ann"]) in ln for ln in gone)
                and any("goes to %s's device CY2" % ids["cy"] in ln for ln in gone)
                and not any(ids["eve"] in ln for ln in gone)
                and (s1 == s2 or not any("key %s goes to %s" % (s1, ids["cy"]) in ln for ln in gone)),
                "forwarded keys to ann's and cy's second devices, none of m1's session to cy, none to eve: %s"
                % gone)
        for p in players:
            R.check(not [e for e in p.errors if "Traceback" in e], "%s: player errors: %s" % (p.name, p.errors[:2]))
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        R.check(False, "%s (bot log: %s)" % (traceback.format_exc().strip().splitlines()[-1],
                                            bot.log_tail(12) if bot else ""))
    finally:
        for p in players:
            p.stop()
        if bot:
            bot.stop()
            if os.environ.get("KEYREQ_LOG"):
                import shutil
                shutil.copy(bot.log, os.environ["KEYREQ_LOG"])
        hs.stop()
    print("  %.1f s" % (time.time() - t0))
    return R.finish()


if __name__ == "__main__":
    sys.exit(main())
