#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of check (c) of the board meter in tests/guest/fidelity.sh:
# cpuidle's time in each idle state against the meter's time asked for in
# it, per CPU, over the seed's workload.  One line per CPU and state:
#   res CPU STATE SYSFS_US METER_NS
# Usage: residency-guest.sh SEED_JSON   (the rt-app file, as text)
# shellcheck disable=SC2016 # the sh -c scripts expand in the child
set -eu
CPUS=/sys/devices/system/cpu
mkdir -p /tmp/seed && cd /tmp/seed
printf '%s\n' "$1" >seed.json

# Each CPU's counters are read on that CPU, so that neither counts an idle
# period still running.
residency() {
	for c in $(cd "$CPUS" && echo cpu[0-9]*); do
		n=${c#cpu}
		taskset -c "$n" sh -c 'n=$1 line="" uses=""
			for s in /sys/devices/system/cpu/cpu$n/cpuidle/state*; do
				read -r t <"$s/time"; line="$line $t"
				read -r u <"$s/usage"; uses="$uses $u"
			done
			while read -r what cpu rest; do
				if [ "$what $cpu" = "cpu $n" ]; then
					echo "cpu $n sysfs$line usage$uses meter $rest"
				fi
			done </sys/kernel/debug/lab_emu/idle' sh "$n"
	done
}
residency >/tmp/res0
rt-app seed.json >/dev/null 2>&1
residency >/tmp/res1
# "res CPU STATE SYSFS_US METER_NS ENTRIES" for each state, over the run
# (fields: cpu N sysfs T0 T1 .. usage U0 U1 .. meter busy NS req R0 R1 ..
# eff ..)
paste /tmp/res0 /tmp/res1 | awk '{
	h = NF / 2
	for (u = 4; u <= h && $u != "usage"; u++)
		;
	for (i = u; i <= h && $i != "meter"; i++)
		;
	for (s = 0; s < u - 4; s++)
		printf "res %s %d %.0f %.0f %.0f\n", $2, s, $(h + 4 + s) - $(4 + s),
			$(h + i + 4 + s) - $(i + 4 + s), $(h + u + 1 + s) - $(u + 1 + s)
}'
