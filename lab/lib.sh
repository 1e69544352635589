# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the lab's shell scripts (sourced, POSIX sh).
# The sourcing script sets LAB_TOP to the repository's top directory.
# shellcheck shell=sh
# shellcheck disable=SC2034 # the variables are for the sourcing scripts

BUILD_DIR=${BUILD_DIR:-$LAB_TOP/build}
# Held by lab/kernel/check-series.sh while it runs: one run at a time.
GATES_LOCK=$BUILD_DIR/check-series.lock
KSRC=$BUILD_DIR/linux-source-6.12
KOBJ=$BUILD_DIR/obj/lab
TOOLS_BIN=$BUILD_DIR/tools

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

log() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# The help of every lab command is the comment block that opens it, after
# the #! and SPDX lines and up to the first line that is not a comment:
# notes for whoever maintains the script go below that.
print_usage() {
	awk 'NR == 1 || /^# SPDX-License-Identifier:/ { next }
		/^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}

# usage_ok: -h or --help, the help on stdout and status 0.
usage_ok() {
	print_usage
	exit 0
}

# usage_error [MESSAGE]: a bad command line: MESSAGE (getopts has printed
# its own) and where the help is, on stderr, status 2.
usage_error() {
	[ $# -eq 0 ] || printf '%s: %s\n' "${0##*/}" "$*" >&2
	printf "Try '%s --help'.\n" "$0" >&2
	exit 2
}

# want_help "$@": --help as the first argument, where getopts cannot see it.
want_help() {
	[ "${1:-}" != --help ] || usage_ok
}

# help_only_options "$@": the options of a command whose only one is
# -h/--help; the caller shifts $((OPTIND - 1)) for its operands.
help_only_options() {
	want_help "$@"
	while getopts h opt; do
		case $opt in
		h) usage_ok ;;
		*) usage_error ;;
		esac
	done
}

# no_more_args "$@": what getopts left, where a command takes no operands
# (a platform given as an operand would otherwise start a full run).
no_more_args() {
	[ $# -eq 0 ] || usage_error "unexpected argument '$1'"
}

# make_var NAME: value of NAME in lab/versions.mk, where versions are
# pinned (LAB_VERSIONS names another file, for tests).
make_var() {
	sed -n "s/^$1[[:space:]]*:=[[:space:]]*//p" "${LAB_VERSIONS:-$LAB_TOP/lab/versions.mk}"
}

PLATFORMS_DIR=$LAB_TOP/lab/platforms
PLATGEN=$TOOLS_BIN/platgen

known_platforms() {
	for f in "$PLATFORMS_DIR"/*.plat; do
		printf '%s ' "$(basename "$f" .plat)"
	done
}

# platform_file NAME|PATH: the description file of a platform.
platform_file() {
	case $1 in
	*/* | *.plat) f=$1 ;;
	*) f=$PLATFORMS_DIR/$1.plat ;;
	esac
	[ -f "$f" ] || die "no platform '$1' (known: $(known_platforms))"
	echo "$f"
}

# load_platform FILE: validate it and set PLATFORM, NR_CPUS, QEMU_CPU, ...
load_platform() {
	[ -x "$PLATGEN" ] || die "$PLATGEN missing: run make tools"
	"$PLATGEN" check "$1" || die "invalid platform description (see above)"
	eval "$("$PLATGEN" info "$1")"
}

# qemu_machine_args: the QEMU machine of the loaded platform, -machine
# included: the DTB is dumped from (lab/mkdtb.sh), and booted on (lab/run),
# exactly this.  virt's default GICv2 starts at most 8 CPUs; past 8 it
# takes GICv3 (up to 512).  Platforms of 8 CPUs or fewer keep GICv2, so
# their DTB and command line stay as they were.
qemu_machine_args() {
	_machine=virt
	[ "$NR_CPUS" -le 8 ] || _machine=virt,gic-version=3
	echo "-machine $_machine -cpu $QEMU_CPU -smp $NR_CPUS -m ${MEMORY_MB}M -display none$(qemu_numa_args)"
}

# qemu_numa_args: the loaded platform's NUMA nodes (NR_NUMA_NODES,
# NUMA_NODE_CPUS, NUMA_DISTANCES from platgen info), each with an equal
# share of the RAM (a memory backend: QEMU 7.2's virt takes no
# "-numa node,mem=") and its CPUs (one cpus= per range of the node's list,
# QEMU's way of giving a node several), then the distance between every
# two nodes, once: QEMU mirrors it.  From these QEMU writes the memory
# nodes' numa-node-id and the /distance-map into its DTB; platgen gives
# the cpu nodes theirs.  Nothing without numa-node lines.
qemu_numa_args() {
	[ "${NR_NUMA_NODES:-0}" -gt 0 ] || return 0
	_mb=$((MEMORY_MB / NR_NUMA_NODES))
	_i=0
	for _cpus in $NUMA_NODE_CPUS; do
		printf ' -object memory-backend-ram,id=ram-node%d,size=%dM' "$_i" "$_mb"
		printf ' -numa node,nodeid=%d,cpus=%s,memdev=ram-node%d' "$_i" \
			"$(echo "$_cpus" | sed 's/,/,cpus=/g')" "$_i"
		_i=$((_i + 1))
	done
	_i=0
	for _row in $NUMA_DISTANCES; do
		_j=0
		for _d in $(echo "$_row" | tr , ' '); do
			[ "$_j" -le "$_i" ] ||
				printf ' -numa dist,src=%d,dst=%d,val=%d' "$_i" "$_j" "$_d"
			_j=$((_j + 1))
		done
		_i=$((_i + 1))
	done
}

# series_patches DIR: the patches DIR/series names, in order.
series_patches() {
	[ -f "$1/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/series"
}

# One kernel build at a time on this machine, whichever checkout or
# output directory it is for: every kernel make holds this lock.
KERNEL_BUILD_LOCK=${LAB_BUILD_LOCK:-/tmp/eas-lab-kernel-build.lock}

# kernel_build_env: the cross toolchain for kbuild, and CC_OVERRIDE, the
# CC= argument of every kernel make.
kernel_build_env() {
	export ARCH=arm64
	# Exported for configuration too: some options (ARM64_TLB_RANGE)
	# depend on the compiler's capabilities, so a config made without it
	# differs.
	export CROSS_COMPILE=aarch64-linux-gnu-
	if command -v ccache >/dev/null 2>&1; then
		# Depend mode hashes the dependency list gcc writes rather than
		# running the preprocessor: measured 204 s vs 253 s cold on 2
		# cores.
		export CCACHE_DEPEND=1
		# Kbuild's O= builds name every header by its absolute path,
		# so without a base directory a clone elsewhere (CI's) hashes
		# differently and misses the whole cache: make check's series
		# gates took 20 minutes cold in CI against about 7 warm.
		# Paths under the clone are hashed relative to it instead.
		export CCACHE_BASEDIR="$LAB_TOP"
		CC_OVERRIDE="CC=ccache ${CROSS_COMPILE}gcc"
	else
		CC_OVERRIDE="CC=${CROSS_COMPILE}gcc"
	fi
}

# The long-running drivers (bench, rfc, behaviour, stress) start each boot
# with start_child or run_child and call stop_children from their EXIT
# trap.  sh runs a trap only once its foreground command has ended, which
# would make a SIGTERM wait for a whole boot; a wait it interrupts.
LAB_CHILDREN=''

# start_child CMD...: CMD in the background, stopped with the driver.
# CMD runs in a subshell that carries the driver's command line, so a
# signal meant for the driver (pkill -f lab/bench) reaches it too.  Left
# to its default, the signal would kill the subshell at once and hand
# what it started to init, out of the driver's reach, to run until its
# own timeout; trapped, the subshell outlives its command, which
# stop_children stops through it.
start_child() {
	(
		trap 'exit 143' TERM HUP
		"$@"
	) &
	LAB_CHILDREN="$LAB_CHILDREN $!"
}

# run_child CMD...: CMD as start_child starts it, waited for: its status.
run_child() {
	start_child "$@"
	set -- $!
	_rc=0
	wait "$1" || _rc=$?
	LAB_CHILDREN=$(echo "$LAB_CHILDREN" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' ')
	return "$_rc"
}

# descendants PID: the processes under PID, each before its own.
descendants() {
	for _c in $(pgrep -P "$1"); do
		echo "$_c"
		descendants "$_c"
	done
}

# stop_children: SIGTERM to every child and everything under it, listed
# first: a stopped parent's children move to init, out of reach.
stop_children() {
	for _p in $LAB_CHILDREN; do
		# shellcheck disable=SC2046 # process ids are words
		kill $(descendants "$_p") "$_p" 2>/dev/null || true
	done
	LAB_CHILDREN=''
}

# progress K N START: "k of n" with the time taken since START (epoch
# seconds) and what is left at the same pace.
progress() {
	_spent=$(($(date +%s) - $3))
	if [ "$1" -gt 1 ]; then
		_left=$((_spent * ($2 - $1 + 1) / ($1 - 1)))
		printf '%s of %s (%dm%02ds so far, about %dm%02ds left)' "$1" "$2" \
			$((_spent / 60)) $((_spent % 60)) $((_left / 60)) $((_left % 60))
	else
		printf '%s of %s' "$1" "$2"
	fi
}

# verdict_json TAPFILE: its "ok - NAME" and "not ok - NAME" lines as JSON,
# {passed, failed, cases: [{ok, name}]}, for whatever reads results next.
verdict_json() {
	jq -R -s '[split("\n")[] | capture("^(?<s>ok|not ok) - (?<name>.*)$")?
		| {ok: (.s == "ok"), name}] as $c
		| {passed: ([$c[] | select(.ok)] | length),
		   failed: ([$c[] | select(.ok | not)] | length), cases: $c}' "$1"
}

# The series taken apart: each variant is policy 2 with one of its
# scheduler features switched (lab/experiments/bench.sh sets them).
SERIES_VARIANTS='2m 2r 2w 2g 2a 2p 2u'

# check_variants LIST: die on a variant of -V that is not one of them.
check_variants() {
	for v in $1; do
		case " $SERIES_VARIANTS " in
		*" $v "*) ;;
		*) die "-V: unknown variant '$v' ($(echo "$SERIES_VARIANTS" | sed 's/ /, /g'))" ;;
		esac
	done
}

# mark_latest DIR: results/latest points at DIR, the newest result.
mark_latest() {
	case $1 in
	"$LAB_TOP"/results/*) ln -sfn "${1#"$LAB_TOP"/results/}" "$LAB_TOP/results/latest" ;;
	esac
}
