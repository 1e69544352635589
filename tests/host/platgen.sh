#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Host tests for platgen: the real platforms against their published
# numbers, every malformed file in tests/host/bad/, the edge platforms in
# tests/host/good/, and the derived model ("platgen model") against the
# facts and against values computed by hand.  The DT fragments are merged into the DTB QEMU itself
# generates for the platform and compiled with dtc; on NUMA platforms the
# merged DTB's nodes and distances are checked against the description.
#
# Usage: tests/host/platgen.sh [PLATGEN_BINARY]   (default build/tools/platgen)
# Prints "ok - NAME" or "not ok - NAME: WHY" per case, then a summary line;
# exits non-zero if any case failed.
set -eu

if [ $# -gt 1 ]; then
	echo "usage: $0 [PLATGEN_BINARY]" >&2
	exit 2
fi
PLATGEN=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build/tools/platgen}
if [ ! -x "$PLATGEN" ]; then
	echo "$0: $PLATGEN: not an executable" >&2
	exit 2
fi

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
PLATFORMS=$TOP/lab/platforms
TMP=$(mktemp -d "${TMPDIR:-/tmp}/platgen-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM

passed=0
failed=0

ok() {
	passed=$((passed + 1))
	echo "ok - $*"
}

not_ok() {
	failed=$((failed + 1))
	echo "not ok - $1: $2"
}

# run ARG...: platgen's status in $rc, its output in $TMP/out and $TMP/err.
run() {
	rc=0
	"$PLATGEN" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

# fact FILE KEY: the value of one facts line, empty if absent.
fact() {
	awk -v k="$2" '$1 == k { sub(/^[^ ]+ ?/, ""); print }' "$1"
}

# per_cpu FILE SUFFIX N: "cpuI.SUFFIX" values for I = 0..N-1, space separated.
per_cpu() {
	awk -v s="$2" -v n="$3" '
		{ v[$1] = $2 }
		END {
			for (i = 0; i < n; i++)
				printf "%s%s", (i ? " " : ""), v["cpu" i "." s]
			print ""
		}' "$1"
}

# load_info PLAT: the runner variables of PLAT, read the way the runner would.
load_info() {
	"$PLATGEN" info "$1" >"$TMP/info"
	# shellcheck disable=SC1091
	. "$TMP/info"
}

check_facts() {
	name=$1 facts=$2 nr=$3 want_cap=$4 want_asym=$5 want_power=$6

	got=$(per_cpu "$facts" capacity "$nr")
	if [ "$got" = "$want_cap" ]; then
		ok "$name: capacities $(summary_list "$want_cap")"
	else
		not_ok "$name: capacities" "got '$got', want '$want_cap'"
	fi

	# want_asym "-": the caller checks that there is no asym_level at all
	got=$(per_cpu "$facts" asym_level "$nr")
	if [ "$want_asym" = - ]; then
		:
	elif [ "$got" = "$want_asym" ]; then
		ok "$name: asym_level $(summary_list "$want_asym")"
	else
		not_ok "$name: asym_level" "got '$got', want '$want_asym'"
	fi

	# want_power: "pdF:FIRST:LAST ...", first and last OPP of each domain
	for pd in $want_power; do
		f=${pd%%:*}
		want=${pd#*:}
		got=$(fact "$facts" "$f.power" | awk '{ print $1 ":" $NF }')
		if [ "$got" = "$want" ]; then
			ok "$name: $f power first:last OPP $want uW"
		else
			not_ok "$name: $f power" "got '$got', want '$want'"
		fi
	done

	if LC_ALL=C sort -c "$facts" 2>/dev/null; then
		ok "$name: facts sorted"
	else
		not_ok "$name: facts sorted" "not in LC_ALL=C sort order"
	fi
}

# Summarises a decompiled DTB: the /cpus/cpu@N nodes with their
# capacity-dmips-mhz, and an "error" line for any duplicate phandle or any
# cpus reference that does not land on the kind of node it should.
summarise_dtb() {
	awk '
	function hex(s,   i, v) {
		v = 0
		s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	function cell(s) {
		sub(/^[^<]*</, "", s)
		sub(/>.*$/, "", s)
		return s
	}
	/^[ \t]*[^ \t]+ \{$/ {
		d++
		p[d] = ($1 == "/") ? "" : p[d - 1] "/" $1
		if (p[d] ~ /^\/cpus\/cpu@[0-9]+$/)
			ncpu++
		if (p[d] ~ /^\/cpus\/cpu-map\/socket/)
			print "error: QEMU cpu-map (socket level) still present"
		next
	}
	/^[ \t]*\};$/ { d--; next }
	{
		l = $0
		sub(/^[ \t]+/, "", l)
		if (l ~ /^phandle = </) {
			v = cell(l)
			if (v in ph)
				print "error: phandle " v " used by " ph[v] " and " p[d]
			ph[v] = p[d]
		} else if (p[d] ~ /^\/cpus\// &&
			   l ~ /^(cpu|clocks|operating-points-v2) = <0x[0-9a-f]+>;$/) {
			n++
			rp[n] = l
			sub(/ .*/, "", rp[n])
			rv[n] = cell(l)
			rf[n] = p[d]
		} else if (p[d] ~ /^\/cpus\/cpu@/ && l ~ /^capacity-dmips-mhz = /) {
			dm[p[d]] = hex(cell(l))
		}
	}
	END {
		want["cpu"] = "^/cpus/cpu@"
		want["clocks"] = "^/lab-clock-"
		want["operating-points-v2"] = "^/opp-table-"
		for (i = 1; i <= n; i++)
			if (!(rv[i] in ph) || ph[rv[i]] !~ want[rp[i]])
				print "error: " rf[i] ":" rp[i] " -> " rv[i] \
				      " is not a " want[rp[i]] " node"
		print "cpus " ncpu
		printf "dmips"
		for (i = 0; i < ncpu; i++)
			printf " %s", dm["/cpus/cpu@" i]
		print ""
	}' "$1"
}

# Warnings of the merged build that the plain QEMU DTS does not have, with
# source positions dropped (they shift once the fragment is appended).
new_warnings() {
	sed 's/<stdin>:[0-9.-]*//g' "$1" | sort -u >"$TMP/w.base"
	sed 's/<stdin>:[0-9.-]*//g' "$2" | sort -u >"$TMP/w.merged"
	comm -13 "$TMP/w.base" "$TMP/w.merged"
}

check_dts() {
	name=$1 plat=$2 want_dmips=$3

	if ! command -v qemu-system-aarch64 >/dev/null 2>&1; then
		ok "$name: dts merges with QEMU virt DTB # SKIP qemu-system-aarch64 not found"
		ok "$name: merged DTB cpus node # SKIP qemu-system-aarch64 not found"
		return 0
	fi
	if ! command -v dtc >/dev/null 2>&1; then
		not_ok "$name: dts merges with QEMU virt DTB" "dtc not found"
		return 0
	fi
	if ! "$PLATGEN" dts "$plat" >"$TMP/frag.dtsi"; then
		not_ok "$name: dts merges with QEMU virt DTB" "platgen dts failed"
		return 0
	fi
	load_info "$plat"
	rm -f "$TMP/virt.dtb"
	# The lab's own machine (GICv3 past 8 CPUs), as lab/mkdtb.sh dumps it;
	# lib.sh sets PLATGEN too, in this subshell only.
	# shellcheck disable=SC2034 source=/dev/null # LAB_TOP is for lib.sh
	machine=$(LAB_TOP=$TOP && . "$TOP/lab/lib.sh" && qemu_machine_args)
	# -nic none: the default NIC wants a ROM the lab does not need.
	# shellcheck disable=SC2086 # machine arguments are words
	qemu-system-aarch64 $machine -machine "dumpdtb=$TMP/virt.dtb" -nic none \
		</dev/null >"$TMP/qemu.log" 2>&1 || true
	if [ ! -s "$TMP/virt.dtb" ]; then
		not_ok "$name: dts merges with QEMU virt DTB" \
			"QEMU did not dump a DTB: $(head -n 1 "$TMP/qemu.log")"
		return 0
	fi
	if ! dtc -I dtb -O dts -o "$TMP/virt.dts" "$TMP/virt.dtb" 2>/dev/null; then
		not_ok "$name: dts merges with QEMU virt DTB" \
			"dtc cannot decompile QEMU's DTB"
		return 0
	fi
	dtc -I dts -O dtb -o /dev/null - <"$TMP/virt.dts" 2>"$TMP/base.err" || true
	if ! cat "$TMP/virt.dts" "$TMP/frag.dtsi" |
	     dtc -I dts -O dtb -o "$TMP/out.dtb" - 2>"$TMP/merged.err"; then
		not_ok "$name: dts merges with QEMU virt DTB" \
			"dtc failed: $(grep . "$TMP/merged.err" | head -n 1)"
		return 0
	fi
	extra=$(new_warnings "$TMP/base.err" "$TMP/merged.err")
	if [ -n "$extra" ]; then
		not_ok "$name: dts merges with QEMU virt DTB" \
			"fragment adds dtc warnings: $(echo "$extra" | head -n 1)"
	else
		ok "$name: dts merges with QEMU virt DTB, no new dtc warnings"
	fi

	if ! dtc -I dtb -O dts -o "$TMP/out.dts" "$TMP/out.dtb" 2>/dev/null; then
		not_ok "$name: merged DTB cpus node" "dtc cannot decompile it"
		return 0
	fi
	summarise_dtb "$TMP/out.dts" >"$TMP/summary"
	err=$(grep '^error' "$TMP/summary" | head -n 1)
	got_cpus=$(fact "$TMP/summary" cpus)
	got_dmips=$(fact "$TMP/summary" dmips)
	# cpu@N's reg is the MPIDR QEMU gave vCPU N (its own DTB's cpu@N reg).
	cpu_regs "$TMP/virt.dts" >"$TMP/regs.virt"
	cpu_regs "$TMP/out.dts" >"$TMP/regs.out"
	bad_reg=$(diff "$TMP/regs.virt" "$TMP/regs.out" | grep '^>' | head -n 1)
	if [ -n "$err" ]; then
		not_ok "$name: merged DTB cpus node" "$err"
	elif [ "$got_cpus" != "$NR_CPUS" ]; then
		not_ok "$name: merged DTB cpus node" \
			"$got_cpus cpu@ nodes, want $NR_CPUS"
	elif [ "$got_dmips" != "$want_dmips" ]; then
		not_ok "$name: merged DTB cpus node" \
			"capacity-dmips-mhz '$got_dmips', want '$want_dmips'"
	elif [ -n "$bad_reg" ] || [ "$(wc -l <"$TMP/regs.out")" -ne "$NR_CPUS" ]; then
		not_ok "$name: merged DTB cpus node" \
			"cpu@N reg is not QEMU's MPIDR of vCPU N: ${bad_reg:-$(wc -l <"$TMP/regs.out") regs}"
	else
		ok "$name: merged DTB cpus node: $got_cpus CPUs," \
			"dmips $(summary_list "$got_dmips"), reg = QEMU's MPIDRs," \
			"phandles unique and resolved"
	fi
}

# cpu_regs DTS: "cpu@N REG" for every /cpus/cpu@N node of a decompiled DTB.
cpu_regs() {
	awk '/^\t\tcpu@[0-9]+ \{$/ { n = $1 } n && /^\t\t\treg = </ { print n, $3; n = "" }
		/^\t\t\};$/ { n = "" }' "$1"
}

# summary_list "V V V ...": the list as is, or its first 8 values and
# how many there are in all.
summary_list() {
	echo "$1" | awk '{ if (NF <= 8) { print; exit }
		for (i = 1; i <= 8; i++) printf "%s ", $i; print "... (" NF ")" }'
}

# The reference values below are the published ones (see the .plat sources).
real_platform() {
	name=$1 nr=$2 cap=$3 asym=$4 power=$5 dmips=$6
	plat=$PLATFORMS/$name.plat

	run check "$plat"
	if [ "$rc" -eq 0 ] && [ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ]; then
		ok "$name: check"
	else
		not_ok "$name: check" "status $rc: $(head -n 1 "$TMP/err")"
		return 0
	fi
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	check_facts "$name" "$TMP/facts" "$nr" "$cap" "$asym" "$power"
	if [ "$(fact "$TMP/facts" eas)" = started ]; then
		ok "$name: eas started"
	else
		not_ok "$name: eas started" "missing from the facts"
	fi
	check_dts "$name" "$plat" "$dmips"
}

# Each bad file starts with "# expect: SUBSTRING" or "# exact: :LINE: FIELD:
# MESSAGE" (the whole stderr line after the file path).  Every command must
# fail the same way: status 1, no stdout, one stderr line "FILE:LINE: ...".
# bad_file FILE NAME EXACT: the same for a file whose first line cannot
# carry the expectation (one made by the test).
bad_file() {
	f=$1
	name=${2:-bad/${f##*/}}
	if [ $# -eq 3 ]; then
		expect='' exact=$3
	else
		expect=$(sed -n '1s/^# expect: //p' "$f")
		exact=$(sed -n '1s/^# exact: //p' "$f")
	fi
	if [ -z "$expect$exact" ]; then
		not_ok "$name" "no '# expect:' or '# exact:' first line"
		return 0
	fi
	first=
	for cmd in check info dts facts model; do
		run "$cmd" "$f"
		line=$(head -n 1 "$TMP/err")
		rest=${line#"$f:"}
		num=${rest%%:*}
		why=
		if [ "$rc" -ne 1 ]; then
			why="$cmd: exit status $rc, want 1"
		elif [ -s "$TMP/out" ]; then
			why="$cmd: wrote to stdout"
		elif [ "$(wc -l <"$TMP/err")" -ne 1 ]; then
			why="$cmd: $(wc -l <"$TMP/err") lines on stderr, want 1"
		elif [ "$rest" = "$line" ]; then
			why="$cmd: '$line' does not start with the file path"
		elif [ -z "$num" ] || [ -n "$(printf '%s' "$num" | tr -d 0-9)" ]; then
			why="$cmd: '$line' has no :LINE: after the path"
		elif [ -n "$exact" ]; then
			if [ "$line" != "$f$exact" ]; then
				why="$cmd: '$line', want '$f$exact'"
			fi
		else
			case $line in
			*"$expect"*) ;;
			*) why="$cmd: '$line' lacks '$expect'" ;;
			esac
		fi
		if [ -z "$why" ] && [ -n "$first" ] && [ "$line" != "$first" ]; then
			why="$cmd: '$line' differs from check's '$first'"
		fi
		if [ -n "$why" ]; then
			not_ok "$name" "$why"
			return 0
		fi
		first=$line
	done
	ok "$name"
}

good_symmetric() {
	plat=$HERE/good/symmetric.plat
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	if grep -qE 'asym_level|^eas ' "$TMP/facts"; then
		not_ok "good/symmetric: EAS off" \
			"$(grep -E 'asym_level|^eas ' "$TMP/facts" | head -n 1)"
	else
		ok "good/symmetric: no asym_level, no eas started"
	fi
	check_facts good/symmetric "$TMP/facts" 4 "1024 1024 1024 1024" - \
		"pd0:30000:120000"
	check_dts good/symmetric "$plat" "1024 1024 1024 1024"
}

good_no_power() {
	plat=$HERE/good/no-power.plat
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	if grep -qE '^(pd|eas )' "$TMP/facts"; then
		not_ok "good/no-power: no energy facts" \
			"$(grep -E '^(pd|eas )' "$TMP/facts" | head -n 1)"
	else
		ok "good/no-power: no pd lines, no eas started"
	fi
	n=$("$PLATGEN" dts "$plat" | grep -c 'opp-microwatt' || true)
	if [ "$n" -eq 2 ]; then
		ok "good/no-power: opp-microwatt only in the domain with power"
	else
		not_ok "good/no-power: opp-microwatt" "$n properties, want 2"
	fi
	check_dts good/no-power "$plat" "578 1024 1024 578 578 578"
}

good_cls() {
	plat=$HERE/good/cls.plat
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	check_facts good/cls "$TMP/facts" 6 "200 200 600 600 1024 1024" \
		"CLS CLS CLS CLS MC MC" "pd0:20000:60000 pd2:80000:300000 pd4:150000:900000"
	check_dts good/cls "$plat" "400 400 800 800 1024 1024"
}

# board_latency PLAT CPU: the idle_latency fact CPU should have, read from
# PLAT's board-idle lines: "1" for WFI, then entry + exit latency of each
# state of the CPU's domain, in file order (cpuidle's stateK/latency when
# the DT has no wakeup-latency-us: drivers/cpuidle/dt_idle_states.c).
board_latency() {
	awk -v cpu="$2" '
		{ sub(/#.*/, "") }
		$1 == "domain" { d++ }
		$1 == "cpus" { for (i = 2; i <= NF; i++) if ($i == cpu) mine = d }
		$1 == "board-idle" { lat[d] = lat[d] " " ($4 + $5) }
		END { print "1" lat[mine] }' "$1"
}

# same NAME FILE: FILE equals $TMP/want, leading blanks aside (the
# expected text is an indented here-document).
same() {
	sed 's/^[[:blank:]]*//' "$2" >"$TMP/same"
	if cmp -s "$TMP/want" "$TMP/same"; then
		ok "$1"
	else
		not_ok "$1" "differs (< want, > got): $(diff "$TMP/want" "$TMP/same" |
			grep '^[<>]' | head -n 4 | tr '\n' ' ')"
	fi
}

# The board model's facts and DT properties, exactly, for a small file.
good_board() {
	plat=$HERE/good/board.plat
	"$PLATGEN" facts "$plat" | grep '\.idle_' >"$TMP/got" || true
	cat >"$TMP/want" <<-EOF
	cpu0.idle_latency $(board_latency "$plat" 0)
	cpu0.idle_residency 1 1000 2000
	cpu0.idle_states WFI cpu-off cluster-off
	cpu1.idle_latency $(board_latency "$plat" 1)
	cpu1.idle_residency 1 1000 2000
	cpu1.idle_states WFI cpu-off cluster-off
	cpu2.idle_latency $(board_latency "$plat" 2)
	cpu2.idle_residency 1
	cpu2.idle_states WFI
	cpu3.idle_latency $(board_latency "$plat" 3)
	cpu3.idle_residency 1
	cpu3.idle_states WFI
	EOF
	same "good/board: idle-state facts" "$TMP/got"
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	check_facts good/board "$TMP/facts" 4 "512 512 1024 1024" \
		"MC MC MC MC" "pd0:100000:300000 pd2:400000:900000"

	"$PLATGEN" dts "$plat" >"$TMP/board.dtsi"
	# CPU nodes are at depth 2, their properties at depth 3.
	grep -E "^$(printf '\t\t')cpu[0-9]+: |^$(printf '\t\t\t')(cpu-idle-states|lab,)" \
		"$TMP/board.dtsi" >"$TMP/got" || true
	cat >"$TMP/want" <<-'EOF'
			cpu0: cpu@0 {
				lab,idle-microwatt = <7000>;
				cpu-idle-states = <&lab_idle_0_1 &lab_idle_0_2>;
				lab,board-opp-khz = <500000 1000000>;
				lab,board-cpu-microwatt = <50000 150000>;
				lab,board-cluster-microwatt = <20000 40000>;
				lab,board-wfi-microwatt = <10000 30000>;
			cpu1: cpu@1 {
				lab,idle-microwatt = <7000>;
				cpu-idle-states = <&lab_idle_0_1 &lab_idle_0_2>;
				lab,board-opp-khz = <500000 1000000>;
				lab,board-cpu-microwatt = <50000 150000>;
				lab,board-cluster-microwatt = <20000 40000>;
				lab,board-wfi-microwatt = <10000 30000>;
			cpu2: cpu@2 {
				lab,board-opp-khz = <500000 1000000>;
				lab,board-cpu-microwatt = <200000 600000>;
				lab,board-cluster-microwatt = <30000 60000>;
				lab,board-wfi-microwatt = <20000 40000>;
			cpu3: cpu@3 {
				lab,board-opp-khz = <500000 1000000>;
				lab,board-cpu-microwatt = <200000 600000>;
				lab,board-cluster-microwatt = <30000 60000>;
				lab,board-wfi-microwatt = <20000 40000>;
	EOF
	same "good/board: CPU nodes' board properties" "$TMP/got"
	sed -n '/^\t\tidle-states {$/,/^\t\t};$/p' "$TMP/board.dtsi" >"$TMP/got"
	cat >"$TMP/want" <<-'EOF'
			idle-states {
				entry-method = "lab";

				little {
					lab_idle_0_1: cpu-off {
						compatible = "arm,idle-state";
						idle-state-name = "cpu-off";
						entry-latency-us = <100>;
						exit-latency-us = <200>;
						min-residency-us = <1000>;
						lab,cpu-microwatt = <0>;
						lab,cluster-microwatt = <30000>;
					};

					lab_idle_0_2: cluster-off {
						compatible = "arm,idle-state";
						idle-state-name = "cluster-off";
						entry-latency-us = <200>;
						exit-latency-us = <400>;
						min-residency-us = <2000>;
						lab,cpu-microwatt = <0>;
						lab,cluster-microwatt = <5000>;
						lab,cluster-scope;
					};
				};
			};
	EOF
	same "good/board: idle-states node" "$TMP/got"

	board_dtb good/board "$plat" \
		"0=little/cpu-off,little/cluster-off 1=little/cpu-off,little/cluster-off 2= 3="
	check_dts good/board "$plat" "512 512 1024 1024"

	# Without board data: none of it.
	plat=$HERE/good/cls.plat
	n=$("$PLATGEN" facts "$plat" | grep -c '\.idle_' || true)
	m=$("$PLATGEN" dts "$plat" | grep -cE 'idle-state|lab,board' || true)
	if [ "$n" -eq 0 ] && [ "$m" -eq 0 ]; then
		ok "good/cls: no board data, no idle facts, no idle-states or lab,board-*"
	else
		not_ok "good/cls: no board data" "$n idle facts, $m DT lines"
	fi
}

# board_dtb NAME PLAT "CPU=STATE,STATE ...": the fragment, appended to a
# minimal root node (QEMU's virt DTB is not needed for this), compiles
# without warnings, and each listed cpu@N's cpu-idle-states point at the
# named /cpus/idle-states/DOMAIN/STATE nodes, in order ("N=" for none).
board_dtb() {
	name=$1 plat=$2 want=$3

	if ! command -v dtc >/dev/null 2>&1 || ! command -v fdtget >/dev/null 2>&1; then
		not_ok "$name: board DT compiles" "dtc or fdtget not found"
		return 0
	fi
	{
		printf '/dts-v1/;\n/ {\n\t#address-cells = <2>;\n\t#size-cells = <2>;\n'
		printf '\tcpus {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n\t};\n};\n'
		"$PLATGEN" dts "$plat"
	} >"$TMP/min.dts"
	if ! dtc -I dts -O dtb -o "$TMP/min.dtb" "$TMP/min.dts" 2>"$TMP/min.err"; then
		not_ok "$name: board DT compiles" "$(head -n 1 "$TMP/min.err")"
		return 0
	elif [ -s "$TMP/min.err" ]; then
		not_ok "$name: board DT compiles" "dtc warns: $(head -n 1 "$TMP/min.err")"
		return 0
	fi
	ok "$name: board DT compiles on a minimal root, no dtc warnings"

	# phandle -> DOMAIN/STATE of every idle state
	for d in $(fdtget -l "$TMP/min.dtb" /cpus/idle-states); do
		for s in $(fdtget -l "$TMP/min.dtb" "/cpus/idle-states/$d"); do
			echo "$(fdtget -t u "$TMP/min.dtb" \
				"/cpus/idle-states/$d/$s" phandle) $d/$s"
		done
	done >"$TMP/states"
	got=
	for c in $want; do
		cpu=${c%%=*}
		phs=$(fdtget -t u "$TMP/min.dtb" "/cpus/cpu@$cpu" cpu-idle-states 2>/dev/null) || phs=
		names=
		for ph in $phs; do
			node=$(awk -v p="$ph" '$1 == p { print $2 }' "$TMP/states")
			names="$names${names:+,}${node:-?}"
		done
		got="$got${got:+ }$cpu=$names"
	done
	if [ "$got" = "$want" ]; then
		ok "$name: cpu-idle-states resolve: $want"
	else
		not_ok "$name: cpu-idle-states" "got '$got', want '$want'"
	fi
}

# real_board NAME "CPU=DOMAIN/STATE,..." "CPU|STATES|RESIDENCIES" ...:
# the DT's cpu-idle-states (see board_dtb) and the idle-state facts of one
# CPU per domain, as the .plat's sources give them; the latencies (entry +
# exit) come from the .plat itself (see board_latency).
real_board() {
	name=$1 dtb_want=$2
	shift 2
	plat=$PLATFORMS/$name.plat
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	for spec in "$@"; do
		cpu=${spec%%|*} res=${spec##*|}
		want="${spec%|*}|$(board_latency "$plat" "$cpu")|$res"
		got="$cpu|$(fact "$TMP/facts" "cpu$cpu.idle_states")|$(fact "$TMP/facts" "cpu$cpu.idle_latency")|$(fact "$TMP/facts" "cpu$cpu.idle_residency")"
		if [ "$got" = "$want" ]; then
			ok "$name: cpu$cpu idle states $want"
		else
			not_ok "$name: cpu$cpu idle states" "got '$got', want '$want'"
		fi
	done
	board_dtb "$name" "$PLATFORMS/$name.plat" "$dtb_want"
}

# Edge cases that cannot live in a file with an "# expect:" line.
misc_cases() {
	: >"$TMP/empty.plat"
	run check "$TMP/empty.plat"
	if [ "$rc" -eq 1 ] &&
	   [ "$(cat "$TMP/err")" = "$TMP/empty.plat:1: platform: missing required key" ]; then
		ok "zero-byte file"
	else
		not_ok "zero-byte file" "status $rc: $(head -n 1 "$TMP/err")"
	fi

	# No line to point at, so not "FILE:0:", which reads as a parse error.
	for cmd in check model; do
		run "$cmd" "$TMP/does-not-exist.plat"
		want="platgen: $TMP/does-not-exist.plat: cannot open: No such file or directory"
		if [ "$rc" -eq 1 ] && [ ! -s "$TMP/out" ] &&
		   [ "$(cat "$TMP/err")" = "$want" ]; then
			ok "missing file, $cmd: 'platgen: FILE: cannot open: strerror', status 1"
		else
			not_ok "missing file, $cmd" "status $rc: $(head -n 1 "$TMP/err")"
		fi
	done

	# Without the check the first key is "<BOM>platform": an invisible
	# "unknown key".  The rest of the file is valid.
	{
		printf '\357\273\277'
		printf '%s\n' 'platform bom' 'model BOM' 'cluster 0' 'domain d' \
			'cpus 0' 'core cortex-a53' 'capacity-dmips-mhz 1024' \
			'opp 1000 1 1'
	} >"$TMP/bom.plat"
	bad_file "$TMP/bom.plat" "UTF-8 byte-order mark" \
		":1: syntax: byte-order mark not allowed; save as plain UTF-8/ASCII"

	printf '%s\r\n' 'platform crlf' 'model CR LF' 'cluster 0' 'domain d' \
		'cpus 0' 'core cortex-a53' 'capacity-dmips-mhz 1024' 'opp 1000 1 1' \
		>"$TMP/crlf.plat"
	run info "$TMP/crlf.plat"
	if [ "$rc" -eq 0 ] && grep -qx "PLATFORM_MODEL='CR LF'" "$TMP/out"; then
		ok "CRLF line endings"
	else
		not_ok "CRLF line endings" "status $rc: $(head -n 1 "$TMP/err")"
	fi
}

# Help asked for is output (stdout, status 0); a usage error is not.
help_and_usage() {
	for arg in --help -h help; do
		run "$arg"
		if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ] &&
		   head -n 1 "$TMP/out" | grep -q '^usage: platgen .*|model}' &&
		   grep -q '^  model ' "$TMP/out"; then
			ok "platgen $arg: usage on stdout (model included), status 0"
		else
			not_ok "platgen $arg" "status $rc, want 0 with the usage on stdout only"
		fi
	done

	juno=$PLATFORMS/juno-r0.plat
	usage_error "unknown command" frobnicate "$juno"
	usage_error "no arguments"
	usage_error "no FILE" check
	usage_error "model without FILE" model
	usage_error "model with two FILEs" model "$juno" "$juno"
	usage_error "a stray argument" check "$juno" extra
	usage_error "help with a FILE" help "$juno"
	usage_error "unknown option" --bogus "$juno"
}

# usage_error NAME ARG...: platgen ARG... is refused with the usage.
usage_error() {
	name=$1
	shift
	run "$@"
	if [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] &&
	   grep -q '^usage: platgen ' "$TMP/err"; then
		ok "usage error, $name: usage on stderr, status 2"
	else
		not_ok "usage error, $name" "status $rc, want 2 with the usage on stderr only"
	fi
}

# Kernel style: the licence is the first line of every C file.
spdx() {
	for f in "$TOP"/tools/platgen/*.[ch]; do
		case $f in
		*.c) want='// SPDX-License-Identifier: GPL-2.0-only' ;;
		*) want='/* SPDX-License-Identifier: GPL-2.0-only */' ;;
		esac
		if [ "$(head -n 1 "$f")" = "$want" ]; then
			ok "${f#"$TOP"/}: SPDX line first"
		else
			not_ok "${f#"$TOP"/}: SPDX line" "first line is not '$want'"
		fi
	done
}

# mvals MODEL KIND ID KEY: the KEY values of the KIND ID lines of a model
# ("KIND ID" then "KEY VALUE" pairs), space separated, in model order.
mvals() {
	awk -v kind="$2" -v id="$3" -v key="$4" '
		$1 == kind && $2 == id {
			for (i = 3; i < NF; i += 2)
				if ($i == key) { printf "%s%s", sep, $(i + 1); sep = " " }
		}
		END { print "" }' "$1"
}

# platform_key MODEL KEY: KEY's value on the platform line of a model.
platform_key() {
	awk -v key="$2" '$1 == "platform" {
		for (i = 3; i < NF; i += 2) if ($i == key) print $(i + 1) }' "$1"
}

# model_vs_facts NAME PLAT: "platgen model" says what "platgen facts" says:
# every CPU's capacity, and per domain its policy's CPUs and frequencies,
# its perf domain's powers and its CPUs' idle states; the OPP capacities
# are the Energy Model's, capacity x kHz / top kHz truncated, recomputed
# here with the shell's integers.
model_vs_facts() {
	name=$1 plat=$2

	run model "$plat"
	if [ "$rc" -ne 0 ] || [ -s "$TMP/err" ] || [ ! -s "$TMP/out" ]; then
		not_ok "$name: model" "status $rc: $(head -n 1 "$TMP/err")"
		return 0
	fi
	cp "$TMP/out" "$TMP/model"
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	nr=$(fact "$TMP/facts" cpus)

	want=$(per_cpu "$TMP/facts" capacity "$nr")
	got=$(awk '$1 == "cpu" { printf "%s%s", sep, $2; sep = " " } END { print "" }' "$TMP/model")
	got_cap=$(awk '$1 == "cpu" { for (i = 3; i < NF; i += 2) if ($i == "capacity")
		{ printf "%s%s", sep, $(i + 1); sep = " " } } END { print "" }' "$TMP/model")
	seq=$(awk -v n="$nr" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", (i ? " " : ""), i; print "" }')
	pnr=$(platform_key "$TMP/model" nr_cpus)
	if [ "$got" = "$seq" ] && [ "$got_cap" = "$want" ] && [ "$pnr" = "$nr" ]; then
		ok "$name: model has CPUs $(summary_list "$got"), capacities $(summary_list "$got_cap") as the facts"
	else
		not_ok "$name: model CPUs and capacities" \
			"CPUs '$got' (want '$seq'), nr_cpus $pnr (want $nr), capacities '$got_cap' (facts '$want')"
	fi

	why=
	energy=$(platform_key "$TMP/model" em)
	board=$(platform_key "$TMP/model" board)
	awk '$1 == "domain" { print $2 }' "$TMP/model" >"$TMP/domains"
	while read -r d; do
		f=$(mvals "$TMP/model" domain "$d" first_cpu)
		cap=$(mvals "$TMP/model" domain "$d" capacity)
		top=$(mvals "$TMP/model" domain "$d" top_khz)
		cpus=$(mvals "$TMP/model" domain "$d" cpus | tr , ' ')
		khz=$(mvals "$TMP/model" opp "$d" khz)
		[ "$cpus" = "$(fact "$TMP/facts" "policy$f.cpus")" ] ||
			why="$why; $d: cpus '$cpus', policy$f.cpus '$(fact "$TMP/facts" "policy$f.cpus")'"
		[ "$cap" = "$(fact "$TMP/facts" "cpu$f.capacity")" ] ||
			why="$why; $d: capacity $cap, cpu$f.capacity $(fact "$TMP/facts" "cpu$f.capacity")"
		[ "$khz" = "$(fact "$TMP/facts" "policy$f.freqs")" ] ||
			why="$why; $d: OPPs '$khz', policy$f.freqs '$(fact "$TMP/facts" "policy$f.freqs")'"
		[ "$top" = "${khz##* }" ] || why="$why; $d: top_khz $top, top OPP ${khz##* }"
		if [ "$energy" = 1 ]; then
			got=$(mvals "$TMP/model" opp "$d" power_uw)
			[ "$got" = "$(fact "$TMP/facts" "pd$f.power")" ] ||
				why="$why; $d: power '$got', pd$f.power '$(fact "$TMP/facts" "pd$f.power")'"
		fi
		want=
		for k in $khz; do
			want="$want${want:+ }$((cap * k / top))"
		done
		got=$(mvals "$TMP/model" opp "$d" capacity)
		[ "$got" = "$want" ] || why="$why; $d: OPP capacities '$got', want '$want'"
		[ "${got##* }" = "$cap" ] || why="$why; $d: top OPP capacity ${got##* }, CPU $cap"
		if [ "$board" = 1 ]; then
			for k in states:state latency:latency_us residency:residency_us; do
				got=$(mvals "$TMP/model" idle "$d" "${k#*:}")
				want=$(fact "$TMP/facts" "cpu$f.idle_${k%%:*}")
				[ "$got" = "$want" ] ||
					why="$why; $d: idle ${k#*:} '$got', cpu$f.idle_${k%%:*} '$want'"
			done
		fi
	done <"$TMP/domains"
	if [ -z "$why" ]; then
		ok "$name: model domains agree with the facts (CPUs, OPPs, power, idle states), OPP capacities = capacity x kHz / top kHz"
	else
		not_ok "$name: model domains" "${why#; }"
	fi
}

# The model of juno-r0 by hand.  Capacities: little raw 578 x 850000 =
# 491300000, big 1024 x 1100000 = 1126400000, little = 491300000 x 1024 /
# 1126400000 = 446.6 -> 446.  OPPs: 446 x kHz / 850000: 450 MHz 236.1 ->
# 236, 575 MHz 301.7 -> 301, 700 MHz 367.2 -> 367, 775 MHz 406.6 -> 406
# (the old float arithmetic, from 446.6, said 302.1 and 407.2); big 1024
# x kHz / 1100000: 418.9, 581.8, 744.7, 884.4 -> 418 581 744 884.  Powers
# and idle states as written in the file; WFI is cpuidle's state 0 (exit
# 1 us, residency 1 us).
model_juno() {
	plat=$PLATFORMS/juno-r0.plat
	"$PLATGEN" model "$plat" >"$TMP/model"
	grep -E '^(platform|cluster|cpu) |^(domain|opp|idle) little ' "$TMP/model" >"$TMP/got"
	cat >"$TMP/want" <<-'EOF'
	platform juno-r0 nr_cpus 6 nr_clusters 2 nr_domains 2 em 1 asym 1 board 1
	cluster 0 cpus 1,2 nr_cpus 2
	cluster 1 cpus 0,3,4,5 nr_cpus 4
	cpu 0 domain little capacity 446 cluster 1
	cpu 1 domain big capacity 1024 cluster 0
	cpu 2 domain big capacity 1024 cluster 0
	cpu 3 domain little capacity 446 cluster 1
	cpu 4 domain little capacity 446 cluster 1
	cpu 5 domain little capacity 446 cluster 1
	domain little index 0 cpus 0,3,4,5 nr_cpus 4 first_cpu 0 core cortex-a53 dmips_mhz 578 capacity 446 top_khz 850000 nr_opps 5 latency_ns 100000 em 1 idle_power_uw 6000 board_wfi_cpu_uw 6000 board_wfi_cluster_uw 56000 nr_idle_states 3
	opp little index 0 khz 450000 uv 820000 capacity 236 power_uw 42361 board_cpu_uw 33000 board_cluster_uw 26000
	opp little index 1 khz 575000 uv 850000 capacity 301 power_uw 58161 board_cpu_uw 46000 board_cluster_uw 30000
	opp little index 2 khz 700000 uv 900000 capacity 367 power_uw 79380 board_cpu_uw 61000 board_cluster_uw 39000
	opp little index 3 khz 775000 uv 950000 capacity 406 power_uw 97921 board_cpu_uw 76000 board_cluster_uw 47000
	opp little index 4 khz 850000 uv 1000000 capacity 446 power_uw 119000 board_cpu_uw 93000 board_cluster_uw 57000
	idle little index 0 state WFI scope cpu entry_us 0 exit_us 1 latency_us 1 residency_us 1 board_cpu_uw 6000 board_cluster_uw 56000
	idle little index 1 state cpu-sleep-0 scope cpu entry_us 300 exit_us 1200 latency_us 1500 residency_us 2000 board_cpu_uw 0 board_cluster_uw 56000
	idle little index 2 state cluster-sleep-0 scope cluster entry_us 400 exit_us 1200 latency_us 1600 residency_us 2500 board_cpu_uw 0 board_cluster_uw 17000
	EOF
	same "juno-r0: model of the platform, its CPUs and the little domain, by hand" "$TMP/got"
	got=$(mvals "$TMP/model" opp big capacity)
	if [ "$got" = "418 581 744 884 1024" ]; then
		ok "juno-r0: model OPP capacities of the big domain $got, by hand"
	else
		not_ok "juno-r0: model OPP capacities of the big domain" "got '$got', want '418 581 744 884 1024'"
	fi
}

# The model of files without a board model or power, with a trailing
# comment on the cpus line, and with odd spacing.
model_cases() {
	"$PLATGEN" model "$HERE/good/no-power.plat" >"$TMP/model"
	got="$(platform_key "$TMP/model" em) $(platform_key "$TMP/model" board)"
	got="$got|$(mvals "$TMP/model" opp big power_uw)|$(mvals "$TMP/model" domain big idle_power_uw)"
	got="$got|$(grep -cE '^idle |board_' "$TMP/model" || true)"
	if [ "$got" = "0 0|- -|-|0" ]; then
		ok "good/no-power: model em 0, board 0, power_uw and idle_power_uw '-', no board keys"
	else
		not_ok "good/no-power: model" "got '$got', want '0 0|- -|-|0'"
	fi
	"$PLATGEN" model "$HERE/good/symmetric.plat" >"$TMP/model"
	got=$(platform_key "$TMP/model" asym)
	if [ "$got" = 0 ]; then
		ok "good/symmetric: model asym 0"
	else
		not_ok "good/symmetric: model asym" "got '$got', want 0"
	fi

	# A comment on the cpus line names no CPU, digits or not.
	sed 's/^cpus 0 3 4 5$/cpus 0 3 4 5 # littles: 4 of 6, 2 clusters/; s/^cluster 1 2$/  cluster	1 2   # bigs/' \
		"$PLATFORMS/juno-r0.plat" >"$TMP/comment.plat"
	if ! grep -q '^cpus 0 3 4 5 # littles' "$TMP/comment.plat"; then
		not_ok "model: trailing comment on a cpus line" "juno-r0.plat has no 'cpus 0 3 4 5' line"
		return 0
	fi
	"$PLATGEN" model "$TMP/comment.plat" >"$TMP/model"
	got="$(grep -c '^cpu ' "$TMP/model")|$(mvals "$TMP/model" domain little cpus)|$(mvals "$TMP/model" domain little nr_cpus)"
	got="$got|$(platform_key "$TMP/model" nr_cpus)|$(platform_key "$TMP/model" nr_clusters)"
	got="$got|$(mvals "$TMP/model" domain little capacity)"
	if [ "$got" = "6|0,3,4,5|4|6|2|446" ]; then
		ok "model: trailing comment on a cpus line, indented cluster line: 6 CPUs, little 0,3,4,5 (4), 2 clusters, capacity 446"
	else
		not_ok "model: trailing comment on a cpus line" "got '$got', want '6|0,3,4,5|4|6|2|446'"
	fi
	if "$PLATGEN" model "$PLATFORMS/juno-r0.plat" | cmp -s - "$TMP/model"; then
		ok "model: comments and blanks change nothing (same model as juno-r0.plat)"
	else
		not_ok "model: comments and blanks" "the model differs from juno-r0.plat's"
	fi
}

# rep N WORD: WORD N times, space separated.
rep() {
	awk -v n="$1" -v w="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s%s", (i ? " " : ""), w; print "" }'
}

# The DT and the model of the platforms of 8 CPUs or fewer are what they
# were before platforms past 8 CPUs came (sha256 of the outputs of the
# platgen of commit ba193f8): their results stay comparable.  A change
# made on purpose updates the sum here.
golden_outputs() {
	while read -r name cmd sum; do
		got=$("$PLATGEN" "$cmd" "$PLATFORMS/$name.plat" | sha256sum | cut -c1-64)
		if [ "$got" = "$sum" ]; then
			ok "$name: platgen $cmd output unchanged (sha256 ${sum%"${sum#????????????}"}...)"
		else
			not_ok "$name: platgen $cmd output changed" "sha256 $got, want $sum"
		fi
	done <<-'EOF'
	juno-r0 dts 2af0b478811271e456eb4b5fc61bff369157a4fd3b535d65937eeb5a4aa9da9a
	juno-r0 model 43320385352c7ad51bee99e6574a3020476a81b4f04288b10ef60b10885a3e41
	hikey960 dts c9ff9fd5e9ad327e8a3adfa8746d698d101683628e1bff4c15be20bbfa01aff0
	hikey960 model 20045e23fe12bbf59d6bb52d67978d181a297ccb97541c6a4e020430196adb29
	gs101 dts a20fbebb6b01a40a96a380745438ce58abaa1e8c079cd86eb437f446c74bbe08
	gs101 model 37744be36adbc9fe98010954f1bc07d92726c15ac4d94f0c869d0916ba101d99
	EOF
}

# The platforms past 8 CPUs are tools/platgen/scaled-platforms.sh's output.
generated_platforms() {
	for name in hybrid16 dynamiq64 dynamiq128 dynamiq256; do
		if ! sh "$TOP/tools/platgen/scaled-platforms.sh" "$name" >"$TMP/gen.plat"; then
			not_ok "$name.plat: generated" "scaled-platforms.sh $name failed"
		elif cmp -s "$TMP/gen.plat" "$PLATFORMS/$name.plat"; then
			ok "$name.plat: is what tools/platgen/scaled-platforms.sh $name writes"
		else
			not_ok "$name.plat: generated" \
				"differs from scaled-platforms.sh $name: $(diff "$PLATFORMS/$name.plat" "$TMP/gen.plat" | grep '^[<>]' | head -n 2 | tr '\n' ' ')"
		fi
	done
}

# hybrid16: one frequency domain per CPU, so 16 cpufreq policies and EM
# perf domains of one CPU each, 16 OPP tables and clocks in the DT.
hybrid_domains() {
	plat=$PLATFORMS/hybrid16.plat
	"$PLATGEN" dts "$plat" >"$TMP/h.dtsi"
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	got="$(grep -c '^		cpu[0-9]*: cpu@[0-9]* {$' "$TMP/h.dtsi")"
	got="$got $(grep -c '^	lab_opp_[a-z0-9_]*: opp-table-[a-z0-9-]* {$' "$TMP/h.dtsi")"
	got="$got $(grep -c 'opp-shared;' "$TMP/h.dtsi")"
	got="$got $(grep -c '^	lab_clk_[a-z0-9_]*: lab-clock-' "$TMP/h.dtsi")"
	got="$got $(grep -c 'operating-points-v2 = <&lab_opp_' "$TMP/h.dtsi")"
	got="$got $(sort -u "$TMP/h.dtsi" | grep -c 'operating-points-v2 = <&lab_opp_')"
	if [ "$got" = "16 16 16 16 16 16" ]; then
		ok "hybrid16: dts has 16 cpu nodes, 16 OPP tables and clocks, each CPU its own table"
	else
		not_ok "hybrid16: dts" "cpu nodes, OPP tables, opp-shared, clocks, CPU references, distinct ones: '$got', want 16 each"
	fi
	want='' got=''
	for c in $(seq 0 15); do
		want="$want $c:$c:$c"
		got="$got $c:$(fact "$TMP/facts" "policy$c.cpus"):$(fact "$TMP/facts" "pd$c.cpus")"
	done
	if [ "$got" = "$want" ] && [ "$(grep -c '^policy[0-9]*\.cpus ' "$TMP/facts")" -eq 16 ] &&
	   [ "$(grep -c '^pd[0-9]*\.cpus ' "$TMP/facts")" -eq 16 ]; then
		ok "hybrid16: facts: 16 policies and 16 perf domains, policyN and pdN = CPU N alone"
	else
		not_ok "hybrid16: facts" "policyN.cpus and pdN.cpus per CPU:$got, want$want"
	fi
}

# A file of 256 CPUs, the most there can be: one cluster line naming them
# all (backwards, 1000 characters of the 1024 a line may have), two
# domains of 128.  Then CPU 256, which is one too many.
max_cpus() {
	plat=$TMP/max.plat
	{
		echo 'platform max'
		echo 'model 256 CPUs'
		echo "cluster $(seq 255 -1 0 | tr '\n' ' ')"
		echo 'domain little'
		echo "cpus $(seq 0 127 | tr '\n' ' ')"
		echo 'core cortex-a55'
		echo 'capacity-dmips-mhz 512'
		echo 'opp 500000 800000 100'
		echo 'opp 1000000 900000 300'
		echo 'domain big'
		echo "cpus $(seq 128 255 | tr '\n' ' ')"
		echo 'core cortex-a76'
		echo 'capacity-dmips-mhz 1024'
		echo 'opp 500000 800000 400'
		echo 'opp 1000000 900000 900'
	} >"$plat"
	run check "$plat"
	if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ]; then
		ok "256 CPUs: check accepts them"
	else
		not_ok "256 CPUs: check" "status $rc: $(head -n 1 "$TMP/err")"
	fi
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	got="$(fact "$TMP/facts" cpus)|$(fact "$TMP/facts" eas)|$(fact "$TMP/facts" policy128.cpus | wc -w)"
	got="$got|$(fact "$TMP/facts" pd0.cpus | awk '{ print $1 "-" $NF }')"
	got="$got|$("$PLATGEN" model "$plat" | awk '$1 == "cluster" { print $NF }')"
	if [ "$got" = "256|started|128|0-127|256" ]; then
		ok "256 CPUs: facts and model: 256 CPUs, EAS, policy128 of 128 CPUs, pd0 0-127, a cluster of 256"
	else
		not_ok "256 CPUs: facts and model" "got '$got', want '256|started|128|0-127|256'"
	fi
	check_facts "256 CPUs" "$TMP/facts" 256 "$(rep 128 512) $(rep 128 1024)" \
		"$(rep 256 MC)" "pd0:100:300 pd128:400:900"
	check_dts "256 CPUs" "$plat" "$(rep 128 512) $(rep 128 1024)"

	{ cat "$plat"; echo 'domain more'; echo 'cpus 256'; } >"$TMP/257.plat"
	bad_file "$TMP/257.plat" "CPU 256: beyond the maximum" \
		":17: cpus: CPU id 256 out of range 0..255 (at most 256 CPUs, the lab kernel's NR_CPUS)"
}

# numa_dtb NAME PLAT: the merged DTB check_dts left (QEMU's, dumped with
# the platform's -numa options from lab/lib.sh, and the fragment) has each
# cpu@N in CPU N's node, one memory node per NUMA node with its equal share
# of the RAM, and the platform's distance matrix in /distance-map.
numa_dtb() {
	name=$1 plat=$2

	if [ ! -s "$TMP/out.dtb" ]; then
		ok "$name: NUMA nodes in the merged DTB # SKIP no merged DTB (qemu-system-aarch64 not found)"
		return 0
	fi
	if ! command -v fdtget >/dev/null 2>&1; then
		not_ok "$name: NUMA nodes in the merged DTB" "fdtget not found"
		return 0
	fi
	why=
	load_info "$plat"
	"$PLATGEN" model "$plat" >"$TMP/model"
	# "KIND ID" then "KEY VALUE" pairs: each cpu's node, each node's MiB.
	want=$(awk '$1 == "cpu" { for (i = 3; i < NF; i += 2) if ($i == "node") print $(i + 1) }' "$TMP/model" | xargs)
	got=
	for c in $(seq 0 $((NR_CPUS - 1))); do
		got="$got${got:+ }$(fdtget -t u "$TMP/out.dtb" "/cpus/cpu@$c" numa-node-id 2>/dev/null || echo -)"
	done
	[ "$got" = "$want" ] || why="cpu@N numa-node-id '$got', want '$want'"

	want=$(awk '$1 == "node" { for (i = 3; i < NF; i += 2) if ($i == "memory_mb") print $2 ":" $(i + 1) }' "$TMP/model" | xargs)
	got=$(for m in $(fdtget -l "$TMP/out.dtb" / | grep '^memory@'); do
		echo "$(fdtget -t u "$TMP/out.dtb" "/$m" numa-node-id 2>/dev/null || echo -):$(fdtget -t u "$TMP/out.dtb" "/$m" reg |
			awk '{ print ($3 * 4294967296 + $4) / 1048576 }')"
	done | sort -n | xargs)
	[ "$got" = "$want" ] || why="${why:+$why; }memory nodes (node:MiB) '$got', want '$want'"

	want=$(echo "$NUMA_DISTANCES" | tr ' ' '\n' | awk -F, '{ for (j = 1; j <= NF; j++) print NR - 1, j - 1, $j }' | xargs)
	got=$(fdtget -t u "$TMP/out.dtb" /distance-map distance-matrix 2>/dev/null | xargs)
	[ "$got" = "$want" ] || why="${why:+$why; }distance-matrix '$got', want '$want'"
	compat=$(fdtget "$TMP/out.dtb" /distance-map compatible 2>/dev/null || true)
	[ "$compat" = numa-distance-map-v1 ] || why="${why:+$why; }distance-map compatible '$compat'"

	if [ -z "$why" ]; then
		ok "$name: merged DTB: every cpu@N and $NR_NUMA_NODES memory nodes carry their numa-node-id, /distance-map (numa-distance-map-v1) is the matrix"
	else
		not_ok "$name: NUMA nodes in the merged DTB" "$why"
	fi
}

# The NUMA keys: facts, runner variables and QEMU arguments of a small
# file with interleaved nodes and the default distances, and of numa-ring8.
numa_cases() {
	plat=$HERE/good/numa.plat
	"$PLATGEN" facts "$plat" >"$TMP/facts"
	check_facts good/numa "$TMP/facts" 6 "512 512 1024 512 512 512" \
		"CLS NUMA CLS NUMA MC NUMA" "pd0:100:300 pd2:400:900"
	grep -E '^nodes |^node[0-9]+\.' "$TMP/facts" >"$TMP/got" || true
	cat >"$TMP/want" <<-'EOF'
	node0.cpus 0 2 4
	node0.distance 10 20
	node1.cpus 1 3 5
	node1.distance 20 10
	nodes 2
	EOF
	same "good/numa: node facts (interleaved CPUs, default distances 10 and 20)" "$TMP/got"

	"$PLATGEN" info "$plat" | grep -E '^(NR_)?NUMA_' >"$TMP/got"
	cat >"$TMP/want" <<-'EOF'
	NR_NUMA_NODES=2
	NUMA_NODE_CPUS='0,2,4 1,3,5'
	NUMA_DISTANCES='10,20 20,10'
	EOF
	same "good/numa: info's NUMA variables" "$TMP/got"

	load_info "$plat"
	# shellcheck disable=SC2034 source=/dev/null # LAB_TOP is for lib.sh
	got=$(LAB_TOP=$TOP && . "$TOP/lab/lib.sh" && qemu_machine_args)
	want="-machine virt -cpu cortex-a57 -smp 6 -m 256M -display none"
	want="$want -object memory-backend-ram,id=ram-node0,size=128M -numa node,nodeid=0,cpus=0,cpus=2,cpus=4,memdev=ram-node0"
	want="$want -object memory-backend-ram,id=ram-node1,size=128M -numa node,nodeid=1,cpus=1,cpus=3,cpus=5,memdev=ram-node1"
	want="$want -numa dist,src=0,dst=1,val=20"
	if [ "$got" = "$want" ]; then
		ok "good/numa: lab/lib.sh's QEMU machine: a memory backend and node per NUMA node, a cpus= per CPU range, each distance once"
	else
		not_ok "good/numa: lab/lib.sh's QEMU machine" "got '$got', want '$want'"
	fi

	rm -f "$TMP/out.dtb"
	check_dts good/numa "$plat" "512 512 1024 512 512 512"
	numa_dtb good/numa "$plat"

	"$PLATGEN" dts "$plat" | grep -c 'numa-node-id' >"$TMP/got" || true
	"$PLATGEN" dts "$HERE/good/cls.plat" | grep -c 'numa-node-id' >>"$TMP/got" || true
	printf '6\n0\n' >"$TMP/want"
	same "dts: numa-node-id in each cpu node with numa-node lines (6), in none without (0)" "$TMP/got"
	got=$("$PLATGEN" info "$HERE/good/cls.plat" | grep -E '^(NR_)?NUMA_' | xargs)
	if [ "$got" = "NR_NUMA_NODES=0 NUMA_NODE_CPUS= NUMA_DISTANCES=" ]; then
		ok "good/cls: info NR_NUMA_NODES=0, NUMA_NODE_CPUS and NUMA_DISTANCES empty"
	else
		not_ok "good/cls: info's NUMA variables" "got '$got'"
	fi
	got="$(fact "$TMP/facts" nodes)"
	"$PLATGEN" facts "$HERE/good/cls.plat" >"$TMP/facts"
	got="$got|$(fact "$TMP/facts" nodes)|$(fact "$TMP/facts" node0.cpus)|$(fact "$TMP/facts" node0.distance)"
	if [ "$got" = "2|1|0 1 2 3 4 5|10" ]; then
		ok "good/cls: without numa-node lines the facts say one node, 0, of every CPU, distance 10"
	else
		not_ok "good/cls: node facts" "got '$got', want '2|1|0 1 2 3 4 5|10'"
	fi

	# 17 nodes, one past the kernel's MAX_NUMNODES, refused at the 17th.
	{
		echo 'platform many'
		for c in $(seq 0 16); do echo "numa-node $c"; done
	} >"$TMP/nodes.plat"
	bad_file "$TMP/nodes.plat" "NUMA node 17: beyond the maximum" \
		":18: numa-node: more than 16 NUMA nodes (the lab kernel's MAX_NUMNODES)"
}

real_platform juno-r0 6 "446 1024 1024 446 446 446" "MC MC MC MC MC MC" \
	"pd0:42361:119000 pd1:160367:583000" "578 1024 1024 578 578 578"
real_platform hikey960 8 "462 462 462 462 1024 1024 1024 1024" \
	"MC MC MC MC MC MC MC MC" "pd0:28728:245436 pd4:243358:1571911" \
	"592 592 592 592 1024 1024 1024 1024"
real_platform gs101 8 "160 160 160 160 498 498 1024 1024" \
	"MC MC MC MC MC MC MC MC" \
	"pd0:6055:103597 pd4:29085:599556 pd6:81250:2030997" \
	"250 250 250 250 620 620 1024 1024"

# Past 8 CPUs: gs101's classes, capacities 160, 498 and 1024.
real_platform hybrid16 16 "$(rep 4 1024) $(rep 8 498) $(rep 4 160)" "$(rep 16 MC)" \
	"pd0:81250:2030997 pd4:29085:599556 pd12:6055:103597" \
	"$(rep 4 1024) $(rep 8 620) $(rep 4 250)"
real_platform dynamiq64 64 "$(rep 32 160) $(rep 16 498) $(rep 16 1024)" "$(rep 64 MC)" \
	"pd0:6055:103597 pd24:6055:103597 pd32:29085:599556 pd56:81250:2030997" \
	"$(rep 32 250) $(rep 16 620) $(rep 16 1024)"
real_platform dynamiq128 128 "$(rep 64 160) $(rep 32 498) $(rep 32 1024)" "$(rep 128 MC)" \
	"pd0:6055:103597 pd64:29085:599556 pd120:81250:2030997" \
	"$(rep 64 250) $(rep 32 620) $(rep 32 1024)"
real_platform dynamiq256 256 "$(rep 128 160) $(rep 64 498) $(rep 64 1024)" "$(rep 256 MC)" \
	"pd0:6055:103597 pd128:29085:599556 pd248:81250:2030997" \
	"$(rep 128 250) $(rep 64 620) $(rep 64 1024)"

# Synthetic: Juno r0's A57 and A53 domains, twice, in a ring of 4 NUMA
# nodes.  The lowest level with both capacities is NUMA (distance 20).
rm -f "$TMP/out.dtb"
real_platform numa-ring8 8 "1024 1024 446 446 1024 1024 446 446" "$(rep 8 NUMA)" \
	"pd0:160367:583000 pd2:42361:119000 pd4:160367:583000 pd6:42361:119000" \
	"1024 1024 578 578 1024 1024 578 578"
numa_dtb numa-ring8 "$PLATFORMS/numa-ring8.plat"

real_board juno-r0 \
	"0=little/cpu-sleep-0,little/cluster-sleep-0 1=big/cpu-sleep-0,big/cluster-sleep-0" \
	"0|WFI cpu-sleep-0 cluster-sleep-0|1 2000 2500" \
	"1|WFI cpu-sleep-0 cluster-sleep-0|1 2000 2500"
real_board hikey960 \
	"0=little/cpu-sleep-0,little/cluster-sleep-0 4=big/cpu-sleep-1,big/cluster-sleep-1" \
	"0|WFI cpu-sleep-0 cluster-sleep-0|1 1500 3500" \
	"4|WFI cpu-sleep-1 cluster-sleep-1|1 1500 3500"
real_board gs101 \
	"0=little/c2,little/cluster-sleep 4=mid/c2,mid/cluster-sleep 6=big/c2,big/cluster-sleep" \
	"0|WFI c2 cluster-sleep|1 2000 4000" \
	"4|WFI c2 cluster-sleep|1 2500 5000" \
	"6|WFI c2 cluster-sleep|1 3500 7000"
real_board hybrid16 \
	"0=big0/c2,big0/cluster-sleep 4=mid4/c2,mid4/cluster-sleep 15=little15/c2,little15/cluster-sleep" \
	"0|WFI c2 cluster-sleep|1 3500 7000" \
	"4|WFI c2 cluster-sleep|1 2500 5000" \
	"15|WFI c2 cluster-sleep|1 2000 4000"
real_board dynamiq64 \
	"0=little0/c2,little0/cluster-sleep 40=mid5/c2,mid5/cluster-sleep 63=big7/c2,big7/cluster-sleep" \
	"0|WFI c2 cluster-sleep|1 2000 4000" \
	"40|WFI c2 cluster-sleep|1 2500 5000" \
	"63|WFI c2 cluster-sleep|1 3500 7000"

for f in "$HERE"/bad/*.plat; do
	bad_file "$f"
done

for f in "$PLATFORMS"/*.plat; do
	n=${f##*/}
	model_vs_facts "${n%.plat}" "$f"
done
for f in "$HERE"/good/*.plat; do
	n=${f##*/}
	model_vs_facts "good/${n%.plat}" "$f"
done
model_juno
model_cases
golden_outputs
generated_platforms
hybrid_domains
max_cpus

good_symmetric
good_no_power
good_cls
good_board
numa_cases
misc_cases
help_and_usage
spdx

echo "platgen: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
