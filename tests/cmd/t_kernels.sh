# straddle kernels: the list (seeds 000, 001, 002 and libc's references),
# and --check, the byte-exact fault contract, in the sanitized straddle, in
# kcheck built natively without sanitizers, and in kcheck cross-built for
# AArch64 under qemu-aarch64 (tests/kernels.mk). Exact counts: per offset a
# clear kernel makes 301 calls without a fault (lengths 0..300) and 44204
# with one (starts 0..256 before the page, each length reaching it), a copy
# those 44204 on each side; six offsets; one more call per side for seed
# 001's case. Clear: 6 * 44505 + 1 = 267031; copy: 6 * 88709 + 2 = 532256.

k_arch=$(uname -m)

run "$STRADDLE" kernels --json
expect_eq "kernels --json: exit 0" "$RC" 0
if [ "$k_arch" = x86_64 ]; then
	expect_eq "kernels: names" "$(jq_of '[.kernels[].name] | join(",")')" \
		clear_movq_reg,clear_movq_imm,clear_rep_stosq,clear_rep_stosb,copy_unrolled,copy_rep_movsq,copy_rep_movsb,memset,memcpy
	expect_eq "kernels: seeds" "$(jq_of '[.kernels[].seed] | join(",")')" \
		000,000,000,000,001,001,001,-,-
	expect_eq "kernels: kinds" "$(jq_of '[.kernels[].kind] | join(",")')" \
		clear,clear,clear,clear,copy,copy,copy,clear,copy
	# Seed 000: the loop was 10 bytes with register operands, 15 with immediates.
	expect_eq "kernels: 000 loop bytes" \
		"$(jq_of '[.kernels[0,1] | .loop_end - .loop_start] | join(",")')" 10,15
	expect_eq "kernels: rep loops are the one instruction" \
		"$(jq_of '[.kernels[2,3,5,6] | .loop_end - .loop_start] | join(",")')" 3,2,3,2
	expect_eq "kernels: 001 unrolled loop" \
		"$(jq_of '.kernels[4] | .loop_end - .loop_start')" 80
	expect_eq "kernels: code bytes" "$(jq_of '[.kernels[0:7][].bytes] | join(",")')" \
		72,70,46,26,176,100,28
	# copy_unrolled: 16 loads/stores of the 64 B loop, 2 of the word loop, 2 of the tail.
	expect_eq "kernels: exception-table entries" \
		"$(jq_of '[.kernels[0:7][].fixups] | join(",")')" 3,3,2,2,20,5,3
	expect_eq "kernels: wanted features" \
		"$(jq_of '[.kernels[] | .features | join("+")] | join(",")')" \
		",,,ERMS+FSRS,,,ERMS+FSRM+FZRM,,"
fi
expect_eq "kernels: references run in place" \
	"$(jq_of '[.kernels[] | select(.placeable | not) | .name] | join(",")')" memset,memcpy
expect_eq "kernels: missing = wanted - this CPU's" \
	"$(jq_of '[.host_features as $h | .kernels[] | (.missing == [.features[] | select(. as $f | $h | index($f) | not)])] | all')" true

run "$STRADDLE" kernels
expect_eq "kernels: exit 0" "$RC" 0
k_have=$(printf '%s\n' "$OUT" | sed -n 's/^this CPU: //p')
if [ "$k_arch" = x86_64 ]; then
	k_row=$(printf '%s\n' "$OUT" | grep '^copy_rep_movsb ')
	for k_f in ERMS FSRM FZRM; do
		case " $k_have " in
		*" $k_f "*) k_want="$k_f" ;;
		*) k_want="$k_f (missing)" ;;
		esac
		case "$k_row" in
		*"$k_want"*) ok "kernels: copy_rep_movsb shows '$k_want'" ;;
		*) fail "kernels: copy_rep_movsb row lacks '$k_want': $k_row" ;;
		esac
	done
fi

run "$STRADDLE" kernels --bogus
expect_eq "kernels --bogus: exit 2" "$RC" 2
expect_eq "kernels --bogus: message" "$ERR" \
	"straddle: kernels: unknown option '--bogus' (see 'straddle kernels --help')"
run "$STRADDLE" kernels clear_movq_imm
expect_eq "kernels ARG: exit 2" "$RC" 2
run "$STRADDLE" kernels --help
expect_eq "kernels --help: exit 0" "$RC" 0

# k_check_x86 DESCRIPTION: the output of a check on x86-64, line by line.
k_check_x86() {
	for k_k in clear_movq_reg clear_movq_imm clear_rep_stosq clear_rep_stosb; do
		expect_eq "$1: $k_k" "$(printf '%s\n' "$OUT" | grep "^$k_k ")" \
			"$(printf '%-16s offsets 0,1,7,13,33,63: 267031 passed, 0 failed' $k_k)"
		expect_eq "$1: seed 001 $k_k" "$(printf '%s\n' "$OUT" | grep -c \
			"^seed 001: $k_k, 130 bytes, destination 66 before an unmapped page: 66 cleared, 64 returned: ok$")" 1
	done
	for k_k in copy_unrolled copy_rep_movsq copy_rep_movsb; do
		expect_eq "$1: $k_k" "$(printf '%s\n' "$OUT" | grep "^$k_k ")" \
			"$(printf '%-16s offsets 0,1,7,13,33,63: 532256 passed, 0 failed' $k_k)"
		for k_s in destination source; do
			expect_eq "$1: seed 001 $k_k $k_s" "$(printf '%s\n' "$OUT" | grep -c \
				"^seed 001: $k_k, 130 bytes, $k_s 66 before an unmapped page: 66 copied, 64 returned: ok$")" 1
		done
	done
	expect_eq "$1: no failure lines" "$(printf '%s\n' "$OUT" | grep -c '^FAIL')" 0
	expect_eq "$1: last line" "$(printf '%s\n' "$OUT" | tail -n 1)" "2664892 passed, 0 failed"
}

if [ "$k_arch" = x86_64 ]; then
	run "$STRADDLE" kernels --check
	expect_eq "kernels --check: exit 0" "$RC" 0
	k_check_x86 "kernels --check"

	run "$TOOLS/kcheck-native"
	expect_eq "kcheck native: exit 0" "$RC" 0
	k_check_x86 "kcheck native"

	if ! command -v qemu-aarch64 >/dev/null; then
		fail "kcheck aarch64: qemu-aarch64 missing (scripts/deps.sh installs qemu-user)"
	else
		run qemu-aarch64 "$TOOLS/kcheck-aarch64"
		expect_eq "kcheck aarch64: exit 0" "$RC" 0
		for k_k in clear_str_xzr clear_stp; do
			expect_eq "kcheck aarch64: $k_k" "$(printf '%s\n' "$OUT" | grep "^$k_k ")" \
				"$(printf '%-16s offsets 0,4,12,28,36,60: 267031 passed, 0 failed' $k_k)"
		done
		expect_eq "kcheck aarch64: copy_ldp_stp" "$(printf '%s\n' "$OUT" | grep "^copy_ldp_stp ")" \
			"$(printf '%-16s offsets 0,4,12,28,36,60: 532256 passed, 0 failed' copy_ldp_stp)"
		expect_eq "kcheck aarch64: seed 001 lines" "$(printf '%s\n' "$OUT" | grep '^seed 001' | grep -c ': 66 [a-z]*, 64 returned: ok$')" 4
		expect_eq "kcheck aarch64: last line" "$(printf '%s\n' "$OUT" | tail -n 1)" \
			"1066318 passed, 0 failed"
	fi
fi

# A fault the kernels' tables do not cover stays a crash: in plain C code,
# and in placed code at an instruction the table does not list. Natively
# the process dies of SIGSEGV (128 + 11); under the sanitizers ASan, whose
# handler ours hands the fault back to, reports it and exits 1.
for k_m in plain unlisted; do
	run sh -c "ulimit -c 0; exec \"$TOOLS/kcheck-native\" --crash $k_m"
	expect_eq "crash $k_m: native: SIGSEGV" "$RC" 139
	run sh -c "ulimit -c 0; exec \"$TOOLS/kcheck_main\" --crash $k_m"
	expect_eq "crash $k_m: sanitized: exit 1" "$RC" 1
	expect_eq "crash $k_m: sanitized: ASan's report" \
		"$(printf '%s\n' "$ERR" | grep -c 'ERROR: AddressSanitizer: SEGV')" 1
	if [ "$k_arch" = x86_64 ] && command -v qemu-aarch64 >/dev/null; then
		run sh -c "ulimit -c 0; exec qemu-aarch64 \"$TOOLS/kcheck-aarch64\" --crash $k_m"
		expect_eq "crash $k_m: aarch64: SIGSEGV" "$RC" 139
	fi
done
