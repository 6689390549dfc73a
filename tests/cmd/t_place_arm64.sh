# straddle place on AArch64, under qemu-user: the plan of each
# arm written by place_plan (place runs only the host's code), applied by
# the AArch64 preload library. The fixture's `work` (a loop, a call out, an
# adrp+ldr of a global, an adr of its own code, a recursive call, a tail
# call, cbz/b.cond out) at every offset 0..60 of a line, in a PIE and in a
# shared object: the output is the unmoved program's, the copy ran (the
# fixture logs it), and the loop starts at the asked offset (the copy's
# address from /tmp/perf-PID.map). Then the cross libc, every function it
# accepts moved at once to random offsets, under a program using it.
P=$FIXTURES/place/arm64
LIB=$(dirname "$FIXTURES")/arm64/libstraddle-place.so
SYSROOT=/usr/aarch64-linux-gnu

# qemu_run PLAN CMD...: runs CMD under qemu with the plan applied (none
# for ""); stdout in $TMP/qout, its pid in $QPID, the preload library's
# report ("applied INDEX COPIES ARENA NS") in $TMP/report.
qemu_run() {
	plan=$1
	shift
	set -- -L "$SYSROOT" ${plan:+-E LD_PRELOAD=$LIB -E STRADDLE_PLAN=$plan -E STRADDLE_PLACE_FD=3} "$@"
	sh -c 'echo $$ >"$0/qpid"; exec qemu-aarch64 "$@"' "$TMP" "$@" >"$TMP/qout" 2>"$TMP/qerr" \
		3>"$TMP/report"
	QRC=$?
	QPID=$(cat "$TMP/qpid")
}

place_every_offset() {
	name=$1 file=$2
	shift 2
	rm -f "$TMP/log"
	FIXTURE_LOG=$TMP/log qemu_run "" "$@"
	expect_eq "arm64 place $name: unmoved exit 0" "$QRC" 0
	cp "$TMP/qout" "$TMP/want"
	same=0 ran=0 placed=0 n=0
	for off in $(seq 0 4 60); do
		"$TOOLS/place_plan" "$file" work "$off" "$TMP/plan" >"$TMP/pp" 2>&1 || break
		addr=$(awk '$1 == "moved" && $2 == "work" {print $3}' "$TMP/pp")
		anchor=$(awk '$1 == "moved" && $2 == "work" {print $4}' "$TMP/pp")
		FIXTURE_LOG=$TMP/log qemu_run "$TMP/plan" "$@"
		n=$((n + 1))
		[ "$QRC" = 0 ] && cmp -s "$TMP/qout" "$TMP/want" && same=$((same + 1))
		# (a map of an earlier process of the same pid may be there too)
		start=$(grep -F "work [straddle copy of $file+0x$addr " "/tmp/perf-$QPID.map" 2>/dev/null |
			tail -1 | cut -d' ' -f1)
		[ -n "$start" ] && [ $(( (0x$start + 0x$anchor - 0x$addr) % 64 )) = "$off" ] &&
			placed=$((placed + 1))
		rm -f "/tmp/perf-$QPID.map"
	done
	expect_eq "arm64 place $name: the plan" "$(tail -n +2 "$TMP/pp")" "moved 1 refused 0 stubs 0"
	expect_eq "arm64 place $name: runs, identical output" "$n $same" "16 16"
	expect_eq "arm64 place $name: loop at the asked offset" "$placed" 16
	expect_eq "arm64 place $name: ran the original" "$(grep -c '^in place$' "$TMP/log")" 1
	expect_eq "arm64 place $name: ran the copy" "$(grep -c '^moved$' "$TMP/log")" 16
}

if ! command -v qemu-aarch64 >/dev/null; then
	fail "arm64 place: qemu-aarch64 missing (scripts/deps.sh installs qemu-user)"
else
	place_every_offset pie "$P/moved-pie" "$P/moved-pie" 1000
	place_every_offset lib "$P/libmoved.so" "$P/moved-lib" 1000
	# fall_in runs off its end into fall_on, and its b.gt leaves it: the
	# copy ends with `b fall_on` and has a stub for the b.gt
	qemu_run "" "$P/moved-pie" 1000
	cp "$TMP/qout" "$TMP/want"
	same=0
	for off in $(seq 0 4 60); do
		"$TOOLS/place_plan" "$P/moved-pie" fall_in "$off" "$TMP/plan" >"$TMP/pp" &&
			qemu_run "$TMP/plan" "$P/moved-pie" 1000 && cmp -s "$TMP/qout" "$TMP/want" &&
			grep -q "^applied 0 1 " "$TMP/report" && same=$((same + 1))
		rm -f "/tmp/perf-$QPID.map"     # the run's map: tests leave nothing in /tmp
	done
	expect_eq "arm64 place fall_in: the plan" "$(sed -n 2p "$TMP/pp")" "moved 1 refused 0 stubs 1"
	expect_eq "arm64 place fall_in: applied, identical output at every offset" "$same" 16
fi

# Conditional branches out (cbz, tbnz, b.gt to helper), each through a `b`
# stub after the copy: at every offset the copy's bytes are the assembler's
# build of the same code at that address (object at BIAS, arena at ARENA),
# and under qemu the output is the unmoved program's, the copy ran, and
# back_in's `b` into shapes' loop goes to the copy's loop (qemu's block
# log shows the word as patched).
# Then each kind of function the relocator refuses, with its reason.
cat >"$TMP/expect.S" <<'EOF'
	cbz	x0, s1
	tbnz	x0, #0, s2
	cmp	x0, #10
	b.gt	s3
1:	add	x0, x0, #1
	subs	x1, x1, #1
	b.pl	1b
	ret
s1:	b	helper
s2:	b	helper
s3:	b	helper
EOF
BIAS=5500000000 ARENA=5500100000
SH=$P/shapes
HELPER=$(nm "$SH" | awk '$3 == "helper" {print $1}')
SHAPES=$(nm "$SH" | awk '$3 == "shapes" {print $1}')
BACK_IN=$(nm "$SH" | awk '$3 == "back_in" {print $1}')
aarch64-linux-gnu-as -o "$TMP/expect.o" "$TMP/expect.S"
qemu_run "" "$SH"
cp "$TMP/qout" "$TMP/want"
bytes=0 same=0 ran=0 n=0 redirected=0
for off in $(seq 0 4 60); do
	"$TOOLS/place_plan" "$SH" shapes "$off" "$TMP/plan" "$TMP/image" $BIAS $ARENA >"$TMP/pp" || break
	img=$(awk '$1 == "image" {print $2}' "$TMP/pp")
	aarch64-linux-gnu-ld -o "$TMP/expect" -Ttext="0x$img" --defsym helper=$((0x$BIAS + 0x$HELPER)) \
		"$TMP/expect.o" 2>/dev/null &&
		aarch64-linux-gnu-objcopy -O binary -j .text "$TMP/expect" "$TMP/expect.bin" &&
		cmp -s "$TMP/expect.bin" "$TMP/image" && bytes=$((bytes + 1))
	qemu_run "$TMP/plan" -d in_asm -D "$TMP/blocks" "$SH"
	n=$((n + 1))
	[ "$QRC" = 0 ] && cmp -s "$TMP/qout" "$TMP/want" && same=$((same + 1))
	map=$(grep -F " shapes [straddle copy of $SH+" "/tmp/perf-$QPID.map" | tail -1)
	start=${map%% *}
	if [ -n "$start" ]; then
		grep -q "^0x0*$start:" "$TMP/blocks" && ran=$((ran + 1))
		orig=${map##* at 0x}
		bias=$((0x${orig%]} - 0x$SHAPES))
		word=$(grep -m1 "^0x0*$(printf %x $((bias + 0x$BACK_IN + 4))):" "$TMP/blocks")
		[ "${word##*#}" = "$(printf '0x%x' $((0x$start + 16)))" ] && redirected=$((redirected + 1))
	fi
	rm -f "/tmp/perf-$QPID.map"
done
expect_eq "arm64 place shapes: the plan" "$(sed -n 2p "$TMP/pp")" "moved 1 refused 0 stubs 3"
expect_eq "arm64 place shapes: the unmoved output" "$(cat "$TMP/want")" \
	"$(printf '100 101 6 103 8 105 10 107 12 109 14 111 112 113 \n42 7 1 2 8 0x14000010')"
expect_eq "arm64 place shapes: copies as assembled, identical output, the copy ran, back_in redirected" \
	"$n $bytes $same $ran $redirected" "16 16 16 16 16"
at() { printf '%x' $((0x$(nm "$SH" | awk -v f="$1" '$3 == f {print $1}') + $2)); }
refused_as() {
	run "$TOOLS/place_plan" "$SH" "$1" 0 "$TMP/plan"
	expect_eq "arm64 place refuses $1" "$RC $(printf '%s\n' "$OUT" | head -1)" \
		"2 refused $1 $(at "$1" 0) at $2"
}
refused_as literal_out "$(at literal_out 0): an adr or literal load of something outside it"
refused_as computed "$(at computed 4): an indirect jump not resolved as a table"
refused_as own_address "$(at own_address 4): an adrp of a page of its own code"
refused_as short_target "$(at short_source 0): a short branch into its middle from outside"
refused_as pool "$(at pool 8): a literal it loads reads as an address field"

# copy_ran LOG ARENA COPY SIZE ORIG: once qemu ran code of the arena at
# ARENA (before, the C library ran as loaded: the preload library itself
# calls malloc), it translated code of the copy at COPY and none of the
# original's body at ORIG, only its first word (the jump to the copy).
# Addresses hex without 0x.
copy_ran() {
	python3 - "$@" <<'EOF'
import re, sys
log, arena, copy, size, orig = sys.argv[1], *(int(a, 16) for a in sys.argv[2:])
seen = [int(m.group(1), 16) for m in map(re.compile(r"0x([0-9a-f]+):").match, open(log)) if m]
first = next((i for i, a in enumerate(seen) if arena <= a < arena + (64 << 20)), len(seen))
seen = seen[first:]
sys.exit(not (any(copy <= a < copy + size for a in seen) and
              not any(orig + 4 <= a < orig + size for a in seen)))
EOF
}

# The cross libc, every function it accepts at its own random offset, all
# at once, under a program working it over a known input: byte-identical
# output with two layouts, and the copies of qsort_r, strtod, malloc,
# sysconf and pathconf (their switches: jump tables read in place) are the
# code that ran, the originals' bodies never (qemu's log of the blocks it
# translated).
LIBC=$SYSROOT/lib/libc.so.6
if command -v qemu-aarch64 >/dev/null; then
	awk 'BEGIN { for (i = 1; i <= 3000; i++) printf "%d abc%d %dx\n", i * 7919 % 10007, i % 13, i * 31 }' \
		>"$TMP/in"
	qemu_run "" "$P/libc_work" <"$TMP/in"
	expect_eq "arm64 place libc: unmoved exit 0" "$QRC" 0
	cp "$TMP/qout" "$TMP/want"
	for seed in 1 2; do
		"$TOOLS/place_plan" "$LIBC" '*' random "$seed" "$TMP/plan" >"$TMP/pp"
		expect_eq "arm64 place libc $seed: thousands moved, some short branches by stubs" \
			"$(awk '$1 == "moved" && $3 == "refused" {print ($2 > 3000) ($6 > 0)}' "$TMP/pp")" 11
		qemu_run "$TMP/plan" -d in_asm -D "$TMP/blocks" "$P/libc_work" <"$TMP/in"
		expect_eq "arm64 place libc $seed: exit 0, identical output, every copy made" \
			"$QRC $(cmp -s "$TMP/qout" "$TMP/want" && echo same) $(cut -d' ' -f1-3 "$TMP/report")" \
			"0 same applied 0 $(awk '$1 == "moved" && $3 == "refused" {print $2}' "$TMP/pp")"
		ran=0
		for fn in qsort_r strtod __libc_malloc __sysconf pathconf; do
			map=$(grep -F " $fn [straddle copy of $LIBC+" "/tmp/perf-$QPID.map" | tail -1)
			orig=${map##* at 0x}
			size=$(awk -v f="$fn" '$1 == "moved" && $2 == f {print $6}' "$TMP/pp")
			[ -n "$map" ] && [ -n "$size" ] &&
				copy_ran "$TMP/blocks" "$(cut -d' ' -f4 "$TMP/report")" "${map%% *}" "$size" \
					"${orig%]}" && ran=$((ran + 1))
		done
		rm -f "/tmp/perf-$QPID.map"
		expect_eq "arm64 place libc $seed: the copies ran, of the originals only the entry jump" \
			"$ran" 5
	done
	# the cross libm likewise, under a sum of its common functions (those
	# checked have one version: exp, pow, expf and logf have a GLIBC_2.17 one too)
	LIBM=$SYSROOT/lib/libm.so.6
	qemu_run "" "$P/libm_work"
	cp "$TMP/qout" "$TMP/want"
	"$TOOLS/place_plan" "$LIBM" '*' random 1 "$TMP/plan" >"$TMP/pp"
	expect_eq "arm64 place libm: hundreds moved" \
		"$(awk '$1 == "moved" && $3 == "refused" {print ($2 > 500)}' "$TMP/pp")" 1
	qemu_run "$TMP/plan" -d in_asm -D "$TMP/blocks" "$P/libm_work"
	expect_eq "arm64 place libm: exit 0, identical output, every copy made" \
		"$QRC $(cmp -s "$TMP/qout" "$TMP/want" && echo same) $(cut -d' ' -f1-3 "$TMP/report")" \
		"0 same applied 0 $(awk '$1 == "moved" && $3 == "refused" {print $2}' "$TMP/pp")"
	ran=0
	for fn in sin cos erf lgamma sinf tanh cbrt; do
		map=$(grep -F " $fn [straddle copy of $LIBM+" "/tmp/perf-$QPID.map" | tail -1)
		orig=${map##* at 0x}
		size=$(awk -v f="$fn" '$1 == "moved" && $2 == f {print $6}' "$TMP/pp")
		[ -n "$map" ] && [ -n "$size" ] &&
			copy_ran "$TMP/blocks" "$(cut -d' ' -f4 "$TMP/report")" "${map%% *}" "$size" \
				"${orig%]}" && ran=$((ran + 1))
	done
	rm -f "/tmp/perf-$QPID.map"
	expect_eq "arm64 place libm: the copies ran, of the originals only the entry jump" "$ran" 7
fi

# place itself runs what it moves: AArch64 code on this host is one line
run "$STRADDLE" place --file "$P/moved-pie" --func work -o "$TMP/bad.json" -- true
expect_eq "arm64 place on an x86-64 host: exit 2, the line, no file" \
	"$RC $ERR $(ls "$TMP/bad.json" 2>/dev/null)" \
	"2 straddle: $P/moved-pie: aarch64 code: place runs only the host's (x86_64) "
