# A kernel image's own routines (kernels --file/--func, sweep --file/--func)
# on the assembled "vmlinux" tests/fixtures/kernel/kvmlinux.S: what the copy
# makes user-space, the fault contract of the real bytes at every position
# through the exception table's types, refusals and bad input as one line.
# Exact counts, as t_kernels.sh: a clear makes 44505 calls per offset and a
# copy 88709, six offsets, and seed 001's case once per side: clear
# 267031, copy 532256. A put or get of N bytes: 8 alignments and N fault
# positions per offset (put 2: 60; get 8: 96); a checksum or memset 301
# lengths per offset (1806).

if [ "$(uname -m)" != x86_64 ]; then
	ok "kroutine: a kernel image's routines run on x86-64 only"
	return 0 2>/dev/null || exit 0
fi

KV="$FIXTURES/kernel/kvmlinux"

run "$STRADDLE" kernels --file "$KV" --func clear_user_original
expect_eq "listing: exit 0" "$RC" 0
expect_eq "listing: the head" "$(printf '%s\n' "$OUT" | sed -n 1p)" \
	"clear_user_original: clear_user_original of $KV (Linux 9.9.0-fixture), 70 bytes copied from 0xffffffff81000000, entry at +0"
expect_eq "listing: the call" "$(printf '%s\n' "$OUT" | sed -n 2p)" \
	"  call: clear, dst rdi, len rcx, rax = 0; returns bytes left in rcx; after a fault, whole 8-byte accesses only"
expect_eq "listing: __fentry__ a nop, the return thunk a ret" "$(printf '%s\n' "$OUT" | sed -n 3p)" \
	"  made user-space: +0 __fentry__ -> nops, +0x31 __x86_return_thunk -> ret"
expect_eq "listing: the exception table" "$(printf '%s\n' "$OUT" | sed -n 4p)" \
	"  exception table: +0x10 -> +0x36 UACCESS, +0x25 -> +0x42 UACCESS"
expect_eq "listing: loops, the 16-byte one swept" "$(printf '%s\n' "$OUT" | sed -n 5p)" \
	"  loops: +0x10..+0x20 (16 B, innermost, the sweep's), +0x25..+0x2f (10 B, innermost)"
run "$STRADDLE" kernels --file "$KV" --func clear_user_original --loop +0x27
expect_eq "--loop +OFF picks the byte loop" "$(printf '%s\n' "$OUT" | sed -n 5p)" \
	"  loops: +0x10..+0x20 (16 B, innermost), +0x25..+0x2f (10 B, innermost, the sweep's)"

kr_call=csum,src=rdi,len=rsi,ret=rax
run "$STRADDLE" kernels --file "$KV" --func fx_retpoline --call "$kr_call"
expect_eq "retpoline call: call *%r11" "$(printf '%s\n' "$OUT" | sed -n 3p)" \
	"  made user-space: +0x3 __x86_indirect_thunk_r11 -> call *%r11, +0x8 __x86_return_thunk -> ret"
expect_eq "--call: said" "$(printf '%s\n' "$OUT" | sed -n 2p)" \
	"  call: csum, src rdi, len rsi; returns the sum in rax (--call)"
run "$STRADDLE" kernels --file "$KV" --func fx_static --call "$kr_call"
expect_eq "a static call that returns: nops" "$(printf '%s\n' "$OUT" | sed -n 3p)" \
	"  made user-space: +0 __SCT__fx_hook -> nops, +0x7 __x86_return_thunk -> ret"

# the fault contract at every position, through each entry type
kr_check() { # NAME WANT-LAST-LINE WANT-RC ARGS...
	kr_name=$1 kr_want=$2 kr_rc=$3
	shift 3
	run "$STRADDLE" kernels --check --file "$KV" "$@"
	expect_eq "check $kr_name: exit $kr_rc" "$RC" "$kr_rc"
	expect_eq "check $kr_name: the count" "$(printf '%s\n' "$OUT" | tail -1)" "$kr_want"
}
kr_check "clear_user_original (UACCESS, 8-byte counts)" "267031 passed, 0 failed" 0 \
	--func clear_user_original
expect_eq "check clear_user_original: seed 001" "$(printf '%s\n' "$OUT" | grep '^seed 001')" \
	"seed 001: clear_user_original, 130 bytes, destination 66 before an unmapped page: 64 cleared, 66 returned: ok"
kr_check "fx_clear_len (UCOPY_LEN8 through rdx)" "267031 passed, 0 failed" 0 --func fx_clear_len \
	--call clear,dst=rdi,len=rcx,ret=rcx,granule=8
# the same bytes held to a count to the byte: the check can fail
kr_check "fx_clear_len to the byte" "39894 passed, 227137 failed" 1 --func fx_clear_len \
	--call clear,dst=rdi,len=rcx,ret=rcx
expect_eq "fx_clear_len to the byte: the first failure" "$(printf '%s\n' "$OUT" | grep -m1 '^FAIL')" \
	"FAIL fx_clear_len at offset 0, destination fault, len 8, 1 accessible: returned 8, want 7"
kr_check "fx_copy_string (COPY: rax is the trap number)" "532256 passed, 0 failed" 0 \
	--func fx_copy_string --call copy,dst=rdi,src=rsi,len=rdx,ret=rax
expect_eq "fx_copy_string: seed 001's source case" \
	"$(printf '%s\n' "$OUT" | grep '^seed 001.*source')" \
	"seed 001: fx_copy_string, 130 bytes, source 66 before an unmapped page: 66 copied, 64 returned: ok"
kr_check "rep_movs_alternative" "532256 passed, 0 failed" 0 --func rep_movs_alternative
kr_check "rep_movs_alternative, ERMS applied" "532256 passed, 0 failed" 0 \
	--func rep_movs_alternative --alternative ERMS
expect_eq "ERMS: applied" "$(printf '%s\n' "$OUT" | grep '^    +0x1e')" \
	"    +0x1e (2 B): ERMS: rep movsb (applied); the host's kernel runs: $(grep -qw erms /proc/cpuinfo && echo 'rep movsb' || echo "the file's bytes")"
kr_check "memset (no table: no faults)" "1806 passed, 0 failed" 0 --func memset
expect_eq "memset: said" "$(printf '%s\n' "$OUT" | grep 'no fault was made')" \
	"memset has no exception-table entry: no fault was made"
kr_check "memset, ERMS's jump re-aimed" "1806 passed, 0 failed" 0 --func memset --alternative ERMS
kr_check "__put_user_2 (IMM_REG: rcx = -EFAULT)" "60 passed, 0 failed" 0 --func __put_user_2
kr_check "__get_user_8 (IMM_REG, CLEAR_DX)" "96 passed, 0 failed" 0 --func __get_user_8
kr_check "fx_bad_count (a fixup that loses the tail)" "40278 passed, 226753 failed" 1 \
	--func fx_bad_count --call clear,dst=rdi,len=rcx,ret=rcx,granule=8
kr_check "fx_oops (a store the table does not list)" "7224 passed, 259807 failed" 1 \
	--func fx_oops --call clear,dst=rdi,len=rcx,ret=rcx
case "$(printf '%s\n' "$OUT" | grep -m1 '^FAIL')" in
"FAIL fx_oops at offset 0, destination fault, len 8, 0 accessible: a fault at 0x"*" in +0x8, which its exception table does not list (the kernel would oops)")
	ok "fx_oops: one line names the offset and the address" ;;
*) fail "fx_oops: first failure: $(printf '%s\n' "$OUT" | grep -m1 '^FAIL')" ;;
esac

# refused, one line, exit 2, nothing on stdout
kr_refused() { # DESCRIPTION WANT-LINE ARGS...
	kr_d=$1 kr_w=$2
	shift 2
	run "$STRADDLE" "$@"
	expect_eq "$kr_d: exit 2, one line" "$RC|$(printf '%s\n' "$ERR" | wc -l)|$OUT" "2|1|"
	expect_eq "$kr_d: the line" "$ERR" "$kr_w"
}
kr_refused "a call" \
	"straddle: $KV: fx_calls: it calls 0xffffffff81000290 (fx_helper) at 0xffffffff81000230: a routine that calls another kernel function cannot run in user space" \
	kernels --file "$KV" --func fx_calls --call "$kr_call"
kr_refused "a live static call" \
	"straddle: $KV: fx_live: it calls 0xffffffff810002c0 (__SCT__fx_live) at 0xffffffff81000270: a routine that calls another kernel function cannot run in user space" \
	kernels --file "$KV" --func fx_live --call "$kr_call"
kr_refused "a privileged instruction" \
	"straddle: $KV: fx_priv: it holds clac at 0xffffffff81000240, which user space cannot run" \
	kernels --file "$KV" --func fx_priv --call "$kr_call"
kr_refused "stac by --alternative SMAP" \
	"straddle: $KV: __put_user_2: it holds stac at 0xffffffff81000150, which user space cannot run" \
	kernels --file "$KV" --func __put_user_2 --alternative SMAP
kr_refused "kernel data" \
	"straddle: $KV: fx_data: it reads 0xffffffff8100211e (fx_counter) at 0xffffffff81000250: kernel data, not in the copy" \
	kernels --file "$KV" --func fx_data --call "$kr_call"
kr_refused "an indirect call" \
	"straddle: $KV: fx_indirect: an indirect call at 0xffffffff81000260: its target is the running kernel's" \
	kernels --file "$KV" --func fx_indirect --call "$kr_call"
kr_refused "an exception type not modelled" \
	"straddle: $KV: fx_badtype: the exception-table entry of 0xffffffff81000280 has type 9, which is not one of a user copy straddle models" \
	kernels --file "$KV" --func fx_badtype --call "$kr_call"
kr_refused "no symbols" \
	"straddle: $FIXTURES/kernel/kvmlinux-stripped: no symbols: give the unstripped vmlinux (Debian's linux-image-*-dbg)" \
	kernels --file "$FIXTURES/kernel/kvmlinux-stripped" --func clear_user_original
kr_refused "a relocatable object" \
	"straddle: $FIXTURES/kernel/kvmlinux.o: not a linked kernel image (a module's relocations are not read: link it, or give the vmlinux)" \
	sweep --file "$FIXTURES/kernel/kvmlinux.o" --func clear_user_original
kr_refused "no such routine" "straddle: $KV: no function named nonesuch" \
	kernels --check --file "$KV" --func nonesuch
kr_refused "no built-in call" \
	"straddle: $KV: no built-in call for fx_clear_len: say which register holds what with --call (e.g. clear,dst=rdi,len=rcx,ret=rcx,rax=0)" \
	sweep --file "$KV" --func fx_clear_len
kr_refused "an alternative it lacks" \
	"straddle: $KV: memset: no alternative of FSRM in its code (without --alternative, 'straddle kernels' lists those it has)" \
	kernels --file "$KV" --func memset --alternative FSRM
kr_refused "an unknown feature" \
	"straddle: --alternative: no CPU feature named 'BOGUS' (ERMS, FSRM, FSRS, REP_GOOD, SMAP, ..., or WORD*32+BIT)" \
	kernels --file "$KV" --func memset --alternative BOGUS
kr_refused "--loop outside every loop" \
	"straddle: $KV: no loop of clear_user_original holds 0xffffffff81000040" \
	sweep --file "$KV" --func clear_user_original --loop 0xffffffff81000040
kr_refused "--call short of a register" "straddle: --call: a clear call needs ret= and dst=, len=" \
	kernels --file "$KV" --func clear_user_original --call clear,dst=rdi
kr_refused "--call of no kind" \
	"straddle: --call 'frob,dst=rdi': begin with clear, copy, put1|2|4|8, get1|2|4|8 or csum" \
	kernels --file "$KV" --func clear_user_original --call frob,dst=rdi
kr_refused "--func without --file" \
	"straddle: --func: a kernel's routine needs both --file VMLINUX and --func NAME" \
	sweep --func clear_user_original
kr_refused "no file" "straddle: $TMP/none: cannot open: No such file or directory" \
	kernels --file "$TMP/none" --func clear_user_original

# sweep: the routine placed at each offset, with a workload's calls; its
# result file names the calls (no timing is asserted)
run "$STRADDLE" sweep --file "$KV" --func clear_user_original --offsets 30..33 --time 0.2 \
	--min-rounds 1 --workload pread_z10k --uarch goldencove -o "$TMP/kr.json"
expect_eq "sweep: exit 0" "$RC" 0
expect_eq "sweep: the operation" "$(printf '%s\n' "$OUT" | grep '^clear_user_original')" \
	"clear_user_original (seed 000), 10240 bytes per operation of 3 calls (pread_z10k), hot loop at +16..+32 of the kernel"
expect_eq "sweep: the file: calls and placements" \
	"$(jq -r '[(.sweep.calls | join("+")), (.metrics | map(.name) | join(","))] | join(" ")' "$TMP/kr.json")" \
	"4096+4096+2048 clear_user_original@30,clear_user_original@31,clear_user_original@32,clear_user_original@33"
# offset 33 puts the 16-byte loop at 49 of a line: across it
expect_eq "sweep: the prediction at 33" \
	"$(jq -r '[.metrics[3].predicted[] | "\(.rule)@\(.window)"] | join(",")' "$TMP/kr.json")" \
	"loop-straddles-window@64,branch-crosses-window@64"
# the agreement counts a price at the slow mark (5%), not a rule that
# fires: at 33..38 the loop (+16, its dec at +11, jnz at +14) is across
# the line at every offset; 33 puts the jnz across it, 35 and 36 the dec
# (the pair's bubble, 1.78x), 34 the line between the two (1.06x, over
# the mark; Debian 6.1's own bytes measured 1.046x there on an EMR guest),
# 37 and 38 the loop alone (1.03x, under it)
run "$STRADDLE" sweep --file "$KV" --func clear_user_original --offsets 33..38 --time 0.2 \
	--min-rounds 1 --uarch goldencove -o "$TMP/kr2.json"
expect_eq "sweep: predicted hazards and predicted slow" \
	"$(jq -r '.agreement[0] | "\(.predicted | map(tostring) | join(",")) \(.predicted_slow | map(tostring) | join(","))"' "$TMP/kr2.json")" \
	"33,34,35,36,37,38 33,34,35,36"
expect_eq "sweep: the agreement counts the predicted slow marks" \
	"$(jq '. as $d | .agreement[0] | .predicted_slow as $p | .agree == ([$d.metrics[] |
		select((.offset as $o | $p | index($o) != null) == .slow)] | length)' "$TMP/kr2.json")" true
run "$STRADDLE" sweep --file "$KV" --func __put_user_2 --workload poll2 --offsets 0..1 --time 0.1 \
	--min-rounds 1
expect_eq "sweep poll2's put_user: exit 0, 2 bytes" "$RC $(printf '%s\n' "$OUT" | grep -c '2 bytes per call, no loop')" "0 1"
kr_refused "sweep a put of another size" "straddle: __put_user_2: stores or loads 2 bytes a call, not 4096" \
	sweep --file "$KV" --func __put_user_2 --size 4096
kr_refused "sweep with a call that does not fit" \
	"straddle: sweep: clear_user_original at offset 0 returned 4096 without a fault: is its call right?" \
	sweep --file "$KV" --func clear_user_original --call clear,dst=rsi,len=rcx,ret=rcx --offsets 0..1

# diff --measure: the next release (-DNEW) moved everything 16 bytes and
# renamed clear_user_original to its successor; measured, each at its own
# build's placement (no timing asserted): which routines, where, what the
# model predicts of each placement
KN="$FIXTURES/kernel/kvmlinux-new"
run "$STRADDLE" diff --no-source --uarch goldencove --measure --measure-time 0.1 "$KV" "$KN"
expect_eq "diff --measure: exit 1 (new hazards)" "$RC" 1
kr_measured=$(printf '%s\n' "$OUT" | sed -n '/^measured/,$p')
expect_eq "diff --measure: the pairs" "$(printf '%s\n' "$kr_measured" | grep -v '^measured' | grep -v '^  ')" \
"clear_user_original (9.9.0-fixture, at +0 of a page, its loop at 16 of a line) -> rep_stos_alternative (9.10.0-fixture, at +16, loop at 32)
rep_movs_alternative (9.9.0-fixture, at +208 of a page, its loop at 26 of a line) -> rep_movs_alternative (9.10.0-fixture, at +224, loop at 42)
memset (9.9.0-fixture, at +256 of a page, its loop at 59 of a line) -> memset (9.10.0-fixture, at +272, loop at 11)"
expect_eq "diff --measure: memset_orig's loop leaves the line's end" \
	"$(printf '%s\n' "$kr_measured" | grep -A1 '^memset' | tail -1)" \
	"  predicted (goldencove, layout only): 1.03x -> 1.00x of each loop's best placement: loop-straddles-window@64 -> -"
expect_eq "diff --measure: read_zero's shapes for clear_user, read1's for copy_user" \
	"$(printf '%s\n' "$kr_measured" | grep -E '^  (pread|read1|4096)' | awk '{print $1}' | tr '\n' ' ')" \
	"pread_z1k pread_z10k pread_z100k read1 4096 "
run "$STRADDLE" diff --measure --json "$KV" "$KN"
expect_eq "diff --measure --json: exit 2, the line" "$RC $ERR" \
	"2 straddle: --measure: prints a table of its own: text only, not --format or --json"

# --json: the routine as it runs, the check's counts
run "$STRADDLE" kernels --json --check --file "$KV" --func __put_user_2
expect_eq "kernels --json --file: exit 0" "$RC" 0
expect_eq "kernels --json --file: the routine" \
	"$(jq_of '.routine | [.function, .release, .address, .bytes, .entry, (.edits | map(.kind) | join("+"))] | join(" ")')" \
	"__put_user_2 9.9.0-fixture 0xffffffff81000150 18 0 ret+ret"
expect_eq "kernels --json --file: EFAULT into rcx" \
	"$(jq_of '.routine.exception_table[0] | [.fault, .fixup, .type, .reg, .imm] | join(",")')" "3,13,17,1,-14"
expect_eq "kernels --json --file: the SMAP site" \
	"$(jq_of '.routine.alternatives[0] | [.at, .feature, .replacement, .applied] | join(",")')" "0,SMAP,stac,false"
expect_eq "kernels --json --file: the counts" "$(jq_of '[.check.passed, .check.failed] | join(",")')" "60,0"
