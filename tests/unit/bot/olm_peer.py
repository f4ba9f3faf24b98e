#!/usr/bin/python3
"""olm_peer.py: an independent Matrix device (python3-olm) that tests/unit/bot/bot_crypto.c talks to.

    olm_peer.py keys DIR USER DEVICE   makes an account (kept in DIR), prints its signed
                                       device keys and one signed one-time key as JSON
    olm_peer.py check DIR              reads DIR/in.json (what the C code made), checks it
                                       (signatures, the Olm message, the Megolm messages) and
                                       writes DIR/out.json (an Olm reply with its own room key
                                       and a Megolm message) for the C code to read

Prints one "PASS what" or "FAIL what" line per check. Needs Debian's python3-olm
(run by /usr/bin/python3, not a pyenv Python).
"""
import json
import os
import sys

import olm

PICKLE = "olm peer pickle key"


def canonical(o):
    return json.dumps(o, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def signed(acct, user, device, obj):
    body = {k: v for k, v in obj.items() if k not in ("signatures", "unsigned")}
    obj["signatures"] = {user: {"ed25519:" + device: acct.sign(canonical(body))}}
    return obj


def verify(obj, user, device, key):
    body = {k: v for k, v in obj.items() if k not in ("signatures", "unsigned")}
    try:
        olm.ed25519_verify(key, canonical(body), obj["signatures"][user]["ed25519:" + device])
        return True
    except (olm.utility.OlmVerifyError, KeyError):
        return False


def report(ok, what):
    print(("PASS " if ok else "FAIL ") + what, flush=True)


def keys(d, user, device):
    acct = olm.Account()
    acct.generate_one_time_keys(1)
    idk = acct.identity_keys
    dk = signed(acct, user, device, {
        "user_id": user, "device_id": device,
        "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
        "keys": {"curve25519:" + device: idk["curve25519"], "ed25519:" + device: idk["ed25519"]},
    })
    otks = {}
    for kid, k in acct.one_time_keys["curve25519"].items():
        otks["signed_curve25519:" + kid] = signed(acct, user, device, {"key": k})
    acct.mark_keys_as_published()
    with open(os.path.join(d, "account"), "w") as f:
        json.dump({"pickle": acct.pickle(PICKLE).decode(), "user": user, "device": device}, f)
    print(json.dumps({"device_keys": dk, "one_time_keys": otks}))


def check(d):
    with open(os.path.join(d, "account")) as f:
        me = json.load(f)
    acct = olm.Account.from_pickle(me["pickle"].encode(), PICKLE)
    idk = acct.identity_keys
    with open(os.path.join(d, "in.json")) as f:
        inp = json.load(f)
    dk = inp["device_keys"]
    user, device = dk["user_id"], dk["device_id"]
    ced, ccurve = dk["keys"]["ed25519:" + device], dk["keys"]["curve25519:" + device]
    report(verify(dk, user, device, ced), "the C device keys' signature verifies")
    tampered = dict(dk, device_id=device + "X")
    report(not verify(tampered, user, device, ced), "a tampered copy does not")
    otk_ok = all(verify(v, user, device, ced) for v in inp["one_time_keys"].values())
    report(otk_ok and len(inp["one_time_keys"]) > 0, "the C one-time keys' signatures verify")

    content = inp["to_device"]
    report(content.get("sender_key") == ccurve, "the to-device message names the C curve key")
    ct = content["ciphertext"][idk["curve25519"]]
    report(ct["type"] == 0, "the first Olm message is a pre-key message")
    msg = olm.OlmPreKeyMessage(ct["body"])
    sess = olm.InboundSession(acct, msg, ccurve)
    acct.remove_one_time_keys(sess)
    payload = json.loads(sess.decrypt(msg))
    report(payload.get("type") == "m.room_key" and payload.get("sender") == user
           and payload.get("recipient") == me["user"]
           and payload.get("recipient_keys", {}).get("ed25519") == idk["ed25519"]
           and payload.get("keys", {}).get("ed25519") == ced, "the Olm payload is a room key for us from the C device")
    rk = payload["content"]
    gs = olm.InboundGroupSession(rk["session_key"])
    report(gs.id == rk["session_id"], "the Megolm session id matches the key")
    good = 0
    for i, (ev, want) in enumerate(zip(inp["events"], inp["expect"])):
        plain, index = gs.decrypt(ev["ciphertext"])
        got = json.loads(plain)
        good += (got == want and index == i and ev["session_id"] == gs.id
                 and ev["sender_key"] == ccurve and ev["device_id"] == device)
    report(good == len(inp["events"]) and good > 0, "the C Megolm messages decrypt (%d)" % good)

    # The other way: our own room key over the same Olm session (a normal
    # message now), and a Megolm message.
    og = olm.OutboundGroupSession()
    room = inp["room"]
    reply = {"type": "m.room_key", "content": {"algorithm": "m.megolm.v1.aes-sha2", "room_id": room,
                                              "session_id": og.id, "session_key": og.session_key},
             "sender": me["user"], "sender_device": me["device"], "keys": {"ed25519": idk["ed25519"]},
             "recipient": user, "recipient_keys": {"ed25519": ced}}
    enc = sess.encrypt(canonical(reply))
    to_dev = {"algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": idk["curve25519"],
              "ciphertext": {ccurve: {"type": enc.message_type, "body": enc.ciphertext}}}
    text = {"type": "m.room.message", "content": {"msgtype": "m.text", "body": "from python \u00e9"}, "room_id": room}
    event = {"algorithm": "m.megolm.v1.aes-sha2", "sender_key": idk["curve25519"], "ciphertext": og.encrypt(canonical(text)),
             "session_id": og.id, "device_id": me["device"]}
    with open(os.path.join(d, "out.json"), "w") as f:
        json.dump({"to_device": to_dev, "event": event, "message_type": enc.message_type}, f)


def main():
    if len(sys.argv) not in (3, 5) or sys.argv[1] not in ("keys", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "keys":
        keys(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        check(sys.argv[2])


if __name__ == "__main__":
    main()
