# shellcheck shell=bash
# tests/lib/check.sh - reporting for the repository checks tests/check_*.sh
# (sourced after `set -euo pipefail`): one "ok - ..." or "not ok - ..." line
# a finding, and $fail for the script's exit status (`exit $fail`).

fail=0
ok() { echo "ok - $*"; }
not_ok() { # MESSAGE...: a failed check; the script will exit 1
    echo "not ok - $*"
    fail=1
}
