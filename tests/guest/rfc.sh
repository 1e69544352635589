#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make rfc, reduced: Juno r0, N = 10, 2 s runs, 1 rep, the RFC's baseline
# (b) and the series (2), under both schedutil modes (two boots); checks
# that every cell is there, that every run's energy is physically
# possible, and that the report renders.  Not the targets: those are the
# full run's (docs/rfc-table.md).
#
# Physically possible, on the board model the meter charges: > 0, and
# below every CPU and every cluster at its top OPP for the whole metered
# window; the CPU and cluster channels add up to the total, and so do the
# frequency-domain channels; each cluster is powered no longer than the
# window and busy no longer than it is powered; each cpufreq policy's time
# at its OPPs adds up to the window.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/rfc
MODES='4.16 6.12'
POLICIES='b 2'

rc=0
"$LAB_TOP/lab/rfc" -p juno-r0 -N 10 -d 2 -r 1 -s "$MODES" -P "$POLICIES" -o "$out" >"$tmp/log" 2>&1 || rc=$?
awk '/^## juno-r0: energy/ { f = 1 } /^## / && !/^## juno-r0: energy/ { f = 0 } f || /^- \(/ || /^make rfc took/' "$tmp/log" |
	sed 's/^/    /'
check "reduced make rfc runs to its end (exit $rc)" [ "$rc" -eq 0 ]
check "progress: boot 1 of 2, then boot 2 of 2 with the time spent and left" \
	sh -c "grep -q 'boot 1 of 2: juno-r0, schedutil 4.16' '$tmp/log' &&
		grep -q 'boot 2 of 2 ([0-9]*m[0-9]*s so far, about [0-9]*m[0-9]*s left): juno-r0, schedutil 6.12' '$tmp/log'"

# The board model's ceiling: every CPU at its top board-opp power, and
# every cluster at its top cluster power, in uW.
ceiling=$("$PLATGEN" model "$LAB_TOP/lab/platforms/juno-r0.plat" | awk '
	{ split("", v); for (i = 3; i < NF; i += 2) v[$i] = $(i + 1) }
	$1 == "domain" { n[$2] = v["nr_cpus"] }
	$1 == "opp" { if (v["board_cpu_uw"] > cpu[$2]) cpu[$2] = v["board_cpu_uw"]
		if (v["board_cluster_uw"] > cl[$2]) cl[$2] = v["board_cluster_uw"] }
	END { for (d in n) t += n[d] * cpu[d] + cl[d]; print t }')

for m in $MODES; do
	elog=$out/juno-r0-su$m/experiment.log
	got=$(awk -v m="$m" '$1 == "bench-energy" && $16 == "su" && $17 == m { print $3 " " $5 }' "$elog" 2>/dev/null | sort | tr '\n' ' ')
	check "schedutil $m: one run per cell, N=10 x {$POLICIES}, each line with su $m ($got)" \
		[ "$got" = "10 2 10 b " ]
	bad=$(awk -v ceil="$ceiling" '$1 == "bench-energy" {
		e = $11; w = $9
		if (!(e > 0 && w >= 2000000 && e < ceil * w / 1e6)) { print "energy out of (0, ceiling):", $0; next }
		split($15, c, ","); s = 0; for (i in c) { split(c[i], f, ":"); s += f[2] }
		if ($19 == "-") { print "no cluster channels:", $0; next }
		split($19, c, ","); for (i in c) { split(c[i], f, ":"); s += f[2] }
		d = s - e; if (d < 0) d = -d; if (d > e / 100) { print "cpus + clusters != total:", $0; next }
		d = $13 - e; if (d < 0) d = -d; if (d > e / 100) { print "domains != total:", $0; next }
		split($21, on, ","); split($23, busy, ",")
		if (length(on) != 2 || length(busy) != 2) { print "not 2 clusters on and busy:", $0; next }
		for (i in on) { split(on[i], f, ":"); split(busy[i], g, ":")
			if (f[2] > w / 1000 + 1 || g[2] > f[2] + 0.1 || g[2] <= 0) { print "cluster times:", $0; next } }
		# cpufreq stats count in 10 ms and their snapshots bracket the window.
		if ($24 != "opp_ms" || split($25, pol, ",") != 2) { print "not 2 policies with OPP times:", $0; next }
		for (i in pol) { split(pol[i], f, ":"); k = split(f[2], o, "/"); t = 0
			for (j = 1; j <= k; j++) { split(o[j], v, "="); t += v[2] }
			if (t < w / 1000 - 20 || t > w / 1000 + 100) { print "OPP times do not add up to the window:", $0; next } }
	}' "$elog" 2>/dev/null)
	check "schedutil $m: every run's energy > 0 and < all CPUs and clusters at top OPP ($ceiling uW) over its window, channels add up, cluster times possible, OPP times add up to the window" \
		[ -z "$bad" ]
	echo "$bad" | sed '/^$/d; s/^/    /'
done

report=$out/report.md
for m in $MODES; do
	check "report: Juno r0 table under schedutil $m, its N=10 row complete" \
		sh -c "awk -v h='## juno-r0: energy (J per 30 s), schedutil $m' '\$0 == h { f = 1; next } /^## / { f = 0 } f' '$report' |
			grep '^| 10 | 11.52 | 7.67 (-33.42%) |' |
			awk -F'|' 'NF == 11 { for (i = 2; i <= 10; i++) if (\$i ~ /^ *-? *\$/) exit 1; ok = 1 } END { exit !ok }'"
done
check "report: both targets stated met or missed, with N=10's numbers" \
	sh -c "[ \$(grep -c -E '^- \((a|b)\) .*\*\*(met|missed)\*\*; N=10: ' '$report') -eq 2 ]"
check "report: the run scaled to 30 s, and said so" grep -q '^\*\*Scaled\*\*: the runs last 2 s' "$report"
check "report.json: 4 cells, none missing, baseline and series > 0 J per 30 s" \
	json_true "$out/report.json" '(.cells | length) == 4 and (.missing | length) == 0 and all(.cells[]; .mean_j30 > 0)'
tests_done
