# Inputs as a distribution ships them (src/inputs/): a directory tree and
# a Debian package built here with dpkg-deb scan to exactly what their
# files scanned one by one do; package members, compressed modules, and
# the inputs refused before any output.
X=$FIXTURES/x86
SF=$FIXTURES/sarif
M="--uarch zen1"

# rows: the files of a scan document without the names of where they came
# from (path, input), canonical JSON
rows() { jq -S -c '[.files[] | del(.path, .input)]' "$1"; }

# A tree: five ELF files (an executable, a PIE-less loop, one with DWARF,
# a kernel module and an xz-compressed one), a text file, a 32-bit ELF
# header, a second name of a file through a symbolic link and one through
# a hard link, a link to an ancestor and a dangling one.
T=$TMP/tree
mkdir -p "$T/usr/bin" "$T/usr/lib/mods" "$T/etc"
cp "$X/diff000_after" "$T/usr/bin/clear"
cp "$X/pieces" "$T/usr/lib/pieces"
cp "$SF/gcc_loop" "$T/usr/lib/gcc_loop"
cp "$X/diff000_before.o" "$T/usr/lib/mods/clear.ko"
xz -c "$FIXTURES/rel/lines.o" >"$T/usr/lib/mods/lines.ko.xz"
echo text >"$T/etc/notes"
printf '\177ELF\001\001\001' >"$T/etc/elf32"
head -c 60 /dev/zero >>"$T/etc/elf32"
ln -s ../lib/pieces "$T/usr/bin/pieces-link"
ln "$T/usr/bin/clear" "$T/usr/bin/clear-hard"
ln -s .. "$T/usr/lib/mods/up"
ln -s /nonexistent "$T/usr/dangling"
FILES="usr/bin/clear usr/lib/gcc_loop usr/lib/mods/clear.ko usr/lib/mods/lines.ko.xz usr/lib/pieces"

run $STRADDLE scan $M --json "$T/"
printf '%s\n' "$OUT" >"$TMP/tree.json"
expect_eq "tree: exit 0" "$RC" 0
expect_eq "tree: its ELF files, each once, by path" \
	"$(jq_of '[.files[] | "\(.path) \(.input)"] | join(",")')" \
	"$(for f in $FILES; do printf '%s/%s 0,' "$T" "$f"; done | sed 's/,$//')"
set --
for f in $FILES; do set -- "$@" "$T/$f"; done
run $STRADDLE scan $M --json "$@"
printf '%s\n' "$OUT" >"$TMP/files.json"
expect_eq "files one by one: inputs 0 to 4" "$(jq_of '[.files[].input] | join(",")')" "0,1,2,3,4"
expect_eq "tree: the rows of its files scanned one by one" "$(rows "$TMP/tree.json")" \
	"$(rows "$TMP/files.json")"
run $STRADDLE scan $M "$T"
TREE_TEXT=$OUT
run $STRADDLE scan $M "$@"
expect_eq "tree: the text of its files one by one" "$TREE_TEXT" "$OUT"
# the compressed module's lines come from DWARF relocated in memory
run $STRADDLE scan --json --all "$T/usr/lib/mods/lines.ko.xz"
expect_eq "lines.ko.xz: decompressed, its relocated source lines" \
	"$(jq_of '[.files[0].functions[] | "\(.name):\([.loops[].source] | join(","))"] | join(" ")')" \
	"hot:lines.S:14 cold:lines.S:26"
run $STRADDLE scan $M "$T/etc/elf32"
expect_eq "a 32-bit ELF named: exit 2, says why" "$RC $ERR" \
	"2 straddle: $T/etc/elf32: not a 64-bit ELF file (class 1)"

# The same files in a package (xz-compressed data.tar), with a hard link,
# a symbolic link and a text file in it.
P=$TMP/pkg
mkdir -p "$P/DEBIAN" "$P/usr/share/doc/t"
cp -a "$T/usr/bin" "$T/usr/lib" "$P/usr/"
rm -f "$P/usr/lib/mods/up"
echo copyright >"$P/usr/share/doc/t/copyright"
printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: t\n' \
	>"$P/DEBIAN/control"
DEB=$TMP/t_1_amd64.deb
dpkg-deb --root-owner-group -Zxz -b "$P" "$DEB" >/dev/null
expect_eq "the package holds the hard link as a link" \
	"$(dpkg-deb -c "$DEB" | awk '$1 ~ /^h/ { print $6, $7, $8, $9 }')" \
	"./usr/bin/clear-hard link to ./usr/bin/clear"
run $STRADDLE scan $M --json "$DEB"
printf '%s\n' "$OUT" >"$TMP/deb.json"
expect_eq "deb: exit 0" "$RC" 0
expect_eq "deb: its ELF files named PACKAGE:/path, each once, by path" \
	"$(jq_of '[.files[].path] | join(",")')" \
	"$(for f in $FILES; do printf '%s:/%s,' "$DEB" "$f"; done | sed 's/,$//')"
expect_eq "deb: the rows of its files scanned one by one" "$(rows "$TMP/deb.json")" \
	"$(rows "$TMP/files.json")"
run $STRADDLE scan $M --json "$DEB:usr/lib/gcc_loop"
expect_eq "a member: named as in the package" "$RC $(jq_of '.files[0].path')" "0 $DEB:/usr/lib/gcc_loop"
expect_eq "a member: its rows, its source lines from DWARF in memory" \
	"$(printf '%s\n' "$OUT" | rows /dev/stdin)" \
	"$(jq -S -c '[.files[1] | del(.path, .input)]' "$TMP/files.json")"
expect_eq "a member: loop.c:21" "$(jq_of '.files[0].functions[0].loops[0].source')" "loop.c:21"

# --files-from: operands one a line after the command line's, the same run
run $STRADDLE scan $M --json "$X/pieces" "$DEB" "$T"
printf '%s\n' "$OUT" | jq -S -c '.files' >"$TMP/given.files"
printf '%s\n\n%s\n' "$DEB" "$T" >"$TMP/list"
run $STRADDLE scan $M --json --files-from "$TMP/list" "$X/pieces"
expect_eq "--files-from FILE: the files and inputs of the operands given" \
	"$(printf '%s\n' "$OUT" | jq -S -c '.files')" "$(cat "$TMP/given.files")"
OUT=$(printf '%s\n%s\n' "$DEB" "$T" | $STRADDLE scan $M --json --files-from - "$X/pieces" | jq -S -c '.files')
expect_eq "--files-from -: the same" "$OUT" "$(cat "$TMP/given.files")"
run $STRADDLE scan $M --files-from "$TMP/nonexistent"
expect_eq "--files-from of no file: exit 2, one line" "$RC|$ERR|$OUT" \
	"2|straddle: $TMP/nonexistent: cannot open: No such file or directory|"

# Refused before any output: one line, exit 2, nothing on stdout
refused() {
	expect_eq "$1: exit 2, one line, no output" "$RC|$ERR|$OUT" "2|straddle: $2|"
}
run $STRADDLE scan $M --json "$DEB:/usr/share/doc/t/copyright" "$X/pieces"
refused "a member that is not ELF" \
	"$DEB:/usr/share/doc/t/copyright: not an ELF file straddle reads (ELF64 of x86-64 or AArch64)"
run $STRADDLE scan $M --json "$DEB:/usr/bin/ls" "$X/pieces"
refused "a member not in the package" "$DEB:/usr/bin/ls: no such file in $DEB"
echo "not a package" >"$TMP/text.deb"
run $STRADDLE scan $M --json "$X/pieces" "$TMP/text.deb"
refused "a package that is not an archive" "$TMP/text.deb: not a Debian package: not an ar archive"
(cd "$TMP" && echo x >member && ar rc ar.deb member)
run $STRADDLE scan $M --json "$X/pieces" "$TMP/ar.deb"
refused "an ar archive that is no package" \
	"$TMP/ar.deb: not a Debian package: its first member is not debian-binary"
run $STRADDLE diff $M --json "$TMP/text.deb" "$DEB"
refused "diff: a package that is not an archive" "$TMP/text.deb: not a Debian package: not an ar archive"
for spec in "4/4|K is from 0 to 3" "1/0|N is from 1 to 65536" "1/65537|N is from 1 to 65536" \
	    "x/2|is not K/N (K from 0 to N-1)" "-1/2|is not K/N (K from 0 to N-1)"; do
	run $STRADDLE scan $M --shard "${spec%%|*}" --json "$T"
	case ${spec#*|} in
	is*) why="'${spec%%|*}' ${spec#*|}" ;;
	*) why="'${spec%%|*}': ${spec#*|}" ;;
	esac
	expect_eq "--shard ${spec%%|*}: exit 2, one line, nothing written" "$RC|$ERR|$OUT" \
		"2|straddle: --shard: $why|"
done

# A package cut short: found when its turn comes, an error of its own,
# no file of it; the other operands are scanned
head -c 2000 "$DEB" >"$TMP/cut.deb"
run $STRADDLE scan $M --json "$TMP/cut.deb" "$X/pieces"
expect_eq "a package cut short: exit 2, the other file scanned, none of its" \
	"$RC $(jq_of '[.files[].path] | join(",")') $(jq_of '.errors[0].path') $(jq_of '.errors[0].input')" \
	"2 $X/pieces $TMP/cut.deb 0"
expect_eq "a package cut short: its error is data.tar's" \
	"$(jq_of '.errors[0].error' | cut -d: -f1)" "data.tar"

# --debug-dir: a stripped file's names and lines from DIR/.build-id/
gcc -O2 -g -falign-loops=1 -DPAD=2 -c -o "$TMP/dl.o" tests/fixtures/sarif/loop.c
ld -o "$TMP/dl" -e 0x401000 -Ttext=0x401000 --build-id=sha1 "$TMP/dl.o"
ID=$(readelf -n "$TMP/dl" | awk '/Build ID/ { print $3 }')
mkdir -p "$TMP/dbg/.build-id/$(echo "$ID" | cut -c1-2)"
objcopy --only-keep-debug "$TMP/dl" "$TMP/dbg/.build-id/$(echo "$ID" | cut -c1-2)/$(echo "$ID" | cut -c3-).debug"
strip -o "$TMP/dl.stripped" "$TMP/dl"
run $STRADDLE scan $M --json "$TMP/dl.stripped"
expect_eq "stripped: no name, no line" \
	"$(jq_of '.files[0].functions[0] | "\(.name) \(.loops[0].start) \(.loops[0].source)"')" \
	"fde@0x401000 0x40100c null"
run $STRADDLE scan $M --json --debug-dir "$TMP/dbg" "$TMP/dl.stripped"
expect_eq "stripped --debug-dir: its name and line from the debug file" \
	"$(jq_of '.files[0].functions[0] | "\(.name) \(.loops[0].start) \(.loops[0].source)"')" \
	"count 0x40100c loop.c:21"

# diff of two trees and of two packages: pairs by path inside
for side in old new; do
	mkdir -p "$TMP/$side/DEBIAN" "$TMP/$side/usr/bin"
	cp "$P/DEBIAN/control" "$TMP/$side/DEBIAN/"
done
cp "$X/diff000_before" "$TMP/old/usr/bin/clear"
cp "$X/diff000_after" "$TMP/new/usr/bin/clear"
cp "$X/diff_moved_old" "$TMP/old/usr/bin/moved"
cp "$X/diff_moved_new" "$TMP/new/usr/bin/moved"
cp "$X/pieces" "$TMP/old/usr/bin/gone"
cp "$X/pieces" "$TMP/new/usr/bin/added"
echo text >"$TMP/new/usr/bin/script"
for side in old new; do
	dpkg-deb --root-owner-group -Zgzip -b "$TMP/$side" "$TMP/$side.deb" >/dev/null
	rm -r "$TMP/$side/DEBIAN"
done
for pair in "$TMP/old $TMP/new" "$TMP/old.deb $TMP/new.deb" "$TMP/old.deb $TMP/new"; do
	set -- $pair
	run $STRADDLE diff $M --no-source --json "$1" "$2"
	expect_eq "diff $(basename "$1") $(basename "$2"): exit 1, the pairs, their new hazards" \
		"$RC $(jq_of '[.pairs[] | "\(.member) \(.summary.new_hazards) \([.loops[].cause] | join("+"))"] | join(",")') $(jq_of '.summary.new_hazards')" \
		"1 usr/bin/clear 2 changed,usr/bin/moved 1 moved 3"
	expect_eq "diff $(basename "$1") $(basename "$2"): one side only" \
		"$(jq_of '"\(.only_old | join(",")) \(.only_new | join(",")) \(.gate.fails) \(.gate.exit_status)"')" \
		"usr/bin/gone usr/bin/added true 1"
done
run $STRADDLE diff $M --no-source "$TMP/old" "$TMP/new"
expect_eq "diff trees: the text's last lines" "$(printf '%s\n' "$OUT" | tail -3)" \
	"only in $TMP/new: usr/bin/added
only in $TMP/old: usr/bin/gone
2 files diffed, 2 changed, 2 with new hazards; 1 only in $TMP/old, 1 only in $TMP/new"
# the pairs' files are closed by then: the line names the operands as given
run $STRADDLE diff $M --no-source --func nosuch "$TMP/old" "$TMP/new"
expect_eq "diff trees, --func matching nothing: exit 2, the operands named" "$RC|$ERR" \
	"2|straddle: --func: 'nosuch' matches no function in $TMP/old or $TMP/new"
run $STRADDLE diff $M "$TMP/old" "$X/pieces"
expect_eq "diff a tree and a file: exit 2, one line" "$RC|$ERR|$OUT" \
	"2|straddle: $X/pieces: is one file, but $TMP/old is a directory or package: diff two of those, or two files|"
run $STRADDLE diff $M --shard 0/2 "$X/diff000_before" "$X/diff000_after"
expect_eq "diff --shard of two files: exit 2" "$RC|$OUT" "2|"
