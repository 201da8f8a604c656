#!/usr/bin/env bash
# install.sh -- copy the built tree to $PREFIX (called by `make install`).
#   include/ipcsim/*.h, include/mcapi/*.h, include/coro/coro.h,
#   include/mpi_lite/{mpi.h,mpi_lite.h}, include/event_machine.h and
#   include/event_machine/ (em), lib/lib*.a (libmpi_lite.a and libem.a among them),
#   bin/ipcsim, bin/xmcapi-echo, bin/xmcapi-ping, bin/mpicc (bin/mpi/mpicc.in
#   with the prefix filled in), bin/mpirun,
#   share/ipcsim/{platforms,scenarios}, lib/pkgconfig/{ipcsim,ipcsim-sim,mcapi,xmcapi,coro,mpi_lite,em}.pc
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
# em: event_machine.h at the top of include/ (programs write
# #include <event_machine.h>, as with em-odp) and its tree beside it.
install -m 644 em/include/event_machine.h "$dest/include/"
(cd em/include && find event_machine -name '*.h' -exec install -D -m 644 {} "$dest/include/{}" \;)
install -m 644 "$BUILD/lib/libem.a" "$dest/lib/"
install -m 755 "$BUILD/ipcsim" "$BUILD/bin/xmcapi-echo" "$BUILD/bin/xmcapi-ping" "$dest/bin/"
# mpi_lite: mpi.h in a directory of its own, so that it never clashes with
# another MPI's /usr/include/mpi.h.
install -d "$dest/include/mpi_lite"
install -m 644 mpi_lite/include/mpi.h mpi_lite/include/mpi_lite.h "$dest/include/mpi_lite/"
install -m 644 "$BUILD/lib/libmpi_lite.a" "$dest/lib/"
# mpicc knows its prefix: @PREFIX@ becomes PREFIX, single-quoted for the shell
# (a quote in PREFIX is closed, escaped and reopened; the replacement is
# quoted so that bash does not read & in it).
mpicc_in=$(<bin/mpi/mpicc.in)
quoted=${PREFIX//\'/\'\\\'\'}
printf '%s\n' "${mpicc_in//@PREFIX@/"$quoted"}" > "$dest/bin/mpicc"
chmod 755 "$dest/bin/mpicc"
install -m 755 "$BUILD/bin/mpirun" "$dest/bin/"
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
# mpi_lite: MPI programs (#include <mpi.h>) on the native backend; mpicc
# adds the same flags.
cat > "$dest/lib/pkgconfig/mpi_lite.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: mpi_lite
Description: a light MPI (ipcsim mpi_lite) on the ipcsim platform interface
Version: $version
Requires: ipcsim
Cflags: -I\${includedir}/mpi_lite
Libs: -L\${libdir} -lmpi_lite -lm
PC
# em: Event Machine programs (#include <event_machine.h>, em-odp 3.x API).
cat > "$dest/lib/pkgconfig/em.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: em
Description: an Event Machine with the em-odp 3.x API (ipcsim em) on the ipcsim platform interface
Version: $version
Requires: ipcsim
Cflags: -I\${includedir}
Libs: -L\${libdir} -lem
PC
echo "installed to $dest"
