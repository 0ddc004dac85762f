#!/usr/bin/env bash
# Every benchmark issue 16 sets a goal for, in one run, one after another, on both databases
# (docs/benchmarks.md, "Issue 16 goals, one run"). Run by hand on a quiet machine:
#
#   bash bench/issue-16.sh [output file]
#
# Prints the machine, then: contractors list/create against the bare routes, webhook deliveries/s
# with 20 endpoints and commit-to-first-attempt latency (polled, nudged, notified), the 1 M-row
# scale table, and idle memory and warm start. Takes about half an hour; the scale seeding is
# most of it. Everything goes to the output file as well as the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/issue-16-bench-$(date -u +%Y%m%dT%H%M%SZ).log}
run() {
  echo "## $*" | tee -a "$out"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
  "$@" 2>&1 | tee -a "$out"
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
}
{
  date -u
  echo "nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo); node $(node --version)"
  git log -1 --format='commit %h %s'
} | tee "$out"
for db in sqlite postgres; do
  run node --import tsx bench/contractors-api.ts "$db"
done
for db in sqlite postgres; do
  run node --import tsx bench/webhook-delivery.ts "$db" --endpoints 20
done
for db in sqlite postgres; do
  run node --import tsx bench/scale.ts "$db"
done
run node --import tsx bench/startup.ts --runs 5 --settle 60 --runtime compiled
echo "results: $out"
