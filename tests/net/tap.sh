# tests/net/tap.sh -- what the tests/net scripts share: one "ok - ..." or
# "FAIL - ..." line per check, counted in $pass and $fail. Sourced.
# shellcheck shell=bash
pass=0
fail=0

ok() {
    echo "ok - $*"
    pass=$((pass + 1))
}
bad() {
    echo "FAIL - $*"
    fail=$((fail + 1))
}
