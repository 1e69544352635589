#!/bin/sh
# emcost, the Energy Model cost and optimum behind the benchmark's and the
# behaviour tests' verdicts: hand-computed powers, the optimum against a
# brute force over every placement, the timeline score, and bad input.
set -eu
LAB_TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
cd "$LAB_TOP"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
emcost=$tmp/emcost
juno=lab/platforms/juno-r0.plat
gs101=lab/platforms/gs101.plat

check "emcost builds with gcc -std=c11 -Wall -Wextra -Werror" \
	gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$emcost" \
	tools/emcost/*.c tools/platgen/parse.c tools/platgen/validate.c

# field NAME: the value of the line "NAME value" of emcost's output on stdin.
field() {
	awk -v k="$1" '$1 == k { print $2 }'
}

# calc EXPR: the value of an awk expression, to the nW.
calc() {
	awk "BEGIN { printf \"%.3f\\n\", $1 }"
}

# near A B TOLERANCE: |A - B| <= TOLERANCE.
near() {
	awk -v a="$1" -v b="$2" -v t="$3" \
		'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'
}

# Juno r0, LITTLE capacity 446 at 850 MHz.  One task of util 228 on CPU0
# needs 228 / 0.8 = 285 of capacity: 575 MHz (446 x 575 / 850 = 301.7).
#   CPU0: 58161 x 228/301.7 + 6000 x (1 - 228/301.7)
#   three idle LITTLEs at 6000, two idle bigs at 15000
# Table: name, options, placement, expected power (uW).
while IFS='|' read -r name opts placement expect; do
	# shellcheck disable=SC2086 # options and placement are word lists
	got=$("$emcost" estimate $opts "$juno" $placement | field power_uw)
	if near "$got" "$expect" 0.5; then
		ok "estimate: $name: $got uW"
	else
		not_ok "estimate: $name: $got uW, hand-computed $expect"
	fi
done <<EOF
one task on a LITTLE at 575 MHz|| 0:228|$(calc '58161 * 228 / (446 * 575 / 850) + 6000 * (1 - 228 / (446 * 575 / 850)) + 3 * 6000 + 2 * 15000')
the same, idle power 0 (-I)|-I| 0:228|$(calc '58161 * 228 / (446 * 575 / 850)')
two tasks share a big at 800 MHz (cap 744.7 >= 580 / 0.8)|-I| 1:290 1:290|$(calc '343440 * 580 / (1024 * 800 / 1100)')
an overloaded big runs at its top OPP, busy 100%|-I| 2:600 2:600|583000
no margin (-m 0): 575 MHz serves 301|-I -m 0| 3:301|$(calc '58161 * 301 / (446 * 575 / 850)')
EOF

fits=$("$emcost" estimate "$juno" 2:1000 | field fits)
# 1000 needs 1250 of capacity with the margin: more than the big's 1024.
check "estimate: a CPU beyond its top OPP with margin is flagged (fits $fits)" \
	test "$fits" = no

# brute PLATFORM NR_CPUS UTIL...: the lowest power of every placement that
# fits, by asking emcost estimate about each one.
brute() {
	plat=$1 nr=$2
	shift 2
	best=''
	for a in $(seq 0 $((nr - 1))); do
		for b in $(seq 0 $((nr - 1))); do
			for c in $(seq 0 $((nr - 1))); do
				out=$("$emcost" estimate "$plat" "$a:$1" "$b:$2" "$c:$3")
				[ "$(echo "$out" | field fits)" = yes ] || continue
				p=$(echo "$out" | field power_uw)
				best=$(awk -v p="$p" -v b="$best" \
					'BEGIN { print (b == "" || p < b) ? p : b }')
			done
		done
	done
	echo "$best"
}

for case in "$juno 6 228 228 228" "$juno 6 51.2 400 700" \
	"$gs101 8 128 128 398" "$gs101 8 700 60 300"; do
	# shellcheck disable=SC2086 # the case is a word list
	set -- $case
	plat=$1 nr=$2
	shift 2
	want=$(brute "$plat" "$nr" "$@")
	got=$("$emcost" optimum "$plat" "$@" | field power_uw)
	name="optimum of $* on $(basename "$plat" .plat) is the brute-force minimum over $nr^3 placements"
	if near "$got" "$want" 0.1; then
		ok "$name: $got uW"
	else
		not_ok "$name: emcost $got uW, brute force $want uW"
	fi
done

# The placement optimum prints must cost what it claims.
"$emcost" optimum "$gs101" 51.2x20 300 >"$tmp/opt"
placed=$(awk '$1 == "cpu" && $6 != "-" {
	n = split($6, t, ","); for (i = 1; i <= n; i++) printf "%d:%s ", $2, (t[i] < 20 ? 51.2 : 300) }' \
	"$tmp/opt")
# shellcheck disable=SC2086 # a word list of CPU:UTIL
again=$("$emcost" estimate "$gs101" $placed | field power_uw)
claimed=$(field power_uw <"$tmp/opt")
check "optimum's placement of 21 tasks re-estimates to its power ($claimed vs $again uW)" \
	near "$claimed" "$again" 0.5

# Identical tasks are searched as one class: same answer as listing them.
one=$("$emcost" optimum "$juno" 51.2x10 | field power_uw)
# shellcheck disable=SC2046 # ten words
ten=$("$emcost" optimum "$juno" $(printf '51.2 %.0s' 1 2 3 4 5 6 7 8 9 10) | field power_uw)
check "optimum: 51.2x10 equals ten tasks listed ($one vs $ten uW)" test "$one" = "$ten"

start=$(date +%s)
big=$("$emcost" optimum lab/platforms/hikey960.plat 51.2x50 | field power_uw)
secs=$(($(date +%s) - start))
check "optimum of the seed's 50 tasks on HiKey960 in ${secs}s (< 5 s): $big uW" \
	test -n "$big" -a "$secs" -lt 5

m0=$("$emcost" optimum -m 0 "$juno" 300x4 | field power_uw)
m20=$("$emcost" optimum "$juno" 300x4 | field power_uw)
check "optimum: no margin costs no more than 20% margin ($m0 <= $m20 uW)" \
	awk -v a="$m0" -v b="$m20" 'BEGIN { exit !(a <= b) }'

# score: 1 s of the optimal placement of three LITTLE tasks, then 1 s
# with one of them on a big, whose cost is the estimate's.
opt=$("$emcost" optimum -I "$juno" 228x3 | field power_uw)
worse=$("$emcost" estimate -I "$juno" 0:228 1:228 4:228 | field power_uw)
printf '1000000 0:228 3:228 4:228\n1000000 0:228 1:228 4:228\n' |
	"$emcost" score -I "$juno" >"$tmp/score"
est=$(field estimated_uj <"$tmp/score")
optuj=$(field optimal_uj <"$tmp/score")
ratio=$(field ratio <"$tmp/score")
check "score: optimal energy is 2 s of the optimum's power ($optuj uJ)" \
	near "$optuj" "$(calc "2 * $opt")" 0.1
check "score: estimate is 1 s optimal + 1 s with a big ($est uJ)" \
	near "$est" "$(calc "$opt + $worse")" 0.1
check "score: ratio $ratio is estimated / optimal, above 1" \
	awk -v r="$ratio" -v e="$est" -v o="$optuj" \
	'BEGIN { exit !(r > 1 && r - e / o < 1e-4 && e / o - r < 1e-4) }'

expect_fail "no placement fits: three tasks of 1024 on Juno r0" \
	"no placement of these tasks fits" "$emcost" optimum "$juno" 1024x3
expect_fail "a util above 1024" "not a util in 0..1024" \
	"$emcost" optimum "$juno" 2000
expect_fail "a CPU the platform lacks" "no such CPU on this platform" \
	"$emcost" estimate "$juno" 6:100
expect_fail "a segment without a duration" "segment line 2: not a duration" \
	sh -c "printf '10 0:1\nx 0:1\n' | '$emcost' score '$juno'"
expect_fail "a domain without power data" "big has no power data" \
	"$emcost" optimum tests/host/good/no-power.plat 100
expect_fail "a malformed platform file names the file and line" \
	"bad-margin.plat:1:" sh -c "echo 'platform x y' >'$tmp/bad-margin.plat' &&
	'$emcost' optimum '$tmp/bad-margin.plat' 100"
expect_fail "a margin of 100%" "not a margin" "$emcost" optimum -m 100 "$juno" 1
