#!/bin/sh
# Print an experiment's summary.json as a short table.
# Usage: lab/report.sh RESULTS_DIR
set -eu
s=$1/summary.json
[ -f "$s" ] || { echo "report.sh: no $s" >&2; exit 1; }
jq -r '
  "\(.platform) \(.experiment): \(.verdict), exit \(.exit_status), " +
  "\(.wall_seconds) s wall, \(.guest_seconds // "?") s guest, kernel \(.kernel), " +
  "EAS \(if .eas_started then "started" else "off" end)",
  (if .energy then "energy: \(.energy.joules) J (" +
    ([.energy.domains_uj | to_entries[] | "\(.key) \(.value / 1e6) J"] | join(", ")) + ")"
   else "energy: no meter" end),
  "",
  "  cpu  capacity  busy%  energy mJ",
  (.cpus // [] | .[] | "  \(.cpu | tostring | .[0:3] | (. + "   ")[0:3])  \(.capacity | tostring | (. + "        ")[0:8])  \(.busy_pct | tostring | (. + "     ")[0:5])  \(if .energy_uj == null then "-" else (.energy_uj / 1000 | floor) end)"),
  "",
  "  policy    cpus        avg MHz  energy mJ  time at MHz (ms)",
  (.policies // [] | .[] | "  \((.policy + "          ")[0:8])  \((.cpus + "            ")[0:10])  \(((.avg_khz / 1000) | floor | tostring) + "       " | .[0:7])  \((if .energy_uj == null then "-" else (.energy_uj / 1000 | floor) end | tostring) + "         " | .[0:9])  " +
    ([.ms_at_khz | to_entries[] | "\((.key | tonumber) / 1000 | floor):\(.value)"] | join(" ")))
' "$s"
