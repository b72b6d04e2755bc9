#!/usr/bin/env bash
# Summarise an `R CMD check` run.
#   usage: tools/check-summary.sh <pkg>.Rcheck
# Fails (exit 1) when 00check.log has an ERROR or WARNING status, when the
# tests failed, or when the tests never ran; NOTEs are allowed.
# Always ends by printing exactly one line `tests: N passed, M failed`, taken
# from testthat's "[ FAIL x | WARN y | SKIP z | PASS w ]" summary in
# tests/testthat.Rout (or tests/testthat.Rout.fail).
set -euo pipefail

rcheck="${1:?usage: check-summary.sh <pkg>.Rcheck}"
log="$rcheck/00check.log"
problems=()

# -- 00check.log: ERROR / WARNING status lines -------------------------------
if [ ! -f "$log" ]; then
  problems+=("R CMD check did not run: no $log")
else
  # "* checking foo ... WARNING", a lone " ERROR" line after a multi-line
  # step (e.g. tests), and the final "Status: 1 ERROR, 1 WARNING, 2 NOTEs".
  bad="$(grep -E '(\.\.\. *|^ *)(ERROR|WARNING)$|^Status: .*(ERROR|WARNING)' "$log" || true)"
  if [ -n "$bad" ]; then
    problems+=("R CMD check reported ERROR/WARNING:")
    while IFS= read -r l; do problems+=("  $l"); done <<<"$bad"
  fi
  if ! grep -qE '^Status: ' "$log"; then
    problems+=("R CMD check did not finish (no Status line in $log)")
  fi
fi

# -- testthat summary --------------------------------------------------------
rout=""
for f in "$rcheck/tests/testthat.Rout.fail" "$rcheck/tests/testthat.Rout"; do
  if [ -f "$f" ]; then rout="$f"; break; fi
done

passed=0
failed=1
if [ -z "$rout" ]; then
  problems+=("the tests never ran: no tests/testthat.Rout(.fail) under $rcheck")
else
  summary="$(grep -oE '\[ FAIL [0-9]+ \| WARN [0-9]+ \| SKIP [0-9]+ \| PASS [0-9]+ \]' "$rout" | tail -n 1 || true)"
  if [ -z "$summary" ]; then
    problems+=("the tests did not finish: no testthat summary line in $rout")
  else
    failed="$(sed -E 's/.*FAIL ([0-9]+).*/\1/' <<<"$summary")"
    passed="$(sed -E 's/.*PASS ([0-9]+).*/\1/' <<<"$summary")"
    skipped="$(sed -E 's/.*SKIP ([0-9]+).*/\1/' <<<"$summary")"
    echo "testthat: $summary ($skipped skipped)"
    if [ "$failed" -gt 0 ]; then
      problems+=("$failed test(s) failed")
    fi
    if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
      problems+=("no test expectation passed: the tests ran nothing")
      failed=1
    fi
  fi
  if [ "${rout##*.}" = "fail" ]; then
    problems+=("the test run failed ($rout)")
    # R stopped with an error outside the counted expectations: count it.
    if [ "$failed" -eq 0 ]; then failed=1; fi
  fi
fi

# -- report --------------------------------------------------------------------
if [ "${#problems[@]}" -gt 0 ]; then
  if [ -f "$log" ]; then
    echo "---------------- tail of $log ----------------"
    tail -n 40 "$log"
  fi
  if [ -n "$rout" ] && { [ "${rout##*.}" = "fail" ] || [ "$failed" -gt 0 ]; }; then
    echo "---------------- tail of $rout ----------------"
    tail -n 80 "$rout"
  fi
  echo "---------------- check FAILED ----------------"
  printf '%s\n' "${problems[@]}"
  echo "tests: $passed passed, $failed failed"
  exit 1
fi

echo "check OK ($(grep -E '^Status: ' "$log" | tail -n 1))"
echo "tests: $passed passed, $failed failed"
