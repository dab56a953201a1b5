#!/usr/bin/env bash
# fuzz.sh — runs each Jazzer fuzz target (issue 15, R8) for DURATION, bounded, one after the other, and keeps what
# it learnt: the corpus Jazzer grew (<module>/.cifuzz-corpus, not in git) is copied into the target's inputs
# directory under src/test/resources, which `mvn verify` replays in seconds (Jazzer's regression mode). A finding
# fails the run; Jazzer writes its input into that same directory, so CI replays it until it is fixed.
#   bench/fuzz.sh [DURATION (10m)] [TARGET...]      e.g. bench/fuzz.sh 30s GridPathFuzzTest
# Run from the repository root after one `mvn -B -q install -DskipTests` (or with ~/.m2 warm, offline).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
duration=${1:-10m}
shift || true
case $duration in
  *m) seconds=$(( ${duration%m} * 60 )) ;;
  *s) seconds=${duration%s} ;;
  *) echo "DURATION is like 30s or 10m" >&2; exit 2 ;;
esac
# module:fully.qualified.Class:method
targets=(
  common:org.gridcache.common.GridPathFuzzTest:normalisedPathsAreCleanOrRefused
  common:org.gridcache.common.ticket.TicketFuzzTest:anyTicketIsAdmittedOrRefusedWithAReason
  common:org.gridcache.common.settings.SettingValuesFuzzTest:everyValueIsParsedOrRefusedWithAReason
  pool:org.gridcache.pool.mover.ByteRangeFuzzTest:rangesStayInsideTheFileAndNeverOverlap
  door:org.gridcache.door.webdav.PropfindBodyFuzzTest:anyBodyIsAcceptedOrA4xx
  door:org.gridcache.door.lock.LockBodyFuzzTest:anyLockRequestIsAcceptedOrA4xx
  door:org.gridcache.door.delegation.SoapBodyFuzzTest:anyBodyNamesAnOperationOrIsRefused
  door:org.gridcache.door.namespace.MultistatusFuzzTest:anyAnswerIsItemsOrRefused
  door:org.gridcache.door.auth.AuthzPolicyFuzzTest:anyFileIsAPolicyOrRefusedByLine
)
failed=0
for target in "${targets[@]}"; do
  IFS=: read -r module class method <<<"$target"
  simple=${class##*.}
  if [ $# -gt 0 ] && [[ " $* " != *" $simple "* ]]; then continue; fi
  log=$(mktemp)
  echo "[fuzz] $simple.$method for $duration" >&2
  JAZZER_FUZZ=1 timeout --kill-after=60s $((seconds + 300)) \
    mvn -B -o -q -pl "$module" -am verify -Dtest="$simple#$method" -Dsurefire.failIfNoSpecifiedTests=false \
      -Djazzer.max_duration="$duration" >"$log" 2>&1
  status=$?
  runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1)
  inputs="$module/src/test/resources/${class//.//}Inputs/$method"
  mkdir -p "$inputs"
  corpus="$module/.cifuzz-corpus/$class/$method"
  [ -d "$corpus" ] && cp -n "$corpus"/* "$inputs"/ 2>/dev/null
  if [ $status -eq 0 ]; then
    echo "$simple.$method: ${runs:-no run count}s, no finding; $(find "$inputs" -type f | wc -l) inputs kept in $inputs"
  else
    failed=1
    echo "$simple.$method: FAILED (exit $status) after ${runs:-?}; see $log and the new input in $inputs" >&2
    grep -E 'FuzzTestFindingException|Exception|Error' "$log" | grep -v '^\s*at ' | head -5 >&2
  fi
done
exit $failed
