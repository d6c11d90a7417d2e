#!/usr/bin/env python3
"""Times kplace on a large cluster dump next to Python's C json parser reading the same file.

    bench/import_bench.py [--kplace build/native-release/kplace] [--nodes 5000] [--pods 50000] [--pending 2500]

Writes the dump with bench/cluster_dump.py (`kubectl get --raw` shape, one typed list per kind) into
build/bench/ unless it is there already, then runs, one after another on the same machine:
  python3 json.loads  each of the dump's documents (the reference the issue sets: kplace must be faster)
  kplace validate     parse and check only
  kplace run          parse, schedule the pending pods, write the result as JSON
  kplace convert      the scenario List kplace reads from the dump
and prints wall time, CPU time and peak memory (max RSS) of each, as rows for bench/REPORT.md. Figures, not
thresholds: this machine is shared and noisy, so compare rows from one run only.
"""
import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(argv, stdout=subprocess.DEVNULL):
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(argv), code, err.strip()))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kplace", default=os.path.join(ROOT, "build/native-release/kplace"))
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--pods", type=int, default=50000)
    ap.add_argument("--pending", type=int, default=2500)
    args = ap.parse_args()
    out_dir = os.path.join(ROOT, "build/bench")
    os.makedirs(out_dir, exist_ok=True)
    dump = os.path.join(out_dir, "dump-%dn-%dp-%dpending.json" % (args.nodes, args.pods, args.pending))
    if not os.path.exists(dump):
        print("writing %s ..." % dump, file=sys.stderr)
        with open(dump + ".tmp", "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "bench/cluster_dump.py"), "--compact",
                            "--nodes", str(args.nodes), "--pods", str(args.pods), "--pending", str(args.pending)],
                           stdout=f, check=True)
        os.rename(dump + ".tmp", dump)
    size = os.path.getsize(dump)
    loads = "import json,sys\nfor line in open(sys.argv[1], encoding='utf-8'): json.loads(line)\n"
    rows = [
        ("python3 json.loads (reference)", [sys.executable, "-c", loads, dump]),
        ("kplace validate", [args.kplace, "validate", dump]),
        ("kplace run --format json", [args.kplace, "run", "--format", "json", dump]),
        ("kplace convert kubectl", [args.kplace, "convert", "kubectl", dump]),
    ]
    print("%d nodes, %d pods (%d pending): %.0f MB of `kubectl get --raw` JSON" %
          (args.nodes, args.pods, args.pending, size / 1e6))
    print("| step | wall s | cpu s | peak MB |")
    print("|---|---|---|---|")
    for name, argv in rows:
        wall, cpu, rss = measure(argv)
        print("| %s | %.2f | %.2f | %.0f |" % (name, wall, cpu, rss), flush=True)


if __name__ == "__main__":
    main()
