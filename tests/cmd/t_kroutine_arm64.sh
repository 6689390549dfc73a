# An AArch64 kernel image's own routines (kernels --file/--func, sweep
# --file/--func) on the assembled "vmlinux" tests/fixtures/kernel/
# kvmlinux-arm64.S, run under qemu-aarch64 by straddle-kroutine-aarch64:
# the listing, the fault contract at every position through arm64's
# UACCESS_ERR_ZERO entries (its error and zero registers), the sweep that
# times nothing, and every refusal as one line. Exact counts, as
# t_kroutine.sh: a clear makes 44505 calls per offset, six offsets and
# seed 001's case once: 267031; a put or get of 8 bytes 8 alignments and
# 8 fault positions per offset: 96.

if [ "$(uname -m)" != x86_64 ]; then
	ok "kroutine arm64: an AArch64 routine is emulated on an x86-64 host only"
	return 0 2>/dev/null || exit 0
fi
if ! command -v qemu-aarch64 >/dev/null; then
	ok "kroutine arm64: skipped: no qemu-aarch64 (scripts/deps.sh installs qemu-user)"
	return 0 2>/dev/null || exit 0
fi

KA="$FIXTURES/kernel/kvmlinux-arm64"

run "$STRADDLE" kernels --file "$KA" --func __arch_clear_user
expect_eq "arm64 listing: exit 0" "$RC" 0
expect_eq "arm64 listing: whole" "$OUT" \
"__arch_clear_user: __arch_clear_user of $KA (Linux 9.9.0-fixture-arm64), 104 bytes copied from 0xffff800008010040, entry at +0
  call: clear, dst x0, len x1; returns bytes left in x0; after a fault, whole 8-byte accesses, narrower below 8 bytes
  made user-space: nothing
  exception table: +0x10 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x20 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x30 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x34 -> +0x5c UACCESS_ERR_ZERO (xzr, xzr), +0x44 -> +0x60 UACCESS_ERR_ZERO (xzr, xzr), +0x4c -> +0x58 UACCESS_ERR_ZERO (xzr, xzr)
  loops: +0x10..+0x20 (16 B, innermost, the sweep's)
  alternatives: not read (AArch64: the file's bytes run)
  runs under qemu-aarch64: correctness only (an emulator has no layout timing)"
expect_eq "arm64 listing: nothing on stderr" "$ERR" ""
run "$STRADDLE" kernels --file "$KA" --func fx_get8 --call get8,src=x0,out=x1,ret=x2,x1=7
expect_eq "arm64 listing: the error and zero registers of an entry" \
	"$(printf '%s\n' "$OUT" | sed -n 2,4p)" \
"  call: get of 8 bytes, src x0, out x1, x1 = 7; returns 0 or -EFAULT in x2; after a fault, whole 8-byte accesses only (--call)
  made user-space: nothing
  exception table: +0x8 -> +0xc UACCESS_ERR_ZERO (x2, x1)"

# the fault contract at every position
ka_check() { # NAME WANT-LAST-LINE WANT-RC ARGS...
	ka_name=$1 ka_want=$2 ka_rc=$3
	shift 3
	run "$STRADDLE" kernels --check --file "$KA" "$@"
	expect_eq "arm64 check $ka_name: exit $ka_rc" "$RC" "$ka_rc"
	expect_eq "arm64 check $ka_name: the count" "$(printf '%s\n' "$OUT" | tail -1)" "$ka_want"
}
ka_check "__arch_clear_user (whole stores, narrowing)" "267031 passed, 0 failed" 0 \
	--func __arch_clear_user
expect_eq "arm64 check __arch_clear_user: per offset" \
	"$(printf '%s\n' "$OUT" | grep '^__arch_clear_user ')" \
	"__arch_clear_user offsets 0,4,12,28,36,60: 267031 passed, 0 failed"
expect_eq "arm64 check __arch_clear_user: seed 001" "$(printf '%s\n' "$OUT" | grep '^seed 001')" \
	"seed 001: __arch_clear_user, 130 bytes, destination 66 before an unmapped page: 64 cleared, 66 returned: ok"
# the same bytes held to other counts: the check can fail, and says where.
# To the byte: every fault short of the end but at a multiple of the
# store's width differs.
ka_check "__arch_clear_user to the byte" "35886 passed, 231145 failed" 1 \
	--func __arch_clear_user --call clear,dst=x0,len=x1,ret=x0
expect_eq "arm64 check to the byte: the first failure" "$(printf '%s\n' "$OUT" | grep -m1 '^FAIL')" \
	"FAIL __arch_clear_user at offset 0, destination fault, len 2, 1 accessible: returned 2, want 1"
# x86's 8-byte count (exact once fewer than 8 are left) is not arm64's:
# its last store overlaps, so a 9..15-byte tail is all or nothing
ka_check "__arch_clear_user with x86's granule" "263023 passed, 4008 failed" 1 \
	--func __arch_clear_user --call clear,dst=x0,len=x1,ret=x0,granule=8
ka_check "__arch_clear_user, --call spelling the built-in" "267031 passed, 0 failed" 0 \
	--func __arch_clear_user --call clear,dst=x0,len=x1,ret=x0,granule=8,narrows=1
# a fixup that loses 4 cleared bytes: lengths 5, 6, 7 faulting 4..len-1
# bytes in, 6 positions, at 6 offsets
ka_check "fx_clear_lossy" "266995 passed, 36 failed" 1 \
	--func fx_clear_lossy --call clear,dst=x0,len=x1,ret=x0,granule=8,narrows=1
expect_eq "fx_clear_lossy: the first failure" "$(printf '%s\n' "$OUT" | grep -m1 '^FAIL')" \
	"FAIL fx_clear_lossy at offset 0, destination fault, len 5, 4 accessible: returned 5, want 1"
# the error register -EFAULT; the zero register 0 (x1 starts at 7: only the
# entry's zeroing makes a faulting get read 0)
ka_check "fx_put8 (error register x2)" "96 passed, 0 failed" 0 \
	--func fx_put8 --call put8,dst=x0,value=x1,ret=x2
ka_check "fx_put8 read from x3" "48 passed, 48 failed" 1 \
	--func fx_put8 --call put8,dst=x0,value=x1,ret=x3
ka_check "fx_get8 (error x2, zero x1)" "96 passed, 0 failed" 0 \
	--func fx_get8 --call get8,src=x0,out=x1,ret=x2,x1=7
# the copies (copy_template.S): the count check.c walks from the code's
# groups, at every fault position on the user's side alone
ka_check "__arch_copy_to_user (the destination's groups)" "267031 passed, 0 failed" 0 \
	--func __arch_copy_to_user
expect_eq "arm64 check __arch_copy_to_user: seed 001" "$(printf '%s\n' "$OUT" | grep '^seed 001')" \
	"seed 001: __arch_copy_to_user, 130 bytes, destination 66 before an unmapped page: 58 copied, 72 returned: ok"
expect_eq "arm64 listing __arch_copy_to_user: the call" "$(printf '%s\n' "$OUT" | sed -n 2p)" \
	"  call: copy, dst x0, src x1, len x2; returns bytes left in x0; faults on its destination only; after a fault, copy_template's groups"
ka_check "__arch_copy_from_user (loads ahead of stores)" "267031 passed, 0 failed" 0 \
	--func __arch_copy_from_user
expect_eq "arm64 check __arch_copy_from_user: seed 001" "$(printf '%s\n' "$OUT" | grep '^seed 001')" \
	"seed 001: __arch_copy_from_user, 130 bytes, source 66 before an unmapped page: 18 copied, 112 returned: ok"
ka_check "__arch_copy_from_user, --call spelling the built-in" "267031 passed, 0 failed" 0 \
	--func __arch_copy_from_user --call copy,dst=x0,src=x1,len=x2,ret=x0,user=src,count=arm64-copy
ka_check "__arch_copy_to_user to the byte" "23868 passed, 243163 failed" 1 \
	--func __arch_copy_to_user --call copy,dst=x0,src=x1,len=x2,ret=x0,user=dst
expect_eq "arm64 check copy to the byte: the first failure" "$(printf '%s\n' "$OUT" | grep -m1 '^FAIL')" \
	"FAIL __arch_copy_to_user at offset 0, destination fault, len 4, 2 accessible: returned 3, want 2"
# its source is the kernel's: a fault there is an oops, one FAIL line each
ka_check "__arch_copy_to_user faulting its source" "1806 passed, 265225 failed" 1 \
	--func __arch_copy_to_user --call copy,dst=x0,src=x1,len=x2,ret=x0,user=src,count=arm64-copy
expect_eq "arm64 check copy's kernel side: an oops" "$(printf '%s\n' "$OUT" | grep -m1 '^FAIL' | sed 's/0x[0-9a-f]* in/ADDR in/')" \
	"FAIL __arch_copy_to_user at offset 0, source fault, len 1, 0 accessible: a fault at ADDR in +0xe8, which its exception table does not list (the kernel would oops)"

run "$STRADDLE" kernels --json --check --file "$KA" --func __arch_clear_user
expect_eq "arm64 check --json: exit 0" "$RC" 0
expect_eq "arm64 check --json: the counts" "$(jq_of '[.check.passed, .check.failed] | @tsv')" \
	"$(printf '267031\t0')"

# sweep: every instruction offset of a line run and checked, nothing timed
run "$STRADDLE" sweep --file "$KA" --func __arch_clear_user --workload pread_z10k
expect_eq "arm64 sweep: exit 0" "$RC" 0
expect_eq "arm64 sweep: why nothing is timed" "$(printf '%s\n' "$OUT" | sed -n 1p)" \
	"__arch_clear_user: no timing: under qemu-aarch64 the code is translated, and an emulator has no layout timing (fetch windows, lines); every offset is run and checked only"
expect_eq "arm64 sweep: the table" "$(printf '%s\n' "$OUT" | sed -n '2p;3p;15p;19p')" \
"offset  loop@64  calls      bytes  result
     0       16      3      10240  ok
    48        0      3      10240  ok
16 offsets, 48 calls checked byte for byte, 0 failed"
expect_eq "arm64 sweep: 16 offsets, each ok" "$(printf '%s\n' "$OUT" | grep -c ' ok$')" 16
run "$STRADDLE" sweep --file "$KA" --func __arch_clear_user --offsets 2..9 --size 1000
expect_eq "arm64 sweep --offsets: the multiples of 4" \
	"$(printf '%s\n' "$OUT" | awk 'NR > 2 && $2 ~ /^[0-9]+$/ { printf "%s:%s:%s ", $1, $2, $4 }')" \
	"4:20:1000 8:24:1000 "
run "$STRADDLE" sweep --file "$KA" --func fx_clear_lossy --call clear,dst=x0,len=x1,ret=x0 --size 13
expect_eq "arm64 sweep: a routine that clears right without a fault passes" "$RC" 0
for ka_opt in "-o $TMP/sweep.json" "--plot $TMP/sweep.svg" --csv --aa; do
	run "$STRADDLE" sweep --file "$KA" --func __arch_clear_user $ka_opt
	expect_eq "arm64 sweep $ka_opt: refused" "$RC:$OUT:$ERR" \
		"2::straddle: sweep: __arch_clear_user runs under qemu-aarch64, which times nothing: no -o, --plot, --csv or --aa"
done
expect_eq "arm64 sweep: nothing written" "$(ls "$TMP" | grep -c '^sweep')" 0

# refusals: one line, exit 2, nothing on stdout
ka_refuse() { # WHAT WANT-ERR ARGS...
	ka_what=$1 ka_err=$2
	shift 2
	run "$@"
	expect_eq "arm64 refuses $ka_what" "$RC:$OUT:$ERR" "2::$ka_err"
}
ka_call=clear,dst=x0,len=x1,ret=x0
ka_refuse "a call of another function" \
	"straddle: $KA: fx_calls: it calls 0xffff800008010040 (__arch_clear_user) at 0xffff800008010648: a routine that calls another kernel function cannot run in user space" \
	"$STRADDLE" kernels --check --file "$KA" --func fx_calls --call "$ka_call"
ka_refuse "a privileged instruction" \
	"straddle: $KA: fx_priv: it holds msr at 0xffff800008010684, which user space cannot run" \
	"$STRADDLE" sweep --file "$KA" --func fx_priv --call "$ka_call"
ka_refuse "kernel data" \
	"straddle: $KA: fx_data: it reads the page 0xffff800008010000 (_text) at 0xffff8000080106c4: kernel data, not in the copy" \
	"$STRADDLE" kernels --file "$KA" --func fx_data --call "$ka_call"
ka_refuse "an exception-table type it does not model" \
	"straddle: $KA: fx_zeropad: the exception-table entry of 0xffff800008010704 has type 4, which is not UACCESS_ERR_ZERO (2), the user access straddle models on AArch64" \
	"$STRADDLE" kernels --check --file "$KA" --func fx_zeropad --call "$ka_call"
ka_refuse "a module (its relocations are not linked)" \
	"straddle: $KA.o: straddle links x86-64 modules (this is aarch64)" \
	"$STRADDLE" kernels --file "$KA.o" --func fx_put8 --call put8,dst=x0,value=x1,ret=x2
ka_refuse "x86's registers in --call" \
	"straddle: --call: 'rdi' is not a register (x0 .. x28: x29 and x30 are the frame and link the call sets)" \
	"$STRADDLE" kernels --file "$KA" --func __arch_clear_user --call clear,dst=rdi,len=x1,ret=x0
ka_refuse "the link register in --call" \
	"straddle: --call: 'x30' is not a register (x0 .. x28: x29 and x30 are the frame and link the call sets)" \
	"$STRADDLE" kernels --file "$KA" --func __arch_clear_user --call clear,dst=x30,len=x1,ret=x0
ka_refuse "x86's built-in call names" \
	"straddle: $KA: no built-in call for fx_put8: say which register holds what with --call (e.g. clear,dst=x0,len=x1,ret=x0)" \
	"$STRADDLE" kernels --file "$KA" --func fx_put8
ka_refuse "--alternative" \
	"straddle: $KA: --alternative applies x86-64 features; an AArch64 image's routine runs the file's bytes" \
	"$STRADDLE" kernels --file "$KA" --func __arch_clear_user --alternative ERMS
# no qemu-aarch64 in PATH; no runner beside straddle
mkdir -p "$TMP/nopath"
ka_refuse "without qemu-aarch64" \
	"straddle: $KA: __arch_clear_user: an AArch64 routine runs under qemu-aarch64, which is not in PATH (Debian's qemu-user)" \
	env PATH="$TMP/nopath" "$STRADDLE" kernels --check --file "$KA" --func __arch_clear_user
mkdir -p "$TMP/alone/bin"
cp "$STRADDLE" "$TMP/alone/bin/straddle"
ka_refuse "without its runner" \
	"straddle: $KA: __arch_clear_user: an AArch64 routine runs in straddle-kroutine-aarch64 under qemu-aarch64, and that is not beside straddle (make builds it with aarch64-linux-gnu-gcc)" \
	"$TMP/alone/bin/straddle" sweep --file "$KA" --func __arch_clear_user
# diff --measure of two AArch64 images: nothing timed, said once, and why
run "$STRADDLE" diff --no-source --measure "$KA" "$KA"
expect_eq "diff --measure, AArch64: not measured, the reason" \
	"$RC:$(printf '%s\n' "$OUT" | tail -n 1)" \
	"0:not measured: aarch64 routines run on this host only under an emulator, which times nothing of a layout (kernels --check --file checks them)"
