"""Running one child process and measuring it: wall time and the child's own max RSS.

The max RSS comes from GNU time (`/usr/bin/time -f %M`), which forks from a ~1 MB process. Without
it, wait4(2)'s rusage is used; Linux then counts the forking Python's resident set in the child's
peak (the kernel carries the pre-exec high-water mark over exec), so small children read ~20 MB.
"""
import os
import shutil
import statistics
import subprocess
import tempfile
import time


class Run:
    """One measured execution."""

    def __init__(self, seconds, max_rss_kb, exit_code, stdout, stderr):
        self.seconds = seconds
        self.max_rss_kb = max_rss_kb
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
RSS_METHOD = "GNU time %M" if GNU_TIME else "wait4 rusage (includes the forking Python's ~20 MB)"


def run(argv, cwd=None, keep_stdout=False):
    """Runs argv to completion. stdout goes to /dev/null unless keep_stdout."""
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out, \
            tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss:
        sink = out if keep_stdout else subprocess.DEVNULL
        wrapped = [GNU_TIME, "-f", "%M", "-o", rss.name, *argv] if GNU_TIME else list(argv)
        start = time.perf_counter()
        process = subprocess.Popen(wrapped, stdin=subprocess.DEVNULL, stdout=sink, stderr=err, cwd=cwd)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        max_rss_kb = usage.ru_maxrss
        if GNU_TIME:
            lines = rss.read().strip().splitlines()
            max_rss_kb = int(lines[-1]) if lines and lines[-1].isdigit() else None
        err.seek(0)
        out.seek(0)
        return Run(seconds, max_rss_kb, process.returncode,
                   out.read().decode("utf-8", "replace") if keep_stdout else "",
                   err.read().decode("utf-8", "replace"))


def fresh_copy(pristine, work):
    """Copies the pristine store over the work file (and drops any journal next to it)."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        if os.path.exists(work + suffix):
            os.remove(work + suffix)
    shutil.copyfile(pristine, work)
    # Flush the copy now: else the timed command's first fsync pays for writing the whole file.
    with open(work, "rb+") as f:
        os.fsync(f.fileno())


def median(values):
    return statistics.median(values) if values else None


def describe_failure(command_name, result):
    """A one-line reason for a failed child."""
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    first = lines[0] if lines else "(no message)"
    if result.exit_code < 0:
        return f"{command_name} died from signal {-result.exit_code}: {first}"
    return f"{command_name} exited {result.exit_code}: {first}"
