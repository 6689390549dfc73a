# scan --perf-script: mmap events (perf script --show-mmap-events)
# place a stripped shared object none of whose samples names a symbol,
# exactly (its executable segment is file offset 0x1000 at 0x2000, mapped
# at 0x7f0000012000: bias 0x7f0000010000); a sample named by an alias of a
# function is placed like one named by the function.
S=$FIXTURES/so/stripped.so
SO=$(cd "$(dirname "$S")" && pwd)/stripped.so
{
	printf '            prog  4242  1.000000: PERF_RECORD_MMAP2 4242/4242: [0x7f0000011000(0x1000) @ 0 fe:00 7 0]: r--p %s\n' "$SO"
	printf '            prog  4242  1.000001: PERF_RECORD_MMAP2 4242/4242: [0x7f0000012000(0x1000) @ 0x1000 fe:00 7 0]: r-xp %s\n' "$SO"
	printf '         swapper     0  0.000000: PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x1276508) @ 0xffffffff81000000]: x [kernel.kallsyms]_text\n'
	for ip in 7f0000012078 7f000001207c 7f0000012080 7f0000012040; do
		printf '     %s [unknown] (%s)\n' "$ip" "$SO"
	done
	printf '     ffffffff8133c9c0 native_set_pte ([kernel.kallsyms])\n'
} >"$TMP/mmap.txt"
grep -v PERF_RECORD "$TMP/mmap.txt" >"$TMP/nommap.txt"

run $STRADDLE scan --uarch zen1 --all --json --perf-script "$TMP/mmap.txt" "$S"
expect_eq "mmap: exit 0" "$RC" 0
expect_eq "mmap: nothing on stderr" "$ERR" ""
expect_eq "mmap: the file's samples, of the run's" \
	"$(jq_of '.files[0].samples|"\(.file) \(.run)"')" "4 5"
expect_eq "mmap: the loop [0x2074, 0x2083) holds 3 of them" \
	"$(jq_of '.files[0].functions[]|select(.name=="fde@0x2040")|.loops[0]|"\(.start) \(.samples)"')" "0x2074 3"
expect_eq "mmap: its function all 4" \
	"$(jq_of '.files[0].functions[]|select(.name=="fde@0x2040")|.samples')" 4

# without the events: no symbol, no load address, said once, not placed
run $STRADDLE scan --uarch zen1 --all --json --perf-script "$TMP/nommap.txt" "$S"
expect_eq "no mmap: exit 0" "$RC" 0
expect_eq "no mmap: one line on stderr" "$ERR" \
	"straddle: $SO: no sample names a symbol of the file and no mmap event (perf script --show-mmap-events) says where it was: its load address is unknown; its 4 samples are not placed in loops"
expect_eq "no mmap: the loop has none" \
	"$(jq_of '.files[0].functions[]|select(.name=="fde@0x2040")|.loops[0].samples')" 0

# the same file mapped at two places (two processes): the events disagree,
# so the samples vote, and name no symbol: not placed
sed 's/\[0x7f0000012000(0x1000) @ 0x1000/[0x7f0000022000(0x1000) @ 0x1000/' "$TMP/mmap.txt" >"$TMP/two.txt"
cat "$TMP/mmap.txt" | grep 'r-xp' >>"$TMP/two.txt"
run $STRADDLE scan --uarch zen1 --all --json --perf-script "$TMP/two.txt" "$S"
expect_eq "two maps: not placed, said why" "$(printf '%s\n' "$ERR" | grep -c 'its load address is unknown')" 1

# aliases: a function with two names; perf may name a sample by either
cat >"$TMP/alias.S" <<'ASM'
	.text
	.globl	real_fn
	.type	real_fn,@function
real_fn:
	movq	%rsi,%rcx
0:	movq	$0,(%rdi)
	addq	$8,%rdi
	decq	%rcx
	jnz	0b
	ret
	.size	real_fn,.-real_fn
	.globl	alias_fn
	.type	alias_fn,@function
	.set	alias_fn,real_fn
	.size	alias_fn,.-real_fn
ASM
gcc -shared -nostdlib -Wl,--build-id=none -Wl,--section-start=.text=0x2000 -o "$TMP/alias.so" "$TMP/alias.S"
for name in real_fn alias_fn; do
	# loaded 0x7f0000100000 higher; two samples in the loop [0x2003, 0x2013)
	printf '     7f0000102005 %s (%s)\n     7f0000102010 %s (%s)\n' "$name" "$TMP/alias.so" "$name" "$TMP/alias.so" \
		>"$TMP/alias-$name.txt"
	run $STRADDLE scan --uarch zen1 --all --json --perf-script "$TMP/alias-$name.txt" "$TMP/alias.so"
	expect_eq "alias: samples named $name placed in the loop" \
		"$(jq_of '.files[0].functions[0].loops[0]|"\(.start) \(.samples)"') $ERR" "0x2003 2 "
done

# --func matches every name of a function (libc's
# '*memmove_avx512_unaligned_erms' is __memcpy_avx512_unaligned_erms)
for name in real_fn alias_fn 'real_*'; do
	run $STRADDLE scan --uarch zen1 --json --func "$name" "$TMP/alias.so"
	expect_eq "--func '$name': the one function, under the name kept" \
		"$RC $(jq_of '.files[0]|"\(.functions_scanned) \(.functions[0].name) \(.functions[0].addr)"')" "0 1 alias_fn 0x2000"
done
run $STRADDLE scan --uarch zen1 --func 'nosuch_fn' "$TMP/alias.so"
expect_eq "--func 'nosuch_fn': exit 2" "$RC" 2
