#!/usr/bin/env bash
# install.sh -- copy the built tree to $PREFIX (called by `make install`).
#   include/ipcsim/*.h, include/mcapi/*.h, include/coro/coro.h, lib/lib*.a, bin/ipcsim,
#   bin/xmcapi-echo, bin/xmcapi-ping,
#   share/ipcsim/{platforms,scenarios}, lib/pkgconfig/ipcsim*.pc
set -euo pipefail
: "${PREFIX:?}" "${BUILD:=build}"
cd "$(dirname "$0")/.."
dest="${DESTDIR:-}$PREFIX"
install -d "$dest/include/ipcsim" "$dest/lib/pkgconfig" "$dest/bin" \
    "$dest/share/ipcsim/platforms" "$dest/share/ipcsim/scenarios"
install -m 644 include/ipcsim/*.h "$dest/include/ipcsim/"
install -d "$dest/include/mcapi"
install -m 644 mcapi_ref/include/*.h "$dest/include/mcapi/"
install -m 644 xmcapi/xmcapi.h "$dest/include/mcapi/"
install -d "$dest/include/coro"
install -m 644 coro/include/coro.h "$dest/include/coro/"
install -m 644 "$BUILD"/lib/libipcsim*.a "$BUILD"/lib/libmcapi.a "$BUILD"/lib/libxmcapi.a \
    "$BUILD"/lib/libcoro.a "$dest/lib/"
install -m 755 "$BUILD/ipcsim" "$BUILD/bin/xmcapi-echo" "$BUILD/bin/xmcapi-ping" "$dest/bin/"
install -m 644 platforms/*.yaml "$dest/share/ipcsim/platforms/"
(cd scenarios && find . -name '*.yaml' -exec install -D -m 644 {} "$dest/share/ipcsim/scenarios/{}" \;)

# ipcsim: the platform interface on the native backend -- what a C program
# built against an IPC library needs. ipcsim-sim: plus the SystemC backend,
# the platform files and plat_run() (run.h).
version=$(git describe --always --dirty 2>/dev/null || echo 0)
cat > "$dest/lib/pkgconfig/ipcsim.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: ipcsim
Description: ipcsim platform interface (native POSIX backend)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lipcsim -lpthread
PC
cat > "$dest/lib/pkgconfig/ipcsim-sim.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: ipcsim-sim
Description: ipcsim runs on both backends: SystemC/TLM-2.0 models and native
Version: $version
Requires: systemc yaml-0.1
Cflags: -I\${includedir}
Libs: -L\${libdir} -lipcsim_sim -lipcsim_conf -lipcsim -lstdc++ -lpthread -lm
PC
# mcapi: MCAPI 2.0 programs (#include <mcapi.h>) on the native backend.
cat > "$dest/lib/pkgconfig/mcapi.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: mcapi
Description: MCAPI 2.0 (ipcsim mcapi_ref) on the ipcsim platform interface
Version: $version
Requires: ipcsim
Cflags: -I\${includedir}/mcapi
Libs: -L\${libdir} -lmcapi
PC
# xmcapi: the same programs reaching other processes and hosts over TCP
# (libxmcapi.a holds MCAPI too; the topology file is read with libyaml).
cat > "$dest/lib/pkgconfig/xmcapi.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: xmcapi
Description: MCAPI 2.0 across processes and hosts over TCP (ipcsim XMCAPI)
Version: $version
Requires: ipcsim yaml-0.1
Cflags: -I\${includedir}/mcapi
Libs: -L\${libdir} -lxmcapi -lipcsim_conf -lstdc++
PC
# coro: coroutines, executors and channels (#include <coro.h>), native.
cat > "$dest/lib/pkgconfig/coro.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: coro
Description: coroutines, executors and channels (ipcsim coro) on the ipcsim platform interface
Version: $version
Requires: ipcsim
Cflags: -I\${includedir}/coro
Libs: -L\${libdir} -lcoro
PC
echo "installed to $dest"
