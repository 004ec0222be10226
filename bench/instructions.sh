#!/usr/bin/env bash
# Instructions per hand of the engine bench's loops, counted by valgrind's callgrind: unlike
# seconds, the count is the same on every run whatever else the machine is doing, so two trees
# can be compared on a shared machine.
#
#   bench/instructions.sh [TREE [PYTHON]]     (default: this checkout, python3)
#
# Prints, per loop of bench/engine_bench.py, the instructions of a fixed seeded batch of hands
# minus those of starting Python and importing the engine (the same batch in every tree).
set -euo pipefail
tree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
python=${2:-python3}
# valgrind must run the interpreter itself, not a shim or a virtual environment's link; the
# engine needs nothing beyond the standard library (PYTHONPATH below finds it).
python=$("$python" -c 'import sys; print(getattr(sys, "_base_executable", sys.executable))')

count() {  # loop, hands -> instructions
  (cd "$tree" && PYTHONPATH=. valgrind --tool=callgrind --trace-children=no \
      --callgrind-out-file=/dev/null "$python" -c "
import sys; sys.path.insert(0, 'bench'); import engine_bench as bench
bench.timed_round(bench.$1, $2)" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
}

for spec in "fast_hand 300" "api_hand 100"; do
  set -- $spec
  start=$(count "$1" 0)
  total=$(count "$1" "$2")
  echo "$1: $(( (total - start) / $2 )) instructions per hand ($2 seeded hands)"
done
