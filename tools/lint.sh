#!/usr/bin/env bash
# lint.sh -- clang-format and cppcheck over the tracked sources, shellcheck
# over the scripts, the docs' copy of the conformance skip lists. Exit 1 on
# any finding.
set -u
cd "$(dirname "$0")/.." || exit 2
status=0
mapfile -t c_files < <(git ls-files '*.c' '*.h' 2>/dev/null; git ls-files -o --exclude-standard '*.c' '*.h')
mapfile -t cxx_files < <(git ls-files '*.cpp' '*.hpp' 2>/dev/null; git ls-files -o --exclude-standard '*.cpp' '*.hpp')
mapfile -t sh_files < <(git ls-files '*.sh' .ci/run bin/mpi/mpicc.in 2>/dev/null; git ls-files -o --exclude-standard '*.sh')

if ! clang-format --dry-run -Werror "${c_files[@]}" "${cxx_files[@]}" 2>&1 | head -n 40 | grep .; then
    echo "lint: clang-format clean (${#c_files[@]} C, ${#cxx_files[@]} C++ files)"
else
    echo "lint: clang-format differs; run 'make format'" >&2
    status=1
fi

cpp_common=(--quiet --error-exitcode=1 "--enable=warning,performance,portability"
            --inline-suppr -Iinclude -Iplat --suppress=missingIncludeSystem)
mapfile -t c_src < <(printf '%s\n' "${c_files[@]}" | grep '\.c$')
mapfile -t cxx_src < <(printf '%s\n' "${cxx_files[@]}" | grep '\.cpp$')
if [ ${#c_src[@]} -gt 0 ] && ! cppcheck "${cpp_common[@]}" --std=c11 --language=c "${c_src[@]}"; then
    echo "lint: cppcheck (C) found problems" >&2
    status=1
fi
if [ ${#cxx_src[@]} -gt 0 ] && ! cppcheck "${cpp_common[@]}" --std=c++17 --language=c++ "${cxx_src[@]}"; then
    echo "lint: cppcheck (C++) found problems" >&2
    status=1
fi
[ $status = 0 ] && echo "lint: cppcheck clean"

# The conformance suite's skip lists, as docs/mcapi.md shows them.
if command -v python3 >/dev/null; then
    if diff <(python3 tools/skips-md.py) \
            <(sed -n '/^<!-- skips begin -->$/,/^<!-- skips end -->$/p' docs/mcapi.md | sed '1d;$d'); then
        echo "lint: docs/mcapi.md lists the skips of tests/mcapi/tp.c"
    else
        echo "lint: docs/mcapi.md's skip tables differ from tests/mcapi/tp.c: run tools/skips-md.py" >&2
        status=1
    fi
fi

if command -v shellcheck >/dev/null; then
    if shellcheck "${sh_files[@]}"; then echo "lint: shellcheck clean"; else status=1; fi
fi
exit $status
