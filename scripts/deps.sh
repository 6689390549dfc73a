#!/bin/sh
# Install the Debian packages straddle needs, only those missing.
# Used by `make run` and `make check`; CI starts from a clean machine.
# python3-jsonschema: the SARIF output checked against its schema
# (tests/sarif/). chromium: the browser test of `straddle report` (tests/browser/), driven
# over its DevTools pipe by python3; fonts-dejavu-core: the fonts it draws
# text with, so a screenshot is the same on every machine.
# llvm (LLVM 14) and llvm-19: llvm-mca-14 and llvm-mca-19, the cost model's
# back end (scan); the tests pin llvm-mca-14, 19 knows znver5 and SPR.
# llvm-19-dev and g++: libstraddle-sched.so, the in-process back end
# (src/sched/llvm.cpp), built against LLVM 19's headers and libLLVM.
# libarchive-dev: Debian packages and compressed modules read as inputs
# (src/inputs/); dpkg (dpkg-deb) and xz-utils build the tests' packages and
# modules; parallel: doc/merge.md's shard recipes, run by tests/cmd/t_shard.sh.
# g++ also gives libstdc++'s demangler that names C++ functions (linked), and
# the C++ fixture of place; gdb: the test that gdb's bt names a moved frame.
set -e
PKGS="gcc g++ gdb make binutils libc6-dev
libzydis-dev libcapstone-dev libelf-dev libdw-dev libjansson-dev libcmocka-dev libarchive-dev
dpkg xz-utils zstd strace parallel
gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
clang libclang-rt-14-dev llvm llvm-19 llvm-19-dev g++ jq libllvm14 libllvm15 python3 python3-jsonschema mandoc
chromium fonts-dejavu-core"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
