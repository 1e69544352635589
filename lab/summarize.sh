#!/bin/sh
# Write an experiment's summary.json from what the guest handed back:
# per-CPU busy time, per-policy frequency residency and the energy the
# lab's meter counted per CPU, frequency domain and in total, over the
# experiment (after.txt minus before.txt), the platform facts, the verdict.
#
# Usage: lab/summarize.sh RESULTS_DIR PLATFORM EXPERIMENT VERDICT EXIT_STATUS WALL_SECONDS
set -eu
[ $# -eq 6 ] || { echo "usage: $0 DIR PLATFORM EXPERIMENT VERDICT EXIT WALL" >&2; exit 2; }
dir=$1

kernel=$(tr -d '\r' <"$dir/console.log" 2>/dev/null | sed -n 's/^LAB: guest up, kernel \([^ ]*\).*/\1/p' | head -n 1)
eas=false
grep -qx 'eas started' "$dir/facts.txt" 2>/dev/null && eas=true

printf '{\n'
printf '  "platform": "%s",\n  "experiment": "%s",\n  "verdict": "%s",\n' "$2" "$3" "$4"
printf '  "exit_status": "%s",\n  "wall_seconds": %s,\n' "$5" "$6"
printf '  "kernel": "%s",\n  "eas_started": %s' "${kernel:-unknown}" "$eas"
if [ -f "$dir/before.txt" ] && [ -f "$dir/after.txt" ]; then
	awk -v facts="$dir/facts.txt" '
	function energy(l) { return (l in has_en) ? en[2, l] - en[1, l] : "null" }
	function busy(f,   b, i) { b = 0; for (i = 2; i <= NF; i++) if (i != 5 && i != 6) b += $i; return b }
	FNR == 1 { file++ }
	$1 == "uptime" { up[file] = $2; next }
	$1 == "energy" { en[file, $2] = $3; has_en[$2] = 1; next }
	$1 ~ /^cpu[0-9]+$/ { n = substr($1, 4) + 0; b[file, n] = busy(); t[file, n] = b[file, n] + $5 + $6
		if (n + 1 > ncpu) ncpu = n + 1; next }
	$1 ~ /^policy/ { key = $1 SUBSEP $2; tis[file, key] = $3
		if (file == 1) { if (!(key in seen)) { seen[key] = 1; order[++nk] = key } }
		if (!($1 in pol)) { pol[$1] = 1; pols[++np] = $1 }
		next }
	END {
		while ((getline line < facts) > 0) {
			split(line, w, " ")
			if (w[1] ~ /\.capacity$/) { c = w[1]; sub(/^cpu/, "", c); sub(/\.capacity$/, "", c); cap[c + 0] = w[2] }
			if (w[1] ~ /^policy[0-9]+\.cpus$/) { p = w[1]; sub(/\.cpus$/, "", p); pcpus[p] = substr(line, length(w[1]) + 2) }
		}
		printf ",\n  \"guest_seconds\": %.2f,\n  \"cpus\": [", up[2] - up[1]
		for (n = 0; n < ncpu; n++) {
			tot = t[2, n] - t[1, n]
			sep = n ? "," : ""
			c = (n in cap) ? cap[n] : "null"
			pct = tot > 0 ? 100 * (b[2, n] - b[1, n]) / tot : 0
			printf "%s\n    {\"cpu\": %d, \"capacity\": %s, \"busy_pct\": %.1f, \"energy_uj\": %s}",
				sep, n, c, pct, energy("cpu" n)
		}
		printf "\n  ],\n  \"policies\": ["
		for (i = 1; i <= np; i++) {
			p = pols[i]; sum = 0; wsum = 0; s = ""
			for (k = 1; k <= nk; k++) {
				split(order[k], kk, SUBSEP); if (kk[1] != p) continue
				d = (tis[2, order[k]] - tis[1, order[k]]) * 10
				sep = (s == "") ? "" : ", "
				s = s sprintf("%s\"%s\": %d", sep, kk[2], d)
				sum += d; wsum += d * kk[2]
			}
			sep = (i > 1) ? "," : ""
			avg = sum > 0 ? wsum / sum : 0
			printf "%s\n    {\"policy\": \"%s\", \"cpus\": \"%s\", \"avg_khz\": %d, \"energy_uj\": %s, \"ms_at_khz\": {%s}}",
				sep, p, pcpus[p], avg, energy(p), s
		}
		printf "\n  ]"
		# The energy the experiment used: the meter total and domains.
		if ("total" in has_en) {
			s = ""
			for (i = 1; i <= np; i++)
				s = s sprintf("%s\"%s\": %s", i > 1 ? ", " : "", pols[i], energy(pols[i]))
			printf ",\n  \"energy\": {\"total_uj\": %s, \"joules\": %.4f, \"domains_uj\": {%s}}",
				energy("total"), energy("total") / 1e6, s
		} else
			printf ",\n  \"energy\": null"
	}' "$dir/before.txt" "$dir/after.txt"
fi
printf ',\n  "files": ['
first=1
for f in $(cd "$dir" && find . -type f ! -name summary.json | sed 's|^\./||' | LC_ALL=C sort); do
	[ $first = 1 ] || printf ', '
	printf '"%s"' "$f"
	first=0
done
printf ']\n}\n'
