#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Lab fidelity (docs/lab-fidelity.md).  On Juno r0, in one boot, the
# emulated speed and the Energy Model's meter, booted with
# lab_emu.em_meter=1 cpuidle.off=1, the lab as it was before the board's
# meter (so that the board meter's check (e) below reproduces the earlier
# figures):
# speed (a) a fixed amount of work takes 1024/speed times as long on each
#     CPU type at its lowest and top OPP (userspace governor), within 5%;
# speed (b) 4 tasks of pure work on 4 CPUs finish in the same guest time
#     as 1 task on 1 CPU, within 5%;
# (e) EM meter: a task pinned to one CPU at a fixed OPP for a known busy
#     time reads the energy computed by hand from the platform file, 1%;
# (e) EM meter: the seed's workload (10 tasks, 16 ms period, 5% duty, 10
#     s) run FIDELITY_RUNS (5) times in the same boot: energy RSD below 3%;
# and real instructions (hackbench) run visibly slower on a LITTLE CPU,
# summary.json reports the energy the experiment used.
# The board meter, by hand from tests/guest/data/board-fidelity.plat (its
# own boot) and on Juno r0:
# (a) an idle CPU reaches its deepest state and is charged its power, 1%;
# (b) an idle cluster is charged its cluster-sleep power; with one CPU
#     busy, the cluster its active power at the OPP, the busy CPU its
#     active power, the idle one its CPU state's power (cluster up), 1%;
# (c) Juno r0, seed workload: the meter's time in each idle state as asked
#     for matches cpuidle's sysfs time, each CPU and state, within 1% or 2
#     us per entry into the state, whichever is more: the meter counts
#     0.7-1.2 us more per entry than cpuidle (measured on every CPU and
#     state), so a state entered often for little time differs by more
#     than 1% (CI once failed on 11 ms of WFI, +1.08%);
# (d) with lab_emu.exit_latency on, a periodic task woken from a deep
#     state starts late by the state's exit latency (rt-app's wu_lat
#     against WFI only), within 10%; CPU 3 offline, so its cluster is down
#     most of each cluster-sleep run (at least half) and never otherwise;
# (f) and the latency is not its running time: its utilization woken from
#     each state is the same as from WFI only, within 20%;
#     (d) and (f) on the median of three runs each.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=${FIDELITY_RUNS:-5}
plat=$LAB_TOP/lab/platforms/juno-r0.plat
o=$tmp/fidelity
if ! "$LAB_TOP/lab/run" -q -T 400 -o "$o" -a "lab_emu.em_meter=1 cpuidle.off=1" \
	"$LAB_TOP/tests/guest/data/fidelity-guest.sh" \
	"$(cat "$LAB_TOP/lab/experiments/seed-energy.json")" "$runs" >"$tmp/out" 2>&1; then
	not_ok "fidelity experiment runs"
	tail -n 20 "$tmp/out" | sed 's/^/    /'
	tests_done
fi
res=$o/experiment.log

# within PCT MEASURED EXPECTED: |MEASURED/EXPECTED - 1| <= PCT%.
# shellcheck disable=SC2317 # reached: shellcheck takes tests_done above for an exit
within() {
	awk -v p="$1" -v m="$2" -v e="$3" 'BEGIN { d = m / e - 1; exit !(d <= p / 100 && d >= -p / 100) }'
}
# err MEASURED EXPECTED: signed error in %, 2 decimals.
err() {
	awk -v m="$1" -v e="$2" 'BEGIN { printf "%+.2f", 100 * (m / e - 1) }'
}

# (a) expected ns = work x 1024 / (capacity x cur / max)
n=0
while read -r _ pol cpu cap khz max work ns; do
	n=$((n + 1))
	want=$(awk -v w="$work" -v c="$cap" -v f="$khz" -v m="$max" 'BEGIN { printf "%.0f", w * 1024 * m / (c * f) }')
	check "speed (a) $pol CPU$cpu (capacity $cap) at $((khz / 1000)) MHz: $((work / 1000000)) ms of work took $((ns / 1000)) us, expected $((want / 1000)) us ($(err "$ns" "$want")%, limit 5%)" \
		within 5 "$ns" "$want"
done <<EOF_A
$(grep '^a ' "$res")
EOF_A
check "speed (a) measured every CPU type at 2 OPPs (got $n)" [ "$n" -eq 4 ]

# (b)
read -r _ pol work one four <<EOF_B
$(grep '^b ' "$res")
EOF_B
check "speed (b) 4 tasks of $((work / 1000000)) ms work on the 4 CPUs of $pol: $((four / 1000)) us vs 1 task $((one / 1000)) us ($(err "$four" "$one")%, limit 5%)" \
	within 5 "$four" "$one"

# (e), (c): expected uJ = busy time x the OPP's power in the
# platform file's Energy Model (platgen's model of it: cpu lines come
# before opp lines)
read -r _ pol cpu cap khz max work uj ns <<EOF_C
$(grep '^c ' "$res")
EOF_C
uw=$("$PLATGEN" model "$plat" | awk -v c="$cpu" -v f="$khz" '
	{ split("", v); for (i = 3; i < NF; i += 2) v[$i] = $(i + 1) }
	$1 == "cpu" && $2 == c { mine = v["domain"] }
	$1 == "opp" && $2 == mine && v["khz"] == f { print v["power_uw"] }')
want=$(awk -v w="$work" -v c="$cap" -v f="$khz" -v m="$max" -v p="$uw" \
	'BEGIN { printf "%.0f", w * 1024 * m / (c * f) * p / 1e9 }')
check "(e) EM meter: CPU$cpu at $((khz / 1000)) MHz ($uw uW) busy $((ns / 1000)) us: $uj uJ, by hand $want uJ ($(err "$uj" "$want")%, limit 1%)" \
	within 1 "$uj" "$want"

# Item 3: hackbench pinned to one LITTLE and one big CPU at their top OPP
little=$(awk '$1 == "h" && $4 < 1024 { print $5; exit }' "$res")
big=$(awk '$1 == "h" && $4 == 1024 { print $5; exit }' "$res")
ratio=$(awk -v l="${little:-0}" -v b="${big:-0}" 'BEGIN { printf "%.2f", (b > 0 ? l / b : 0) }')
check "hackbench on a LITTLE CPU ${little:-?} s vs big ${big:-?} s: ${ratio}x slower (1024/446 = 2.30 modelled; at least 1.5x)" \
	awk -v r="$ratio" 'BEGIN { exit !(r >= 1.5) }'

# (d) energy of each run of the seed workload, its RSD
stats=$(awk '$1 == "d" { n++; s += $3; q += $3 * $3 } END {
	if (n < 2) { print "0 0 0"; exit }
	m = s / n; v = (q - n * m * m) / (n - 1); if (v < 0) v = 0
	printf "%d %.0f %.2f\n", n, m, 100 * sqrt(v) / m }' "$res")
read -r nd mean rsd <<EOF_D
$stats
EOF_D
# With the guest clock counting instructions (lab/run, LAB_ICOUNT) the
# spread is the scheduler's own, not the host's load: 0.4-0.8% measured.
# One run in five can land in another placement (1581 mJ against
# 1716-1764 in one make check), so the limit is on a robust spread:
# 1.4826 x the median absolute deviation over the median (= the RSD for
# normal data), which one outlier cannot move but a general spread does.
robust=$(awk '$1 == "d" { v[++n] = $3 } END {
	if (n < 2) { print 100; exit }
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	for (i = 1; i <= n; i++) { d[i] = v[i] - med; if (d[i] < 0) d[i] = -d[i] }
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (d[j] < d[i]) { t = d[i]; d[i] = d[j]; d[j] = t }
	mad = n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2
	printf "%.2f\n", 100 * 1.4826 * mad / med }' "$res")
check "(e) EM meter: seed workload, $nd runs of 10 s: energy $(awk '$1 == "d" { printf "%s%.1f", sep, $3 / 1000; sep = "/" }' "$res") mJ, mean $((mean / 1000)) mJ, RSD ${rsd}%, robust spread ${robust}% (limit 3%)" \
	awk -v r="$robust" -v n="$nd" 'BEGIN { exit !(n >= 2 && r < 3) }'
check "(e) EM meter: all $runs runs of the seed workload completed (got $nd)" [ "$nd" -eq "$runs" ]

# The summary reports the energy: total = sum of domains = sum of CPUs and
# clusters (none on the Energy Model's meter), within 0.1% (the channels
# are read one after the other)
check "summary.json: energy total $(jq -r '.energy.total_uj' "$o/summary.json") uJ = its domains = its CPUs + clusters" \
	json_true "$o/summary.json" '.energy.total_uj > 0 and
		(([.energy.domains_uj[]] | add) - .energy.total_uj | length) <= .energy.total_uj / 1000 and
		(([.cpus[].energy_uj] | add) + ([.energy.clusters_uj[]] | add) - .energy.total_uj | length) <=
			.energy.total_uj / 1000'
check "lab/report.sh prints the energy" sh -c "'$LAB_TOP/lab/report.sh' '$o' | grep -q '^energy: [0-9.]* J (policy0 '"

# (c) board meter, Juno r0, a boot of its own: "res CPU STATE SYSFS_US
# METER_NS ENTRIES" per CPU and state over the seed's workload; states used
# for under 10 ms are shown with the others but carry too little time to
# weigh 1%.
ro=$tmp/residency
if ! "$LAB_TOP/lab/run" -q -T 200 -o "$ro" "$LAB_TOP/tests/guest/data/residency-guest.sh" \
	"$(cat "$LAB_TOP/lab/experiments/seed-energy.json")" >"$tmp/rout" 2>&1; then
	not_ok "residency experiment runs"
	tail -n 20 "$tmp/rout" | sed 's/^/    /'
	tests_done
fi
n=0
while read -r _ cpu st us ns entries; do
	n=$((n + 1))
	if [ "$us" -lt 10000 ]; then
		ok "(c) CPU$cpu state$st: cpuidle ${us} us, meter $((ns / 1000)) us (under 10 ms: not weighed)"
		continue
	fi
	# 1%, or 2 us per entry where that is more.
	slack=$(awk -v us="$us" -v e="${entries:-0}" 'BEGIN { s = 2 * e * 100 / us; printf "%.2f", (s > 1 ? s : 1) }')
	check "(c) CPU$cpu state$st: cpuidle $((us / 1000)) ms, meter $((ns / 1000000)) ms asked for in ${entries:-?} entries ($(err "$ns" "$((us * 1000))")%, limit ${slack}%)" \
		within "$slack" "$ns" "$((us * 1000))"
done <<EOF_C
$(grep '^res ' "$ro/experiment.log")
EOF_C
check "(c) residencies of every CPU and state (got $n, want 18)" [ "$n" -eq 18 ]

# The board meter on its test platform, in a boot of its own.
bplat=$LAB_TOP/tests/guest/data/board-fidelity.plat
bo=$tmp/board
if ! "$LAB_TOP/lab/run" -q -T 200 -p "$bplat" -o "$bo" \
	"$LAB_TOP/tests/guest/data/board-fidelity-guest.sh" >"$tmp/bout" 2>&1; then
	not_ok "board meter experiment runs"
	tail -n 20 "$tmp/bout" | sed 's/^/    /'
	tests_done
fi
bres=$bo/experiment.log
"$PLATGEN" model "$bplat" >"$tmp/bmodel" || not_ok "platgen model $bplat"
# model_field KIND DOMAIN INDEX KEY: KEY of the KIND line (opp: index 0 the
# lowest OPP; idle: index 0 WFI, then the board-idle lines) of domain
# DOMAIN in platgen's model of the test platform, the hand-written figures.
model_field() {
	awk -v kind="$1" -v d="$2" -v n="$3" -v key="$4" '$1 == kind && $2 == d {
		split("", v); for (i = 3; i < NF; i += 2) v[$i] = $(i + 1)
		if (v["index"] == n) print v[key] }' "$tmp/bmodel"
}
# power_check NAME UJ NS UW: the energy UJ over NS is UW within 1%.
power_check() {
	want=$(awk -v t="$3" -v p="$4" 'BEGIN { printf "%.0f", t * p / 1e9 }')
	check "$1: $2 uJ in $(($3 / 1000000)) ms = $(awk -v e="$2" -v t="$3" 'BEGIN { printf "%.0f", e * 1e9 / t }') uW, by hand $4 uW ($(err "$2" "$want")%, limit 1%)" \
		within 1 "$2" "$want"
}
# The deepest state of the big domain: cluster-sleep (board-idle line 2).
deep_cpu=$(model_field idle big 2 board_cpu_uw)
deep_cluster=$(model_field idle big 2 board_cluster_uw)
read -r _ ns e2 e3 k <<EOF_AB
$(grep '^a-b ' "$bres")
EOF_AB
power_check "(a) CPU2 idle, its domain idle (cluster-sleep)" "${e2:-0}" "${ns:-1}" "$deep_cpu"
power_check "(a) CPU3 idle, its domain idle (cluster-sleep)" "${e3:-0}" "${ns:-1}" "$deep_cpu"
power_check "(b) cluster2, every CPU idle (cluster-sleep)" "${k:-0}" "${ns:-1}" "$deep_cluster"
read -r _ khz ns e2 e3 k <<EOF_B
$(grep '^b ' "$bres")
EOF_B
n_opp=$(awk -v f="${khz:-0}" '$1 == "opp" && $2 == "big" {
	split("", v); for (i = 3; i < NF; i += 2) v[$i] = $(i + 1)
	if (v["khz"] == f) print v["index"] }' "$tmp/bmodel")
power_check "(b) CPU2 busy at ${khz:-?} kHz" "${e2:-0}" "${ns:-1}" "$(model_field opp big "${n_opp:-0}" board_cpu_uw)"
# CPU 3 idle beside it is in cpu-sleep, the cluster being up, but for the
# scheduler's own wake-ups: by hand from its residencies, and the share of
# cpu-sleep checked.
read -r _ b3 s0 s1 s2 <<EOF_B3
$(grep '^b3 ' "$bres")
EOF_B3
want=$(awk -v b="${b3:-0}" -v s0="${s0:-0}" -v s1="${s1:-0}" -v s2="${s2:-0}" \
	-v pb="$(model_field opp big "${n_opp:-0}" board_cpu_uw)" -v p0="$(model_field idle big 0 board_cpu_uw)" \
	-v p1="$(model_field idle big 1 board_cpu_uw)" -v p2="$(model_field idle big 2 board_cpu_uw)" \
	'BEGIN { printf "%.0f", (b * pb + s0 * p0 + s1 * p1 + s2 * p2) / 1e9 }')
check "(b) CPU3 idle beside it: $((${s1:-0} / 1000000)) ms of $((${ns:-1} / 1000000)) in cpu-sleep (the cluster is up; at least 99%)" \
	awk -v s="${s1:-0}" -v t="${ns:-1}" 'BEGIN { exit !(s >= 0.99 * t) }'
check "(b) CPU3 beside it: ${e3:-0} uJ, by hand from its residencies $want uJ (busy $((${b3:-0} / 1000)) us; $(err "${e3:-0}" "$want")%, limit 1%)" \
	within 1 "${e3:-0}" "$want"
power_check "(b) cluster2 while CPU2 runs at ${khz:-?} kHz" "${k:-0}" "${ns:-1}" "$(model_field opp big "${n_opp:-0}" board_cluster_uw)"

# runs KIND STATE: the guest's runs of (d) or (f) with WFI and idle state
# STATE, one line; median KIND STATE: their median (the guest runs each
# three times); deep STATE: the share in % of each (d) run its cluster
# spent in cluster-sleep.
runs() { awk -v k="$1" -v s="$2" '$1 == k && $2 == s { printf "%s%s", sep, $3; sep = " " }' "$bres"; }
deep() {
	awk -v s="$1" '$1 == "d" && $2 == s { printf "%s%.0f", sep, $5 ? 100 * $4 / $5 : -1; sep = " " }' "$bres"
}
median() {
	runs "$1" "$2" | tr ' ' '\n' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# (d) median wake-up latency with cluster-sleep, cpu-sleep and WFI alone:
# the difference to WFI is the exit latency of the state the domain was in.
check "(d) cluster2 in cluster-sleep: $(deep 2)% of each cluster-sleep run (at least 50), $(deep 1)% of each cpu-sleep run, $(deep 0)% of each WFI run (none)" \
	awk -v a="$(deep 2)" -v b="$(deep 1) $(deep 0)" 'BEGIN {
		na = split(a, x, " "); nb = split(b, y, " ")
		ok = na == 3 && nb == 6
		for (i = 1; i <= na; i++) ok = ok && x[i] >= 50
		for (i = 1; i <= nb; i++) ok = ok && y[i] == 0
		exit !ok }'
wfi=$(median d 0)
for st in 2 1; do
	name=$(model_field idle big "$st" state)
	want=$(model_field idle big "$st" exit_us)
	lat=$(median d "$st")
	got=$((${lat:-0} - ${wfi:-0}))
	check "(d) CPU2 woken from $name: ${lat:-?} us late (runs: $(runs d "$st")) against WFI's ${wfi:-?} us ($(runs d 0)), +$got us, exit latency $want us ($(err "$got" "$want")%, limit 10%)" \
		within 10 "$got" "$want"
done

# (f) the same task's mean util_avg: the CPU waits the latency out idle,
# so PELT does not count it as the task's running time (1 ms at speed 1024
# every 20 ms is 51; schedutil may run it slower, which PELT scales away).
# Charged as the task's running time, as the lab first did, the latency
# made it 105 from cluster-sleep and 74 from cpu-sleep against 54: 20%
# tells that apart from the few percent the wake-up's timing moves it.
fwfi=$(median f 0)
for st in 2 1; do
	name=$(model_field idle big "$st" state)
	got=$(median f "$st")
	check "(f) CPU2's task woken from $name: util_avg ${got:-?} (runs: $(runs f "$st")) against ${fwfi:-?} from WFI ($(runs f 0)) ($(err "${got:-0}" "${fwfi:-1}")%, limit 20%)" \
		within 20 "${got:-0}" "${fwfi:-1}"
done
tests_done
