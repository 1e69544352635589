#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How fast a wake-up queued to another CPU lands while BUSY other CPUs
# execute instructions.  Two shells ping-pong ROUNDS times through two
# FIFOs, each opening and reading blocking, so every round wakes the other
# shell, mostly on another CPU; BUSY shells spin meanwhile.  Run traced
# and time the wake-ups on the host:
#
#   lab/run -p PLATFORM -e sched:sched_waking,sched:sched_wakeup \
#       -o DIR lab/experiments/wakeup-delivery.sh BUSY
#   lab/trace-wakeup-latency.sh DIR sh
#
# On a board the spinners do not delay an IPI to another CPU; in the lab
# every vCPU executing instructions takes its turn of QEMU's round robin
# before the woken CPU runs (docs/lab-fidelity.md).  Spinners execute real
# instructions, which the vCPUs take in turn: keep BUSY small (8 spinners
# on dynamiq64 take about a minute).
#
# Usage (guest): wakeup-delivery.sh [BUSY [ROUNDS]]  (defaults 0 and 300)
set -eu
busy=${1:-0} rounds=${2:-300}
case $busy$rounds in *[!0-9]*) echo "usage: wakeup-delivery.sh [BUSY [ROUNDS]]" >&2; exit 2 ;; esac
dir=$(mktemp -d)
spinners=
cleanup() {
	# shellcheck disable=SC2086 # one PID a word
	[ -z "$spinners" ] || kill $spinners 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
i=0
while [ "$i" -lt "$busy" ]; do
	(while :; do :; done) &
	spinners="$spinners $!"
	i=$((i + 1))
done
mkfifo "$dir/ping" "$dir/pong"
(
	k=0
	while [ "$k" -lt "$rounds" ]; do
		read -r _ <"$dir/ping"
		echo pong >"$dir/pong"
		k=$((k + 1))
	done
) &
ponger=$!
j=0
while [ "$j" -lt "$rounds" ]; do
	echo ping >"$dir/ping"
	read -r _ <"$dir/pong"
	j=$((j + 1))
done
wait "$ponger"
echo "wakeup-delivery busy $busy rounds $rounds done"
