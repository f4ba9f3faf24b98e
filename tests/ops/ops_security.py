"""ops_security.py: the rules of docs/SECURITY.md checked from outside.

- a configuration holding a secret that its group or others may read draws
  a warning, from `check-config` and from `run` alike; the same for a
  KEY_file secret; none at mode 600; the secret itself is never printed;
- no chat text near a shell, a format string or SQL: no program is ever
  started (no system/popen/exec/fork in the sources), the Makefile keeps
  -Wformat=2 -Werror, and where clang is present every source passes
  clang's stricter -Wformat-nonliteral too (a printf-like helper without a
  format attribute fails here); no SQL is built with printf-like calls.
The rate limit, input limits and operator rules run in C, on the bot's own
code: tests/fuzz/security_check.c (make test runs it).
"""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ops_lib import CARDBOT, ROOT, Checker, have, run  # noqa: E402

T = Checker("ops_security")
tmp = tempfile.mkdtemp(prefix="cardbot-sec-")
SECRET = "hunter2-ops-secret"


def config(extra, data_dir):
    return ('bot = { data_dir = "%s"; };\n'
            'networks = ( { name = "t"; type = "irc"; server = "127.0.0.1"; port = 1;\n'
            '    channels = ( "#304" );\n%s  } );\n' % (data_dir, extra))


def write(path, text, mode):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def config_permissions():
    data = os.path.join(tmp, "data")
    path = os.path.join(tmp, "inline.cfg")
    write(path, config('    sasl_user = "cb";\n    sasl_password = "%s";\n' % SECRET, data), 0o644)
    rc, out, err = run([CARDBOT, "check-config", path])
    T.check(rc == 0, "an inline secret at 644 is valid", err)
    T.check("warning: networks.[0].sasl_password: secret written in" in err and "mode 0644" in err,
            "an inline secret at 644 warns, naming the mode", err)
    T.check(SECRET not in out + err, "the secret is not printed")
    for mode in (0o640, 0o604):
        os.chmod(path, mode)
        rc, out, err = run([CARDBOT, "check-config", path])
        T.check("mode 0%o" % mode in err, "an inline secret at %o warns" % mode, err)
    os.chmod(path, 0o600)
    rc, out, err = run([CARDBOT, "check-config", path])
    T.check(rc == 0 and "warning" not in err, "an inline secret at 600: no warning", err)

    # A config without any secret may be world-readable (an installed example is).
    plain = os.path.join(tmp, "plain.cfg")
    write(plain, config("", data), 0o644)
    rc, out, err = run([CARDBOT, "check-config", plain])
    T.check(rc == 0 and "warning" not in err, "no secret, mode 644: no warning", err)

    # KEY_file: the secret's own file is checked too.
    sfile = os.path.join(tmp, "sasl")
    write(sfile, SECRET + "\n", 0o644)
    fcfg = os.path.join(tmp, "file.cfg")
    write(fcfg, config('    sasl_user = "cb";\n    sasl_password_file = "sasl";\n', data), 0o644)
    rc, out, err = run([CARDBOT, "check-config", fcfg])
    T.check(rc == 0 and "sasl_password_file" in err and "mode 0644" in err and sfile in err,
            "a secret file at 644 warns, naming it", err)
    T.check(SECRET not in out + err, "the secret from the file is not printed")
    os.chmod(sfile, 0o600)
    rc, out, err = run([CARDBOT, "check-config", fcfg])
    T.check(rc == 0 and "warning" not in err, "a secret file at 600: no warning", err)

    # A secret given with the wrong type is described, not shown.
    bad = os.path.join(tmp, "badtype.cfg")
    write(bad, config('    nickserv_password = [ "%s" ];\n' % SECRET, data), 0o600)
    rc, out, err = run([CARDBOT, "check-config", bad])
    T.check(rc != 0 and SECRET not in out + err, "a wrongly typed secret is not printed", err)

    # `run` warns as check-config does, and logs no secret while it runs.
    os.chmod(path, 0o644)
    p = subprocess.Popen([CARDBOT, "run", "-c", path], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1.5)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    out, err = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    T.check("secret written in" in err and "mode 0644" in err, "`run` warns about the readable secret too", err)
    T.check(SECRET not in out + err, "`run` logs no secret", err)


SOURCES = sorted(glob.glob(os.path.join(ROOT, "bot", "**", "*.c"), recursive=True) + glob.glob(os.path.join(ROOT, "adapters", "**", "*.c"), recursive=True)
                 + glob.glob(os.path.join(ROOT, "engine", "**", "*.c"), recursive=True) + glob.glob(os.path.join(ROOT, "lib", "**", "*.c"), recursive=True))


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


SHELL = re.compile(r"\b(system|popen|execl|execlp|execle|execv|execvp|execvpe|fork|vfork|posix_spawnp?)\s*\(")
SQL_FMT = re.compile(r"\b(sqlite3_v?mprintf|sqlite3_v?snprintf)\s*\(")
FMT_SQL = re.compile(r'\b(s?n?printf|asprintf|strbuf_printf|sb_printf)\s*\([^;]*"[^"]*\b(SELECT|INSERT|UPDATE|DELETE|'
                     r'CREATE|DROP|REPLACE)\b[^"]*%', re.S)


def scan(text):
    code = strip_comments(text)
    return SHELL.findall(code), SQL_FMT.findall(code), [m[1] for m in FMT_SQL.findall(code)]


def sources():
    T.check(len(SOURCES) >= 10, "sources found", SOURCES)
    for path in SOURCES:
        shell, sqlfmt, fmtsql = scan(open(path, encoding="utf-8", errors="replace").read())
        rel = os.path.relpath(path, ROOT)
        T.check(not shell, "%s starts no program" % rel, shell)
        T.check(not sqlfmt, "%s builds no SQL with sqlite3 printf" % rel, sqlfmt)
        T.check(not fmtsql, "%s formats no SQL text" % rel, fmtsql)
    # The scanner can fail.
    shell, sqlfmt, fmtsql = scan('void f(char *t) { system(t); sqlite3_mprintf("%q", t); '
                                 'snprintf(b, n, "SELECT * FROM x WHERE n = \'%s\'", t); }')
    T.check(shell and sqlfmt and fmtsql, "the scanner catches a shell, sqlite3_mprintf and formatted SQL")
    mk = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read()
    warn = re.search(r"^WARN\s*=\s*(.*)$", mk, re.M)
    T.check(warn and "-Wformat=2" in warn.group(1) and "-Werror" in warn.group(1),
            "the build keeps -Wformat=2 -Werror", warn.group(1) if warn else mk[:300])


def clang_formats():
    if not have("clang"):
        T.note("skipped: clang's -Wformat-nonliteral check (no clang)")
        return
    rc, cflags, _ = run(["pkg-config", "--cflags", "json-c", "libconfig", "openssl", "libcurl", "sqlite3"])
    flags = cflags.split() if rc == 0 else []
    for path in SOURCES:
        rel = os.path.relpath(path, ROOT)
        rc, out, err = run(["clang", "-fsyntax-only", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wformat=2",
                            "-Werror=format-nonliteral", "-Werror=format-security", "-Iengine", "-Ibot",
                            "-Iadapters", "-Ilib"] + flags + [rel])
        bad = [l for l in err.splitlines() if "format" in l and "error" in l]
        T.check(rc == 0 or not bad, "%s: every format string is a literal (clang -Wformat-nonliteral)" % rel,
                "\n".join(bad[:5]))


try:
    config_permissions()
    sources()
    clang_formats()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
T.finish()
