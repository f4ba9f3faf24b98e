#!/usr/bin/env python3
"""matrix_record.py: `!record` on Matrix arrives as a file.

A human opens a table in a room of the test homeserver, gives all four seats
to computer players and starts; the match is played to its end (small
computer delays, easy computer players). Then the human asks `!record`:
the bot uploads the record to the content repository (POST
/_matrix/media/v3/upload, checked against the spec like every request) and
sends an m.file event into the human's direct room. Checks:

  - `!record 999` (no such match) is refused with a clear line, before the
    match (at the open table) and after it;
  - the upload carries the file name and Content-Type application/json; the
    first upload answered 500 and the next 429 are retried (the 429 after
    its retry_after_ms), and the m.file event whose first send is answered
    500 is posted once only (same transaction id);
  - the m.file event: body and filename match-N.json, url the mxc:// URI the
    upload returned, info.mimetype application/json, info.size the size;
    it comes before the bot's line about it in the same direct room;
  - the match page follows as a second m.file, match-N.html in text/html;
  - the uploaded bytes are JSON with "format": "cardbot-record/1", and
    `cardbot verify` accepts them written to a file (exit status 0);
  - an upload the homeserver refuses (413) is dropped with a warning that
    names the file, not its content; nothing is posted for it and later
    lines still arrive;
  - no spec violation, the bot alive, no sanitizer report.

Prints "matrix_record: N passed, M failed". Environment: CARDBOT,
MX_VERBOSE=1 (the bot's log tail on failure).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import matrixlib  # noqa: E402
from matrixlib import Bot, Homeserver, Results  # noqa: E402

VERBOSE = os.environ.get("MX_VERBOSE") == "1"
R = Results("matrix_record")
# A guard only: the match is waited for while events keep coming (45 s
# without one is a stall), since a busy machine stretches it.
MATCH_TIMEOUT = float(os.environ.get("MX_MATCH_TIMEOUT", "1800"))


def bodies(evs):
    out = []
    for e in evs:
        b = e["content"].get("body")
        if isinstance(b, str):
            out += b.split("\n")
    return out


def main():
    tmp = matrixlib.tempdir()
    hs = Homeserver().start()
    bot = None
    stop = threading.Event()
    try:
        botid = hs.add_user("cardbot", password="botpw")
        ann = hs.add_user("ann", name="ann")
        room = hs.create_room(ann, alias="#rec:test", invite=[botid])
        bot = Bot(tmp, hs.url, botid, 'password = "botpw";', tables='computer_level = "easy";')
        with open(bot.cfg) as f:
            cfg = f.read()
        cfg = cfg.replace("deal_pause_ms = 500;", "deal_pause_ms = 0;").replace("computer_delay_ms = 50;",
                                                                                "computer_delay_ms = 0;")
        with open(bot.cfg, "w") as f:
            f.write(cfg)
        bot.start()
        if not hs.wait(lambda: hs.membership(botid, room) == "join", 15):
            raise RuntimeError("the bot did not join: " + bot.log_tail())

        # ann accepts every invitation (her direct room) as a client would.
        def accept():
            while not stop.is_set():
                with hs.lock:
                    inv = [r.id for r in hs.rooms.values() if r.members.get(ann) == "invite"]
                for rid in inv:
                    hs.join(ann, rid)
                time.sleep(0.05)
        threading.Thread(target=accept, daemon=True).start()

        def said(pat, start, room_id=None):
            rx = re.compile(pat)
            return hs.wait(lambda: any(rx.search(x) for x in bodies(hs.bot_messages(botid, room_id, start))), 10)

        def refused(num, when):
            n0 = len(hs.events)
            hs.say(ann, room, "!record %d" % num)
            R.check(said(r"There is no finished match %d here\." % num, n0),
                    "%s: no refusal for !record %d: %s" % (when, num, bodies(hs.bot_messages(botid, None, n0))))


        # The table: four computer players, started by ann.
        n0 = len(hs.events)
        hs.say(ann, room, "!304")
        if not said(r"ann sits in seat 1", n0, room):
            raise RuntimeError("no table: " + bot.log_tail())
        hs.say(ann, room, "!leave")
        if not said(r"ann leaves the table", n0, room):
            raise RuntimeError("ann could not leave the seat: " + bot.log_tail())
        for k in range(1, 5):
            hs.say(ann, room, "!bot")
            if not said(r"\(a computer player\) sits in seat %d" % k, n0, room):
                raise RuntimeError("no computer player in seat %d: %s" % (k, bot.log_tail()))
        # (In a room without a table the bot answers no command but !304 and !help.)
        refused(999, "before any match")
        t0 = time.time()
        hs.say(ann, room, "!start")
        over = hs.wait_active(lambda: any("the match is over" in x for x in bodies(hs.bot_messages(botid, room, n0))),
                              guard=MATCH_TIMEOUT)
        R.check(over, "the match did not end (stalled 45 s, or past %.0f s): %s" % (MATCH_TIMEOUT, bot.log_tail()))
        if not over:
            return
        match_s = time.time() - t0
        deals = sum(1 for x in bodies(hs.bot_messages(botid, room, n0)) if "· tokens: " in x)

        # Faults on the way: the first upload gets a 500, the next a 429;
        # the first send of the m.file event gets a 500.
        def is_upload(rec, body):
            return rec["path"] == "/_matrix/media/v3/upload"

        def is_file_send(rec, body):
            return "/send/m.room.message/" in rec["path"] and isinstance(body, dict) and \
                body.get("msgtype") == "m.file"
        hs.fault(is_upload, ("status", 500, {"errcode": "M_UNKNOWN", "error": "try later"}), 1)
        hs.fault(is_upload, ("status", 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "slow down",
                                             "retry_after_ms": 300}), 1)
        hs.fault(is_file_send, ("after", ("drop",)), 1)

        n1 = len(hs.events)
        r1 = len(hs.requests)
        t1 = time.time()
        hs.say(ann, room, "!record")
        dm = hs.wait(lambda: hs.direct_rooms(botid).get(ann), 10)
        R.check(dm, "ann has no direct room")

        def files(ext=".json"):
            return [e for e in hs.bot_messages(botid, dm, n1) if e["content"].get("msgtype") == "m.file"
                    and e["content"].get("body", "").endswith(ext)]
        got = hs.wait(lambda: files(), 20)
        R.check(got, "no m.file arrived in ann's direct room: %s" % bot.log_tail())
        if not got:
            return
        file_s = time.time() - t1
        time.sleep(0.5)  # a double post would show now
        fl = files()
        R.check(len(fl) == 1, "the file was posted %d times" % len(fl))
        ev = fl[0]
        c = ev["content"]
        m = re.fullmatch(r"match-(\d+)\.json", c.get("body", ""))
        R.check(m, "the m.file body is not match-N.json: %r" % c.get("body"))
        R.check(c.get("filename", c.get("body")) == c.get("body"), "filename and body differ: %r" % c)
        info = c.get("info") or {}
        R.check(info.get("mimetype") == "application/json", "info.mimetype is %r" % info.get("mimetype"))
        media = hs.media.get(c.get("url"))
        R.check(media is not None, "the url %r is no upload of this server" % c.get("url"))
        if not media:
            return
        data = media["data"]
        R.check(info.get("size") == len(data), "info.size %r, uploaded %d bytes" % (info.get("size"), len(data)))
        R.check(media["content_type"] == "application/json", "upload Content-Type %r" % media["content_type"])
        R.check(media["filename"] == c.get("body"), "upload filename %r, event body %r" % (media["filename"],
                                                                                           c.get("body")))
        R.check(media["user"] == botid, "uploaded by %r" % media["user"])
        # The match page follows as a second file (text/html).
        pages = hs.wait(lambda: files(".html"), 20)
        R.check(pages and len(pages) == 1, "the page was posted %d times" % len(pages or []))
        if pages:
            pc = pages[0]["content"]
            R.check(pc.get("body") == "match-%s.html" % m.group(1) if m else False,
                    "the page's m.file body is %r" % pc.get("body"))
            R.check((pc.get("info") or {}).get("mimetype") == "text/html", "page info %r" % pc.get("info"))
            pm = hs.media.get(pc.get("url"))
            R.check(pm is not None and pm["content_type"] == "text/html" and pm["data"].startswith(b"<!DOCTYPE html>")
                    and b'<script type="application/json" id="story">' in pm["data"],
                    "the page upload is not the match page")
        reqs = hs.requests[r1:]
        ups = [q for q in reqs if q["path"] == "/_matrix/media/v3/upload"]
        R.check([q["status"] for q in ups] == [500, 429, 200, 200], "upload statuses %r" % [q["status"] for q in ups])
        if len(ups) >= 3:
            R.check(ups[2]["t"] - ups[1]["t"] >= 0.25, "the 429's retry_after_ms was not honoured (%.3f s)" %
                    (ups[2]["t"] - ups[1]["t"]))
        sends = [q for q in reqs if "/send/m.room.message/" in q["path"] and b'"m.file"' in q["raw"]
                 and b'.json"' in q["raw"]]
        R.check(len(sends) >= 2 and len({q["path"] for q in sends}) == 1,
                "the m.file send was not retried with the same transaction id: %r" % [q["path"] for q in sends])
        # The line about the file follows it in the same direct room.
        ok_line = hs.wait(lambda: any(re.search(r"The record of match \d+: match-\d+\.json", x)
                                      for x in bodies(hs.bot_messages(botid, None, n1))), 10)
        R.check(ok_line, "no line names the file: %s" % bodies(hs.bot_messages(botid, None, n1)))
        dm_evs = hs.bot_messages(botid, dm, n1)
        idx_file = [i for i, e in enumerate(dm_evs) if e is ev]
        idx_line = [i for i, e in enumerate(dm_evs)
                    if any("The record of match" in x for x in bodies([e]))]
        R.check(idx_line, "the line about the file is not in the direct room")
        if idx_line:
            R.check(idx_file and idx_file[0] < idx_line[0], "the line about the file came before the file")
        # The bytes: a cardbot-record/1 JSON that cardbot verify accepts.
        try:
            rec = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            rec = None
            R.check(False, "the uploaded record is not JSON: %s" % e)
        if rec is not None:
            R.check(rec.get("format") == "cardbot-record/1", "record format %r" % rec.get("format"))
            path = os.path.join(tmp, "record.json")
            with open(path, "wb") as f:
                f.write(data)
            vf = subprocess.run([matrixlib.CARDBOT, "verify", path], capture_output=True, text=True, timeout=30)
            R.check(vf.returncode == 0, "cardbot verify refused the record (%d): %s%s" % (
                vf.returncode, vf.stdout[-300:], vf.stderr[-300:]))
        # A homeserver that refuses the upload (413, too large): the file is
        # dropped with a warning naming it (not its content), nothing is
        # posted, and the direct room's queue goes on.
        hs.media_max = 100
        n2 = len(hs.events)
        r2 = len(hs.requests)
        hs.say(ann, room, "!record")
        R.check(hs.wait(lambda: any(q["path"] == "/_matrix/media/v3/upload" and q["status"] == 413
                                    for q in hs.requests[r2:]), 10), "no refused upload")
        refused(999, "after the match")
        R.check(not [e for e in hs.bot_messages(botid, dm, n2) if e["content"].get("msgtype") == "m.file"],
                "an m.file was posted for a refused upload")
        log = bot.log_text()
        R.check(re.search(r"warn: .*refused the upload of match-\d+\.json \(\d+ bytes; 413", log),
                "no warning about the refused upload: %s" % bot.log_tail(8))
        R.check('"cardbot-record/1"' not in log, "the record's content is in the log")
        print("  a match of %d deals in %.1f s; !record to the m.file in %.2f s (one 500 and one 429 on the "
              "upload, one dropped send); %d bytes" % (deals, match_s, file_s, len(data)))
    except Exception:
        traceback.print_exc()
        R.check(False, traceback.format_exc().strip().splitlines()[-1])
    finally:
        stop.set()
        if bot:
            alive = bot.alive()
            bot.stop()
            R.check(alive, "the bot died: %s" % bot.log_tail())
            log = bot.log_text()
            R.check("AddressSanitizer" not in log and "runtime error" not in log and "LeakSanitizer" not in log,
                    "sanitizer: %s" % bot.log_tail())
            if VERBOSE and R.failed:
                print(bot.log_tail(80))
        R.check(not hs.violations, "spec violations: %s" % hs.violations[:5])
        hs.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    t = time.time()
    main()
    print("  %.1f s" % (time.time() - t))
    sys.exit(R.finish())
