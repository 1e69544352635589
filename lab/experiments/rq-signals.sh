#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The runqueues' PELT signals under the seed's energy workload, per
# placement policy: whether the tasks a CPU holds run one after the other
# (runnable_avg close to util_avg) or wait for each other (runnable_avg
# above it).  6.12's frequency request and energy estimate take the
# larger of the two (cpu_util(..., boost = 1)), the fit test and the
# tipping point util_avg alone, so a CPU whose tasks wake in phase can ask
# for its top OPP while it fits more tasks.
#
# For each policy (0 none, 1 6.12's EAS, 2 the series), N periodic rt-app
# tasks (16 ms period, 800 us of work at speed 1024, as bench.sh's energy
# test) run DURATION seconds; once a second from the second one on, every
# CPU's root cfs_rq is read from /sys/kernel/debug/sched/debug.  One line
# per CPU and sample:
#   rq-signals policy P t T cpu C queued Q util U runnable R
# then one per cpufreq policy (a cluster) over the samples:
#   rq-cluster policy P cluster K util U runnable R ratio X boosted_max M
# U and R the means over its CPUs and samples, X = R / U, M the largest
# max(util, runnable) of one CPU in one sample (above the CPU's capacity:
# its request is past the top OPP).
#
# Usage (guest): rq-signals.sh N DURATION [POLICIES]   (default 1,2)
set -eu
usage="usage: rq-signals.sh N DURATION [POLICIES]"
case $# in 2 | 3) ;; *) echo "$usage" >&2; exit 2 ;; esac
n=$1 duration=$2
policies=$(echo "${3:-1,2}" | tr ',' ' ')
sysctl=/proc/sys/kernel/sched_energy_policy
debug=/sys/kernel/debug/sched/debug
case $n$duration in *[!0-9]*) echo "$usage: N and DURATION are whole numbers" >&2; exit 2 ;; esac
[ "$duration" -ge 2 ] || { echo "DURATION: at least 2 s, to sample once" >&2; exit 2; }
[ -w "$sysctl" ] || { echo "no $sysctl: not the series' kernel" >&2; exit 1; }
[ -r "$debug" ] || { echo "no $debug: debugfs not mounted or no CONFIG_SCHED_DEBUG" >&2; exit 1; }

# cpu_cluster: "CPU FIRST" per CPU, FIRST the first CPU of its cpufreq
# policy (the meter and bench.sh name clusters so).
cpu_cluster() {
	for d in /sys/devices/system/cpu/cpufreq/policy*; do
		for c in $(tr ',' ' ' <"$d/related_cpus" 2>/dev/null || cat "$d/affected_cpus"); do
			echo "$c ${d##*policy}"
		done
	done
}
cpu_cluster >/tmp/rq-clusters

for p in $policies; do
	case $p in 0 | 1 | 2) ;; *) echo "unknown policy '$p' (0, 1 or 2)" >&2; exit 2 ;; esac
	echo "$p" >"$sysctl"
	cat >/tmp/rq.json <<JSON
{
	"tasks": { "small": { "instance": $n, "loop": -1, "run": 800,
		"timer": { "ref": "unique", "period": 16000 } } },
	"global": { "duration": $duration, "calibration": "CPU0",
		"default_policy": "SCHED_OTHER", "logdir": "/tmp", "log_basename": "rq" }
}
JSON
	rt-app /tmp/rq.json >/tmp/rq-rt-app.out 2>&1 &
	rtapp=$!
	: >/tmp/rq-samples
	t=1
	while [ "$t" -lt "$duration" ]; do
		sleep 1
		awk -v p="$p" -v t="$t" '
			/^cfs_rq\[[0-9]+\]:/ { c = $1; gsub(/[^0-9]/, "", c); on = 1; next }
			/^(rt|dl)_rq\[/ { on = 0 }
			on && $1 == ".h_nr_queued" { q[c] = $3 }
			on && $1 == ".util_avg" { u[c] = $3 }
			on && $1 == ".runnable_avg" { r[c] = $3 }
			END { for (c in u) printf "rq-signals policy %s t %d cpu %d queued %d util %d runnable %d\n", p, t, c, q[c], u[c], r[c] }' \
			"$debug" | sort -n -k 7 >>/tmp/rq-samples
		t=$((t + 1))
	done
	wait "$rtapp" || { echo "rt-app failed (policy $p):" >&2; tail -n 5 /tmp/rq-rt-app.out >&2; exit 1; }
	cat /tmp/rq-samples
	awk -v p="$p" '
		FILENAME ~ /clusters$/ { cl[$1] = $2; next }
		{
			k = cl[$7]; u[k] += $11; r[k] += $13; n[k]++
			b = $13 > $11 ? $13 : $11
			if (b > m[k]) m[k] = b
		}
		END {
			for (k in n)
				printf "rq-cluster policy %s cluster %d util %.0f runnable %.0f ratio %.2f boosted_max %d\n",
					p, k, u[k] / n[k], r[k] / n[k], u[k] ? r[k] / u[k] : 0, m[k]
		}' /tmp/rq-clusters /tmp/rq-samples | sort -n -k 5
done
