#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Boot every platform and compare what the kernel shows (lab-facts in the
# guest) with what its description says (platgen facts): capacities, the
# SD_ASYM_CPUCAPACITY level, cpufreq policies with schedutil, Energy Model
# perf domains with the described power, the board model's cpuidle states,
# the NUMA nodes (one, node 0, on a platform that declares none), and
# 6.12's EAS started.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# compare NAME PATTERN: facts lines matching PATTERN, expected vs booted.
compare() {
	grep -E "$2" "$tmp/expected" >"$tmp/e" || true
	grep -E "$2" "$out/facts.txt" >"$tmp/g" || true
	if [ ! -s "$tmp/e" ]; then
		not_ok "$plat_name: $1: the description implies no such facts"
	elif cmp -s "$tmp/e" "$tmp/g"; then
		ok "$plat_name: $1 ($(wc -l <"$tmp/e") facts)"
	else
		not_ok "$plat_name: $1 differ (- description, + booted):"
		diff "$tmp/e" "$tmp/g" | sed -n 's/^\([<>]\)/    \1/p' | sed 's/^    </    -/; s/^    >/    +/'
	fi
}

# Past 64 CPUs a boot takes minutes here (dynamiq128: 145 s of host time
# for 0.16 s of guest time): make scale boots those, make check does not.
MAX_CPUS=64

for plat in "$PLATFORMS_DIR"/*.plat; do
	plat_name=$(basename "$plat" .plat)
	out=$tmp/$plat_name
	cpus=$("$PLATGEN" facts "$plat" | awk '$1 == "cpus" { print $2 }')
	if [ "${cpus:-0}" -gt "$MAX_CPUS" ]; then
		echo "# $plat_name: $cpus CPUs, booted by make scale, not here"
		continue
	fi
	"$PLATGEN" facts "$plat" >"$tmp/expected"
	if ! "$LAB_TOP/lab/run" -q -T 120 -p "$plat" -o "$out" idle >"$tmp/run.log" 2>&1; then
		not_ok "$plat_name: boots"
		sed 's/^/    /' "$tmp/run.log" | tail -n 30
		continue
	fi
	ok "$plat_name: boots and powers off"
	compare "CPU count and capacities" '^cpus |\.capacity '
	compare "lowest SD_ASYM_CPUCAPACITY domain" '\.asym_level '
	compare "cpufreq policies, governor, OPPs" '^policy'
	compare "Energy Model perf domains and power" '^pd'
	compare "NUMA nodes, their CPUs and distances" '^nodes |^node[0-9]+\.'
	# Only platforms with a board power model describe idle states.
	if grep -q '\.idle_states ' "$tmp/expected"; then
		compare "cpuidle states, exit latencies, residencies" \
			'\.idle_(states|latency|residency) '
	fi
	check "$plat_name: 6.12 EAS started (sched_verbose: sched_energy_set)" \
		grep -qx 'eas started' "$out/facts.txt"
done
tests_done
