# straddle place --file vdso: a function of straddle's own vDSO moved (a
# copy near the vDSO, its entry a jump written through /proc/self/mem) and
# bench's gettime run against each placement. No timing is asserted: the
# rows, the placements, and clock_gettime intact at each.

if [ "$(uname -m)" != x86_64 ] || ! grep -q '\[vdso\]' /proc/self/maps; then
	ok "vdso place: an x86-64 vDSO only"
	return 0 2>/dev/null || exit 0
fi

run "$STRADDLE" place --file vdso --runs 2 --time 0.02 --offsets 0,32
expect_eq "place --file vdso: exit 0" "$RC" 0
case "$(printf '%s\n' "$OUT" | sed -n 1p)" in
"[vdso] __vdso_clock_gettime: "*" bytes at +0x"*", its entry at "*" of a line; moved by a jump at its entry written through /proc/self/mem")
	ok "place --file vdso: the head" ;;
*) fail "place --file vdso: the head: $(printf '%s\n' "$OUT" | sed -n 1p)" ;;
esac
expect_eq "place --file vdso: the arms" "$(printf '%s\n' "$OUT" | tail -n +3 | awk '{print $1}' | tr '\n' ' ')" \
	"unmoved control 0 32 "
expect_eq "place --file vdso: the offsets asked" \
	"$(printf '%s\n' "$OUT" | tail -n 2 | awk '{print $2}' | tr '\n' ' ')" "0 32 "
expect_eq "place --file vdso: clock_gettime right at every arm" \
	"$(printf '%s\n' "$OUT" | tail -n +3 | awk '{print $NF}' | sort -u)" "intact"

vp_err() { # DESCRIPTION WANT ARGS...
	vp_d=$1 vp_w=$2
	shift 2
	run "$STRADDLE" "$@"
	expect_eq "$vp_d: exit 2, the line" "$RC|$ERR|$OUT" "2|$vp_w|"
}
vp_err "no such vDSO function" "straddle: place: [vdso]: no function named nonesuch (a glob matching one)" \
	place --file vdso --func nonesuch
vp_err "a command besides" \
	"straddle: place: --file vdso moves a function of straddle's own vDSO and runs bench's gettime: no command, no other --file" \
	place --file vdso -- true
vp_err "an offset past a line" \
	"straddle: --offsets: '70' is not a list of N or A..B[:STEP] within 0..63" \
	place --file vdso --offsets 70
