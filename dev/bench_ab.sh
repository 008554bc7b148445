#!/bin/sh
# Interleaved A/B throughput: benchmarks/bench_extract.py with the working tree ("new") and
# with the relx of an earlier commit ("base"), alternating so both see the same machine.
#
#   dev/bench_ab.sh REV TASK LIMIT "new base new base"     e.g.  dev/bench_ab.sh 50ce2a1 typed 1000 "new base new base"
#
# The base tree is extracted once into runs/ab-REV (git archive of relx/ and benchmarks/);
# both use the shipped models of the working tree. One line per run: who, task, load
# average before it, the busiest other process, and bench_extract's JSON line. PYTHON: the
# interpreter (default: the checkout's .venv/bin/python); BENCH_ARGS: more bench_extract
# options (e.g. "--procs 1").
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
rev=$1 task=$2 limit=$3 order=$4
base="runs/ab-$rev"
py="${PYTHON:-$root/.venv/bin/python}"
if [ ! -d "$base/relx" ]; then
  mkdir -p "$base" && git archive "$rev" relx benchmarks | tar -x -C "$base"
fi
for who in $order; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  if [ "$who" = base ]; then
    out=$(cd "$base" && RELX_DATA="${RELX_DATA:-$root/../shared}" RELX_MODELS="$root/models" \
          PYTHONPATH="$root/$base" "$py" benchmarks/bench_extract.py \
          --task "$task" --limit "$limit" $BENCH_ARGS 2>&1 | tail -1)
  else
    out=$(PYTHONPATH="$root" "$py" benchmarks/bench_extract.py --task "$task" --limit "$limit" $BENCH_ARGS 2>&1 | tail -1)
  fi
  echo "$who $task load=$load busiest: $(ps -eo pcpu,args --sort=-pcpu | sed -n 2p | cut -c1-50) :: $out"
done
