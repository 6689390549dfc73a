# Loop-buffer capacity boundaries (tests/fixtures/x86/lsd.S): a loop of at
# most 28 instructions runs from haswell's loop buffer, at most 35 from
# icelake's, and its window straddles are then no hazard there.

lsd_row() {
	jq_of "[.files[0].functions[] | .name as \$n | .loops[]
		| \"\(\$n):\(.instructions):\(.in_loop_buffer):\([.hazards[] | \"\(.rule | sub(\"loop-straddles-window\"; \"LSW\"))/\(.window)/\(.fix.align)+\(.fix.pad)\(if .fix.here_align then \"~\(.fix.here_align)+\(.fix.here_pad)\" else \"\" end)\"] | sort | join(\"+\"))\"]
		| join(\" \")"
}

LSD="$FIXTURES/x86/lsd"
# haswell (fetch 16, uop 32, line 64):
#  lsd28 [0x40100e, 0x40102c): 16: 0x401000/10/20 = 3 > ceil(30/16) = 2;
#        32: 2 > 1: but 28 <= 28: in the loop buffer, no hazard.
#  lsd29 [0x40110e, 0x40112d), 29 > 28: 16: 3 > 2. Fix: 0x40110e is even;
#        .p2align 4 -> 0x401110 (+2): 0x401110/20 = 2. 32: 2 > 1. Fix: 4, 8
#        and 16 all give 0x401110, [0x10, 0x2f) spans 0x401120; .p2align 32
#        -> 0x401120 (+18).
#  lsd35 [0x40120e, 0x401233): 16: 4 > ceil(37/16) = 3, fix 4 (+2) ->
#        0x401210/20/30 = 3; 32: 0x401200/20 = 2 = ceil(37/32).
#  lsd36 [0x40130e, 0x401334): the same: 16 only, 4 (+2).
#  Those .p2align 2 fixes hold only here (the next multiple of 4 happens to
#  be one of 16). Anywhere: lsd29's 31 B from 8 mod 16 touch 3 windows of
#  16 (best 2), so .p2align 4 (+2); lsd35/36's 37 and 38 B from 8 mod 16
#  touch 3 (best 3), so .p2align 3 (+2). The 32 B fix, .p2align 5, holds
#  anywhere already.
run "$STRADDLE" scan --json --all --uarch haswell "$LSD"
expect_eq "lsd haswell" "$(lsd_row)" \
	"lsd28:28:true: lsd29:29:false:LSW/16/16+2~4+2+LSW/32/32+18 lsd35:35:false:LSW/16/8+2~4+2 lsd36:36:false:LSW/16/8+2~4+2"
# icelake (fetch 16, uop 64, line 64; 35): only lsd36 is outside the buffer.
run "$STRADDLE" scan --json --all --uarch icelake "$LSD"
expect_eq "lsd icelake" "$(lsd_row)" \
	"lsd28:28:true: lsd29:29:true: lsd35:35:true: lsd36:36:false:LSW/16/8+2~4+2"
# skylake has no loop buffer (disabled by microcode): lsd28 is hazardous.
run "$STRADDLE" scan --json --all --uarch skylake --func lsd28 "$LSD"
expect_eq "lsd skylake" "$(lsd_row)" "lsd28:28:false:LSW/16/16+2~4+2+LSW/32/32+18"
