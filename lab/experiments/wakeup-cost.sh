#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What one wake-up's CPU selection costs under each placement policy, guest
# side: function_graph times select_task_rq_fair() (and the energy-aware
# search, where it is a function of its own) on every wake-up of a
# workload, each policy switched through kernel.sched_energy_policy in this
# one boot, interleaved, their order rotating every iteration.
#
# With the lab's instruction clock (QEMU -icount shift=0) one ns of guest
# time is one guest instruction, so a duration is an instruction count, to
# the 16 ns step of the arch timer the trace clock reads.  The tracer's own
# instructions inside each duration are measured the same way on empty
# functions (lab patch 0006), called CALIBRATE times per run with
# interrupts off, as select_task_rq_fair() runs: lab_trace_empty(), the
# tracer's cost in a call, and lab_trace_nested(), which calls it, the
# cost a traced call adds to its caller.
#
# Workloads:
#   periodic:N    N of the seed's periodic rt-app tasks (800 us every 16 ms)
#                 for 2 s: the system is not overutilized and both EAS
#                 policies take their energy-aware path
#   hackbench:G   hackbench --pipe --threads -g G -l 100: overutilized, the
#                 usual wake-up path and the tipping point's cost
#   frozen:N      N periodic tasks run 1 s and stop; then the selection for
#                 6 of them is timed alone, 200 times each, with the other
#                 vCPUs idle (lab_trace/select_cost, see frozen()): QEMU
#                 runs one vCPU at a time and its clock counts them all, so
#                 a traced call in a running workload is charged the turns
#                 other busy vCPUs had during it
#
# Output, in the working directory (the results disk):
#   wakeup-cost/W-pP-rR.txt   one line per traced call: "FUNCTION NS K",
#                             K the traced calls it made (see samples())
#   and on stdout "wakeup-cost: cpus C perf-domains D uptime-s U
#   mem-used-kb M" (U: guest seconds since boot, M: memory in use), then
#   per run:
#   wakeup-cost workload W policy P rep R samples S lost L
# L is what the ring buffer overwrote (a run that lost events is reported,
# and the host refuses it).
#
# Usage (guest): wakeup-cost.sh WORKLOADS ITER [POLICIES [CALIBRATE]]
#   WORKLOADS, POLICIES comma separated (POLICIES default 0,1,2: none,
#   6.12's EAS, the series); CALIBRATE default 2000
set -eu
usage="usage: wakeup-cost.sh WORKLOADS ITER [POLICIES [CALIBRATE]]"
case $# in 2 | 3 | 4) ;; *) echo "$usage" >&2; exit 2 ;; esac
workloads=$(echo "$1" | tr ',' ' ') iter=$2
policies=$(echo "${3:-0,1,2}" | tr ',' ' ')
calibrate=${4:-2000}
tracing=/sys/kernel/tracing
sysctl=/proc/sys/kernel/sched_energy_policy
empty=/sys/kernel/debug/lab_trace/empty_calls
select_cost=/sys/kernel/debug/lab_trace/select_cost
# Six tasks a run: each run's landscape sees each of three policies' six
# orders once.
frozen_tasks=6 frozen_calls=200

die() {
	echo "wakeup-cost: $*" >&2
	exit 1
}

[ -w "$sysctl" ] || die "no $sysctl: not the series' kernel"
if ! [ -w "$empty" ] || ! [ -w "$select_cost" ]; then
	die "no $empty or $select_cost: the lab kernel lacks lab patch 0006"
fi
grep -qw function_graph "$tracing/available_tracers" ||
	die "the kernel has no function_graph tracer"

# The functions timed: those the kernel has out of line (gcc may inline a
# static function called once, and function_graph cannot see it then).
funcs=''
for f in select_task_rq_fair find_energy_efficient_cpu \
	find_energy_efficient_cpu_sd lab_trace_empty lab_trace_nested; do
	if grep -q "^$f\$" "$tracing/available_filter_functions"; then
		funcs="$funcs $f"
	fi
done
echo "wakeup-cost: functions$funcs"
case " $funcs " in
*" select_task_rq_fair "*) ;;
*) die "select_task_rq_fair is not traceable" ;;
esac

nr_cpus=$(grep -c '^processor' /proc/cpuinfo)
nr_pds=$(find /sys/devices/system/cpu/cpufreq -maxdepth 1 -name 'policy*' | wc -l)
# What the platform costs to boot: guest seconds to here (the experiment
# starts right after init) and memory in use.
up_s=$(cut -d ' ' -f 1 /proc/uptime)
used_kb=$(awk '$1 == "MemTotal:" { t = $2 } $1 == "MemAvailable:" { a = $2 }
	END { print t - a }' /proc/meminfo)
echo "wakeup-cost: cpus $nr_cpus perf-domains $nr_pds uptime-s $up_s mem-used-kb $used_kb"
# 64 MiB of ring buffer in all, at least 1 MiB a CPU: what a run writes
# fits, and a 256-CPU guest is not starved of memory.
buf_kb=$((65536 / nr_cpus))
[ "$buf_kb" -ge 1024 ] || buf_kb=1024

echo 0 >"$tracing/tracing_on"
echo nop >"$tracing/current_tracer"
echo local >"$tracing/trace_clock"
echo "$buf_kb" >"$tracing/buffer_size_kb"
echo "$funcs" >"$tracing/set_ftrace_filter"

# graph ON|OFF: function_graph on the functions above, or no tracer (its
# hooks stay in the traced functions while it is the current tracer).
graph() {
	if [ "$1" = off ]; then
		echo nop >"$tracing/current_tracer"
		return
	fi
	echo function_graph >"$tracing/current_tracer"
	# The tracer's own options exist while it is the current one.  Timer
	# wake-ups (rt-app's) happen in interrupts: funcgraph-irqs keeps them.
	for o in nofuncgraph-cpu nofuncgraph-overhead nofuncgraph-proc \
		funcgraph-duration funcgraph-tail funcgraph-irqs; do
		echo "$o" >"$tracing/trace_options" || die "trace option $o refused"
	done
}

cat >/tmp/wakeup-periodic.json.in <<'JSON'
{
	"tasks": { "small": { "instance": @N@, "loop": -1, "run": 800,
		"timer": { "ref": "unique", "period": 16000 } } },
	"global": { "duration": @D@, "calibration": "CPU0",
		"logdir": "/tmp", "log_basename": "wakeup" }
}
JSON

periodic() {
	sed -e "s/@N@/$1/" -e "s/@D@/$2/" /tmp/wakeup-periodic.json.in \
		>/tmp/wakeup-periodic.json
}

workload() {
	case $1 in
	periodic:*)
		periodic "${1#periodic:}" 2
		rt-app /tmp/wakeup-periodic.json >/dev/null 2>&1
		;;
	hackbench:*)
		hackbench --pipe --threads -g "${1#hackbench:}" -l 100 >/dev/null
		;;
	*)
		die "unknown workload $1 (periodic:N or hackbench:G)"
		;;
	esac
}

# frozen N R: N periodic tasks run for a second under the current policy,
# then stop (SIGSTOP); the selection for FROZEN_TASKS of them, FROZEN_CALLS
# times each, is timed alone (lab_trace/select_cost) on the landscape they
# left, the other vCPUs idle, under each of POLICIES in turn: the policies
# are compared on the same landscape and the same tasks, a few
# milliseconds apart (200 calls take about 1 ms at 8 CPUs, 30 at 256),
# during which blocked utilization decays.  Each task takes the next of the
# policies' orders (permute, counted over the runs), so that over k! tasks,
# one run's with three policies, each policy precedes each other as often.  Lines "select_task_rq_fair NS
# 0" and "sched_clock NS 0" (the latter an empty interval timed the same
# way) go to each policy's file of run R (out_file), and a line per task to
# stdout: "wakeup-cost: frozen run R task PID policies P..." (the order).
frozen() {
	periodic "$1" 60
	rt-app /tmp/wakeup-periodic.json >/dev/null 2>&1 &
	app=$!
	sleep 1
	kill -STOP "$app"
	sleep 0.1
	n=0
	for t in /proc/"$app"/task/*; do
		t=${t##*/}
		[ "$t" != "$app" ] || continue
		[ "$n" -lt "$frozen_tasks" ] || break
		task_order=$(permute $((($2 - 1) * frozen_tasks + n)) "$policies")
		echo "wakeup-cost: frozen run $2 task $t policies $task_order"
		for p in $task_order; do
			echo "$p" >"$sysctl"
			echo "$t $frozen_calls" >"$select_cost" ||
				die "lab_trace/select_cost refused task $t"
			awk '{ print "select_task_rq_fair", $1, 0
				print "sched_clock", $2, 0 }' \
				"$select_cost" >>"$(out_file "frozen:$1" "$p" "$2")"
		done
		n=$((n + 1))
	done
	kill -KILL "$app"
	wait "$app" 2>/dev/null || true
	[ "$n" -gt 0 ] || die "rt-app started no task to time"
}

# out_file W P R: the samples of workload W, policy P, run R.
out_file() {
	echo "wakeup-cost/$(echo "$1" | tr ':' '-')-p$2-r$3.txt"
}

# permute I LIST: the (I mod k!)th of LIST's k! orders, lexicographic by
# position (0: LIST itself).
permute() {
	echo "$2" | awk -v i="$1" '{
		f = 1
		for (j = 2; j <= NF; j++)
			f *= j
		i %= f
		m = NF
		for (j = 1; j <= NF; j++)
			left[j] = $j
		for (j = NF; j >= 1; j--) {
			f /= j
			k = int(i / f)
			i %= f
			printf "%s ", left[k + 1]
			for (q = k + 1; q < m; q++)
				left[q] = left[q + 1]
			m--
		}
	}'
}

# rotate I LIST: LIST from its (I mod length)th word on, then the rest.
rotate() {
	echo "$2" | awk -v i="$1" '{
		for (j = 0; j < NF; j++)
			printf "%s ", $((j + i) % NF + 1)
	}'
}

lost() {
	awk '$1 == "overrun:" { n += $2 } END { print n + 0 }' \
		"$tracing"/per_cpu/cpu*/stats
}

# function_graph's lines, with the options above: "D us | f();" for a
# leaf, "| f() {" and "D us | } /* f */" around a call that made traced
# calls.  Each becomes "f NS K", K the traced calls made directly inside
# it (each adds the tracer's cost to its duration).
samples() {
	awk '
	/\|/ {
		split($0, side, "|")
		f = side[2]
		if (f ~ /\) \{ *$/) {
			calls[++depth] = 0
			next
		}
		if (split(side[1], d, " ") < 2 || d[2] != "us")
			next
		ns = int(d[1] * 1000 + 0.5)
		if (f ~ /\/\*/) {
			sub(/.*\/\* */, "", f)
			sub(/ *\*\/.*/, "", f)
			k = depth > 0 ? calls[depth--] : 0
		} else {
			sub(/^ */, "", f)
			sub(/\(\);.*/, "", f)
			k = 0
		}
		if (depth > 0)
			calls[depth]++
		print f, ns, k
	}' "$tracing/trace"
}

mkdir -p wakeup-cost
i=0
while [ "$i" -lt "$iter" ]; do
	r=$((i + 1))
	# Rotate the order: iteration i starts at the (i mod k)th policy.
	order=$(rotate "$i" "$policies")
	for w in $workloads; do
		if [ "${w%%:*}" = frozen ]; then
			# One landscape a run, made under the policies in turn.
			echo "${order%% *}" >"$sysctl"
			sleep 1
			graph off
			for p in $order; do
				: >"$(out_file "$w" "$p" "$r")"
			done
			frozen "${w#frozen:}" "$r"
			for p in $order; do
				echo "wakeup-cost workload $w policy $p rep $r" \
					"samples $(wc -l <"$(out_file "$w" "$p" "$r")")" \
					"lost 0"
			done
			continue
		fi
		for p in $order; do
			echo "$p" >"$sysctl"
			sleep 1
			out=$(out_file "$w" "$p" "$r")
			graph on
			echo >"$tracing/trace"
			echo 1 >"$tracing/tracing_on"
			echo "$calibrate" >"$empty"
			workload "$w"
			echo 0 >"$tracing/tracing_on"
			samples >"$out"
			echo "wakeup-cost workload $w policy $p rep $r" \
				"samples $(wc -l <"$out") lost $(lost)"
		done
	done
	i=$((i + 1))
done
graph off
echo 2 >"$sysctl"
