#!/bin/sh
# make kernel-proofs: the fault contract of Debian's real 6.1 and 6.12
# user-copy routines, run from their own bytes (straddle kernels --check
# --file VMLINUX --func NAME), every routine at every fault position. The
# kernels (about 1 GB of debug vmlinux) are fetched once into a cache
# outside the repository by scripts/fetch_kernels.sh; when the archive
# cannot be reached this says so in one line and passes. Timing is not
# asserted here (doc/kernels.md has the sweeps, measured by hand).
#
#   scripts/kernel_proofs.sh STRADDLE CACHE_DIR
set -u
straddle=${1:?usage: kernel_proofs.sh STRADDLE CACHE_DIR}
cache=${2:?usage: kernel_proofs.sh STRADDLE CACHE_DIR}
here=$(dirname "$0")

paths=$("$here/fetch_kernels.sh" "$cache")
case $? in
0) ;;
3) echo "kernel-proofs: skipped: the Debian archive is unreachable"; exit 0 ;;
*) echo "kernel-proofs: could not fetch the kernels" >&2; exit 2 ;;
esac
set -- $paths
v61=$1 v612=$2
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

for v in "$v61" "$v612"; do
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
echo "kernel-proofs: $failed routine(s) failed"
[ $failed -eq 0 ]
