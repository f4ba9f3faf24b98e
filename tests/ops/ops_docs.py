"""ops_docs.py: the man pages: clean under `man --warnings`, and complete.

- docs/cardbot.1 and docs/cardbot.cfg.5 render without a single warning;
- every key in bot/config/config.c's tables is documented in cardbot.cfg(5) as a
  bold term (and KEY_file, KEY_env for secrets), so adding a key without
  documenting it fails here;
- every command `cardbot help` lists, and every option each
  `cardbot COMMAND --help` shows, is in cardbot(1);
- cardbot(1)'s CHAT COMMANDS are the in-chat help, word for word: every
  command `!help` lists has an entry saying what `!help COMMAND` says
  (asked of the real binary, `cardbot play`), and no other;
- the checker itself is shown to catch a page with a key removed, and one
  whose chat commands lag behind the help;
- the README's Layout names every folder that holds a tracked file (below
  tests/'s data folders), and no folder that does not exist.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ops_lib import CARDBOT, ROOT, Checker, config_keys, have, run  # noqa: E402

T = Checker("ops_docs")
PAGES = [os.path.join(ROOT, "docs", "cardbot.1"), os.path.join(ROOT, "docs", "cardbot.cfg.5")]


def man_warnings():
    if not T.check(have("man"), "man is installed (make deps installs man-db)"):
        return
    for page in PAGES:
        rc, out, err = run(["man", "--warnings", "-E", "UTF-8", "-l", page],
                           env_extra={"MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0", "MANPAGER": "cat",
                                      "PAGER": "cat"})
        name = os.path.basename(page)
        T.check(rc == 0, "%s renders" % name, err)
        T.check(err.strip() == "", "%s: man --warnings says nothing" % name, err)
        T.check(len(out.splitlines()) > 40, "%s has content" % name, out[:200])


def bold_terms(page_text):
    """Words set in bold: arguments of .B/.BR/.RB/.BI/.IB lines and \\fB...\\fP."""
    terms = set()

    def add(text):
        text = re.sub(r'\\f[BIRP]', ' ', text).replace("\\-", "-").replace('\\(dq', '"')
        for w in re.split(r'[\s,"/;{}()\[\]|]+', text):
            if w:
                terms.add(w)

    for line in page_text.splitlines():
        for b in re.findall(r'\\fB(.*?)\\f[PRI]', line):
            add(b)
        m = re.match(r'^\.(B|BR|RB|BI|IB)\s+(.*)$', line)
        if m:
            add(m.group(2))
    return terms


def missing_keys(page_text, keys, secrets):
    terms = bold_terms(page_text)
    want = set(keys)
    for s in secrets:
        want.add(s + "_file")
        want.add(s + "_env")
    return sorted(k for k in want if k not in terms)


def config_page():
    keys, secrets = config_keys()
    T.check(len(keys) >= 40 and "sasl_password" in secrets, "keys found in config.c (%d)" % len(keys),
            sorted(keys))
    text = open(PAGES[1], encoding="utf-8").read()
    missing = missing_keys(text, keys, secrets)
    T.check(not missing, "every config.c key is documented in cardbot.cfg.5", "missing: %s" % missing)
    # The checker can fail: drop the lines that document one key.
    key = "commands_per_minute"
    cut = "\n".join(l for l in text.splitlines() if key not in l)
    T.check(key in missing_keys(cut, keys, secrets), "a page without %s is caught" % key)


def command_page():
    text = open(PAGES[0], encoding="utf-8").read()
    terms = bold_terms(text)
    rc, out, err = run([CARDBOT, "help"])
    T.check(rc == 0, "cardbot help runs", err)
    commands = re.findall(r'^  ([a-z][a-z-]*)\s', out, re.M)
    T.check(len(commands) >= 5, "cardbot help lists commands", out)
    for c in commands:
        T.check(c in terms, "cardbot(1) documents the command %s" % c)
        rc, hout, herr = run([CARDBOT, c, "--help"])
        opts = set(re.findall(r'(?<![\w-])(--?[A-Za-z][A-Za-z-]*)', hout + herr))
        for o in sorted(opts):
            T.check(o in terms, "cardbot(1) documents %s %s" % (c, o))
    for o in ("-h", "--help", "-V", "--version"):
        T.check(o in terms, "cardbot(1) documents the global option %s" % o)


# Folders whose own subfolders are data, not parts of the tree to map.
DATA_DIRS = ("tests/records/", "tests/fuzz/corpus/", "tests/store/releases/", "tests/net/matrix/spec/")


def layout_dirs(readme):
    """The folders README.md's Layout names: its indented map, where a
    deeper indent is a folder of the one above it."""
    sec = readme.split("## Layout\n", 1)[1].split("\n## ", 1)[0]
    stack, dirs = [], set()
    for line in sec.splitlines():
        m = re.match(r"^( {4,})(\S+)/(?:\s|$)", line)
        if not m:
            continue
        depth = (len(m.group(1)) - 4) // 2
        stack = stack[:depth] + [m.group(2)]
        dirs.add("/".join(stack))
    return dirs


def tracked_dirs():
    out = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    dirs = set()
    for f in out.stdout.split():
        d = os.path.dirname(f)
        while d and any((d + "/").startswith(x) and d + "/" != x for x in DATA_DIRS):
            d = os.path.dirname(d)
        while d:  # a folder and the folders it is in
            dirs.add(d)
            d = os.path.dirname(d)
    return dirs


def layout_page():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        named = layout_dirs(f.read())
    T.check(len(named) >= 10, "README.md's Layout is a map of folders", sorted(named))
    have_dirs = tracked_dirs()
    if have_dirs is None:  # not a git checkout (a copy of the tree): the named folders exist
        have_dirs = {d for d in named if os.path.isdir(os.path.join(ROOT, d))}
        named = named | have_dirs
    missing = sorted(have_dirs - named)
    extra = sorted(named - have_dirs)
    T.check(not missing, "README.md's Layout names every folder with files", missing)
    T.check(not extra, "README.md's Layout names no folder that has none", extra)
    # The checker catches a map with a folder left out.
    T.check("engine/core" in named and "engine/core" not in layout_dirs(
        "## Layout\n    engine/\n      g304/\n"), "the Layout check catches a folder left out")


def chat_help():
    """What the bot says to `help` and to `help COMMAND`, for each command:
    {"!bot": "!bot [SEAT|all]: seat a computer player ..."}."""
    first = subprocess.run([CARDBOT, "play", "--delay", "60000", "--name", "ann"], input="help\n", capture_output=True,
                           text=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    m = re.search(r"^\(private\) The commands of every game .*?: (.*)$", first.stdout, re.M)
    cmds = m.group(1).split() if m else []
    asked = "".join("help %s\n" % c.lstrip("!") for c in cmds)
    r = subprocess.run([CARDBOT, "play", "--delay", "60000", "--name", "ann"], input=asked, capture_output=True,
                       text=True, timeout=60, env=dict(os.environ, NO_COLOR="1"))
    helps = {}
    for line in r.stdout.splitlines():
        h = re.match(r"^\(private\) (!\w+)\b(.*)$", line)
        if h and h.group(1) in cmds and h.group(1) not in helps and ":" in h.group(2):
            helps[h.group(1)] = h.group(1) + h.group(2)
    return cmds, helps


def chat_entries(page_text):
    """The CHAT COMMANDS section's entries as one line each, "usage: text",
    with the roff taken out; a private command written for IRC ("/msg
    cardbot play CARD") as the terminal writes it ("play CARD")."""
    sec = page_text.split(".SH CHAT COMMANDS", 1)[-1].split("\n.SH ", 1)[0]
    entries = {}
    for part in sec.split("\n.TP\n")[1:]:
        lines = part.strip().splitlines()
        m = re.match(r'^\.B "(.*)"$', lines[0])
        if not m:
            continue
        text = " ".join(lines[1:]).replace("\\-", "-").replace("\\&", "").replace("/msg cardbot ", "")
        entries[re.match(r"!\w+", m.group(1)).group(0)] = "%s: %s" % (m.group(1), re.sub(r"\s+", " ", text).strip())
    return entries


def chat_mismatches(page_text, cmds, helps):
    entries = chat_entries(page_text)
    bad = [c for c in cmds if entries.get(c) != helps.get(c)]
    return bad + sorted(c for c in entries if c not in cmds)


def chat_page():
    text = open(PAGES[0], encoding="utf-8").read()
    cmds, helps = chat_help()
    T.check(len(cmds) >= 30 and len(helps) == len(cmds) and "!rules" in helps and "!bot" in helps,
            "the bot's help lists its commands and explains each (%d of %d)" % (len(helps), len(cmds)), cmds)
    bad = chat_mismatches(text, cmds, helps)
    for c in bad:
        T.check(False, "cardbot(1)'s entry for %s is what !help says" % c,
                "page: %r; help: %r" % (chat_entries(text).get(c), helps.get(c)))
    T.check(not bad, "cardbot(1)'s CHAT COMMANDS say what the in-chat help says, every command (%d)" % len(cmds))
    T.check("!rules [more]" in text and "!bot [SEAT|all]" in text, "cardbot(1) has !rules more and !bot all")
    # The checker can fail: a page from before !rules more and !bot all.
    old = text.replace('.B "!rules [more]"', '.B "!rules"').replace("[SEAT|all]", "[SEAT]")
    T.check({"!rules", "!bot"} <= set(chat_mismatches(old, cmds, helps)), "a page without them is caught")


man_warnings()
config_page()
layout_page()
command_page()
chat_page()
T.finish()
