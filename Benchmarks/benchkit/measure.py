"""Running one child process and measuring it: wall time and the child's own max RSS.

The max RSS comes from wait4(2)'s rusage for that one child (Linux reports kilobytes), so
figures of different children never mix.
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


def run(argv, cwd=None, keep_stdout=False):
    """Runs argv to completion. stdout goes to /dev/null unless keep_stdout."""
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        sink = out if keep_stdout else subprocess.DEVNULL
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=sink, stderr=err, cwd=cwd)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        out.seek(0)
        return Run(seconds, usage.ru_maxrss, process.returncode,
                   out.read().decode("utf-8", "replace") if keep_stdout else "",
                   err.read().decode("utf-8", "replace"))


def fresh_copy(pristine, work):
    """Copies the pristine store over the work file (and drops any journal next to it)."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        if os.path.exists(work + suffix):
            os.remove(work + suffix)
    shutil.copyfile(pristine, work)


def median(values):
    return statistics.median(values) if values else None


def describe_failure(command_name, result):
    """A one-line reason for a failed child."""
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    first = lines[0] if lines else "(no message)"
    if result.exit_code < 0:
        return f"{command_name} died from signal {-result.exit_code}: {first}"
    return f"{command_name} exited {result.exit_code}: {first}"
