#!/bin/sh
# Make the fuzz seed corpus: real ELF files, small ones, and broken copies
# of them.
#
#   fuzz/make_corpus.sh OUTDIR STRADDLE
#
# OUTDIR is emptied first. STRADDLE (build/straddle) dumps the vDSO. Every
# seed is kept under 64 KiB so that libFuzzer's inputs stay small and fast.
# Deterministic: the same inputs give the same corpus.
set -eu
out=$1
straddle=$2
here=$(dirname "$0")
max=65536

rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=0
# keep FILE NAME: a seed, when it exists and is small enough.
keep() {
	[ -f "$1" ] || return 0
	[ "$(wc -c <"$1")" -le "$max" ] || return 0
	cp "$1" "$out/$2"
	n=$((n + 1))
}

# --- real files ---------------------------------------------------------
gcc -O2 -g -o "$work/seed-x86" "$here/seed.c"
gcc -O2 -c -o "$work/seed-x86.o" "$here/seed.c"
strip -o "$work/seed-x86-stripped" "$work/seed-x86"
keep "$work/seed-x86" real-seed-x86
keep "$work/seed-x86.o" real-seed-x86.o
keep "$work/seed-x86-stripped" real-seed-x86-stripped
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	# 4 KiB pages, not AArch64's default 64 KiB: a small file.
	aarch64-linux-gnu-gcc -O2 -g -Wl,-z,max-page-size=4096 -o "$work/seed-arm64" "$here/seed.c"
	aarch64-linux-gnu-gcc -O2 -c -o "$work/seed-arm64.o" "$here/seed.c"
	aarch64-linux-gnu-strip -o "$work/seed-arm64-stripped" "$work/seed-arm64"
	keep "$work/seed-arm64" real-seed-arm64
	keep "$work/seed-arm64.o" real-seed-arm64.o
	keep "$work/seed-arm64-stripped" real-seed-arm64-stripped
fi
# This process's vDSO, as the kernel maps it.
"$straddle" scan --dump-vdso "$work/vdso" >/dev/null 2>&1 && keep "$work/vdso" real-vdso
# Small system objects: a shared object with .dynsym only, start files.
keep /lib/x86_64-linux-gnu/libdl.so.2 real-libdl.so.2
keep /usr/lib/x86_64-linux-gnu/crt1.o real-crt1.o
# Two of straddle's own objects, without their DWARF (loops, tables).
for o in build/obj/cfg/loops.o build/obj/elf/ehframe.o; do
	[ -f "$o" ] || continue
	strip --strip-debug -o "$work/own.o" "$o"
	keep "$work/own.o" "real-own-$(basename "$o")"
done
# The test fixtures, when built: hazards, placements, malformed files.
if [ -d build/fixtures ]; then
	for f in $(find build/fixtures -type f | sort); do
		keep "$f" "fixture-$(echo "${f#build/fixtures/}" | tr / -)"
	done
fi

# --- broken copies ------------------------------------------------------
# u64 FILE OFFSET: the little-endian 64-bit number there.
u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
u16() { od -An -t u2 -j "$2" -N 2 "$1" | tr -d ' '; }
# poke FILE OFFSET BYTE...: overwrite bytes (decimal values) in place.
# (sh has no local variables: the helpers' own names start with "_".)
poke() {
	_pf=$1
	_po=$2
	shift 2
	for _pb in "$@"; do
		# shellcheck disable=SC2059
		printf "\\$(printf %03o "$_pb")" |
			dd of="$_pf" bs=1 seek="$_po" conv=notrunc status=none
		_po=$((_po + 1))
	done
}
# broken BASE NAME OFFSET BYTE...: a copy of BASE with bytes overwritten.
broken() {
	_bb=$1
	_bn=$2
	shift 2
	cp "$_bb" "$out/bad-$_bn"
	poke "$out/bad-$_bn" "$@"
}
# section_header BASE NAME: offset of the section header of NAME, or "".
section_header() {
	_si=$(readelf -SW "$1" 2>/dev/null |
		sed -n "s/^ *\[ *\([0-9]*\)\] $2 .*/\1/p" | head -n 1)
	[ -n "$_si" ] || return 0
	echo $(($(u64 "$1" 40) + _si * 64))
}

printf 'this is not an ELF file\n' >"$out/bad-not-elf"
printf '\177ELF' >"$out/bad-magic-only"
printf '\177ELF\002\001\001' >"$out/bad-ident-only"

for base in "$out/real-seed-x86" "$out/real-seed-x86.o" "$out/real-seed-arm64" \
	"$out/real-libdl.so.2"; do
	[ -f "$base" ] || continue
	b=$(basename "$base" | sed 's/^real-//')
	size=$(wc -c <"$base")
	# Truncated anywhere: in the header, in the middle, one byte short.
	for cut in 20 63 64 200 $((size / 3)) $((size / 2)) $((size - 1)); do
		head -c "$cut" "$base" >"$out/bad-$b-cut$cut"
	done
	# Header fields: class, endianness, machine, type, section table.
	broken "$base" "$b-class32" 4 1
	broken "$base" "$b-bigendian" 5 2
	broken "$base" "$b-machine386" 18 3 0
	broken "$base" "$b-core" 16 4 0
	broken "$base" "$b-shoff-huge" 47 127
	broken "$base" "$b-shoff-end" 40 $((size & 255)) $(((size >> 8) & 255)) \
		$(((size >> 16) & 255)) 0 0 0 0 0
	broken "$base" "$b-shnum-max" 60 255 255
	broken "$base" "$b-shnum-zero" 60 0 0
	broken "$base" "$b-shentsize" 58 32 0
	broken "$base" "$b-shstrndx" 62 240 255
	# Sections pointing outside the file, lying sizes, bad links.
	for sec in .text .symtab .strtab .dynsym .dynstr .eh_frame .eh_frame_hdr; do
		sh=$(section_header "$base" "$sec")
		[ -n "$sh" ] || continue
		s=$(echo "$sec" | tr -d .)
		broken "$base" "$b-$s-size-huge" $((sh + 39)) 127
		broken "$base" "$b-$s-size-plus1" $((sh + 32)) \
			$((($(u64 "$base" $((sh + 32))) + 1) & 255))
		broken "$base" "$b-$s-offset-end" $((sh + 24)) $((size & 255)) \
			$(((size >> 8) & 255)) $(((size >> 16) & 255)) 0 0 0 0 0
		broken "$base" "$b-$s-link" $((sh + 40)) 255 255 0 0
		broken "$base" "$b-$s-entsize0" $((sh + 56)) 0 0 0 0 0 0 0 0
		broken "$base" "$b-$s-nobits" $((sh + 4)) 8 0 0 0
	done
	# An empty .text.
	sh=$(section_header "$base" .text)
	[ -n "$sh" ] && broken "$base" "$b-text-empty" $((sh + 32)) 0 0 0 0 0 0 0 0
	# Symbols: zero size, huge size, value outside, section index out of
	# range, all set on every FUNC-sized slot of the first symbols.
	sh=$(section_header "$base" .symtab)
	[ -n "$sh" ] || sh=$(section_header "$base" .dynsym)
	if [ -n "$sh" ]; then
		so=$(u64 "$base" $((sh + 24)))
		cp "$base" "$out/bad-$b-sym-size0"
		cp "$base" "$out/bad-$b-sym-size-huge"
		cp "$base" "$out/bad-$b-sym-value-huge"
		cp "$base" "$out/bad-$b-sym-shndx"
		cp "$base" "$out/bad-$b-sym-overlap"
		for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
			e=$((so + k * 24))
			[ $((e + 24)) -le "$size" ] || break
			poke "$out/bad-$b-sym-size0" $((e + 16)) 0 0 0 0 0 0 0 0
			poke "$out/bad-$b-sym-size-huge" $((e + 20)) 255 255 255 127
			poke "$out/bad-$b-sym-value-huge" $((e + 15)) 255
			poke "$out/bad-$b-sym-shndx" $((e + 6)) 241 255
			poke "$out/bad-$b-sym-overlap" $((e + 16)) 0 16 0 0
		done
	fi
	# A .eh_frame that lies: a CIE length escaping to 64 bits, lengths
	# past the section, pointer encodings that make no sense.
	sh=$(section_header "$base" .eh_frame)
	if [ -n "$sh" ]; then
		eo=$(u64 "$base" $((sh + 24)))
		broken "$base" "$b-ehframe-len64" "$eo" 255 255 255 255
		broken "$base" "$b-ehframe-len-huge" "$eo" 0 0 0 16
		broken "$base" "$b-ehframe-cie-id" $((eo + 4)) 1 0 0 0
		broken "$base" "$b-ehframe-aug" $((eo + 9)) 122 80 76 82 0
		broken "$base" "$b-ehframe-enc" $((eo + 12)) 255 255 255 255 255 255 255 255
		broken "$base" "$b-ehframe-fde-range" $((eo + 48)) 255 255 255 127
	fi
	# Byte flips at pseudo-random places (a fixed sequence per file).
	for k in 1 2 3 4 5 6 7 8; do
		cp "$base" "$out/bad-$b-flips$k"
		awk -v s="$k" -v size="$size" 'BEGIN { srand(s);
			for (i = 0; i < 4 * s; i++) print int(rand() * size), int(rand() * 256) }' |
			while read -r off val; do poke "$out/bad-$b-flips$k" "$off" "$val"; done
	done
done
echo "corpus: $(ls "$out" | wc -l) seeds in $out ($n real)"
