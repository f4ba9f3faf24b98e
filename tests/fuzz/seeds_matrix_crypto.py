#!/usr/bin/python3
"""seeds_matrix_crypto.py: writes the seed corpus of fuzz_matrix_crypto.c (tests/fuzz/corpus/matrix_crypto/)
and the encrypted-room seeds of fuzz_matrix_sync.c (tests/fuzz/corpus/matrix_sync/e2ee_*).

Real devices made with python3-olm (Debian's libolm binding, an
implementation independent of the bot's C code) for @ann and @bob: /keys/query
and /keys/claim replies with valid signatures, so the fuzzer starts from
inputs that reach session making and key sharing; a to-device event and a
room event shaped as the spec says (they cannot be for the bot's device,
which each input makes anew, so they reach the decryption's refusals). Run
with the system Python: /usr/bin/python3 tests/fuzz/seeds_matrix_crypto.py
"""
import json
import os

import olm

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "matrix_crypto")
OUT_SYNC = os.path.join(HERE, "corpus", "matrix_sync")
ROOM = "!room:example.org"


def canonical(o):
    return json.dumps(o, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def device(user, dev):
    acc = olm.Account()
    idk = acc.identity_keys
    keys = {
        "user_id": user, "device_id": dev,
        "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
        "keys": {"curve25519:" + dev: idk["curve25519"], "ed25519:" + dev: idk["ed25519"]},
    }
    keys["signatures"] = {user: {"ed25519:" + dev: acc.sign(canonical(keys))}}
    acc.generate_one_time_keys(2)
    otks = {}
    for kid, k in acc.one_time_keys["curve25519"].items():
        body = {"key": k}
        body["signatures"] = {user: {"ed25519:" + dev: acc.sign(canonical(body))}}
        otks["signed_curve25519:" + kid] = body
    return acc, keys, otks


def line(kind, obj):
    return kind + (json.dumps(obj, separators=(",", ":")) if not isinstance(obj, str) else obj)


def write(name, lines, where=OUT):
    with open(os.path.join(where, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    ann, ann_keys, ann_otks = device("@ann:example.org", "ANNDEV")
    bob, bob_keys, bob_otks = device("@bob:example.org", "BOBDEV")
    query = {"device_keys": {"@ann:example.org": {"ANNDEV": ann_keys}, "@bob:example.org": {"BOBDEV": bob_keys}},
             "failures": {}}
    first = sorted(ann_otks)[0]
    claim = {"one_time_keys": {"@ann:example.org": {"ANNDEV": {first: ann_otks[first]}},
                               "@bob:example.org": {"BOBDEV": dict([sorted(bob_otks.items())[0]])}},
             "failures": {}}
    # ann's own Megolm session, shared with nobody the bot knows.
    out = olm.OutboundGroupSession()
    ct = out.encrypt(canonical({"type": "m.room.message", "room_id": ROOM,
                                "content": {"msgtype": "m.text", "body": "!sit"}}))
    room_event = {"type": "m.room.encrypted", "sender": "@ann:example.org", "event_id": "$e1",
                  "origin_server_ts": 1, "room_id": ROOM,
                  "content": {"algorithm": "m.megolm.v1.aes-sha2", "sender_key": ann.identity_keys["curve25519"],
                              "ciphertext": ct, "session_id": out.id, "device_id": "ANNDEV"}}
    # An Olm pre-key message from ann to bob (not the bot): the shape of a room key's delivery.
    sess = olm.OutboundSession(ann, bob.identity_keys["curve25519"], list(bob.one_time_keys["curve25519"].values())[0])
    msg = sess.encrypt(canonical({"type": "m.room_key", "sender": "@ann:example.org", "sender_device": "ANNDEV",
                                  "keys": {"ed25519": ann.identity_keys["ed25519"]}, "recipient": "@bob:example.org",
                                  "recipient_keys": {"ed25519": bob.identity_keys["ed25519"]},
                                  "content": {"algorithm": "m.megolm.v1.aes-sha2", "room_id": ROOM,
                                              "session_id": out.id, "session_key": out.session_key}}))
    to_device = {"type": "m.room.encrypted", "sender": "@ann:example.org",
                 "content": {"algorithm": "m.olm.v1.curve25519-aes-sha2",
                             "sender_key": ann.identity_keys["curve25519"],
                             "ciphertext": {bob.identity_keys["curve25519"]: {"type": msg.message_type,
                                                                              "body": msg.ciphertext}}}}
    upload = {"one_time_key_counts": {"signed_curve25519": 50}}
    write("share", [line("U", upload), line("Q", query), line("C", claim), "S", "R", "S", "r", "S"])
    write("query_then_changed", [line("Q", query), "S",
                                 line("Q", {"device_keys": {"@ann:example.org": {"ANNDEV": bob_keys}}}), "S"])
    write("room_event", [line("Q", query), line("E", room_event), line("E", room_event), "r", line("E", room_event)])
    write("to_device", [line("Q", query), line("D", to_device), line("D", {"type": "m.dummy", "content": {}}),
                        line("E", room_event)])
    write("store_refuses", [line("Q", query), line("C", claim), "K", "S", "r", "S"])
    write("odd_replies", [line("U", {"one_time_key_counts": {"signed_curve25519": "x"}}), line("Q", []),
                          line("Q", {"device_keys": {"@ann:example.org": {"ANNDEV": {"keys": 7}}}}),
                          line("C", {"one_time_keys": {"@ann:example.org": {"ANNDEV": {"x": {"key": 1}}}}}),
                          line("E", {"content": {"algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AAAA"}}),
                          line("D", {"content": {"ciphertext": {"x": {"type": 9, "body": ""}}}}), "Snot json"])
    def ask(user, dev, sid="*", action="request", sender_key=None):
        body = {"algorithm": "m.megolm.v1.aes-sha2", "room_id": ROOM, "session_id": sid}
        if sender_key:
            body["sender_key"] = sender_key
        content = {"action": action, "requesting_device_id": dev, "request_id": "r1"}
        if action == "request":
            content["body"] = body
        return line("F", {"type": "m.room_key_request", "sender": user, "content": content})
    write("key_request", ["# a member's device gets the room's last session (\"*\"); others are refused",
                          line("U", upload), line("Q", query), line("C", claim), "S",
                          ask("@ann:example.org", "ANNDEV"), ask("@eve:example.org", "EVEDEV"),
                          ask("@ann:example.org", "NODEV"), ask("@bob:example.org", "ANNDEV"),
                          ask("@ann:example.org", "ANNDEV", action="request_cancellation"),
                          ask("@ann:example.org", "ANNDEV", sid="AAAA"), "R", "S", ask("@bob:example.org", "BOBDEV"),
                          "r", ask("@bob:example.org", "BOBDEV"),
                          ask("@ann:example.org", "ANNDEV", sender_key=ann.identity_keys["curve25519"])])
    sync_seeds(ann_keys, claim, room_event, to_device)


def sync_seeds(ann_keys, claim, room_event, to_device):
    """The adapter with encryption on (option e): an encrypted room where ann
    speaks in plain text (answered: the answer needs the room's key shared
    first: query, claim, to-device, then the encrypted send) and in an
    encrypted message whose key never comes (she is told after a while)."""
    enc = "!enc:example.org"
    member = {"type": "m.room.member", "state_key": "@ann:example.org", "sender": "@ann:example.org",
              "content": {"membership": "join", "displayname": "Ann"}}
    encryption = {"type": "m.room.encryption", "state_key": "", "sender": "@ann:example.org",
                  "content": {"algorithm": "m.megolm.v1.aes-sha2", "rotation_period_msgs": 2}}
    said = {"type": "m.room.message", "sender": "@ann:example.org", "event_id": "$1",
            "content": {"msgtype": "m.text", "body": "hello dm"}}
    ev = dict(room_event)
    ev.pop("room_id")
    sync = {"next_batch": "s1",
            "rooms": {"join": {enc: {"state": {"events": [encryption, member]},
                                     "timeline": {"events": [said, ev]}}}},
            "to_device": {"events": [to_device, {"type": "m.dummy", "sender": "@ann:example.org", "content": {}}]},
            "device_lists": {"changed": ["@ann:example.org"], "left": []},
            "device_one_time_keys_count": {"signed_curve25519": 3}}
    query = {"device_keys": {"@ann:example.org": {"ANNDEV": ann_keys}}, "failures": {}}
    ann_claim = {"one_time_keys": {"@ann:example.org": claim["one_time_keys"]["@ann:example.org"]}, "failures": {}}
    leave = {"next_batch": "s2", "rooms": {"join": {enc: {"timeline": {"events": [
        {"type": "m.room.member", "state_key": "@ann:example.org", "sender": "@ann:example.org",
         "content": {"membership": "leave"}}, dict(said, event_id="$3", content={"msgtype": "m.text", "body": "x"})]}}}}}
    write("e2ee_room", ["!e", line("U200", {"one_time_key_counts": {"signed_curve25519": 50}}), line("s200", sync),
                        "t", line("Q200", query), "t", line("C200", ann_claim), "t", line("D200", {}), "t",
                        line("m200", {"event_id": "$s"}), "t", "t", "t", "t", "t", "t", line("s200", leave), "t",
                        line("m200", {"event_id": "$t"})], OUT_SYNC)
    write("e2ee_store_full", ["!e", line("U200", {"one_time_key_counts": {"signed_curve25519": 50}}),
                              line("s200", sync), "t", line("Q200", query), "t", line("C200", ann_claim), "k", "t",
                              line("D200", {}), "t", "t", line("m200", {"event_id": "$s"}), "t", "t"], OUT_SYNC)
    write("e2ee_failures", ["!e", line("U500", {"errcode": "M_UNKNOWN"}), line("s200", sync), "t",
                            line("Q200", {"failures": {}}), "t", line("Q000", ""), "t", line("Q200", query),
                            line("C429", {"errcode": "M_LIMIT_EXCEEDED"}), "t", line("C200", ann_claim), "t",
                            line("D400", {"errcode": "M_UNKNOWN"}), "t", line("D200", {}), "q"], OUT_SYNC)


if __name__ == "__main__":
    main()
