#!/bin/sh
# copyfn.sh FUNC FILE.s > copy.s: FUNC's code and its jump tables, as gcc
# wrote them, renamed (FUNC_copy; the labels it defines get a cp_ prefix)
# into a section .copy of their own: the tables after the code
# (.subsection 1), int3 padding as in straddle's arena. Labels it only
# uses (strings, other functions) keep their names: the copy refers to the
# originals.
awk -v f="$1" '
FNR == 1 { pass++ }
$0 ~ "^"f":" { on = 1 }
on && $0 ~ "^\t\\.size\t"f"," { on = 0; next }
pass == 1 { if (on && match($0, /^\.L[A-Za-z0-9_]+:/)) own[substr($0, 1, RLENGTH - 1)] = 1; next }
!on { next }
/^\t\.cfi_/ || /^\t\.align/ { next }
$0 ~ "^"f":" { print "\t.section .copy,\"ax\",@progbits"; print "\t.subsection 0"; print f"_copy:"; next }
/^\t\.section\t\.rodata/ { print "\t.section .copy,\"ax\",@progbits"; print "\t.subsection 1"; print "\t.balign 8, 0xcc"; next }
/^\t\.text/ { print "\t.section .copy,\"ax\",@progbits"; print "\t.subsection 0"; next }
{
	line = $0; out = ""
	while (match(line, /\.L[A-Za-z0-9_]+/)) {
		lab = substr(line, RSTART, RLENGTH)
		out = out substr(line, 1, RSTART - 1) (lab in own ? ".Lcp_" substr(lab, 3) : lab)
		line = substr(line, RSTART + RLENGTH)
	}
	line = out line
	# a call of its own entry is the copy (so is f.localalias, as -fPIC names it)
	gsub("\t"f"(\\.localalias)?$", "\t"f"_copy", line)
	print line
}' "$2" "$2"
