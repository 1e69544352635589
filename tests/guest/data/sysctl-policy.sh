#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/guest/series.sh: kernel.sched_energy_policy takes
# 0, 1 and 2 and refuses anything else with an error, the value unchanged;
# the series' scheduler features have their defaults and toggle (each
# left as it booted).
set -u
f=/proc/sys/kernel/sched_energy_policy
echo "default $(cat "$f")"
for v in 0 1 2; do
	if echo "$v" >"$f" && [ "$(cat "$f")" = "$v" ]; then
		echo "accepted $v"
	else
		echo "refused $v"
	fi
done
long=$(head -c 5000 /dev/zero | tr '\0' 9)
for v in 3 -1 abc '' 2x "$long"; do
	before=$(cat "$f")
	if echo "$v" >"$f" 2>/dev/null; then
		echo "accepted-bad ${v%"${v#???????}"}"
	elif [ "$(cat "$f")" != "$before" ]; then
		echo "changed-bad ${v%"${v#???????}"}"
	else
		echo "refused-bad ${v%"${v#???????}"}"
	fi
done

feat=/sys/kernel/debug/sched/features
for f in ENERGY_SD_FLAG ENERGY_SD_SEARCH ENERGY_MARGIN ENERGY_SD_ANY_CPU ENERGY_LEAVE_BUSY_PREV \
	ENERGY_LEAVE_BUSY_ONLY_FIT; do
	on=0 off=0 back=0
	grep -qw "$f" "$feat" && on=1
	echo "NO_$f" >"$feat" && grep -qw "NO_$f" "$feat" && off=1
	echo "$f" >"$feat" && grep -qw "$f" "$feat" && back=1
	[ "$on" = 1 ] || echo "NO_$f" >"$feat"
	echo "feature $f default $on off $off on $back"
done
