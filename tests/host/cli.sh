#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One command-line convention for every lab command, as a user meets it:
# -h and --help print the help on stdout with status 0 (the help, not the
# notes for whoever maintains the script); an unknown option or a stray
# operand is refused with status 2 and a pointer to --help; the drivers'
# dry runs print QEMU command lines and boot nothing.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
cd "$LAB_TOP"
make -s tools

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Command, and an operand it does not take ("-" where it takes operands).
while read -r cmd stray; do
	for h in -h --help; do
		rc=0
		"$cmd" "$h" >"$tmp/out" 2>"$tmp/err" || rc=$?
		check "$cmd $h: help on stdout (first line '$(head -n 1 "$tmp/out")'), none on stderr, status $rc" \
			sh -c "[ $rc -eq 0 ] && [ -s '$tmp/out' ] && [ ! -s '$tmp/err' ] &&
				! grep -q -i -e shellcheck -e 'brace group' -e SPDX '$tmp/out'"
	done
	rc=0
	"$cmd" -Z >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "$cmd -Z: refused, status $rc, a pointer to --help on stderr" \
		sh -c "[ $rc -eq 2 ] && [ ! -s '$tmp/out' ] && grep -q -e '--help' -e '^usage' '$tmp/err'"
	[ "$stray" != - ] || continue
	rc=0
	"$cmd" "$stray" >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "$cmd $stray: a stray operand refused, status $rc" \
		sh -c "[ $rc -eq 2 ] && grep -q \"$stray\" '$tmp/err'"
done <<EOF
lab/run -
lab/bench juno-r0
lab/rfc juno-r0
lab/scale juno-r0
lab/search-bench juno-r0
lab/threshold juno-r0
lab/stress juno-r0
lab/behaviour/run.sh -
lab/kernel/check-series.sh patches
tests/run.sh no-such-suite
build/tools/platgen -
build/tools/emcost -
lab/publish -
lab/analysis/wakeup_cost.py -
lab/analysis/search_bench.py -
lab/analysis/threshold.py -
EOF

# Dry runs: a QEMU command line per boot, with the instruction clock and
# the platform's CPUs; nothing written.
while read -r want cmd; do
	rc=0
	# shellcheck disable=SC2086 # a command line
	$cmd -o "$tmp/dry" >"$tmp/out" 2>"$tmp/err" || rc=$?
	got=$(grep -c '^qemu-system-aarch64 -machine virt .*-smp [0-9]* .*-icount shift=0,sleep=off ' "$tmp/out" || true)
	check "$cmd: $got QEMU command lines (want $want), status $rc, nothing written" \
		sh -c "[ $rc -eq 0 ] && [ $got -eq $want ] && [ ! -e '$tmp/dry' ]"
done <<EOF
1 lab/run -n -p gs101 seed-energy
4 lab/bench -n
4 lab/rfc -n
3 lab/scale -n
1 lab/search-bench -n
3 lab/threshold -n
5 lab/stress -n
3 lab/behaviour/run.sh -n
EOF
# The machine: virt's default GICv2 up to 8 CPUs (the command line as it
# always was), GICv3 past 8, where GICv2 cannot start the CPUs.
while read -r plat machine; do
	rc=0
	lab/run -n -p "$plat" -o "$tmp/dry" idle >"$tmp/out" 2>"$tmp/err" || rc=$?
	check "lab/run -n -p $plat: -machine $machine, status $rc" \
		sh -c "[ $rc -eq 0 ] && grep -q -- '^qemu-system-aarch64 -machine $machine -cpu [a-z0-9-]* -smp [0-9]* ' '$tmp/out'"
done <<EOF
juno-r0 virt
gs101 virt
hybrid16 virt,gic-version=3
dynamiq256 virt,gic-version=3
numa-ring8 virt
EOF
# NUMA nodes (numa-node lines): QEMU is given each node's share of the
# RAM, its CPUs and the distances, which its DTB then carries; a platform
# without them gets no -numa option.
for plat in numa-ring8 juno-r0; do
	rc=0
	lab/run -n -p "$plat" -o "$tmp/dry" idle >"$tmp/out" 2>"$tmp/err" || rc=$?
	words=$(tr ' ' '\n' <"$tmp/out")
	mem=$(echo "$words" | grep -c '^memory-backend-ram,id=ram-node[0-9]*,size=128M$' || true)
	nodes=$(echo "$words" | grep -c '^node,nodeid=[0-9]*,cpus=[0-9-]*,memdev=ram-node[0-9]*$' || true)
	dist=$(echo "$words" | grep -c '^dist,src=[0-9]*,dst=[0-9]*,val=[0-9]*$' || true)
	want='4 4 6'
	[ "$plat" = numa-ring8 ] || want='0 0 0'
	check "lab/run -n -p $plat: memory backends, -numa node and -numa dist options '$mem $nodes $dist' (want $want), status $rc" \
		[ "$rc $mem $nodes $dist" = "0 $want" ]
done
# lab/bench -k: an A/B boots the Image given, and a missing one is refused
# before anything boots.
: >"$tmp/Image"
rc=0
lab/bench -n -k "$tmp/Image" -o "$tmp/dry" >"$tmp/out" 2>"$tmp/err" || rc=$?
got=$(grep -c -- "-kernel $tmp/Image " "$tmp/out" || true)
check "lab/bench -n -k IMAGE: every boot's QEMU line takes IMAGE ($got of 4), status $rc" \
	sh -c "[ $rc -eq 0 ] && [ $got -eq 4 ]"
rc=0
lab/bench -k "$tmp/no-such-Image" -o "$tmp/ab" >"$tmp/out" 2>"$tmp/err" || rc=$?
check "lab/bench -k MISSING: refused, status $rc, the path named, nothing run" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no-such-Image' '$tmp/err' && [ ! -e '$tmp/ab' ]"
# A failing check fails make stress: here every boot fails (no kernel at
# the path given), and the results, logs and verdict stay.
rc=0
lab/stress -k "$tmp/no-such-Image" -p juno-r0 -d 1 -o "$tmp/stress" >"$tmp/out" 2>&1 || rc=$?
check "lab/stress with failing boots: status $rc, its not-ok lines in results.tap, verdict.json counts them, logs kept" \
	sh -c "[ $rc -eq 1 ] && grep -q '^not ok - juno-r0: the debug kernel boots' '$tmp/stress/results.tap' &&
		[ \$(jq .failed '$tmp/stress/verdict.json') -ge 3 ] && grep -q 'no kernel at' '$tmp/stress/juno-r0.log'"
# The same with the boots at once (-j): each boot's failure is still
# reported as its own.
rc=0
lab/stress -j -k "$tmp/no-such-Image" -p juno-r0,gs101 -d 1 -o "$tmp/stress-j" >"$tmp/out" 2>&1 || rc=$?
check "lab/stress -j with failing boots: status $rc, a not-ok line per boot, logs kept" \
	sh -c "[ $rc -eq 1 ] && grep -q '^not ok - juno-r0: the debug kernel boots' '$tmp/stress-j/results.tap' &&
		grep -q '^not ok - gs101: the debug kernel boots' '$tmp/stress-j/results.tap' &&
		grep -q '^not ok - symmetric platform boots' '$tmp/stress-j/results.tap' &&
		grep -q '^not ok - no-power platform boots' '$tmp/stress-j/results.tap' &&
		grep -q 'no kernel at' '$tmp/stress-j/gs101.log'"
# A signal meant for a driver that reaches the subshell running one of
# its boot functions first (pkill -f matches both: they share the command
# line) stops what that subshell started: nothing is left to init.
cat >"$tmp/driver" <<DRIVER
#!/bin/sh
set -eu
LAB_TOP=$LAB_TOP
. "\$LAB_TOP/lab/lib.sh"
boot() { sh -c 'echo \$\$ >"\$1"; exec sleep 300' sh "$tmp/boot.pid"; }
trap stop_children EXIT
trap 'exit 130' INT TERM
run_child boot
DRIVER
sh "$tmp/driver" &
driver=$!
wait_until 10 test -s "$tmp/boot.pid" || true
boot=$(cat "$tmp/boot.pid" 2>/dev/null || echo 0)
pkill -TERM -f -- "$tmp/driver" || true
rc=0
wait "$driver" || rc=$?
left=0
wait_until 5 sh -c "! kill -0 $boot 2>/dev/null" || left=1
check "pkill -f DRIVER: the driver (exit $rc) and what its boot function started (pid $boot) both stop" \
	sh -c "[ $boot -gt 0 ] && [ $left = 0 ] && [ $rc -ne 0 ]"
[ "$boot" = 0 ] || kill "$boot" 2>/dev/null || true
tests_done
