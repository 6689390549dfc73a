# scan and diff --format sarif: SARIF 2.1.0 checked against the
# published schema (tests/sarif/validate.py, python3-jsonschema), exact
# results on fixtures whose layouts are known (tests/fixtures/sarif/), the
# fingerprint across two builds that only moved the loop, and the fix in
# the compiler's words, for GCC, Clang, assembly and the kernel.
X=$FIXTURES/x86
SF=$FIXTURES/sarif
V="python3 tests/sarif/validate.py"
ROOT=$(pwd)

# rebuilt UARCH NAME COMPILER FLAGS...: loop.c built again with FLAGS,
# linked at 0x401000 and scanned; $OUT holds the JSON (--all)
rebuilt() {
	uarch=$1 name=$2
	shift 2
	"$@" -c -o "$TMP/$name.o" tests/fixtures/sarif/loop.c
	ld -o "$TMP/$name" -e 0x401000 -Ttext=0x401000 --build-id=none "$TMP/$name.o"
	run $STRADDLE scan --uarch "$uarch" --all --json "$TMP/$name"
}

# the validator itself rejects a log without a tool driver
printf '{"version":"2.1.0","runs":[{"tool":{}}]}\n' >"$TMP/bad.sarif"
run $V "$TMP/bad.sarif"
expect_eq "validator: a log without tool.driver fails" "$RC" 1
expect_eq "validator: says where" "$OUT" "$TMP/bad.sarif: /runs/0/tool: 'driver' is a required property"

# scan: an assembled loop with DWARF lines (moved.S, PAD 0)
run $STRADDLE scan --uarch zen1 --format sarif --source-root "$ROOT" $SF/moved_a
expect_eq "scan moved_a: exit 0" "$RC" 0
printf '%s\n' "$OUT" >"$TMP/scan_a.sarif"
run $V "$TMP/scan_a.sarif"
expect_eq "scan moved_a: valid SARIF 2.1.0" "$OUT" "1 valid"
OUT=$(cat "$TMP/scan_a.sarif")
expect_eq "scan moved_a: version" "$(jq_of '.version')" "2.1.0"
expect_eq "scan moved_a: rules" "$(jq_of '[.runs[0].tool.driver.rules[].id]|join(",")')" \
	"loop-straddles-window,branch-crosses-window,branch-ends-window,entry-misaligned"
expect_eq "scan moved_a: every rule has help" \
	"$(jq_of '[.runs[0].tool.driver.rules[]|select((.help.text|length) > 100)]|length')" 4
expect_eq "scan moved_a: one result (16 and 64 B windows in one row)" "$(jq_of '.runs[0].results|length')" 1
expect_eq "scan moved_a: rule, level" "$(jq_of '.runs[0].results[0]|"\(.ruleId) \(.level)"')" \
	"loop-straddles-window warning"
expect_eq "scan moved_a: location relative to --source-root" \
	"$(jq_of '.runs[0].results[0].locations[0].physicalLocation|"\(.artifactLocation.uriBaseId) \(.artifactLocation.uri):\(.region.startLine)"')" \
	"SRCROOT tests/fixtures/sarif/moved.S:14"
expect_eq "scan moved_a: SRCROOT" "$(jq_of '.runs[0].originalUriBaseIds.SRCROOT.uri')" "file://$ROOT/"
expect_eq "scan moved_a: logical location" \
	"$(jq_of '.runs[0].results[0].locations[0].logicalLocations[0]|"\(.kind) \(.name)"')" "function __clear_user"
expect_eq "scan moved_a: properties" \
	"$(jq_of '.runs[0].results[0].properties|"\(.address) \(.bytes) \(.section) \(.profiles) \(.windows|map(tostring)|join(",")) \(.placement) \(.severity)"')" \
	"0x401034 16 .text zen1 16,64 certain medium"
expect_eq "scan moved_a: fix and the assembler's words" \
	"$(jq_of '.runs[0].results[0].properties|"\(.fix) | \(.compilerFix)"')" \
	".p2align 4 (+12 B) | assembly: .p2align 4 before the loop"
expect_eq "scan moved_a: message" "$(jq_of '.runs[0].results[0].message.text')" \
	"The 16-byte loop at 0x401034 in __clear_user touches 2 windows of 16 B (1 needed), 2 windows of 64 B (1 needed) under zen1. Fix: .p2align 4 (+12 B); assembly: .p2align 4 before the loop."
FP_A=$(jq_of '.runs[0].results[0].partialFingerprints["straddleLoopShape/v1"]')

# a loop in pieces (x86/pieces' far: 0x401140/4 and 0x401180/6 across a
# 70-byte span): its windows counted over its pieces, as the text's detail
# cell "2/1,2/1,2/1 in 2 pieces" counts them (the message counted
# the span, "5 windows of 16 B (5 needed)", for the same hazard)
run $STRADDLE scan --uarch zen1,skylake,goldencove --llvm-mca none --format sarif "$X/pieces"
printf '%s\n' "$OUT" >"$TMP/scan_a.sarif"
expect_eq "scan pieces: the message's windows are the detail cell's" \
	"$(jq_of '.runs[0].results[0].message.text' | sed 's/ Fix:.*//')" \
	"The 70-byte loop at 0x401140 in far touches 2 windows of 16 B (1 needed), 2 windows of 32 B (1 needed), 2 windows of 64 B (1 needed) under zen1,skylake,goldencove."
run $STRADDLE scan --uarch zen1,skylake,goldencove --llvm-mca none "$X/pieces"
expect_eq "scan pieces: the text's detail cell" "$(printf '%s\n' "$OUT" | grep -c ' 2/1,2/1,2/1 in 2 pieces: 0x401140/4 0x401180/6 ')" 1
run $STRADDLE scan --uarch zen1 --format sarif --source-root "$ROOT" $SF/moved_a
printf '%s\n' "$OUT" >"$TMP/scan_a.sarif"

# the same loop 64 bytes further (PAD 64): another address, the same fingerprint
run $STRADDLE scan --uarch zen1 --format sarif --source-root "$ROOT" $SF/moved_b
expect_eq "scan moved_b: moved to 0x401074" "$(jq_of '.runs[0].results[0].properties.address')" "0x401074"
expect_eq "scan moved_b: fingerprint as before the move" \
	"$(jq_of '.runs[0].results[0].partialFingerprints["straddleLoopShape/v1"]')" "$FP_A"
expect_eq "scan moved_b: fingerprint is 16 hex digits" "$(printf '%s' "$FP_A" | grep -c '^[0-9a-f]\{16\}$')" 1
# ... and another loop's is another
run $STRADDLE scan --uarch zen1 --format sarif $SF/gcc_loop
expect_eq "scan gcc_loop: another loop, another fingerprint" \
	"$(jq_of ".runs[0].results[0].partialFingerprints[\"straddleLoopShape/v1\"] != \"$FP_A\"")" true

# without --source-root: the absolute source path as a file: URI
run $STRADDLE scan --uarch zen1 --format sarif $SF/moved_a
expect_eq "scan without --source-root: file URI" \
	"$(jq_of '.runs[0].results[0].locations[0].physicalLocation.artifactLocation|"\(.uriBaseId) \(.uri)"')" \
	"null file://$ROOT/tests/fixtures/sarif/moved.S"
# --no-source: the ELF file is the location, its region the loop's bytes
# in it (.text at file offset 0x1000, the loop at 0x401034: 0x1034)
run $STRADDLE scan --uarch zen1 --format sarif --no-source $SF/moved_a
expect_eq "scan --no-source: the ELF path, the loop's bytes in it" \
	"$(jq_of '.runs[0].results[0].locations[0].physicalLocation|"\(.artifactLocation.uri) \(.region.byteOffset) \(.region.byteLength) \(.region.startLine)"')" \
	"$SF/moved_a 4148 16 null"

# the kernel's words: a __ksymtab section makes it a kernel image
run $STRADDLE scan --uarch zen1 --format sarif $SF/kernel_a
expect_eq "scan kernel_a: the kernel's words" "$(jq_of '.runs[0].results[0].properties.compilerFix')" \
	"kernel assembly: .p2align 4 before the loop, inside the SYM_FUNC_START body"

# a file that cannot be scanned: exit 2, a notification, the log still valid
run $STRADDLE scan --uarch zen1 --format sarif $SF/moved_a $FIXTURES/malformed/not-elf
expect_eq "scan with a bad file: exit 2" "$RC" 2
printf '%s\n' "$OUT" >"$TMP/scan_bad.sarif"
run $V "$TMP/scan_bad.sarif"
expect_eq "scan with a bad file: valid SARIF" "$OUT" "1 valid"
OUT=$(cat "$TMP/scan_bad.sarif")
expect_eq "scan with a bad file: execution not successful, one notification, one result" \
	"$(jq_of '.runs[0].invocations[0]|"\(.executionSuccessful) \(.toolExecutionNotifications|length)"') $(jq_of '.runs[0].results|length')" \
	"false 1 1"

# scan --uarch all: the JCC rule and the straddle, two results, each over its profiles
run $STRADDLE scan --uarch all --format sarif --no-source $X/diff000_after
printf '%s\n' "$OUT" >"$TMP/all.sarif"
run $V "$TMP/all.sarif"
expect_eq "scan --uarch all: valid SARIF" "$OUT" "1 valid"
OUT=$(cat "$TMP/all.sarif")
expect_eq "scan --uarch all: one result per rule" \
	"$(jq_of '[.runs[0].results[]|"\(.ruleId) \(.level) \(.properties.profiles) \(.properties.windows|map(tostring)|join(",")) \(.properties.fix)"]|join("; ")')" \
	"branch-crosses-window error skylake,goldencove 32,64 .p2align 3 (+4 B); loop-straddles-window warning generic-x86,skylake,goldencove,zen1,zen2,zen3,zen4,zen5 16,32,64 .p2align 4 (+12 B)"
expect_eq "scan --uarch all: the branch's message" "$(jq_of '.runs[0].results[0].message.text')" \
	"The 15-byte loop at 0x401034 in __clear_user: its jcc at 0x401041 (fused pair) crosses a boundary of 32 B, 64 B under skylake,goldencove. Fix: .p2align 3 (+4 B)."

# diff: one result per new hazard row, with its cause
run $STRADDLE diff --uarch zen1 --format sarif --no-source $X/diff000_before $X/diff000_after
expect_eq "diff 000: exit 1 (the gate)" "$RC" 1
printf '%s\n' "$OUT" >"$TMP/diff.sarif"
run $V "$TMP/diff.sarif"
expect_eq "diff 000: valid SARIF" "$OUT" "1 valid"
OUT=$(cat "$TMP/diff.sarif")
expect_eq "diff 000: one new row" \
	"$(jq_of '[.runs[0].results[]|"\(.ruleId) \(.baselineState) \(.properties.cause) \(.properties.address) \(.properties.windows|map(tostring)|join(","))"]|join("; ")')" \
	"loop-straddles-window new changed 0x401034 16,64"
expect_eq "diff 000: message says why it is new" "$(jq_of '.runs[0].results[0].message.text')" \
	"The 15-byte loop at 0x401034 in __clear_user touches 2 windows of 16 B (1 needed), 2 windows of 64 B (1 needed) under zen1. New in this build: its bytes changed. Fix: .p2align 4 (+12 B)."
run $STRADDLE diff --uarch zen1 --format sarif --no-source $X/diff_moved_old $X/diff_moved_new
expect_eq "diff moved: cause moved" "$(jq_of '.runs[0].results[0]|"\(.properties.cause) \(.properties.address)"')" "moved 0x401026"
run $STRADDLE diff --uarch zen1 --format sarif $X/diff000_after $X/diff000_after
expect_eq "diff same build: exit 0, no result" "$RC $(jq_of '.runs[0].results|length')" "0 0"
run $STRADDLE diff --format yaml $X/diff000_after $X/diff000_after
expect_eq "diff --format yaml: exit 2" "$RC" 2
expect_eq "diff --format yaml: one line" "$ERR" "straddle: --format: 'yaml' is none of text, json, markdown, sarif"
run $STRADDLE scan --format yaml $X/diff000_after
expect_eq "scan --format yaml: exit 2" "$RC" 2
expect_eq "scan --format yaml: one line" "$ERR" "straddle: --format: 'yaml' is none of text, json, sarif"

# the fix in GCC's words, and the hazard gone when the file is rebuilt with it
run $STRADDLE scan --uarch zen1 --format sarif $SF/gcc_loop
expect_eq "gcc_loop: the loop and its fix" \
	"$(jq_of '.runs[0].results[0].properties|"\(.address) \(.bytes) \(.fix)"')" "0x40100c 21 .p2align 3 (+4 B)"
expect_eq "gcc_loop: GCC's words, with the unit's own flag" "$(jq_of '.runs[0].results[0].properties.compilerFix')" \
	"GCC: -falign-loops=8 for the unit (this unit: -falign-loops=1)"
expect_eq "gcc_loop: source line" \
	"$(jq_of '.runs[0].results[0].locations[0].physicalLocation.region.startLine')" 21
FLAG=$(jq_of '.runs[0].results[0].properties.compilerFix' | sed 's/^GCC: \(-falign-loops=[0-9]*\) .*/\1/')
rebuilt zen1 gcc_fixed gcc -O2 -g "$FLAG" -DPAD=2
expect_eq "gcc_loop rebuilt with $FLAG: the loop at 0x401010, no hazard" \
	"$(jq_of '[.files[0].functions[0].loops[]|"\(.start) \(.hazards|length)"]|join(",")')" "0x401010 0"

# Clang's: its loop alignment flag (this Clang is older than code_align)
run $STRADDLE scan --uarch zen3 --format sarif $SF/clang_loop
expect_eq "clang_loop: the loop and its fix" \
	"$(jq_of '.runs[0].results[0].properties|"\(.address) \(.bytes) \(.fix)"')" "0x401010 20 .p2align 5 (+16 B)"
expect_eq "clang_loop: Clang's words" "$(jq_of '.runs[0].results[0].properties.compilerFix')" \
	"Clang: -falign-loops=32 for the unit, or [[clang::code_align(32)]] on the loop (Clang 17+; this unit's is older)"
expect_eq "clang_loop: source line without .debug_aranges" \
	"$(jq_of '.runs[0].results[0].locations[0].physicalLocation.region.startLine')" 21
rebuilt zen3 clang_fixed clang -O2 -g -fno-vectorize -fno-unroll-loops -falign-loops=32
expect_eq "clang_loop rebuilt with -falign-loops=32: the loop at 0x401020, no hazard" \
	"$(jq_of '[.files[0].functions[0].loops[]|"\(.start) \(.hazards|length)"]|join(",")')" "0x401020 0"

# a function entry: GCC's attribute and flag; the text table says the same
run $STRADDLE scan --uarch zen1 --format sarif $SF/gcc_entry
expect_eq "gcc_entry: the function and its fix" \
	"$(jq_of '.runs[0].results[0]|"\(.ruleId) \(.level) \(.properties.address) \(.properties.bytes) \(.properties.compilerFix)"')" \
	"entry-misaligned note 0x401038 18 GCC: __attribute__((aligned(32))) on the function, or -falign-functions=32 for the unit (this unit: -falign-functions=1)"
run $STRADDLE scan --uarch zen1 $SF/gcc_entry
# (the cost column, "-": an entry hazard is not priced, before the fix)
expect_eq "gcc_entry text: the fix column" "$(printf '%s\n' "$OUT" | grep '^low' | sed 's/.*certain *- *//')" \
	".p2align 5 (+8 B); .p2align 4 (+8 B) holds only here; GCC: __attribute__((aligned(32))) on the function, or -falign-functions=32 for the unit (this unit: -falign-functions=1)"

# Skylake's JCC erratum: the assembler's branch padding, and the hazard gone with it
run $STRADDLE scan --uarch skylake --format sarif $SF/gcc_loop
expect_eq "gcc_loop skylake: the branch row's fix in GCC's words" \
	"$(jq_of '.runs[0].results[]|select(.ruleId=="branch-crosses-window")|"\(.properties.address) \(.properties.fix) | \(.properties.compilerFix)"')" \
	"0x40100c .p2align 3 (+4 B) | GCC: -falign-loops=8 for the unit (this unit: -falign-loops=1); or every branch: -Wa,-mbranches-within-32B-boundaries"
rebuilt skylake jcc gcc -O2 -g -falign-loops=1 -DPAD=2 -Wa,-mbranches-within-32B-boundaries
expect_eq "gcc_loop rebuilt with -Wa,-mbranches-within-32B-boundaries: no branch hazard" \
	"$(jq_of '[.files[0].functions[0].loops[].hazards[]|select(.rule|startswith("branch"))]|length')" 0

# two local functions of one name, one per unit, each with the same loop
# across a 16 B window (at 0x401034 and 0x401079): the fingerprint tells
# their alerts apart
for u in a b; do
	printf '\t.text\n\t.type helper,@function\nhelper:\n\t.skip 0x34, 0x90\n0:\tmovq $0,(%%rdi)\n\taddq $8,%%rdi\n\tdecq %%rcx\n\tjnz 0b\n\tret\n\t.size helper,.-helper\n' \
		>"$TMP/helper_$u.s"
	as -o "$TMP/helper_$u.o" "$TMP/helper_$u.s"
done
ld -o "$TMP/helpers" -e 0x401000 -Ttext=0x401000 --build-id=none "$TMP/helper_a.o" "$TMP/helper_b.o"
run $STRADDLE scan --uarch zen1 --format sarif "$TMP/helpers"
expect_eq "two helpers: both loops" \
	"$(jq_of '[.runs[0].results[]|"\(.properties.function) \(.properties.address)"]|sort|join(",")')" \
	"helper 0x401034,helper 0x401079"
expect_eq "two helpers: two fingerprints" \
	"$(jq_of '[.runs[0].results[].partialFingerprints[]]|unique|length')" 2

# A binary's region: a stripped file's result points at the
# loop's bytes in it (gcc_loop's .text is at file offset 0x1000, its loop
# at 0x40100c, 21 bytes: 4108), the -g build's at its source line; one log
# holding both validates against the 2.1.0 schema, and each result names
# the ELF file and its operand.
strip -o "$TMP/gcc_loop.stripped" "$SF/gcc_loop"
run $STRADDLE scan --uarch zen1 --format sarif "$TMP/gcc_loop.stripped" "$SF/gcc_loop"
printf '%s\n' "$OUT" >"$TMP/regions.sarif"
expect_eq "stripped and -g: the stripped one's bytes, the other's line" \
	"$(jq_of '[.runs[0].results[] | .locations[0].physicalLocation | "\(.artifactLocation.uri) \(.region | tostring)"] | join(" | ")')" \
	"file://$TMP/gcc_loop.stripped {\"byteOffset\":4108,\"byteLength\":21} | file://$ROOT/tests/fixtures/sarif/loop.c {\"startLine\":21}"
expect_eq "stripped and -g: the file and operand of each" \
	"$(jq_of '[.runs[0].results[].properties | "\(.file) \(.input)"] | join(" | ")')" \
	"$TMP/gcc_loop.stripped 0 | $SF/gcc_loop 1"
expect_eq "the region's 21 bytes are the loop's instructions as objdump reads them" \
	"$(od -An -tx1 -j4108 -N21 "$TMP/gcc_loop.stripped" | tr -d ' \n')" \
	"$(objdump -d --start-address=0x40100c --stop-address=0x401021 "$SF/gcc_loop" | awk -F'\t' '/^ *4010[0-9a-f]+:/ { gsub(/ /, "", $2); printf "%s", $2 }')"
run $V "$TMP/regions.sarif"
expect_eq "stripped and -g: valid SARIF 2.1.0" "$OUT" "1 valid"
# a region the schema refuses is refused: the check can fail
jq '.runs[0].results[0].locations[0].physicalLocation.region.byteLength = -1' "$TMP/regions.sarif" >"$TMP/bad_region.sarif"
run $V "$TMP/bad_region.sarif"
expect_eq "a negative byteLength is invalid" "$RC $(printf '%s\n' "$OUT" | head -1 | cut -d: -f2)" \
	"1  /runs/0/results/0/locations/0/physicalLocation/region/byteLength"
