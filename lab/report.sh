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
  "",
  "  cpu  capacity  busy%",
  (.cpus // [] | .[] | "  \(.cpu | tostring | .[0:3] | (. + "   ")[0:3])  \(.capacity | tostring | (. + "        ")[0:8])  \(.busy_pct)"),
  "",
  "  policy    cpus        avg MHz  time at MHz (ms)",
  (.policies // [] | .[] | "  \((.policy + "          ")[0:8])  \((.cpus + "            ")[0:10])  \(((.avg_khz / 1000) | floor | tostring) + "       " | .[0:7])  " +
    ([.ms_at_khz | to_entries[] | "\((.key | tonumber) / 1000 | floor):\(.value)"] | join(" ")))
' "$s"
