#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The benchmark's report, from what lab/bench left in DIR:
# DIR/report.md (the seed's tables with mean, RSD, % vs none, each policy
# against 6.12's EAS and against the optimum on the meter's model, where the
# energy went, the targets met or missed and by how much), one plot per
# platform (DIR/energy-PLATFORM.png, energy against N per policy),
# DIR/verdict.json (each target met or missed, with its evidence), and the
# report printed.  DIR/notes.md, when present (a human's analysis of a
# run, with trace evidence), is appended to the report.
#
# Usage: lab/bench-report.sh DIR
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
# shellcheck source=lab/lib.sh
. "$LAB_TOP/lab/lib.sh"

[ $# -eq 1 ] || die "usage: $0 DIR (a directory lab/bench wrote)"
dir=$1
[ -f "$dir/config" ] || die "$dir/config missing: not a directory lab/bench wrote"
EMCOST=${EMCOST:-$TOOLS_BIN/emcost}
[ -x "$EMCOST" ] || die "$EMCOST missing: run make tools"
[ -x "$PLATGEN" ] || die "$PLATGEN missing: run make tools"

cfg() {
	sed -n "s/^$1=//p" "$dir/config"
}
duration=$(cfg duration)
# One task's util: 800 us of work at speed 1024 every 16 ms, of 1024.
TASK_UTIL=51.2
MARGIN_PCT=20
# The tasks' period, for the board model's idle states.
PERIOD_US=16000
# The seed's Juno r0 savings against none (cover letter, 2.1.2), N = 10..50.
SEED_JUNO_SAVINGS='10:-33.42 20:-30.44 30:-31.49 40:-16.44 50:-3.96'
HB_TARGET_PCT=1
OPT_TARGET=1.05

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# plat_model PLATFILE: one line per CPU, "cpu K domain D cap C idle_uw I
# top_uw T", and one per OPP, "opp D cap C uw P idle_uw I", from platgen's
# model of the platform (docs/platform-format.md): the capacities the
# kernel derives, in its integers (a CPU's from capacity-dmips-mhz x top
# frequency, the largest = 1024; an OPP's the Energy Model's, scaled by
# its frequency).  The powers are the Energy Model's, or with board=1 the
# board model's the meter charges: a CPU's idle_uw its deepest idle power
# plus its share of its cluster's, top_uw its top OPP plus that share of
# the cluster's top power, an OPP's uw the CPU's active power there and
# idle_uw the CPU's deepest idle power (so that idle and top bound what
# the meter can read).
plat_model() {
	"$PLATGEN" model "$1" >"$tmp/platgen-model" || die "platgen model $1 failed"
	awk -v board="$board" '
	function lower(a, b) { return a == "" || b < a ? b : a }
	# "KIND ID KEY VALUE...": v[KEY] = VALUE; a number is "-" when not in
	# the file, which counts as 0 here.
	{ split("", v); for (i = 3; i < NF; i += 2) v[$i] = $(i + 1) }
	$1 == "domain" { d = $2; nd++; dom[nd] = d; n[d] = v["nr_cpus"] + 0; idle[d] = v["idle_power_uw"] + 0 }
	$1 == "cpu" { cpus[v["domain"]] = cpus[v["domain"]] " " $2; cap[v["domain"]] = v["capacity"] + 0 }
	$1 == "opp" { no[d]++; ocap[d, no[d]] = v["capacity"] + 0; uw[d, no[d]] = v["power_uw"] + 0
		bcpu[d, no[d]] = topb[d] = v["board_cpu_uw"] + 0; topuw[d] = v["power_uw"] + 0
		if (v["board_cluster_uw"] + 0 > bcltop[d]) bcltop[d] = v["board_cluster_uw"] + 0 }
	$1 == "idle" { bidle[d] = lower(bidle[d], v["board_cpu_uw"] + 0); bclidle[d] = lower(bclidle[d], v["board_cluster_uw"] + 0) }
	END {
		for (i = 1; i <= nd; i++) {
			d = dom[i]
			ci = idle[d]; ct = topuw[d]; oi = idle[d]
			if (board) {
				ci = bidle[d] + bclidle[d] / n[d]; ct = topb[d] + bcltop[d] / n[d]; oi = bidle[d]
			}
			split(substr(cpus[d], 2), c, " ")
			for (k = 1; k <= n[d]; k++)
				printf "cpu %d domain %s cap %d idle_uw %d top_uw %d\n", c[k], d, cap[d], ci, ct
			for (k = 1; k <= no[d]; k++)
				printf "opp %s cap %d uw %d idle_uw %d\n", d, ocap[d, k],
					board ? bcpu[d, k] : uw[d, k], oi
		}
	}' "$tmp/platgen-model"
}

# The meter the run read: the board's (cluster channels in its energy
# lines; lab_emu's default since 2026-12-04) or the Energy Model's (older
# runs, or lab_emu.em_meter=1).  The optimum and the bounds are priced
# on the same model.
board=0
if grep -sh '^bench-energy ' "$dir"/*-energy/experiment.log |
	awk '$18 == "clusters_uj" && $19 != "-" { f = 1 } END { exit !f }'; then
	board=1
fi

# add KEY X collects X under KEY; stats KEY returns their mean and sets sd
# (sample standard deviation).
stats_awk='
function stats(key,   m, v, i) {
	m = sum[key] / cnt[key]; v = 0
	for (i = 1; i <= cnt[key]; i++) v += (val[key, i] - m) ^ 2
	sd = cnt[key] > 1 ? sqrt(v / (cnt[key] - 1)) : 0
	return m
}
function add(key, x) { cnt[key]++; sum[key] += x; val[key, cnt[key]] = x }
'

kernel_version() {
	tr -d '\r' <"$1" | sed -n 's/^\[[^]]*\] //; s/^\(Linux version [^ ]*\).* \(#[0-9].*\)$/\1 \2/p' | head -n 1
}

{
	echo "# Benchmarks: the seed's energy and hackbench tests, $(cfg date)"
	echo
	echo "Command: \`$(cfg command)\` (the Makefile's \`make bench\` runs it)."
	for boot in "$dir"/*-energy "$dir"/*-hackbench; do
		[ -f "$boot/console.log" ] && echo "Kernel (${boot##*/} boot): $(kernel_version "$boot/console.log")."
	done
	if [ -f "$dir/hostload.txt" ]; then
		echo "Host load (1, 5, 15 min averages) at the end of each boot, 2 cores shared with other work:"
		awk '$2 == "end" { printf "%s%s %s/%s/%s", sep, $1, $3, $4, $5; sep = "; " } END { print "." }' "$dir/hostload.txt"
	fi
	echo "Series: patches/ at commit $(cfg series_commit), sha256 of the patches in series order $(cfg series_sha); lab at $(cfg lab_commit)."
	echo
	echo "Energy test: N periodic rt-app tasks, 16 ms period, 800 us of work at speed 1024 (util $TASK_UTIL),"
	echo "$duration s per run, $(cfg iter) runs per policy and N; hackbench --pipe --threads -g G -l $(cfg hb_loops),"
	echo "$(cfg hb_iter) runs per policy and G.  Policies switched through kernel.sched_energy_policy in one"
	echo "boot per platform and test, interleaved, their order rotating each iteration.  Energy from the lab's"
	if [ "$board" = 1 ]; then
		echo "meter, charging the board's power model (CPUs and clusters, idle states), over each rt-app run"
		echo "(its start to its exit).  Optimum: \`emcost -B -p $PERIOD_US optimum PLATFILE ${TASK_UTIL}xN\` (the"
		echo "cheapest static placement on the same board model, idle states chosen by the gaps the period"
		echo "leaves), its power over the metered window."
	else
		echo "meter (CPUs only, the Energy Model's power: lab_emu.em_meter=1 or a run before 2026-12-04) over"
		echo "each rt-app run (its start to its exit).  Optimum: \`emcost optimum -m $MARGIN_PCT PLATFILE ${TASK_UTIL}xN\`"
		echo "(the best static placement, each frequency domain at its lowest OPP with ${MARGIN_PCT}% margin,"
		echo "LISA's rule), its power over the run's $duration s plus every CPU's idle power over the rest of"
		echo "the metered window."
	fi
	echo "RSD: standard deviation / mean.  Series vs 6.12 \"paired\": the mean over iterations of the series'"
	echo "energy over 6.12's in the same iteration (adjacent runs, so drift of the host cancels), +- twice"
	echo "its standard error.  Lower is better everywhere."
} >"$tmp/head.md"

: >"$tmp/targets.md"
: >"$tmp/body.md"
for plat in $(cfg platforms); do
	platfile=$(platform_file "$plat")
	plat_model "$platfile" >"$tmp/model"
	elog=$dir/$plat-energy/experiment.log
	hlog=$dir/$plat-hackbench/experiment.log

	# The optimum per N, from emcost.
	: >"$tmp/opt"
	for n in $(cfg n); do
		# A search that does not end is reported, not waited for.
		if [ "$board" = 1 ]; then
			set -- -B -p "$PERIOD_US" optimum "$platfile" "${TASK_UTIL}x$n"
		else
			set -- optimum -m "$MARGIN_PCT" "$platfile" "${TASK_UTIL}x$n"
		fi
		if ! out=$(timeout "${EMCOST_TIMEOUT:-300}" "$EMCOST" "$@"); then
			log "warning: emcost optimum failed for $plat, $n tasks: no optimum in the report"
			out='power_uw -'
		fi
		echo "$out" | awk -v n="$n" '
			$1 == "power_uw" { p = $2 }
			$1 == "domain" { d = d sep $2 "@" $4 / 1000 "MHz"; sep = "," }
			END { printf "%d %s %s\n", n, p, d }' >>"$tmp/opt"
	done

	# Energy: per N and policy, mean and RSD, the optimum, the big CPUs'
	# share of the energy (where the tasks ran), a lower bound and an upper
	# bound no run can cross (see tests/guest/bench.sh).
	grep -s '^bench-energy ' "$elog" >"$tmp/energy" || true
	awk -v dur="$duration" -v board="$board" "$stats_awk"'
	FILENAME ~ /model$/ && $1 == "cpu" { dom[$2] = $4; cap[$2] = $6; idle_all += $8; top_all += $10
		if ($6 > bigcap) bigcap = $6; next }
	FILENAME ~ /model$/ && $1 == "opp" { c = ($6 - $8) / $4; if (mincost == "" || c < mincost) mincost = c; next }
	FILENAME ~ /opt$/ { opt[$1] = $2; optdom[$1] = $3; next }
	{
		n = $3; p = $5
		# Lower bound: every CPU idle the whole window, plus the work at the
		# cheapest marginal cost of any OPP; upper: every CPU at its top OPP.
		acts = int(dur * 1000 / 16)
		lo = idle_all * $9 / 1e6 + n * acts * 800 * 1024 * mincost / 1e6
		hi = top_all * $9 / 1e6
		printf "bound n %d policy %s rep %d total_uj %.0f low_uj %.0f high_uj %.0f domains_uj %.0f\n",
			n, p, $7, $11, lo, hi, $13 > "/dev/stderr"
		# The tables are policies 0, 1 and 2; others (b, the 2018 RFC 4.16-like
		# baseline: lab/rfc reports it) only get their bounds.
		if (p !~ /^[012]$/) next
		k = n " " p; seen[n] = 1
		add(k, $11 / 1e6); add(k " w", $9 / 1e6)
		ej[n, p, $7] = $11; reps[$7] = 1
		split($15, cs, ","); big = 0
		for (i in cs) { split(cs[i], f, ":"); c = substr(f[1], 4); if (cap[c] == bigcap) big += f[2] }
		add(k " big", 100 * big / $11)
	}
	END {
		for (n = 0; n <= 1000; n++) {
			if (!(n in seen)) continue
			line = n
			for (p = 0; p <= 2; p++) {
				k = n " " p
				if (!(k in cnt)) { line = line " - - - - -"; continue }
				m = stats(k); s = sd
				w = stats(k " w"); b = stats(k " big")
				line = line sprintf(" %.4f %.2f %d %.4f %.1f", m, 100 * s / m, cnt[k], w, b)
				wsum += w; wcnt++
			}
			# The optimum over the mean window: its power for the run, idle
			# after (the board model prices its idle states already).
			ow = wsum / wcnt; wsum = wcnt = 0
			oj = opt[n] == "-" ? "-" : sprintf("%.4f", (opt[n] * (board ? ow : dur) + (board ? 0 : idle_all * (ow - dur))) / 1e6)
			# Series vs 6.12 paired within each iteration: the two ran minutes
			# apart at most, so drift of the host cancels out.
			for (r in reps)
				if ((n, 1, r) in ej && (n, 2, r) in ej) add(n " pair", 100 * (ej[n, 2, r] / ej[n, 1, r] - 1))
			pair = "- -"
			if ((n " pair") in cnt) { pm = stats(n " pair"); pair = sprintf("%+.1f %.1f", pm, 2 * sd / sqrt(cnt[n " pair"])) }
			print line, oj, (optdom[n] == "" ? "-" : optdom[n]), pair
		}
	}' "$tmp/model" "$tmp/opt" "$tmp/energy" >"$tmp/etab" 2>"$dir/bounds-$plat.txt"
	# etab: n, then per policy (mean J, RSD %, runs, window s, big share %),
	# optimum J, optimum OPPs, series vs 6.12 paired per iteration (mean %, 2 SE)

	awk -v plat="$plat" -v seeds="$SEED_JUNO_SAVINGS" -v optmax="$OPT_TARGET" -v targets="$tmp/targets.md" '
	function pct(a, b) { return b > 0 && a != "-" ? sprintf("%+.2f%%", 100 * (a - b) / b) : "-" }
	function ratio(a, b) { return b > 0 && a != "-" ? sprintf("%.2f", a / b) : "-" }
	function paired() { return $19 == "-" ? "" : sprintf(" (paired %+.1f%% +-%.1f)", $19, $20) }
	BEGIN {
		print "## " plat ": energy (J)\n"
		print "| Tasks | none: Mean | RSD | 6.12 EAS: Mean (vs none) | RSD | series: Mean (vs none) | RSD | series vs 6.12 | optimum | 6.12 / opt | series / opt |"
		print "|---|---|---|---|---|---|---|---|---|---|---|"
		nseed = split(seeds, sv, " "); for (i = 1; i <= nseed; i++) { split(sv[i], f, ":"); seed[f[1]] = f[2] }
	}
	{
		n = $1; e0 = $2; e1 = $7; e2 = $12; opt = $17
		rows[++nr] = $0
		printf "| %d | %s | %s%% | %s (%s) | %s%% | %s (%s) | %s%% | %s | %s | %s | %s |\n", n,
			e0, $3, e1, pct(e1, e0), $8, e2, pct(e2, e0), $13, pct(e2, e1) paired(), opt, ratio(e1, opt), ratio(e2, opt)
		if (e2 == "-" || e1 == "-") { t1miss = t1miss " N=" n " (missing)"; t1bad++; next }
		d = 100 * (e2 - e1) / e1
		if (d > 0) { t1miss = t1miss sprintf(" N=%d: %+.1f%%%s", n, d, paired()); t1bad++ }
		else t1ok = t1ok sprintf(" N=%d: %+.1f%%", n, d)
		if (opt == "-") { t4miss = t4miss " N=" n " (no optimum)"; t4bad++ }
		else if ((r = e2 / opt) > optmax) { t4miss = t4miss sprintf(" N=%d: %.2f", n, r); t4bad++ }
		else t4ok = t4ok sprintf(" N=%d: %.2f", n, r)
		if (plat == "juno-r0" && (n in seed)) {
			s = 100 * (e2 - e0) / e0
			# What no placement could beat: the optimum against none.
			best = opt == "-" ? "" : sprintf("; optimum %+.1f%%", 100 * (opt - e0) / e0)
			if (s > seed[n]) { t2miss = t2miss sprintf(" N=%d: %+.1f%% vs seed %+.1f%% (%.1f points short%s)", n, s, seed[n], s - seed[n], best); t2bad++ }
			else t2ok = t2ok sprintf(" N=%d: %+.1f%% vs seed %+.1f%%", n, s, seed[n])
			t2seen++
		}
	}
	END {
		print "\nWhere the energy went (share of the big CPUs, mean over runs) and the optimum'"'"'s OPPs:\n"
		print "| Tasks | none big % | 6.12 big % | series big % | optimum OPPs | series run window (s) |"
		print "|---|---|---|---|---|---|"
		for (i = 1; i <= nr; i++) {
			split(rows[i], f, " ")
			printf "| %d | %s | %s | %s | %s | %s |\n", f[1], f[6], f[11], f[16], f[18], f[15]
		}
		print ""
		printf "- %s, series energy <= 6.12 EAS at every N: **%s**;%s\n", plat,
			t1bad ? "missed" : "met", t1bad ? " above at" t1miss (t1ok ? "; at or below at" t1ok : "") : t1ok >> targets
		if (t2seen)
			printf "- %s, series savings against none at least the seed'"'"'s: **%s**;%s\n", plat,
				t2bad ? "missed" : "met", t2bad ? t2miss (t2ok ? "; met at" t2ok : "") : t2ok >> targets
		printf "- %s, series energy <= %.2f x the optimum: **%s**; series / optimum%s\n", plat, optmax,
			t4bad ? "missed" : "met", t4bad ? " above at" t4miss (t4ok ? "; within at" t4ok : "") : t4ok >> targets
	}' "$tmp/etab" >>"$tmp/body.md"

	# hackbench: per G and policy, mean and RSD of the time.
	grep -s '^bench-hackbench ' "$hlog" >"$tmp/hb" || true
	awk -v plat="$plat" -v maxpct="$HB_TARGET_PCT" -v targets="$tmp/targets.md" "$stats_awk"'
	function pct(a, b) { return b > 0 ? sprintf("%+.2f%%", 100 * (a - b) / b) : "-" }
	$5 ~ /^[012]$/ { k = $3 " " $5; add(k, $9); seen[$3] = 1 }
	END {
		print "## " plat ": hackbench time (s)\n"
		print "| Groups | Tasks | none: Mean | RSD | 6.12 EAS: Mean (vs none) | RSD | series: Mean (vs none) | RSD | series vs 6.12 |"
		print "|---|---|---|---|---|---|---|---|---|"
		for (g = 1; g <= 1000; g++) {
			if (!(g in seen)) continue
			for (p = 0; p <= 2; p++) {
				k = g " " p
				if (k in cnt) { m[p] = stats(k); r[p] = sprintf("%.2f%%", 100 * sd / m[p]) }
				else { m[p] = 0; r[p] = "-" }
			}
			printf "| %d | %d | %.3f | %s | %.3f (%s) | %s | %.3f (%s) | %s | %s |\n", g, 40 * g,
				m[0], r[0], m[1], pct(m[1], m[0]), r[1], m[2], pct(m[2], m[0]), r[2], pct(m[2], m[1])
			if (m[0] > 0 && m[2] > 0) {
				d = 100 * (m[2] - m[0]) / m[0]
				if (d > maxpct) { miss = miss sprintf(" G=%d: %+.1f%%", g, d); bad++ }
				else ok = ok sprintf(" G=%d: %+.1f%%", g, d)
			} else { miss = miss " G=" g "(missing)"; bad++ }
		}
		print ""
		if (!length(seen)) { miss = " no hackbench run"; bad++ }
		printf "- %s, series hackbench time against none at most +%d%%: **%s**;%s\n", plat, maxpct,
			bad ? "missed" : "met", bad ? " above at" miss (ok ? "; within at" ok : "") : ok >> targets
	}' "$tmp/hb" >>"$tmp/body.md"

	# The plot: energy against N per policy, the optimum beside them.
	optlabel="optimum (EM, ${MARGIN_PCT}% margin)"
	[ "$board" = 0 ] || optlabel="optimum (board model)"
	awk '{ print $1, $2, $2 * $3 / 100, $7, $7 * $8 / 100, $12, $12 * $13 / 100, $17 }' \
		"$tmp/etab" >"$dir/energy-$plat.dat"
	gnuplot <<-PLOT || die "gnuplot failed for $plat"
	set terminal pngcairo size 800,560
	set output "$dir/energy-$plat.png"
	set title "$plat: energy of N periodic tasks (16 ms, 5%), ${duration} s runs, mean +- sd"
	set xlabel "tasks (N)"
	set ylabel "energy (J)"
	set key left top
	set grid
	plot "$dir/energy-$plat.dat" using 1:2:3 with yerrorlines title "none", \
	     "" using 1:4:5 with yerrorlines title "6.12 EAS", \
	     "" using 1:6:7 with yerrorlines title "this series", \
	     "" using 1:8 with linespoints dashtype 2 title "$optlabel"
	PLOT
	echo "![$plat energy](energy-$plat.png)" >>"$tmp/body.md"
	echo >>"$tmp/body.md"
done

{
	cat "$tmp/head.md"
	echo
	cat "$tmp/body.md"
	echo "## Targets"
	echo
	cat "$tmp/targets.md"
	if [ -f "$dir/notes.md" ]; then
		echo
		cat "$dir/notes.md"
	fi
} >"$dir/report.md"
# The targets, machine-readable: one case per target line, "met" or not,
# with the line's evidence.
sed -n 's/^- \(.*\): \*\*\(met\|missed\)\*\*;* *\(.*\)$/\2\t\1\t\3/p' "$tmp/targets.md" |
	jq -R -s '[split("\n")[] | select(. != "") | split("\t")
		| {met: (.[0] == "met"), target: .[1], evidence: .[2]}] as $t
		| {met: ([$t[] | select(.met)] | length),
		   missed: ([$t[] | select(.met | not)] | length), targets: $t}' >"$dir/verdict.json"
cat "$dir/report.md"
