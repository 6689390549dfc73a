#!/bin/sh
# Fetch Debian's debug vmlinux of 6.1 (bookworm) and 6.12 (bookworm-backports)
# for amd64, and of 6.1 for arm64, into a cache outside the repository, for
# `make kernel-proofs`. Only the vmlinux is kept of each -dbg package (~860
# MB for amd64, ~570 MB for arm64). apt runs on a sources list
# and state of its own in the cache, so the machine's apt configuration is
# neither read nor changed. Prints the two paths; exit 3 (and one line)
# when the archive is unreachable, so the caller can skip.
#
#   scripts/fetch_kernels.sh CACHE_DIR
# Override the packages with KERNEL_61_PKG / KERNEL_612_PKG / KERNEL_61_ARM64_PKG.
set -eu
cache=${1:?usage: fetch_kernels.sh CACHE_DIR}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial"
cat >"$cache/apt/sources.list" <<EOT
deb $mirror bookworm main
deb $security bookworm-security main
deb $mirror bookworm-backports main
EOT
# apt_opts DIR ARCH: a state of its own per architecture (apt reads one)
apt_opts() {
	echo "-o Dir::Etc::SourceList=$cache/apt/sources.list -o Dir::Etc::SourceParts=/dev/null
 -o Dir::State::Lists=$cache/$1/lists -o Dir::Cache=$cache/$1/cache
 -o Dir::State::Status=/dev/null -o APT::Architecture=$2 -o Debug::NoLocking=1 -o APT::Sandbox::User=root"
}
mkdir -p "$cache/apt-arm64/lists/partial" "$cache/apt-arm64/cache/archives/partial"
APT_AMD64=$(apt_opts apt amd64)
APT_ARM64=$(apt_opts apt-arm64 arm64)
APT_OPTS=$APT_AMD64

# one vmlinux: $1 the name in the cache, $2 the package's name pattern
fetch() {
	name=$1 pattern=$2 pkg=$3
	if [ -s "$cache/$name" ] && [ -s "$cache/$name.pkg" ]; then
		return 0
	fi
	if [ -z "$pkg" ]; then
		pkg=$(apt-cache $APT_OPTS search --names-only "$pattern" | cut -d' ' -f1 |
		      sort -V | tail -1)
		[ -n "$pkg" ] || { echo "fetch_kernels: no package matches $pattern" >&2; exit 2; }
	fi
	work=$(mktemp -d "$cache/tmp.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM HUP
	(cd "$work" && apt-get $APT_OPTS -q download "$pkg" >/dev/null)
	dpkg-deb --fsys-tarfile "$work"/*.deb |
		tar -x -C "$work" --wildcards './usr/lib/debug/boot/vmlinux-*'
	mv "$work"/usr/lib/debug/boot/vmlinux-* "$cache/$name.tmp"
	dpkg-deb -f "$work"/*.deb Package Version >"$cache/$name.pkg.tmp"
	mv "$cache/$name.tmp" "$cache/$name"
	mv "$cache/$name.pkg.tmp" "$cache/$name.pkg"
	rm -rf "$work"
	trap - EXIT INT TERM HUP
}

if [ ! -s "$cache/vmlinux-6.1" ] || [ ! -s "$cache/vmlinux-6.12" ]; then
	if ! apt-get $APT_OPTS -q update >"$cache/apt/update.log" 2>&1 ||
	   grep -q '^\(Err\|W: Failed\)' "$cache/apt/update.log"; then
		exit 3
	fi
fi
fetch vmlinux-6.1 '^linux-image-6\.1\.0-[0-9]+-amd64-dbg$' "${KERNEL_61_PKG:-}"
fetch vmlinux-6.12 '^linux-image-6\.12\.[0-9]+\+deb12-amd64-dbg$' "${KERNEL_612_PKG:-}"
APT_OPTS=$APT_ARM64
if [ ! -s "$cache/vmlinux-6.1-arm64" ]; then
	if ! apt-get $APT_OPTS -q update >"$cache/apt-arm64/update.log" 2>&1 ||
	   grep -q '^\(Err\|W: Failed\)' "$cache/apt-arm64/update.log"; then
		exit 3
	fi
fi
fetch vmlinux-6.1-arm64 '^linux-image-6\.1\.0-[0-9]+-arm64-dbg$' "${KERNEL_61_ARM64_PKG:-}"
APT_OPTS=$APT_AMD64

# 6.1's modules: the image package of the same release kept whole (70 MB),
# its modules read out of it by straddle (PACKAGE:/path)
modules=$(sed -n 's/^Package: \(.*\)-dbg$/\1-unsigned/p' "$cache/vmlinux-6.1.pkg")
if [ ! -s "$cache/modules-6.1.deb" ]; then
	work=$(mktemp -d "$cache/tmp.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM HUP
	(cd "$work" && apt-get $APT_OPTS -q download "$modules" >/dev/null) || exit 3
	mv "$work"/*.deb "$cache/modules-6.1.deb"
	rm -rf "$work"
	trap - EXIT INT TERM HUP
fi
echo "$cache/vmlinux-6.1 $cache/vmlinux-6.12 $cache/modules-6.1.deb $cache/vmlinux-6.1-arm64"
