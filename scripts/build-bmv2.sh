#!/usr/bin/env bash
# Builds and installs BMv2's simple_switch_grpc (the lab and CI target;
# the tests that use it skip without it) from given source trees, on
# Debian 12:
#
#   scripts/build-bmv2.sh PI_SRC BMV2_SRC [PREFIX]
#
# PI_SRC is a clone of p4lang/PI (v0.1.2 or later) with its submodules
# proto/p4runtime, proto/openconfig/gnmi, third_party/uthash and
# third_party/googletest checked out (git submodule update --init ...;
# point their URLs at local clones where there is no network). BMV2_SRC
# is a clone of p4lang/behavioral-model (1.15.5 or later). PREFIX
# defaults to /usr/local. Only what simple_switch_grpc needs is built
# (no static libraries, no other targets). Thrift stays on: bmv2/run-bmv2.sh
# and the Mininet lab pass --thrift-port, which a build without it refuses.
# Compiles run under nice -n 19, so a busy host keeps its other work.
#
# Measured on a 2-core host at load 5-28: 51-53 minutes from clean clones
# into /opt/bmv2-check (the binary runs without LD_LIBRARY_PATH: RUNPATH).
set -euo pipefail
pi=${1:?usage: build-bmv2.sh PI_SRC BMV2_SRC [PREFIX]}
bm=${2:?usage: build-bmv2.sh PI_SRC BMV2_SRC [PREFIX]}
prefix=${3:-/usr/local}
jobs=${JOBS:-$(nproc)}

pkgs=(libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libboost-dev libboost-program-options-dev libboost-system-dev libboost-filesystem-dev
  libboost-thread-dev libgmp-dev libpcap-dev libnanomsg-dev libjudy-dev libreadline-dev
  libxxhash-dev libjsoncpp-dev libssl-dev libthrift-dev thrift-compiler
  libtool autoconf automake pkg-config g++ make bison flex)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

for sub in proto/p4runtime proto/openconfig/gnmi third_party/uthash third_party/googletest; do
  [ -n "$(ls -A "$pi/$sub" 2>/dev/null)" ] || { echo "build-bmv2.sh: $pi/$sub is empty: check out PI's submodules first" >&2; exit 1; }
done

echo "== PI ($(git -C "$pi" describe --tags --always))"
(cd "$pi" && nice -n 19 ./autogen.sh &&
  nice -n 19 ./configure --prefix="$prefix" --with-proto --without-internal-rpc --without-cli --without-bmv2 &&
  nice -n 19 make -j"$jobs" && make install)
ldconfig

echo "== BMv2 ($(git -C "$bm" describe --tags --always))"
# PI's headers and libraries from PREFIX, not whatever PI the compiler
# finds by default (/usr/local): given as arguments, they reach the
# simple_switch_grpc sub-configure too.
(cd "$bm" && nice -n 19 ./autogen.sh &&
  nice -n 19 ./configure --prefix="$prefix" --with-pi --with-thrift --disable-static \
    CPPFLAGS="-I$prefix/include" LDFLAGS="-L$prefix/lib -Wl,-rpath,$prefix/lib")
dirs=(thrift_src third_party proto src include PI services targets/test_utils targets/simple_switch targets/simple_switch_grpc)
for d in "${dirs[@]}"; do
  [ -f "$bm/$d/Makefile" ] || continue
  nice -n 19 make -j"$jobs" -C "$bm/$d"
done
for d in "${dirs[@]}"; do
  [ "$d" = targets/test_utils ] && continue
  [ -f "$bm/$d/Makefile" ] || continue
  make -C "$bm/$d" install
done
ldconfig
"$prefix/bin/simple_switch_grpc" --version
