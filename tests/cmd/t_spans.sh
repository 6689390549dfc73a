# Loop spans (tests/fixtures/x86/spans.S, arm64/spans.S): the contiguous
# run of a loop's blocks around its header, over padding. Every address checked against objdump -d of the fixture.

sp_loops() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[] | $2] | join(\" \")"
}
SP_RANGE='"\(.start)-\(.end)/\(.bytes)/\(.instructions)"'
SP_WIN='"\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["32"].touched)/\(.windows["32"].best) \(.windows["64"].touched)/\(.windows["64"].best)"'

run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/x86/spans"
expect_eq "spans: exit 0" "$RC" 0

# mid_entry: entered at H 0x401044 by jmp; A, B, C above it are the loop's
# (add, test, jz, inc, sub, dec, jnz = 7). Header and latch alone were
# [0x401042, 0x401048), inside one 16 B window.
expect_eq "mid_entry: span" "$(sp_loops mid_entry "$SP_RANGE")" "0x40103a-0x401048/14/7"
# 16: 0x401030/40 = 2 > 1; 32: 0x401020/40 = 2 > 1; 64: 0x401000/40 = 2 > 1.
expect_eq "mid_entry: windows" "$(sp_loops mid_entry "$SP_WIN")" "2/1 2/1 2/1"
expect_eq "mid_entry: nothing out of line" "$(sp_loops mid_entry '"\(.cold_blocks)/\(.cold_bytes)"')" "0/0"

# above_below: A above H, C and D below: add, test, jz, inc, dec, jnz.
expect_eq "above_below: span" "$(sp_loops above_below "$SP_RANGE")" "0x40109a-0x4010a6/12/6"
# 16: 0x401090/a0 = 2 > 1; 32: 0x401080/a0 = 2 > 1; 64: 1/1.
expect_eq "above_below: windows" "$(sp_loops above_below "$SP_WIN")" "2/1 2/1 1/1"
expect_eq "above_below: nothing out of line" "$(sp_loops above_below '"\(.cold_blocks)/\(.cold_bytes)"')" "0/0"

# nested_rotated: outer [0x401110, 0x401121) = mov, jmp, add, dec, jnz,
# dec, jnz (7), depth 1; inner [0x401117, 0x40111d) = add, dec, jnz, depth 2.
expect_eq "nested_rotated: spans" "$(sp_loops nested_rotated "$SP_RANGE")" \
	"0x401117-0x40111d/6/3 0x401110-0x401121/17/7"
expect_eq "nested_rotated: depth" "$(sp_loops nested_rotated '"\(.depth)"')" "2 1"
expect_eq "nested_rotated: innermost" "$(sp_loops nested_rotated '"\(.innermost)"')" "true false"
# outer, 17 B: 16: 0x401110/20 = 2/2; 32: 0x401100/20 = 2 > 1; 64: 1/1.
expect_eq "nested_rotated: outer windows" \
	"$(jq_of '.files[0].functions[] | select(.name == "nested_rotated") | .loops[1] | "\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["32"].touched)/\(.windows["32"].best)"')" \
	"2/2 2/1"

# cold_after_ret: the ret at 0x401198 ends the run; COLD [0x4011a0,
# 0x4011a4) past the padding is out of line, 1 block of 4 B.
expect_eq "cold_after_ret: span" "$(sp_loops cold_after_ret "$SP_RANGE")" "0x401190-0x401198/8/4"
expect_eq "cold_after_ret: out of line" "$(sp_loops cold_after_ret '"\(.cold_blocks)/\(.cold_bytes)"')" "1/4"

# top_by_back: T (reached only by jns T), M, H, the jns/jmp block, then 8
# unreached nops bridged to L (jmp M): add, test, je, dec, je, cmp, jns,
# jmp, 8 nops, inc, jmp = 18 instructions; header and latch alone were
# [0x401212, 0x40121a).
expect_eq "top_by_back: span" "$(sp_loops top_by_back "$SP_RANGE")" "0x401210-0x40122c/28/18"
# 28 B: 16: 0x401210/20 = 2/2; 32: 0x401200/20 = 2 > 1; 64: 1/1.
expect_eq "top_by_back: windows" "$(sp_loops top_by_back "$SP_WIN")" "2/2 2/1 1/1"
expect_eq "top_by_back: one loop, nothing out of line" \
	"$(sp_loops top_by_back '"\(.cold_blocks)/\(.depth)/\(.irreducible)"')" "0/1/false"

# exit_between: H's only way on is jne B past the exit E (mov; ret) and a
# nop. E is code, not padding: the header's run is H alone (test, jne);
# B (decl, add, jmp: 6 B) runs every iteration, so it is the loop's
# second piece, not out of line: 4 + 6 = 10 B, 5 instructions,
# pieces [0x401290, 0x401294) and [0x401298, 0x40129e).
expect_eq "exit_between: span" "$(sp_loops exit_between "$SP_RANGE")" "0x401290-0x40129e/10/5"
expect_eq "exit_between: pieces" "$(sp_loops exit_between '.pieces | map("\(.start)-\(.end)/\(.bytes)") | join(" ")')" \
	"0x401290-0x401294/4 0x401298-0x40129e/6"
expect_eq "exit_between: nothing out of line" "$(sp_loops exit_between '"\(.cold_blocks)/\(.cold_bytes)"')" "0/0"

# over_loop: H's only way on is jne B, past X's loop: H's run is H alone
# (a run never takes in another loop's body), B [0x401320, 0x401324) its
# second piece (it runs every iteration): 8 B, 4 instructions; X is its own
# loop.
expect_eq "over_loop: spans" "$(sp_loops over_loop "$SP_RANGE")" "0x401310-0x401324/8/4 0x401314-0x401318/4/2"
expect_eq "over_loop: pieces" "$(sp_loops over_loop '.pieces | map("\(.start)-\(.end)") | join("+")')" \
	"0x401310-0x401314+0x401320-0x401324 0x401314-0x401318"
expect_eq "over_loop: nothing out of line" "$(sp_loops over_loop '"\(.cold_blocks)/\(.cold_bytes)"')" "0/0 0/0"

# AArch64: b to H 0x400048 with A, B, C above: [0x400038, 0x400050), 24 B:
# add, cbz, add, sub, subs, b.ne. 16: 0x400030/40 = 2/2; 32: 0x400020/40
# = 2 > 1; 64: 0x400000/40 = 2 > 1 (header and latch were [0x400044,
# 0x400050), inside one line).
run "$STRADDLE" scan --json --all --uarch generic-arm64 "$FIXTURES/arm64/spans"
expect_eq "arm64 mid_entry: span" "$(sp_loops mid_entry "$SP_RANGE")" "0x400038-0x400050/24/6"
expect_eq "arm64 mid_entry: windows" "$(sp_loops mid_entry "$SP_WIN")" "2/2 2/1 2/1"

# Cycles sharing a header (tests/fixtures/x86/samespan.S). shared_header:
# the natural loop {H, L} and the cycle H, L, C entered at H (and at C from
# B1) both grow from H [0x40103f, 0x401044), which the exit E ends. Judged
# by that run alone they were the same bytes, one row standing for both;
# judged by their pieces they are not.
run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/x86/samespan"
SP_FACTS='"\(.start)-\(.end)/\(.bytes) depth \(.depth) irreducible \(.irreducible) same \(.same_span_loops)"'
# With pieces the two are no longer the same bytes: the natural
# loop {H, L} runs H and L every iteration, [0x40103f, 0x401044) and
# [0x401047, 0x40104b), 9 B; the cycle H, L, C runs H and then L and C,
# [0x40103f, 0x401044) and [0x401047, 0x401053), 17 B. Two rows, each its
# own bytes.
expect_eq "shared_header: a row each" "$(sp_loops shared_header "$SP_FACTS")" \
	"0x40103f-0x40104b/9 depth 2 irreducible false same 0 0x40103f-0x401053/17 depth 1 irreducible true same 0"
expect_eq "shared_header: the cycle is still named" \
	"$(jq_of '.files[0].functions[] | select(.name == "shared_header") | .irreducible | map("\(.entry)<-\(.from)") | join(" ")')" \
	"0x40103f<-0x40104b"
# The loop's 9 B: 16: 0x401030, 0x401040 = 2/1; 32: 0x401020, 0x401040 =
# 2/1; 64: 0x401000, 0x401040 = 2/1. The cycle's 17 B: 16: 0x401030,
# 0x401040, 0x401050 = 3/2; 32 and 64: 2/1. generic-x86 judges 16 and 64.
expect_eq "shared_header: windows" "$(sp_loops shared_header "$SP_WIN")" "2/1 2/1 2/1 3/2 2/1 2/1"
expect_eq "shared_header: each hazard once" \
	"$(jq_of '[.files[0].functions[] | select(.name == "shared_header") | .loops[].hazards[] | "\(.window)"] | join(" ")')" "16 64 16 64"
# through_outer: the cycle X, P entered at X from P is [0x40108a,
# 0x401097), 13 B; walked over the outer back edge T -> OH it had the outer
# loop's [0x401085, 0x40109b) and was reported as a second copy of it.
expect_eq "through_outer: spans" "$(sp_loops through_outer "$SP_FACTS")" \
	"0x401085-0x40109b/22 depth 1 irreducible false same 0 0x40108a-0x401097/13 depth 2 irreducible true same 0"
# 13 B from 0x40108a: 16: 0x401080/90 = 2 > 1; 32, 64: 1/1.
expect_eq "through_outer: cycle windows" \
	"$(jq_of '.files[0].functions[] | select(.name == "through_outer") | .loops[1] | "\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["64"].touched)/\(.windows["64"].best)"')" \
	"2/1 1/1"

# The text table: one row per loop and rule, 4 rows in all (the entry's
# included); the outer loop's (17 B), priced at nothing, folded but with --all.
run "$STRADDLE" scan --uarch generic-x86 "$FIXTURES/x86/samespan"
expect_eq "samespan: rows" "$(printf '%s\n' "$OUT" | awk '$1 == "medium" || $1 == "low" { print $2, $4, $6, $7 }' | tr '\n' ';')" \
	"shared_header 0x40103f 9 16,64;through_outer 0x40108a 13 16;shared_header 0x401030 35 64;"
run "$STRADDLE" scan --all --uarch generic-x86 "$FIXTURES/x86/samespan"
expect_eq "samespan --all: rows" "$(printf '%s\n' "$OUT" | awk '($1 == "medium" || $1 == "low") && $5 == "-" { print $2, $4, $6, $7 }' | tr '\n' ';')" \
	"shared_header 0x40103f 9 16,64;through_outer 0x40108a 13 16;shared_header 0x401030 35 64;shared_header 0x40103f 17 16,64;"
run "$STRADDLE" scan --uarch generic-x86 "$FIXTURES/x86/samespan"
expect_eq "samespan: summary" "$(printf '%s\n' "$OUT" | tail -1)" "4 hazards: 3 loops, 1 function entries"
