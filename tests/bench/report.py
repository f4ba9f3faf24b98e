#!/usr/bin/env python3
"""tests/bench/report.py: every cardbot benchmark in one report (`make bench`).

Builds nothing: it runs the existing measurements one after another (so
they do not disturb each other on a small machine), reads the figures
they print, and prints one table (figure, value, the exact command that
produced it), then the details of how each figure was measured. The same
text goes to build/bench-report.md (BENCH_REPORT to change the path).

The steps, each a command that can be run alone from the repository root:

  engine       cardbot bench engine: random deals a second, move generation
  caps         cardbot bench caps: the per-card cost of the caps check
  store        cardbot bench store: one action committed to the database
  ai           cardbot bench ai: time per decision, playout and solver
               speed, strength in a duplicate match
  ai_GAME      cardbot bench ai --game: strong against the rule-based
               player in Trump304 (ai_trump304_2, _3, _4) and Rook (ai_rook)
  ai_strong0   cardbot bench ai --b strong0: 304's strong player against
               itself as it was before the faster solver (issue 33), both
               at the bot's budget in CPU time (--clock cpu)
  ai_10x       cardbot bench ai: 304's strong player with ten times the
               time and samples against itself at the bot's budget
  ai_GAME_strong0, ai_GAME_10x  the same two matches in Trump304 (four
               players; GAME trump304_4) and Rook (rook); ai_GAME also
               gives the game's solver from five tricks before the end
               against its solver of before issue 33
  irc          tests/bench/irc.py on ngircd: idle CPU and wake-ups,
               command latency, memory with 1, 100 and 1,000 tables,
               a quiet player's reply time while 1, 2 and 20 people
               flood "!table" at the allowance
  irc_game     tests/net/irc/irc_game.py scenarios 1 and 2: lines per deal
  matrix_game  tests/net/matrix/matrix_game.py scenario 1 on the test homeserver:
               requests and events per deal

A tool that is missing (the binary, ngircd, strace) is named at the top
of the report and its figures are marked "n/a" with the reason; nothing
is left out silently. Exits 0 when every step ran, 1 otherwise.

Environment (defaults keep the whole run to about thirteen minutes):
  CARDBOT             the binary (bin/cardbot)
  BENCH_ONLY          comma list of steps to run (all)
  BENCH_SECONDS       seconds for each timed engine figure (1)
  BENCH_CAPS_DEALS    random deals for the caps figure (2000)
  BENCH_AI_DEALS      duplicate deals for the AI match (20)
  BENCH_AI_MS         the AI's time budget per decision in ms (300, the bot's)
  BENCH_IDLE_SECONDS  the idle window (20; 60 for a steadier figure)
  BENCH_TABLES        table counts for the memory figures (1,100,1000)
  BENCH_MEM_SECONDS   RSS sampling window at each table count (8)
  BENCH_FAIR_SECONDS  the flood at each count of flooders (40)
  BENCH_REPORT        where the report is written (build/bench-report.md)
  BENCH_STEP_TIMEOUT  seconds before a step is stopped (600)
"""
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def env(name, default):
    v = os.environ.get(name, "").strip()
    return v if v else default


CARDBOT = env("CARDBOT", "bin/cardbot")
NGIRCD = env("NGIRCD", "/usr/sbin/ngircd")
REPORT = env("BENCH_REPORT", "build/bench-report.md")
TIMEOUT = float(env("BENCH_STEP_TIMEOUT", "600"))
SECONDS = env("BENCH_SECONDS", "1")
CAPS_DEALS = env("BENCH_CAPS_DEALS", "2000")
AI_DEALS = env("BENCH_AI_DEALS", "20")
AI_MS = env("BENCH_AI_MS", "300")
IDLE_SECONDS = env("BENCH_IDLE_SECONDS", "20")
TABLES = env("BENCH_TABLES", "1,100,1000")
MEM_SECONDS = env("BENCH_MEM_SECONDS", "8")


def table_counts():
    try:
        return sorted({int(x) for x in TABLES.split(",") if x.strip() and int(x) >= 1}) or [1, 100, 1000]
    except ValueError:
        return [1, 100, 1000]


# ---------------------------------------------------------------- parsing

# "name value  (how it was measured)", as bot/cli/bench.c and tests/bench/irc.py print
FIG_RE = re.compile(r"^(?P<name>[a-z0-9_]+\.[a-z0-9_.]+) (?P<value>.*?)  \((?P<how>.*)\)$")


def parse_named(out, prefix):
    """Figures in the "name value  (how)" form whose name starts with prefix;
    the "note:" lines too."""
    figs, notes = [], []
    for line in out.splitlines():
        m = FIG_RE.match(line.strip())
        if m and m.group("name").startswith(prefix):
            figs.append((m.group("name"), m.group("value").strip(), m.group("how")))
        elif line.strip().startswith("note:"):
            notes.append(line.strip()[5:].strip())
    return figs, notes


def parse_ai(out):
    figs = []
    m = re.search(r"^ai playouts: (\d+) full-deal playouts/s(.*)$", out, re.M)
    if m:
        figs.append(("ai.playouts_per_second", m.group(1), "full-deal playouts a second" + m.group(2).split("[")[0].rstrip()))
    m = re.search(r"^ai solver, 5 tricks left: (\d+) positions, mean ([\d.]+) ms, median ([\d.]+) ms, "
                  r"p99 ([\d.]+) ms, max ([\d.]+) ms, (\d+) nodes each(.*)$", out, re.M)
    if m:
        figs.append(("ai.solver_ms", "mean %s median %s p99 %s" % m.group(2, 3, 4),
                     "the exact solver from five tricks before the end, %s positions; max %s ms, %s nodes each%s" %
                     m.group(1, 5, 6, 7)))
    m = re.search(r"^ai solver: ([\d.]+) times faster on average than before issue 33, p99 ([\d.]+) times; "
                  r"(\d+) of (\d+) values differ$", out, re.M)
    if m:
        figs.append(("ai.solver_speedup", "mean %sx p99 %sx" % m.group(1, 2),
                     "the solver against the one of before issue 33 (bot/cli/bench_ref.c) on the same positions, one "
                     "after the other in CPU time; %s of %s values differ (must be 0)" % m.group(3, 4)))
    m = re.search(r"^duplicate match, (\S+) \(A\) vs (\S+) \(B\): (\d+) deals x 2 in ([\d.]+) s$", out, re.M)
    names = m.group(1, 2) if m else ("A", "B")
    s = re.search(r"A's tokens per 100 deals: ([-+\d.]+), 95% interval \[([-+\d.]+), ([-+\d.]+)\](.*)$", out, re.M)
    if m and s:
        figs.append(("ai.strength.%s_vs_%s" % names, "%s tokens/100 deals [%s, %s]" % s.group(1, 2, 3),
                     "%s's tokens per 100 deals over %s in a duplicate match of %s deals, each played twice with the "
                     "sides swapped (%s s); 95%% interval%s" % (names[0], names[1], m.group(3), m.group(4),
                                                              s.group(4))))
    for side, name in zip("AB", names):
        t = re.search(r"^  %s +(\d+) decisions, (\d+)/s; time p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms$" % side,
                      out, re.M)
        if t:
            figs.append(("ai.decision_ms.%s" % name, "p50 %s p99 %s max %s" % t.group(3, 4, 5),
                         "time per decision of the %s player over its %s decisions (bids, trump choices and cards) "
                         "in the match above, %s decisions a second" % (name, t.group(1), t.group(2))))
    return figs, []


def parse_ai_strength(label):
    """cardbot bench ai between two strong players: the margin alone, under
    its own name (the solver and playout lines belong to the ai step)."""
    def parse(out):
        figs = []
        for name, value, how in parse_ai(out)[0]:
            if name.startswith("ai.strength."):
                figs.append(("ai.strength.%s" % label, value, how))
        return figs, []
    return parse


def parse_ai_game(key, label=None):
    """cardbot bench ai --game G: the solver's figures (Trump304, Rook), A's
    margin (named ai.KEY.strength.LABEL, or A_vs_B) and A's time per
    decision."""
    def parse(out):
        figs = []
        m = re.search(r"^(\S+) solver, 5 tricks left: (\d+) positions, mean ([\d.]+) ms, median ([\d.]+) ms, "
                      r"p99 ([\d.]+) ms, max ([\d.]+) ms, (\d+) nodes each(.*)$", out, re.M)
        if m:
            figs.append(("ai.%s.solver_ms" % key, "mean %s median %s p99 %s" % m.group(3, 4, 5),
                         "the %s solver from five tricks before the end, %s positions; max %s ms, %s nodes each%s" %
                         m.group(1, 2, 6, 7, 8)))
        m = re.search(r"^(\S+) solver: ([\d.]+) times faster on average than before issue 33, p99 ([\d.]+) times; "
                      r"(\d+) of (\d+) values differ$", out, re.M)
        if m:
            figs.append(("ai.%s.solver_speedup" % key, "mean %sx p99 %sx" % m.group(2, 3),
                         "against the %s solver of before issue 33 (bot/cli/bench_ref_games.c) on the same positions, "
                         "one after the other in CPU time; %s of %s values differ (must be 0)" % m.group(1, 4, 5)))
        m = re.search(r"^duplicate match, (\S+) \(A\) vs (\S+) \(B\): (\d+) deals, .* in ([\d.]+) s$", out, re.M)
        s = re.search(r"A's (tokens|points) per 100 deals over B's in the same seats: ([-+\d.]+), 95% interval "
                      r"\[([-+\d.]+), ([-+\d.]+)\](.*)$", out, re.M)
        if m and s:
            figs.append(("ai.%s.strength.%s" % (key, label or "%s_vs_%s" % m.group(1, 2)),
                         "%s %s/100 deals [%s, %s]" % (s.group(2), s.group(1), s.group(3), s.group(4)),
                         "%s's %s per 100 deals over %s in the same seats, duplicate deals: %s (%s s); 95%% interval%s"
                         % (m.group(1), s.group(1), m.group(2), m.group(3), m.group(4), s.group(5))))
            t = re.search(r"^  A +(\d+) decisions; time p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms$", out, re.M)
            if t:
                figs.append(("ai.%s.decision_ms.%s" % (key, m.group(1)), "p50 %s p99 %s max %s" % t.group(2, 3, 4),
                             "time per decision of the %s player over its %s decisions in that match"
                             % (m.group(1), t.group(1))))
        return figs, []
    return parse


def mean(xs):
    return sum(xs) / float(len(xs)) if xs else float("nan")


def parse_irc_game(out):
    figs = []
    per = {}
    for m in re.finditer(r"^  lines per deal, scenario (\S+) \((\d+) humans\): (\d+) channel, (\d+) private$", out, re.M):
        per.setdefault((m.group(1), m.group(2)), []).append((int(m.group(3)), int(m.group(4))))
    for (num, humans), deals in sorted(per.items()):
        label = "4humans" if humans == "4" else "%shumans_%dcomputers" % (humans, 4 - int(humans))
        figs.append(("irc_game.lines_per_deal.%s" % label,
                     "channel %.1f private %.1f" % (mean([d[0] for d in deals]), mean([d[1] for d in deals])),
                     "mean over %d complete deal(s) of tests/net/irc/irc_game.py scenario %s (%s scripted humans%s); private "
                     "= lines to the humans, summed" % (len(deals), num, humans,
                                                       "" if humans == "4" else " and computer players")))
    for label, pat in (("4humans", r"four humans \(loopback, no throttle\)"),
                       ("2humans_2computers", r"with two computer players \(no throttle\)")):
        m = re.search(r"^  latency command->reply,? %s: p50 ([\d.]+) ms, p99 ([\d.]+) ms, n=(\d+)$" % pat, out, re.M)
        if m:
            figs.append(("irc_game.latency_ms.%s" % label, "p50 %s p99 %s" % m.group(1, 2),
                         "each scripted move to the next bot line, %s moves" % m.group(3)))
    return figs, []


def parse_matrix_game(out):
    figs = []
    m = re.search(r"^    per deal: (\d+) room events \((\d+) lines\), (\d+) direct-room events (\[[^\]]*\]) \((\d+) "
                  r"lines\); (\d+) requests, (\d+) sends, (\d+) mentions; deal took ([\d.]+) s$", out, re.M)
    if m:
        figs.append(("matrix.requests_per_deal", m.group(6),
                     "every request the bot made to the test homeserver (tests/lib/matrixlib.py) from the table's start "
                     "to the deal's end, %s of them sends; four scripted players, one deal of %s s" % (
                         m.group(7), m.group(9))))
        figs.append(("matrix.events_per_deal", "room %s direct %s" % (m.group(1), m.group(3)),
                     "messages the bot posted in the room (%s lines, %s with mentions) and in the four direct rooms "
                     "%s (%s lines)" % (m.group(2), m.group(8), m.group(4), m.group(5))))
    m = re.search(r"^    command to reply: p50 (\d+) ms, p99 (\d+) ms over (\d+) commands; 429s (\d+), resent (\d+); "
                  r"rss (\S+) kB$", out, re.M)
    if m:
        figs.append(("matrix.latency_ms", "p50 %s p99 %s" % m.group(1, 2),
                     "each player's command to the bot's next message in the room or their direct room, %s commands "
                     "(the bot long-polls /sync)" % m.group(3)))
        figs.append(("matrix.rss_kb.table1", m.group(6), "VmRSS of the bot after the deal (one table)"))
    return figs, []


# ---------------------------------------------------------------- steps


class Step:
    def __init__(self, name, argv, expect, parse, env_vars=None, needs=()):
        self.name, self.argv, self.expect, self.parse = name, argv, expect, parse
        self.env = dict(env_vars or {})
        self.needs = needs

    def command(self):
        """The command as one would type it at the repository root."""
        return " ".join(["%s=%s" % (k, shlex.quote(v)) for k, v in self.env.items()] +
                        [shlex.quote(a) for a in self.argv])


def steps():
    bot = {"CARDBOT": CARDBOT}
    counts = table_counts()
    irc_expect = ["irc.rss_kb.idle", "irc.idle_cpu_ms_per_minute", "irc.idle_wakeups_per_minute",
                  "irc.idle_wakeups_per_minute.threads", "irc.latency_ms", "irc.latency_ms.moves",
                  "irc.lines_per_deal.4humans", "irc.lines_per_deal.2humans_2computers",
                  "irc.rss_kb.channels%d" % counts[-1]] + ["irc.rss_kb.tables%d" % n for n in counts] + \
        ["irc.quiet_reply_ms.flood%d" % n for n in (1, 2, 20)]
    if len(counts) > 1:
        irc_expect.append("irc.rss_kb.per_table")
    irc_env = dict(bot)
    irc_env.update({"BENCH_IRC_IDLE_SECONDS": IDLE_SECONDS, "BENCH_TABLES": TABLES,
                    "BENCH_MEM_SECONDS": MEM_SECONDS})
    return [
        Step("engine", [CARDBOT, "bench", "engine", "--seconds", SECONDS],
             ["engine.deals_per_second.caps_off", "engine.deals_per_second.caps_strict", "engine.movegen_ns"],
             lambda out: parse_named(out, "engine."), needs=("cardbot",)),
        Step("caps", [CARDBOT, "bench", "caps", "--deals", CAPS_DEALS], ["caps.check_us_per_card"],
             lambda out: parse_named(out, "caps."), needs=("cardbot",)),
        Step("store", [CARDBOT, "bench", "store"], ["store.commit_us"],
             lambda out: parse_named(out, "store."), needs=("cardbot",)),
        Step("ai", [CARDBOT, "bench", "ai", "--deals", AI_DEALS, "--ms", AI_MS, "--seconds", SECONDS],
             ["ai.playouts_per_second", "ai.solver_ms", "ai.solver_speedup", "ai.strength.strong_vs_simple",
              "ai.decision_ms.strong",
              "ai.decision_ms.simple"], parse_ai, needs=("cardbot",)),
    ] + [
        Step("ai_%s" % key, [CARDBOT, "bench", "ai", "--game", game, "--players", n, "--deals", AI_DEALS,
                             "--ms", AI_MS],
             ["ai.%s.strength.strong_vs_simple" % key, "ai.%s.decision_ms.strong" % key], parse_ai_game(key),
             needs=("cardbot",))
        for key, game, n in (("trump304_2", "trump304", "2"), ("trump304_3", "trump304", "3"),
                             ("trump304_4", "trump304", "4"), ("rook", "rook", "4"))
    ] + [
        Step("ai_%s_strong0" % key, [CARDBOT, "bench", "ai", "--game", game, "--a", "strong", "--b", "strong0",
                                     "--deals", AI_DEALS, "--ms", AI_MS],
             ["ai.%s.strength.strong_vs_strong0" % key], parse_ai_game(key), needs=("cardbot",))
        for key, game in (("trump304_4", "trump304"), ("rook", "rook"))
    ] + [
        Step("ai_%s_10x" % key, [CARDBOT, "bench", "ai", "--game", game, "--a", "strong", "--b", "strong",
                                 "--deals", AI_DEALS, "--ms", "%g" % (10 * float(AI_MS)), "--samples", str(10 * n),
                                 "--ms-b", AI_MS, "--samples-b", str(n)],
             ["ai.%s.strength.strong10x_vs_strong" % key], parse_ai_game(key, "strong10x_vs_strong"),
             needs=("cardbot",))
        for key, game, n in (("trump304_4", "trump304", 400), ("rook", "rook", 400))
    ] + [
        Step("ai_strong0", [CARDBOT, "bench", "ai", "--a", "strong", "--b", "strong0", "--deals", AI_DEALS,
                            "--ms", AI_MS, "--clock", "cpu", "--seconds", SECONDS],
             ["ai.strength.strong_vs_strong0"], parse_ai_strength("strong_vs_strong0"), needs=("cardbot",)),
        Step("ai_10x", [CARDBOT, "bench", "ai", "--a", "strong", "--b", "strong", "--deals", AI_DEALS,
                        "--ms", "%g" % (10 * float(AI_MS)), "--samples", "10000", "--ms-b", AI_MS, "--samples-b", "0",
                        "--clock", "cpu", "--seconds", SECONDS],
             ["ai.strength.strong10x_vs_strong"], parse_ai_strength("strong10x_vs_strong"), needs=("cardbot",)),
    ] + [
        Step("irc", ["python3", "tests/bench/irc.py"], irc_expect, lambda out: parse_named(out, "irc."),
             irc_env, needs=("cardbot", "ngircd")),
        Step("irc_game", ["python3", "tests/net/irc/irc_game.py"],
             ["irc_game.lines_per_deal.4humans", "irc_game.lines_per_deal.2humans_2computers"], parse_irc_game,
             dict(bot, IRC_GAME_ONLY="1,2"), needs=("cardbot", "ngircd")),
        Step("matrix_game", ["python3", "tests/net/matrix/matrix_game.py"],
             ["matrix.requests_per_deal", "matrix.events_per_deal", "matrix.latency_ms"], parse_matrix_game,
             dict(bot, MX_ONLY="1"), needs=("cardbot",)),
    ]


def tools():
    """{tool: None when present, else why it is missing}."""
    out = {}
    out["cardbot"] = None if os.access(CARDBOT, os.X_OK) else \
        "%s is not built (make BUILD=... BINDIR=... builds it; `make bench` does)" % CARDBOT
    out["ngircd"] = None if os.access(NGIRCD, os.X_OK) else \
        "%s is missing: `make deps` installs it (Debian package ngircd)" % NGIRCD
    out["strace"] = None if shutil.which("strace") else \
        "strace is missing: the idle system-call figure is not measured (Debian package strace)"
    return out


def run_step(st):
    e = dict(os.environ)
    e.update(st.env)
    t0 = time.time()
    try:
        p = subprocess.run(st.argv, cwd=ROOT, env=e, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=TIMEOUT)
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as x:
        out = (x.stdout or b"").decode("utf-8", "replace")
        rc = "timeout after %.0f s" % TIMEOUT
    except OSError as x:
        out, rc = "", "could not run: %s" % x
    return out, rc, time.time() - t0


# ---------------------------------------------------------------- the report


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def machine():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = "%.2f %.2f %.2f" % os.getloadavg()
    return "%s, %d cores (%s), Linux %s, load average at the start %s" % (
        platform.machine(), os.cpu_count() or 0, model, platform.release(), load)


def revision():
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode().strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().strip()
        return rev + (" with local changes" if dirty else "") if rev else "?"
    except OSError:
        return "?"


def main():
    os.chdir(ROOT)
    t_start = time.time()
    only = {x.strip() for x in env("BENCH_ONLY", "").split(",") if x.strip()}
    have = tools()
    rows, details, notes, problems, logs = [], [], [], [], []
    print("bench: running %s (each step alone; about thirteen minutes)" % ", ".join(
        s.name for s in steps() if not only or s.name in only))
    sys.stdout.flush()
    for st in steps():
        if only and st.name not in only:
            continue
        missing = [have[t] for t in st.needs if have[t]]
        if missing:
            for k in st.expect:
                rows.append((k, "n/a", st.command()))
                details.append((k, "not measured: " + "; ".join(missing)))
            problems.append("%s: not run: %s" % (st.name, "; ".join(missing)))
            continue
        print("bench: %s: %s" % (st.name, st.command()))
        sys.stdout.flush()
        out, rc, took = run_step(st)
        try:
            figs, nts = st.parse(out)
        except Exception as x:   # a parser bug must not lose the other steps
            figs, nts = [], ["%s: the output could not be read (%s: %s)" % (st.name, type(x).__name__, x)]
        got = set()
        for name, value, how in figs:
            got.add(name)
            rows.append((name, value, st.command()))
            details.append((name, how))
        for k in st.expect:
            if k not in got:
                rows.append((k, "n/a", st.command()))
                details.append((k, "not measured: the step printed no such figure (exit %s); see its output below" %
                                rc))
        notes.extend("%s: %s" % (st.name, n) for n in nts)
        if rc != 0 or any(k not in got for k in st.expect):
            problems.append("%s: exit %s, %d of %d expected figures" % (st.name, rc, len([k for k in st.expect
                                                                                        if k in got]),
                                                                     len(st.expect)))
            logs.append((st.name, out))
        notes.append("%s took %.0f s" % (st.name, took))
    if have["strace"]:
        notes.append("strace: present (the idle system-call count is measured)")
    lines = ["# cardbot benchmark report", "",
             "- when: %s UTC; took %.0f s" % (time.strftime("%Y-%m-%d %H:%M", time.gmtime(t_start)),
                                              time.time() - t_start),
             "- machine: %s" % machine(),
             "- revision: %s; binary %s" % (revision(), CARDBOT),
             "- every command runs from the repository root; figures are for this machine, not a promise", ""]
    missing = [why for why in have.values() if why]
    if missing:
        lines += ["**MISSING TOOLS** (their figures are n/a below):", ""] + ["- " + m for m in missing] + [""]
    if problems:
        lines += ["**PROBLEMS**:", ""] + ["- " + p for p in problems] + [""]
    lines += ["| figure | value | command |", "| --- | --- | --- |"]
    lines += ["| %s | %s | `%s` |" % (cell(n), cell(v), cell(c)) for n, v, c in rows]
    lines += ["", "## How each figure was measured", ""]
    lines += ["- **%s**: %s" % (n, h) for n, h in details]
    if notes:
        lines += ["", "## Notes", ""] + ["- " + n for n in notes]
    for name, out in logs:
        tail = out.strip().splitlines()[-40:]
        lines += ["", "## Output of %s (last %d lines)" % (name, len(tail)), "", "```"] + tail + ["```"]
    text = "\n".join(lines) + "\n"
    print()
    print(text, end="")
    try:
        os.makedirs(os.path.dirname(os.path.abspath(REPORT)), exist_ok=True)
        with open(REPORT, "w") as f:
            f.write(text)
        print("bench: report written to %s" % REPORT)
    except OSError as x:
        print("bench: could not write %s: %s" % (REPORT, x))
        return 1
    return 1 if problems or missing else 0


if __name__ == "__main__":
    sys.exit(main())
