#!/usr/bin/env python3
"""Times a render against /bin/true, one run of each in turn (used by scripts/bench).

Usage: alternate.py RUNS WARMUP DEST TRUE-BIN RENDER-BIN [RENDER-ARG...]

Each of RUNS steps removes DEST (not timed), then runs TRUE-BIN and the render, the order
swapped every step so that neither always runs on the other's heels. Each run is timed from
just before its process is spawned to just after it is reaped, with stdout and stderr on
/dev/null, as hyperfine -N times it. WARMUP steps are run first and not counted. Prints the two
medians in milliseconds, /bin/true's first, and exits 2 if the render fails.

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
    actions = [
        (os.POSIX_SPAWN_DUP2, devnull, 1),
        (os.POSIX_SPAWN_DUP2, devnull, 2),
    ]
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - start
    return elapsed, os.waitstatus_to_exitcode(status)


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__.split("\n\n")[1])
    runs, warmup, dest = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    true_argv, render_argv = [sys.argv[4]], sys.argv[5:]
    devnull = os.open(os.devnull, os.O_WRONLY)
    true_times, render_times = [], []
    for step in range(warmup + runs):
        shutil.rmtree(dest, ignore_errors=True)
        pair = [(true_argv, true_times), (render_argv, render_times)]
        if step % 2:
            pair.reverse()
        for argv, times in pair:
            elapsed, code = run_once(argv, devnull)
            if code != 0:
                print(f"alternate.py: {' '.join(argv)} exited with {code}", file=sys.stderr)
                sys.exit(2)
            if step >= warmup:
                times.append(elapsed)
    print(
        f"{statistics.median(true_times) / 1e6:.3f} {statistics.median(render_times) / 1e6:.3f}"
    )


if __name__ == "__main__":
    main()
