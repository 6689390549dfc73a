#!/bin/sh
# make kernel-proofs: the fault contract of Debian's real 6.1 and 6.12
# user-copy routines, run from their own bytes (straddle kernels --check
# --file VMLINUX --func NAME), every routine at every fault position; 6.1's
# arm64 ones too, under qemu-aarch64 (correctness only). The
# kernels (about 1 GB of debug vmlinux) are fetched once into a cache
# outside the repository by scripts/fetch_kernels.sh; when the archive
# cannot be reached this says so in one line and passes. Timing is not
# asserted here (doc/kernels.md has the sweeps, measured by hand).
#
#   scripts/kernel_proofs.sh STRADDLE CACHE_DIR KMODULE_PROOF
set -u
straddle=${1:?usage: kernel_proofs.sh STRADDLE CACHE_DIR KMODULE_PROOF}
cache=${2:?usage: kernel_proofs.sh STRADDLE CACHE_DIR KMODULE_PROOF}
kmodule_proof=${3:?usage: kernel_proofs.sh STRADDLE CACHE_DIR KMODULE_PROOF}
here=$(dirname "$0")

paths=$("$here/fetch_kernels.sh" "$cache")
case $? in
0) ;;
3) echo "kernel-proofs: skipped: the Debian archive is unreachable"; exit 0 ;;
*) echo "kernel-proofs: could not fetch the kernels" >&2; exit 2 ;;
esac
set -- $paths
v61=$1 v612=$2 modules=$3 v61a=$4
failed=0

# check VMLINUX LABEL ROUTINE [OPTIONS...]: one line, the routine and its count
check() {
	file=$1 label=$2
	shift 2
	out=$("$straddle" kernels --check --file "$file" --func "$@" 2>&1)
	rc=$?
	printf '%-5s %-50s %s\n' "$label" "$*" "$(printf '%s\n' "$out" | tail -1)"
	printf '%s\n' "$out" | grep '^seed 001' | sed 's/^/      /'
	[ $rc -eq 0 ] || failed=$((failed + 1))
}

for v in "$v61" "$v612" "$v61a"; do
	echo "$(basename "$v"): $(cat "$v.pkg" | tr '\n' ' ')"
done
for f in clear_user_original clear_user_rep_good clear_user_erms copy_user_generic_unrolled \
	 copy_user_generic_string copy_user_enhanced_fast_string; do
	check "$v61" 6.1 $f
done
check "$v612" 6.12 rep_stos_alternative
check "$v612" 6.12 rep_movs_alternative
check "$v612" 6.12 rep_movs_alternative --alternative ERMS
for v in "$v61:6.1" "$v612:6.12"; do
	for n in 1 2 4 8; do
		for f in __put_user_$n __put_user_nocheck_$n __get_user_$n __get_user_nocheck_$n; do
			check "${v%:*}" "${v##*:}" $f
		done
	done
	for f in memset memcpy memmove csum_partial; do
		check "${v%:*}" "${v##*:}" $f
	done
done

# Modules of 6.1, read out of the image package and linked in memory: the
# listing of a leaf routine with a loop (crc32c_intel_update: __fentry__
# and the return thunk relocations made user-space) and of one with
# UACCESS entries in its __ex_table (i915's copy_perf_config_registers_or_number),
# each line as doc/kernels.md has it; then each run against its source's
# contract (a CRC into a descriptor; an array stored or -EFAULT), which is
# no clear's or copy's (tests/tools/kmodule_proof.c).
km=/lib/modules/$(dpkg-deb -f "$modules" Package | sed 's/^linux-image-//; s/-unsigned$//')/kernel
module() {
	file=$1 func=$2 want=$3
	out=$("$straddle" kernels --file "$modules:$km/$file" --func "$func" \
		--call csum,src=rdi,len=rsi,ret=rax 2>&1)
	got=$(printf '%s\n' "$out" | grep -E '^  (made user-space|exception table|loops):' | tr '\n' '|')
	if [ "$got" = "$want" ]; then
		printf '%-5s %-50s ok\n' 6.1 "$func ($file)"
	else
		printf '%-5s %-50s FAIL: %s\n' 6.1 "$func ($file)" "$(printf '%s\n' "$out" | head -3 | tr '\n' '|')"
		failed=$((failed + 1))
	fi
}
module arch/x86/crypto/crc32c-intel.ko crc32c_intel_update \
"  made user-space: +0 __fentry__ -> nops, +0x48 __x86_return_thunk -> ret|  exception table: none|  loops: +0x1f..+0x2e (15 B, innermost, the sweep's), +0x35..+0x43 (14 B, innermost)|"
module drivers/gpu/drm/i915/i915.ko copy_perf_config_registers_or_number \
"  made user-space: +0 __fentry__ -> nops, +0x58 __x86_return_thunk -> ret, +0x65 __x86_return_thunk -> ret|  exception table: +0x41 -> +0x5d UACCESS, +0x47 -> +0x5d UACCESS|  loops: +0x3e..+0x53 (21 B, innermost, the sweep's)|"
for p in "crc32c arch/x86/crypto/crc32c-intel.ko" "i915 drivers/gpu/drm/i915/i915.ko"; do
	set -- $p
	out=$("$kmodule_proof" "$1" "$modules:$km/$2" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/6.1   /'
	[ $rc -eq 0 ] || failed=$((failed + 1))
done
# arm64 (seed 002): 6.1's clear and copies under qemu-aarch64, their
# fault contract at every position through UACCESS_ERR_ZERO; the clear's
# listing as objdump -d reads it (__ex_table's six entries, the 16-byte
# loop) and every offset of a line swept: run and checked, not timed.
for f in __arch_clear_user __arch_copy_to_user __arch_copy_from_user; do
	check "$v61a" arm64 $f
done
want="  exception table: +0x10 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x20 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x30 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x34 -> +0x5c UACCESS_ERR_ZERO (xzr, xzr), +0x44 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x4c -> +0x58 UACCESS_ERR_ZERO (xzr, xzr)|  loops: +0x10..+0x20 (16 B, innermost, the sweep's)|"
got=$("$straddle" kernels --file "$v61a" --func __arch_clear_user 2>&1 |
      grep -E '^  (exception table|loops):' | tr '\n' '|')
if [ "$got" = "$want" ]; then
	printf '%-5s %-50s ok\n' arm64 "__arch_clear_user (listing)"
else
	printf '%-5s %-50s FAIL: %s\n' arm64 "__arch_clear_user (listing)" "$got"
	failed=$((failed + 1))
fi
out=$("$straddle" sweep --file "$v61a" --func __arch_clear_user --workload pread_z100k 2>&1)
rc=$?
printf '%-5s %-50s %s\n' arm64 "sweep __arch_clear_user pread_z100k" "$(printf '%s\n' "$out" | tail -1)"
[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -1)" = \
	"16 offsets, 400 calls checked byte for byte, 0 failed" ] || failed=$((failed + 1))
echo "kernel-proofs: $failed routine(s) failed"
[ $failed -eq 0 ]
