#!/usr/bin/env python3
"""Writes scripts/bench's table of levers into docs/performance.md (used by scripts/bench).

Usage: levers.py DOC --commit C --machine M --load L --load-end L --runs N
                 --shipped RATIOS INSTRUCTIONS BYTES --glibc RATIOS INSTRUCTIONS BYTES
                 --matrix JOBS2_MS JOBS16_MS

RATIOS and INSTRUCTIONS are files of lines "VALUE RENDER..." (a render's multiple of
/bin/true, its millions of instructions), one per render. The table replaces whatever stands
between the lines LEVERS_START and LEVERS_END of DOC; nothing else in DOC changes. Exits 1 if
DOC lacks the markers.
"""

import argparse
import statistics
import sys

LEVERS_START = "<!-- levers: written by scripts/bench (scripts/levers.py); not edited by hand -->"
LEVERS_END = "<!-- end of levers -->"

# The time budgets (scripts/bench): median and worst multiple of /bin/true.
MEDIAN_BUDGET, WORST_BUDGET = 1.5, 1.75


def read(path):
    """(value, render) pairs of a file of "VALUE RENDER..." lines."""
    with open(path) as f:
        return [(float(v), " ".join(rest)) for v, *rest in (line.split() for line in f if line.strip())]


def figures(ratios_path, instructions_path, size):
    ratios, instructions = read(ratios_path), read(instructions_path)
    worst = max(ratios)
    largest = max(instructions)
    median = statistics.median(v for v, _ in ratios)
    meets = median <= MEDIAN_BUDGET and worst[0] <= WORST_BUDGET
    return [
        f"{size / 1e6:.2f} MB",
        f"{statistics.median(v for v, _ in instructions):.2f} M / {largest[0]:.2f} M ({largest[1]})",
        f"{median:.2f}× / {worst[0]:.2f}× ({worst[1]})",
        "**yes**" if meets else "no",
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("doc")
    for flag in ("--commit", "--machine", "--load", "--load-end", "--runs"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--shipped", nargs=3, required=True)
    parser.add_argument("--glibc", nargs=3, required=True)
    parser.add_argument("--matrix", nargs=2, type=float, required=True)
    a = parser.parse_args()

    shipped = figures(a.shipped[0], a.shipped[1], int(a.shipped[2]))
    glibc = figures(a.glibc[0], a.glibc[1], int(a.glibc[2]))
    jobs2, jobs16 = a.matrix
    renders = len(read(a.shipped[0]))
    verdict = (
        "the static glibc build meets the time budgets, so by the rule above `crates/memfns` "
        "and the musl build's levers are to go"
        if glibc[3] == "**yes**"
        else "the static glibc build does not meet the time budgets, so by the rule above "
        "`crates/memfns` stays"
    )
    table = [
        LEVERS_START,
        f"At {a.commit}, on {a.machine}; load average {a.load} at the start of these "
        f"measurements and {a.load_end} at the end; {a.runs} runs of each render, each "
        f"alternating with `/bin/true`. Instructions and times are over the {renders} renders "
        "`scripts/bench` measures (every platform, newest and oldest release).",
        "",
        "| build | binary | instructions, median / largest (callgrind) | time over `/bin/true`, "
        f"median / worst | within {MEDIAN_BUDGET}× / {WORST_BUDGET}× |",
        "|---|---|---|---|---|",
        "| **shipped**: x86_64 musl, static PIE, profile-guided; `crates/memfns`'s allocator "
        "(dlmalloc behind std's `Mutex`) and `memcpy`, `memmove`, `memcmp`, `bcmp` | "
        + " | ".join(shipped) + " |",
        "| static glibc, static PIE, profile-guided with its own profile "
        "(`scripts/build-glibc-static`); glibc's malloc and string functions | "
        + " | ".join(glibc) + " |",
        "",
        f"`matrix --release all` on the shipped build, 16 threads against 2 (median of 7 "
        f"each, alternating): {jobs16:.0f} ms against {jobs2:.0f} ms, "
        f"**{jobs16 / jobs2:.2f}×** (budget 1.1×).",
        "",
        f"Decision, as this run applies it: {verdict}.",
        LEVERS_END,
    ]
    with open(a.doc) as f:
        text = f.read()
    try:
        start = text.index(LEVERS_START)
        end = text.index(LEVERS_END) + len(LEVERS_END)
    except ValueError:
        sys.exit(f"levers.py: {a.doc} has no {LEVERS_START!r} ... {LEVERS_END!r} block")
    with open(a.doc, "w") as f:
        f.write(text[:start] + "\n".join(table) + text[end:])


if __name__ == "__main__":
    main()
