# The scan command line: help, usage errors (exit 2, one line on stderr),
# the --fail-on gate, --func, -j, the vDSO and --dump-vdso.

cli_lines() { printf '%s' "$ERR" | grep -c ''; }

run "$STRADDLE" scan --help
expect_eq "scan --help: exit 0" "$RC" 0
expect_eq "scan --help: usage on stdout" "$(printf '%s\n' "$OUT" | head -n 1)" "usage: straddle scan [OPTIONS] [FILE|DIR|PKG.deb|PKG.deb:/PATH|vdso...]"
expect_eq "scan --help: stderr empty" "$ERR" ""
run "$STRADDLE" --help
expect_eq "straddle --help: exit 0" "$RC" 0

# cli_usage NAME ARGS...: a usage error: exit 2, one line "straddle: ...".
cli_usage() {
	name=$1
	shift
	run "$STRADDLE" "$@"
	expect_eq "$name: exit 2" "$RC" 2
	expect_eq "$name: one line on stderr" "$(cli_lines)" 1
	case "$ERR" in
	"straddle: "*) ok "$name: says who" ;;
	*) fail "$name: says who: got '$(printf '%s\n' "$ERR" | head -n 1)'" ;;
	esac
	expect_eq "$name: nothing on stdout" "$OUT" ""
}
G000="$FIXTURES/x86/seed000_after"
cli_usage "unknown option" scan --bogus "$G000"
cli_usage "unknown --uarch" scan --uarch pentium4 "$G000"
cli_usage "unknown --uarch in a list" scan --uarch zen1,nosuch "$G000"
cli_usage "-j 0" scan -j 0 "$G000"
cli_usage "-j abc" scan -j abc "$G000"
cli_usage "--jobs -1" scan --jobs -1 "$G000"
cli_usage "unknown --fail-on" scan --fail-on loop-straddles "$G000"
cli_usage "--uarch without value" scan "$G000" --uarch
cli_usage "unknown command" frobnicate

# --fail-on: seed 000 after has loop-straddles-window hazards on
# generic-x86, the fixed one none, the before one none.
run "$STRADDLE" scan --uarch generic-x86 --fail-on loop-straddles-window "$G000"
expect_eq "--fail-on: after fails the gate" "$RC" 1
expect_eq "--fail-on: no error line" "$ERR" ""
run "$STRADDLE" scan --uarch generic-x86 --fail-on loop-straddles-window "$FIXTURES/x86/seed000_fixed"
expect_eq "--fail-on: fixed passes" "$RC" 0
run "$STRADDLE" scan --uarch generic-x86 --fail-on loop-straddles-window "$FIXTURES/x86/seed000_before"
expect_eq "--fail-on: before passes" "$RC" 0
run "$STRADDLE" scan --json --uarch generic-x86 --fail-on any "$G000"
expect_eq "--fail-on any: after" "$RC" 1
# generic-x86 has no branch rule: a branch gate does not fire on it...
run "$STRADDLE" scan --uarch generic-x86 --fail-on branch-crosses-window "$G000"
expect_eq "--fail-on branch-crosses-window, generic-x86" "$RC" 0
# ...but skylake's JCC erratum does (the decl/jnz pair spans 0x401040).
run "$STRADDLE" scan --uarch skylake --fail-on branch-crosses-window,entry-misaligned "$G000"
expect_eq "--fail-on branch-crosses-window, skylake" "$RC" 1
# Without --fail-on, hazards never fail the run.
run "$STRADDLE" scan --uarch all "$G000"
expect_eq "no --fail-on: exit 0" "$RC" 0

# --func GLOB (jcc.S has jcc_cross, jcc_ends, jcc_fused_split,
# js_unfused_split, gc_dec_split, gc_split_at_line).
JF="$FIXTURES/x86/jcc"
run "$STRADDLE" scan --json --all --uarch skylake --func 'jcc_*' "$JF"
expect_eq "--func jcc_*: scanned" "$(jq_of '.files[0].functions_scanned')" 3
expect_eq "--func jcc_*: names" "$(jq_of '[.files[0].functions[].name] | join(",")')" "jcc_cross,jcc_ends,jcc_fused_split"
expect_eq "--func jcc_*: total unchanged" "$(jq_of '.files[0].functions_total')" 6
run "$STRADDLE" scan --json --all --uarch skylake --func '*_split*' "$JF"
expect_eq "--func *_split*" "$(jq_of '[.files[0].functions[].name] | join(",")')" \
	"jcc_fused_split,js_unfused_split,gc_dec_split,gc_split_at_line"
run "$STRADDLE" scan --json --all --uarch skylake --func 'jcc_ends' "$JF"
expect_eq "--func exact name" "$(jq_of '[.files[0].functions[].name] | join(",")')" jcc_ends
run "$STRADDLE" scan --json --all --uarch skylake --func 'nothing*' "$JF"
# A misspelt gate must not pass: one line naming the option and pattern, exit 2.
expect_eq "--func matching nothing: exit 2" "$RC" 2
expect_eq "--func matching nothing: says so" "$ERR" "straddle: --func: 'nothing*' matches no function"
expect_eq "--func matching nothing: none scanned" "$(jq_of '.files[0].functions_scanned')" 0

# -j: the result does not depend on the number of threads.
run "$STRADDLE" scan --json --all --uarch all -j 1 "$JF" "$FIXTURES/x86/loops" "$FIXTURES/x86/seed003"
J1=$(jq_of '.files')
run "$STRADDLE" scan --json --all --uarch all -j 8 "$JF" "$FIXTURES/x86/loops" "$FIXTURES/x86/seed003"
expect_eq "-j 1 and -j 8 agree" "$(jq_of '.files')" "$J1"

# The vDSO: read from memory, addresses as the ELF's own.
run "$STRADDLE" scan --json --all --uarch generic-x86 vdso
expect_eq "scan vdso: exit 0" "$RC" 0
expect_eq "scan vdso: path, type" "$(jq_of '.files[0] | "\(.path) \(.elf_type)"')" "[vdso] dyn"
VDSO_N=$(jq_of '.files[0].functions_total')
VDSO_F=$(jq_of '[.files[0].functions[] | "\(.name)@\(.addr)+\(.size)"] | join(" ")')
if [ "${VDSO_N:-0}" -gt 0 ] 2>/dev/null; then ok "scan vdso: has functions ($VDSO_N)"
else fail "scan vdso: has functions: got '$VDSO_N'"; fi
# --dump-vdso alone writes the image and scans nothing.
run "$STRADDLE" scan --dump-vdso "$TMP/vdso.so"
expect_eq "--dump-vdso: exit 0" "$RC" 0
expect_eq "--dump-vdso: nothing on stdout" "$OUT" ""
if [ -s "$TMP/vdso.so" ]; then ok "--dump-vdso: file written"; else fail "--dump-vdso: file written"; fi
run "$STRADDLE" scan --json --all --uarch generic-x86 "$TMP/vdso.so"
expect_eq "dumped vDSO: exit 0" "$RC" 0
expect_eq "dumped vDSO: same function count" "$(jq_of '.files[0].functions_total')" "$VDSO_N"
expect_eq "dumped vDSO: same functions" \
	"$(jq_of '[.files[0].functions[] | "\(.name)@\(.addr)+\(.size)"] | join(" ")')" "$VDSO_F"
# Independently of straddle: the dump's .dynsym functions as readelf shows
# them (value and size; aliases share both) are the named functions found.
expect_eq "dumped vDSO: the functions readelf lists" \
	"$(jq_of '[.files[0].functions[] | select(.from != "eh_frame") | "\(.addr)+\(.size)"] | sort | unique | join(" ")')" \
	"$(readelf --dyn-syms -W "$TMP/vdso.so" | awk '$4 == "FUNC" && $3 != 0 { print $2, $3 }' |
		while read -r v s; do printf '0x%x+%d\n' "0x$v" "$s"; done | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//')"
cli_usage "--dump-vdso into a missing directory" scan --dump-vdso "$TMP/no/such/dir/vdso.so"

# Compressed DWARF sections are decompressed by libelf in the image's
# memory: the map must be private and writable (a SIGSEGV once).
GZ="$FIXTURES/so/gzdebug.so"
expect_eq "gzdebug.so: its .debug_line is compressed" \
	"$(readelf -SW "$GZ" | awk '$2 == ".debug_line" { print ($NF ~ /C/ || $(NF-3) ~ /C/) ? "C" : "-" }')" C
run "$STRADDLE" scan --uarch zen1 --all "$GZ"
expect_eq "gzdebug.so: exit 0" "$RC" 0
expect_eq "gzdebug.so: sum3's source line from compressed DWARF" \
	"$(printf '%s\n' "$OUT" | awk '$2 == "sum3" { for (i = 3; i <= NF; i++) if ($i ~ /^gzdebug/) { print $i; exit } }')" "gzdebug.c:9"
