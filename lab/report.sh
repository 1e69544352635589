#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print an experiment's summary.json as a short table: the verdict, the
# energy on the board meter with the Energy Model's estimate of it, per-CPU
# busy time and energy, per-policy frequency residency and energy, and the
# time each CPU and cluster spent busy and in each idle state (as in effect
# on the board; a cluster is idle when all its CPUs are).
# Usage: lab/report.sh RESULTS_DIR
set -eu
s=$1/summary.json
[ -f "$s" ] || { echo "report.sh: no $s" >&2; exit 1; }
jq -r '
  # X with N decimals (jq 1.6 has no printf).
  def fixed($n):
    (if . < 0 then "-" else "" end) as $sign
    | ((if . < 0 then -. else . end) * pow(10; $n) | round | tostring) as $d
    | ((("0" * ($n + 1 - ($d | length))) // "") + $d) as $d
    | $sign + $d[0:($d | length) - $n] + (if $n > 0 then "." + $d[($d | length) - $n:] else "" end);
  def J: (. / 1e6 | fixed(4)) + " J";
  def lpad($w): tostring | ((" " * ($w - length)) // "") + .;
  def rpad($w): tostring | . + ((" " * ($w - length)) // "");
  def energy_line:
    .energy as $e
    | if $e == null then "energy: no meter" else
      "energy: \($e.total_uj | J) (" +
      ([$e.domains_uj | to_entries[] | "\(.key) \(if .value == null then "-" else (.value | J) end)"] | join(", ")) +
      (if ($e.clusters_uj // {}) != {} and $e.meter != "energy_model" then "; clusters \([$e.clusters_uj[]] | add | J)" else "" end) + ")" +
      (if $e.meter == "energy_model" then " from the Energy Model (lab_emu.em_meter=1)"
       elif $e.meter == "mixed" then " (lab_emu.em_meter switched during the run)"
       else (if $e.meter == "board" then " on the board meter" else "" end) +
         (if $e.em_estimate == null then "" else
           "; Energy Model'"'"'s estimate \($e.em_estimate.total_uj | J)" +
           (if $e.model_error_pct == null then "" else
             " (\(if $e.model_error_pct >= 0 then "+" else "" end)\($e.model_error_pct | fixed(1))%)" end) end)
       end)
    end;
  # Idle residency: one group of rows per cluster (its CPUs, then the
  # cluster), the state names as a header whenever they change.
  def idle_rows:
    .idle as $i
    | if $i == null then empty else
      ([$i.clusters[] | (.cpus | split(" ") | map(select(. != "") | tonumber)) as $cc
        | [($i.cpus[] | select(.cpu | IN($cc[]))
            | {label: "cpu\(.cpu)", states, busy: .busy_ms, vals: .effective_ms}),
           {label: .cluster, states, busy: .active_ms, vals: .idle_ms}]]) as $groups
      | [$i.clusters[].cpus | split(" ")[] | select(. != "") | tonumber] as $in
      | ($groups + [$i.cpus[] | select(.cpu | IN($in[]) | not)
          | [{label: "cpu\(.cpu)", states, busy: .busy_ms, vals: .effective_ms}]])
      | "",
        foreach .[] as $g ({prev: null};
          .hdr = ($g[0].states != .prev) | .prev = $g[0].states | .g = $g;
          .g[0].states as $st
          | [$st[] | [length, 5] | max] as $w
          | (if .hdr then "  " + ("residency %" | rpad(12)) + ("busy" | lpad(6)) +
              ([range($st | length) as $k | "  " + ($st[$k] | lpad($w[$k]))] | join("")) else empty end),
            (.g[] | (.busy + (.vals | add)) as $t
              | "  " + (.label | rpad(12)) +
                (if $t > 0 then (100 * .busy / $t | fixed(1)) else "-" end | lpad(6)) +
                ([range(.vals | length) as $k
                  | "  " + ((if $t > 0 then (100 * .vals[$k] / $t | fixed(1)) else "-" end) | lpad($w[$k] // 5))]
                 | join(""))))
    end;
  "\(.platform) \(.experiment): \(.verdict), exit \(.exit_status), " +
  "\(.wall_seconds) s wall, \(.guest_seconds // "?") s guest, kernel \(.kernel), " +
  "EAS \(if .eas_started then "started" else "off" end)",
  energy_line,
  "",
  "  cpu  capacity  busy%  energy mJ",
  (.cpus // [] | .[] | "  \(.cpu | tostring | .[0:3] | (. + "   ")[0:3])  \(.capacity | tostring | (. + "        ")[0:8])  \(.busy_pct | tostring | (. + "     ")[0:5])  \(if .energy_uj == null then "-" else (.energy_uj / 1000 | floor) end)"),
  "",
  "  policy    cpus        avg MHz  energy mJ  time at MHz (ms)",
  (.policies // [] | .[] | "  \((.policy + "          ")[0:8])  \((.cpus + "            ")[0:10])  \(((.avg_khz / 1000) | floor | tostring) + "       " | .[0:7])  \((if .energy_uj == null then "-" else (.energy_uj / 1000 | floor) end | tostring) + "         " | .[0:9])  " +
    ([.ms_at_khz | to_entries[] | "\((.key | tonumber) / 1000 | floor):\(.value)"] | join(" "))),
  idle_rows
' "$s"
