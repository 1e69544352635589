#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# rt-app files written in current rt-app's grammar (upstream's
# doc/tutorial.txt and doc/examples, LISA's files) run unchanged on the
# lab's rt-app 1.0 (lab/guest/rt-app/upstream-grammar.patch), on Juno r0:
# - tests/guest/data/rtapp-current.json, traced: it runs, its fork events
#   start their tasks, its phases' cpus, its task's delay and loop hold,
#   and every ftrace category it asks for is in the trace;
# - tests/guest/data/rtapp-grammar-guest.sh, in one boot: that file exits
#   0; the policy, priority (nice), slice and util clamps each phase sets
#   are the ones /proc/PID/task/TID/sched shows (util clamps refused,
#   before anything runs, by a kernel without CONFIG_UCLAMP_TASK); "ftrace"
#   as "", "none", "main,task" or true writes what it says; and a key that
#   is not in the grammar, or that this rt-app cannot honour, is refused
#   with a message naming it.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

DATA=$LAB_TOP/tests/guest/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$LAB_TOP/lab/run

# rows LOG: the activations an rt-app log has (lines not starting with #).
rows() {
	if [ -f "$1" ]; then grep -cv '^#' "$1" || true; else echo 0; fi
}

# no_error LOG: rt-app said nothing critical nor any error in LOG.
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
no_error() {
	[ -f "$1" ] && ! grep -q '<crit>\|<error>' "$1"
}

# --- an upstream-style file, traced ---
o=$tmp/current
if "$run" -q -T 120 -t -p juno-r0 -o "$o" "$DATA/rtapp-current.json" >"$tmp/out" 2>&1; then
	# (traced, the experiment's exit status is trace-cmd's: rt-app's is
	# checked in the second boot)
	check "rtapp-current.json (comments, trailing comma, ftrace categories, fork, per-phase attributes) runs unchanged under lab/run -t, no error from rt-app" \
		no_error "$o/experiment.log"
	l=$o/rt-app
	n=$(find "$l" -name 'current-*.log' | wc -l)
	check "its 10 threads' logs come back, 3 of them forked (got $n)" [ "$n" -eq 10 ]
	forked=$(for f in "$l"/current-child-*.log; do [ -f "$f" ] && rows "$f"; done | xargs)
	check "fork: 3 children, each ran its \"loop\": 5 once and ended (rows: ${forked:-none})" \
		[ "$forked" = "5 5 5" ]
	check "\"loop\": 2 over phases of 10, 5 and 10 loops: 50 activations (got $(rows "$l/current-phased-2.log"))" \
		[ "$(rows "$l/current-phased-2.log")" -eq 50 ]
	first=$(awk '!/^#/ { print $7; exit }' "$l/current-phased-2.log" 2>/dev/null || true)
	check "\"delay\": 20000 us: the task's first activation at ${first:-none} us" \
		[ "${first:-0}" -ge 20000 ]
	trace-cmd report -i "$o/trace.dat" >"$tmp/report" 2>/dev/null || true
	for m in 'rtapp_main: event=start' 'rtapp_main: event=clock_ref' 'rtapp_task: event=start' \
		'rtapp_task: event=end' 'rtapp_loop: event=start' 'rtapp_event: id=' \
		'rtapp_stats: period=' 'rtapp_attrs: event=slice' 'rtapp_main: event=end'; do
		check "ftrace \"main,task,loop,event,stats,attrs\": \"$m\" in the trace" \
			grep -q "$m" "$tmp/report"
	done
	# cpus_of PHASE: the CPUs task "phased" started PHASE's loops on.
	cpus_of() {
		grep "rtapp_loop: event=start .* phase=$1 " "$tmp/report" | grep '^ *phased-' |
			sed -n 's/^[^[]*\[0*\([0-9][0-9]*\)\].*/\1/p' | sort -u | xargs
	}
	# only_on PHASE CPU...: PHASE ran on these CPUs only, and ran.
	# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
	only_on() {
		on=$(cpus_of "$1")
		shift
		[ -n "$on" ] || return 1
		for c in $on; do
			case " $* " in *" $c "*) ;; *) return 1 ;; esac
		done
	}
	check "phase \"light\" ran on its cpus [0, 1] (on: $(cpus_of 0))" only_on 0 0 1
	check "phase \"heavy\" ran on its cpus [4, 5] (on: $(cpus_of 2))" only_on 2 4 5
else
	not_ok "rtapp-current.json runs"; tail -n 20 "$tmp/out" | sed 's/^/    /'
fi

# sample CASE PHASE KEY: KEY's value in /proc/PID/sched half way through
# PHASE of CASE's task.
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
sample() {
	awk -v p="$2" -v k="$3" '$1 == p { for (i = 2; i <= NF; i++) {
		split($i, f, "="); if (f[1] == k) print f[2] } }' "$g/$1.samples" 2>/dev/null
}
# attrs CASE PHASE KEY=VALUE...: the phase's sample has these values.
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
attrs() {
	c=$1 p=$2
	shift 2
	for kv in "$@"; do
		[ "$(sample "$c" "$p" "${kv%%=*}")" = "${kv#*=}" ] || return 1
	done
}
# said CASE: CASE's exit status and its rt-app's messages, for a report.
said() {
	echo "exit $(cat "$g/$1.rc" 2>/dev/null); $(grep -v '^\[rt-app\] <notice>' "$g/$1.out" 2>/dev/null | grep . | head -n 2 | tr '\n' ' ')"
}
# refused CASE PATTERN: rt-app exited 2 (invalid file) saying PATTERN,
# before any thread ran (no log).
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
refused() {
	[ "$(cat "$g/$1.rc" 2>/dev/null)" = 2 ] && grep -q -- "$2" "$g/$1.out" &&
		[ -z "$(find "$g/$1" -name '*.log' 2>/dev/null)" ]
}
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
ran() {
	[ "$(cat "$g/$1.rc" 2>/dev/null)" = 0 ]
}
# marks CASE [CATEGORY]: how many CATEGORY (rtapp_loop...) markers, or
# markers, CASE wrote.
marks() {
	grep -c "^${2:-rtapp_[a-z]*}:" "$g/$1.marks" 2>/dev/null || true
}
# phase CASE PHASE: PHASE's sample, for a report.
phase() {
	grep "^$2 " "$g/$1.samples" 2>/dev/null || true
}
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
lisa_ran() {
	ran lisa && [ "$(rows "$g/lisa/rt-app-small-0.log")" -eq 40 ] && [ "$(marks lisa)" -eq 0 ]
}
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
no_marks() {
	ran ftrace-none && [ "$(marks ftrace-none)" -eq 0 ]
}
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
main_task_marks() {
	ran ftrace-main-task && [ "$(marks ftrace-main-task rtapp_main)" -ge 2 ] &&
		[ "$(marks ftrace-main-task rtapp_task)" -eq 2 ] &&
		[ "$(marks ftrace-main-task)" -eq $(($(marks ftrace-main-task rtapp_main) + 2)) ]
}
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
all_marks() {
	ran ftrace-true && [ "$(marks ftrace-true rtapp_main)" -ge 2 ] &&
		[ "$(marks ftrace-true rtapp_task)" -eq 2 ] &&
		[ "$(marks ftrace-true rtapp_loop)" -eq 80 ] &&
		[ "$(marks ftrace-true rtapp_event)" -gt 0 ] &&
		[ "$(marks ftrace-true rtapp_stats)" -eq 40 ]
}
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
no_log() {
	ran log-disable && [ -z "$(find "$g/log-disable" -name '*.log')" ]
}
# shellcheck disable=SC2317 # run by check, which shellcheck does not follow
nice_refused() {
	refused nice 'Unknown key "nice" in phase 000 of task small' &&
		grep -q '"priority" is the nice value' "$g/nice.out"
}

# --- per-phase attributes, ftrace values, refusals: one boot ---
o=$tmp/cases
g=$o/grammar
if "$run" -q -T 120 -p juno-r0 -o "$o" "$DATA/rtapp-grammar-guest.sh" \
	"$(cat "$DATA/rtapp-lisa.json")" "$(cat "$DATA/rtapp-phases.json")" \
	"$(cat "$DATA/rtapp-uclamp.json")" "$(cat "$DATA/rtapp-current.json")" >"$tmp/out" 2>&1; then
	check "rtapp-current.json runs unchanged, exit 0 ($(said current))" ran current
	check "per-phase attributes file runs, exit 0 ($(said phases))" ran phases
	check "phase priority 5, dl-runtime 3000: nice 5 and a 3 ms slice in the kernel ($(phase phases nice))" \
		attrs phases nice policy=0 prio=125 se.slice=3000000
	check "phase SCHED_FIFO priority 30: in the kernel ($(phase phases fifo))" \
		attrs phases fifo policy=1 prio=69
	check "phase SCHED_IDLE: in the kernel ($(phase phases idle))" \
		attrs phases idle policy=5
	check "phase SCHED_DEADLINE dl-runtime 2000 dl-period 10000: in the kernel ($(phase phases deadline))" \
		attrs phases deadline policy=6
	check "phase SCHED_OTHER priority -3, dl-runtime 50: nice -3, the kernel's least slice 0.1 ms ($(phase phases other))" \
		attrs phases other policy=0 prio=117 se.slice=100000
	check "rt-app reads each phase's attributes back from the kernel and logs them" \
		grep -q 'phase 0: sched_getattr policy 0 priority 0 nice 5 runtime 3000000 ' "$g/phases.out"

	if [ "$(cat "$g/uclamp.kernel" 2>/dev/null)" = yes ]; then
		check "util clamps file runs, exit 0 ($(said uclamp))" ran uclamp
		check "phase util_min 1024, util_max 1024: in the kernel ($(phase uclamp boost))" \
			attrs uclamp boost uclamp.min=1024 uclamp.max=1024
		check "phase util_min 0, util_max 256: in the kernel ($(phase uclamp cap))" \
			attrs uclamp cap uclamp.min=0 uclamp.max=256
		check "phase util_min -1, util_max -1: the clamps removed ($(phase uclamp free))" \
			attrs uclamp free uclamp.min=0 uclamp.max=1024
	else
		check "kernel without CONFIG_UCLAMP_TASK: util clamps refused before anything runs, naming the key ($(said uclamp))" \
			refused uclamp 'util_m[a-z]* in task probe: this kernel has no utilization clamping (CONFIG_UCLAMP_TASK is not set)'
	fi
	check "util_min -1, util_max -1 (LISA's defaults) run on any kernel ($(said uclamp-reset))" ran uclamp-reset

	check "LISA-style file (\"ftrace\": \"\") runs: $(rows "$g/lisa/rt-app-small-0.log") activations of 40, $(marks lisa) ftrace markers ($(said lisa))" \
		lisa_ran
	check "\"ftrace\": \"none\" accepted, $(marks ftrace-none) markers ($(said ftrace-none))" \
		no_marks
	check "\"ftrace\": \"main,task\" accepted: $(marks ftrace-main-task rtapp_main) rtapp_main and $(marks ftrace-main-task rtapp_task) rtapp_task markers of $(marks ftrace-main-task)" \
		main_task_marks
	check "\"ftrace\": true (1.0's boolean) accepted, every category: $(marks ftrace-true rtapp_main) rtapp_main, $(marks ftrace-true rtapp_task) rtapp_task, $(marks ftrace-true rtapp_loop) rtapp_loop (80), $(marks ftrace-true rtapp_event) rtapp_event, $(marks ftrace-true rtapp_stats) rtapp_stats (40)" \
		all_marks
	check "log_size \"disable\": runs and writes no log ($(said log-disable))" no_log
	check "taskgroup \"/\" (the root group) accepted ($(said taskgroup-root))" ran taskgroup-root
	check "nodes_membind [0] accepted ($(said nodes))" ran nodes

	check "unknown ftrace category refused, naming it ($(said ftrace-bogus))" \
		refused ftrace-bogus 'Invalid ftrace category "bogus"'
	check "a key not in the grammar refused, naming it ($(said unknown-key))" \
		refused unknown-key 'Unknown key "bogus_key" in task small'
	check "\"nice\" (not rt-app's) refused, naming it and \"priority\" ($(said nice))" \
		nice_refused
	check "taskgroup \"/tg1\" (needs cgroups) refused, naming it ($(said taskgroup))" \
		refused taskgroup 'taskgroup "/tg1" in phase 000 of task small'
else
	not_ok "rtapp-grammar-guest.sh runs"; tail -n 20 "$tmp/out" | sed 's/^/    /'
fi
tests_done
