# Calls that never return inside a loop body (tests/fixtures/*/noreturn.S):
# die has no ret and ends calling a function glibc declares noreturn
# (____longjmp_chk, __longjmp), so `call die` / `bl die` ends its block and
# the path after it, which jumps back to the call, is no cycle. Were it to
# fall through, each fixture would show an irreducible cycle entered at the
# call and at the path after it.

nr_check() {	# ARCH LOOP
	run "$STRADDLE" scan --json --all --no-source "$FIXTURES/$1/noreturn"
	expect_eq "noreturn $1: exit 0" "$RC" 0
	expect_eq "noreturn $1: loops" \
		"$(jq_of '[.files[0].functions[] | select(.name == "f") | .loops[]
			| "\(.start)-\(.end)/\(.bytes)/\(.instructions)/\(.irreducible)"] | join(" ")')" "$2"
	expect_eq "noreturn $1: no irreducible cycle" \
		"$(jq_of '[.files[0].functions[].irreducible[]] | length')" 0
}

nr_check x86 "0x401006-0x401012/12/5/false"
nr_check arm64 "0x400008-0x40001c/20/5/false"
