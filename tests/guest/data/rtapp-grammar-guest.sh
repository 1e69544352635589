#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest side of tests/guest/rtapp-grammar.sh: rt-app runs files in current
# rt-app's grammar, their per-phase attributes reach the kernel, and what
# it cannot do is refused.  Leaves, in /results/grammar, for each case
# NAME: NAME.rc (rt-app's exit status), NAME.out (its output), its logs
# in NAME/, and NAME.marks (the rtapp_* ftrace markers it wrote, one per
# line); and for the phases and uclamp files NAME.samples, one line per
# phase read half way through it from /proc/PID/task/TID/sched:
#   PHASE policy=P prio=P se.slice=S uclamp.min=M uclamp.max=M
# uclamp.kernel says "yes" if the kernel clamps utilization, else "no".
# Usage: rtapp-grammar-guest.sh LISA_JSON PHASES_JSON UCLAMP_JSON CURRENT_JSON
#   (the files' texts)
set -eu
out=/results/grammar
mkdir -p "$out"
printf '%s\n' "$1" >/tmp/lisa.json
printf '%s\n' "$2" >/tmp/phases.json
printf '%s\n' "$3" >/tmp/uclamp.json
printf '%s\n' "$4" >/tmp/current.json
trace=/sys/kernel/tracing
# Room for every marker (the buffer is not yet expanded at boot).
echo 1024 >"$trace/buffer_size_kb"

# rtapp NAME JSON: run rt-app on JSON in $out/NAME/, its markers kept.
rtapp() {
	mkdir -p "$out/$1"
	echo >"$trace/trace"
	st=0
	(cd "$out/$1" && rt-app "$2") >"$out/$1.out" 2>&1 || st=$?
	echo "$st" >"$out/$1.rc"
	grep -o 'rtapp_[a-z]*: .*' "$trace/trace" >"$out/$1.marks" || true
}

# variant NAME SED_SCRIPT: the LISA file edited by SED_SCRIPT, run.
variant() {
	sed -e "$2" /tmp/lisa.json >"/tmp/$1.json"
	rtapp "$1" "/tmp/$1.json"
}

# sampled NAME JSON PHASE...: run rt-app on JSON in the background and
# read its thread "probe"'s attributes half way through each of its
# 1 s phases.
sampled() {
	mkdir -p "$out/$1"
	(cd "$out/$1" && exec rt-app "$2") >"$out/$1.out" 2>&1 &
	pid=$!
	name=$1
	shift 2
	tid='' i=0
	while [ -z "$tid" ] && [ "$i" -lt 200 ]; do
		for t in "/proc/$pid/task"/*; do
			[ "$(cat "$t/comm" 2>/dev/null)" = probe ] && tid=${t##*/}
		done
		[ -n "$tid" ] || sleep 0.01
		i=$((i + 1))
	done
	: >"$out/$name.samples"
	if [ -n "$tid" ]; then
		sleep 0.5
		for phase in "$@"; do
			awk -v p="$phase" '$1 ~ /^(policy|prio|se\.slice|uclamp\.(min|max))$/ {
				s = s " " $1 "=" $3 }
				END { print p s }' "/proc/$pid/task/$tid/sched" >>"$out/$name.samples" || true
			sleep 1
		done
	fi
	st=0
	wait "$pid" || st=$?
	echo "$st" >"$out/$name.rc"
}

# Per-phase policy, priority (nice), slice, SCHED_IDLE, SCHED_DEADLINE.
sampled phases /tmp/phases.json nice fifo idle deadline other

# Per-phase util_min/util_max, where the kernel has them.
if [ -e /proc/sys/kernel/sched_util_clamp_min ]; then
	echo yes >"$out/uclamp.kernel"
	sampled uclamp /tmp/uclamp.json boost cap free
else
	echo no >"$out/uclamp.kernel"
	rtapp uclamp /tmp/uclamp.json
fi

# The upstream-style file, for its exit status.
rtapp current /tmp/current.json

# A file as LISA writes it ("ftrace": "", no category), and its ftrace,
# log_size and key variants.
rtapp lisa /tmp/lisa.json
variant ftrace-none 's/"ftrace": ""/"ftrace": "none"/'
variant ftrace-main-task 's/"ftrace": ""/"ftrace": "main,task"/'
variant ftrace-true 's/"ftrace": ""/"ftrace": true/'
variant ftrace-bogus 's/"ftrace": ""/"ftrace": "main,bogus"/'
variant log-disable 's/"log_size": "file"/"log_size": "disable"/'
variant unknown-key 's/"delay": 0,/"delay": 0, "bogus_key": 1,/'
variant nice 's/"run": 3200,/"run": 3200, "nice": 5,/'
variant taskgroup 's/"run": 3200,/"run": 3200, "taskgroup": "\/tg1",/'
variant taskgroup-root 's/"run": 3200,/"run": 3200, "taskgroup": "\/",/'
variant uclamp-reset 's/"run": 3200,/"run": 3200, "util_min": -1, "util_max": -1,/'
variant nodes 's/"delay": 0,/"delay": 0, "nodes_membind": [0],/'
