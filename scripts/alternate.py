#!/usr/bin/env python3
"""Times a render against /bin/true, one run of each in turn (used by scripts/bench).

Usage: alternate.py RUNS WARMUP DEST TRUE-BIN RENDER-BIN [RENDER-ARG...]

Each of RUNS steps removes DEST (not timed), then runs TRUE-BIN and the render, the order
swapped every step so that neither always runs on the other's heels. Each run is timed from
just before its process is spawned to just after it is reaped, with stdin, stdout and stderr
on /dev/null, as hyperfine -N times it. WARMUP steps are run first and not counted. Prints the
two medians in milliseconds, /bin/true's first. Exits 2 if either command fails or cannot be
started, or DEST cannot be removed; 1 on wrong arguments.

Why not hyperfine's rounds: on a virtual machine the cost of starting a process drifts by
ten per cent within minutes, and a round of 30 runs of one command then 30 of the other can
fall on either side of a drift. Alternating each run keeps the drift out of the ratio; the
same measurement repeats to within a per cent or two.
"""

import os
import shutil
import statistics
import sys
import time


def run_once(argv, devnull):
    """Wall-clock nanoseconds of one run of argv, and its exit status."""
    actions = [(os.POSIX_SPAWN_DUP2, devnull, fd) for fd in (0, 1, 2)]
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - start
    return elapsed, os.waitstatus_to_exitcode(status)


def fail(message):
    print(f"alternate.py: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    usage = __doc__.split("\n\n")[1]
    if len(sys.argv) < 6:
        sys.exit(usage)
    try:
        runs, warmup = int(sys.argv[1]), int(sys.argv[2])
    except ValueError:
        sys.exit(usage)
    if runs < 1 or warmup < 0:
        sys.exit(usage)
    dest = sys.argv[3]
    true_argv, render_argv = [sys.argv[4]], sys.argv[5:]
    devnull = os.open(os.devnull, os.O_RDWR)
    true_times, render_times = [], []
    for step in range(warmup + runs):
        try:
            shutil.rmtree(dest)
        except FileNotFoundError:
            pass
        except OSError as err:
            fail(f"cannot remove {dest}: {err}")
        pair = [(true_argv, true_times), (render_argv, render_times)]
        if step % 2:
            pair.reverse()
        for argv, times in pair:
            try:
                elapsed, code = run_once(argv, devnull)
            except OSError as err:
                fail(f"cannot run {argv[0]}: {err}")
            if code != 0:
                fail(f"{' '.join(argv)} exited with {code}")
            if step >= warmup:
                times.append(elapsed)
    print(
        f"{statistics.median(true_times) / 1e6:.3f} {statistics.median(render_times) / 1e6:.3f}"
    )


if __name__ == "__main__":
    main()
