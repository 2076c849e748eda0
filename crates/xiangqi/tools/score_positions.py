#!/usr/bin/env python3
"""Scores positions with a UCCI engine, for `examples/tune.rs --labels`.

    score_positions.py ENGINE DEPTH < positions.tsv > scored.tsv

Reads `FEN<TAB>result` lines (from `tune --dump`), asks the engine for a
fixed-depth search of each position (`go depth DEPTH`, book off) and writes
`FEN<TAB>result<TAB>score`, the engine's last reported score turned to Red's
point of view. Positions the engine gives no score for are left out. A dev
tool: the engine is an outside program (BENCHMARKS.md names the one used).
"""

import re
import subprocess
import sys


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    engine, depth = sys.argv[1], int(sys.argv[2])
    proc = subprocess.Popen(
        [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert proc.stdin and proc.stdout

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("ucci")
    while "ucciok" not in proc.stdout.readline():
        pass
    send("setoption usebook false")
    score_re = re.compile(r"info depth \d+ .*?score (-?\d+)")
    for line in sys.stdin:
        fields = line.rstrip("\n").split("\t")
        if len(fields) < 2:
            continue
        fen, result = fields[0], fields[1]
        send(f"position fen {fen}")
        send(f"go depth {depth}")
        score = None
        while True:
            reply = proc.stdout.readline()
            if not reply or reply.startswith(("bestmove", "nobestmove")):
                break
            m = score_re.match(reply)
            if m:
                score = int(m.group(1))
        if score is None:
            continue
        if fen.split()[1] == "b":
            score = -score
        print(f"{fen}\t{result}\t{score}", flush=True)
    send("quit")


if __name__ == "__main__":
    main()
