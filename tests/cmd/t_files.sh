# Files that are not what they seem: an input truncated while it
# is read, inputs that are FIFOs, sockets or devices, outputs that are not
# regular files, signals in the middle of a write, the modes of results.
# Each case: exit status, the exact line, that the other files were still
# scanned, and that no file or temporary name is left behind.

F="$TMP/files"
rm -rf "$F"
mkdir -p "$F"
G000="$FIXTURES/x86/seed000_after"
G000_HEAD="$G000: x86_64 exec, 1 functions, 49 instructions, 1 loops; profile generic-x86"
scanned_g000() { printf '%s\n' "$OUT" | grep -cxF "$G000_HEAD"; }

# ---- inputs that change under us ----
# The hook truncates the file it names to 4096 bytes after its headers
# were read, before its functions are: its .symtab and .text pages are gone.
cp "$G000" "$F/trunc"
STRADDLE_TEST_TRUNCATE_AFTER_OPEN=4096:$F/trunc run "$STRADDLE" scan --uarch generic-x86 "$F/trunc" "$G000"
expect_eq "truncated: exit 2" "$RC" 2
expect_eq "truncated: the line" "$ERR" "straddle: $F/trunc: changed while reading"
expect_eq "truncated: the next file scanned" "$(scanned_g000)" 1
expect_eq "truncated: no row of it" "$(printf '%s\n' "$OUT" | grep -c "$F/trunc")" 0
expect_eq "truncated: it was truncated" "$(wc -c <"$F/trunc" | tr -d ' ')" 4096
for j in 1 2; do
	cp "$G000" "$F/trunc"
	STRADDLE_TEST_TRUNCATE_AFTER_OPEN=4096:$F/trunc run "$STRADDLE" scan -j $j --json --uarch generic-x86 "$F/trunc" "$G000"
	expect_eq "truncated -j$j json: exit 2" "$RC" 2
	expect_eq "truncated -j$j json: files, errors" \
		"$(jq_of '[(.files[]|.path), (.errors[]|"\(.path): \(.error)")]|join(",")')" \
		"$G000,$F/trunc: changed while reading"
done
cp "$G000" "$F/trunc"
STRADDLE_TEST_TRUNCATE_AFTER_OPEN=4096:$F/trunc run "$STRADDLE" diff "$G000" "$F/trunc"
expect_eq "diff, NEW truncated: exit 2" "$RC" 2
expect_eq "diff, NEW truncated: the line" "$ERR" "straddle: $F/trunc: changed while reading"
expect_eq "diff, NEW truncated: nothing on stdout" "$OUT" ""
# --format sarif: truncated after its sections were scanned (4330 bytes:
# only .shstrtab, read with the headers, is cut), so its row was made and
# must be dropped (sarif_truncate); its notification, then G000's one row
cp "$G000" "$F/trunc"
STRADDLE_TEST_TRUNCATE_AFTER_OPEN=4330:$F/trunc run "$STRADDLE" scan --format sarif --uarch generic-x86 "$F/trunc" "$G000"
expect_eq "truncated sarif: exit 2" "$RC" 2
expect_eq "truncated sarif: the line" "$ERR" "straddle: $F/trunc: changed while reading"
expect_eq "truncated sarif: G000's row only" \
	"$(jq_of '[.runs[0].results[] | "\(.locations[0].physicalLocation.artifactLocation.uri | endswith("/trunc")) \(.ruleId) \(.properties.address)"] | join(",")')" \
	"false loop-straddles-window 0x401034"
expect_eq "truncated sarif: its notification, not successful" \
	"$(jq_of '.runs[0].invocations[0] | [.executionSuccessful, (.toolExecutionNotifications[] | "\(.locations[0].physicalLocation.artifactLocation.uri): \(.message.text)")] | join(",")')" \
	"false,file://$F/trunc: changed while reading"
# truncated before the headers were read: the same line, not a parse error
cp "$G000" "$F/trunc"
STRADDLE_TEST_TRUNCATE_AFTER_OPEN=0:$F/trunc run "$STRADDLE" scan --uarch generic-x86 "$F/trunc" "$G000"
expect_eq "truncated to 0: the line" "$ERR" "straddle: $F/trunc: changed while reading"
expect_eq "truncated to 0: the next file scanned" "$(scanned_g000)" 1
rm -f "$F/trunc"

# ---- inputs that are not regular files ----
mkfifo "$F/fifo"
"$TOOLS/filetool" socket "$F/sock"
for x in "fifo:a FIFO" "sock:a socket" "/dev/null:a character device"; do
	path=${x%%:*}
	kind=${x#*:}
	case $path in /*) ;; *) path="$F/$path" ;; esac
	[ -e "$path" ] || { ok "$kind: (no such file made here, skipped)"; continue; }
	# timeout: a FIFO once hung scan forever
	run timeout 60 "$STRADDLE" scan --uarch generic-x86 "$path" "$G000"
	expect_eq "scan $kind: exit 2" "$RC" 2
	expect_eq "scan $kind: the line" "$ERR" "straddle: $path: is $kind, not a regular file"
	expect_eq "scan $kind: the next file scanned" "$(scanned_g000)" 1
	run timeout 60 "$STRADDLE" diff "$G000" "$path"
	expect_eq "diff $kind: exit 2, the line" "$RC $ERR" "2 straddle: $path: is $kind, not a regular file"
	run timeout 60 "$STRADDLE" compare "$path" "$path"
	# compare reads a directory as the runs it holds (bench -o DIR)
	want="is $kind, not a regular file"
	[ "$kind" = "a directory" ] && want="a directory without a .json result file"
	expect_eq "compare $kind: exit 2, the line" "$RC $ERR" "2 straddle: $path: $want"
done

# A directory is an input (doc/scan.md#inputs): its FIFO, socket and
# other files that are no ELF are passed over, never opened (a FIFO once
# hung scan forever); the next operand is scanned
run timeout 60 "$STRADDLE" scan --uarch generic-x86 "$F" "$G000"
expect_eq "scan a directory with a FIFO and a socket: exit 0, quiet, the next file scanned" \
	"$RC|$ERR|$(scanned_g000)" "0||1"
run timeout 60 "$STRADDLE" diff "$G000" "$F"
expect_eq "diff a file and a directory: exit 2, the line" "$RC $ERR" \
	"2 straddle: $G000: is one file, but $F is a directory or package: diff two of those, or two files"
run timeout 60 "$STRADDLE" compare "$F" "$F"
expect_eq "compare a directory: exit 2, the line" "$RC $ERR" \
	"2 straddle: $F: a directory without a .json result file"

# ---- outputs that are not regular files: refused before any work ----
O="$F/out"
mkdir -p "$O/dir"
mkfifo "$O/fifo"
[ "$(id -u)" = 0 ] && mknod "$O/null" c 1 3
ls -A "$O" >"$TMP/files_before"
for x in "fifo:a FIFO" "dir:a directory" "null:a character device"; do
	name=${x%%:*}
	kind=${x#*:}
	[ -e "$O/$name" ] || { ok "-o $kind: (not root: no device node, skipped)"; continue; }
	want="straddle: $O/$name: is $kind, not a regular file: not replaced"
	run "$STRADDLE" scan --dump-vdso "$O/$name"
	expect_eq "--dump-vdso $kind: exit 2, the line" "$RC $ERR" "2 $want"
	run "$STRADDLE" sweep -o "$O/$name" clear_movq_imm
	expect_eq "sweep -o $kind: exit 2, the line" "$RC $ERR" "2 $want"
	run "$STRADDLE" sweep --plot "$O/$name" clear_movq_imm
	expect_eq "sweep --plot $kind: exit 2, the line" "$RC $ERR" "2 $want"
	run "$STRADDLE" bench fault-write -o "$O/$name"
	expect_eq "bench -o $kind: exit 2, the line" "$RC $ERR" "2 $want"
done
expect_eq "refused outputs: still what they were" "$(ls -A "$O" | tr '\n' ' ')" "$(tr '\n' ' ' <"$TMP/files_before")"
[ -c "$O/null" ] && ok "the device node is still a device" || { [ "$(id -u)" = 0 ] && fail "the device node was replaced"; }
rm -rf "$O"

# ---- modes: a new file 0666 less the umask, a replaced one keeps its mode ----
W="$F/w"
mkdir -p "$W"
(umask 027 && "$STRADDLE" scan --dump-vdso "$W/v.so")
expect_eq "new file, umask 027: 0640" "$(stat -c %a "$W/v.so")" 640
(umask 0 && "$STRADDLE" scan --dump-vdso "$W/v0.so")
expect_eq "new file, umask 0: 0666" "$(stat -c %a "$W/v0.so")" 666
chmod 0604 "$W/v.so"
(umask 077 && "$STRADDLE" scan --dump-vdso "$W/v.so")
expect_eq "replaced file keeps 0604" "$(stat -c %a "$W/v.so")" 604
expect_eq "no temporary names" "$(ls -A "$W" | tr '\n' ' ')" "v.so v0.so "

# ---- a signal in the middle of a write: dies of it, nothing written ----
# (STRADDLE_TEST_SIGNAL_IN_WRITE raises it after the data, before the
# name; NO_TMPFILE forces the named temporary of filesystems without
# O_TMPFILE.)
printf 'old\n' >"$W/keep.json"
for tmpfile in "" 1; do
	for sig in 2:130 15:143; do
		n=${sig%%:*}
		want=${sig#*:}
		how="signal $n${tmpfile:+, no O_TMPFILE}"
		STRADDLE_TEST_NO_TMPFILE=$tmpfile STRADDLE_TEST_SIGNAL_IN_WRITE=$n run "$STRADDLE" scan --dump-vdso "$W/new.so"
		expect_eq "--dump-vdso, $how: dies of it" "$RC" "$want"
		STRADDLE_TEST_NO_TMPFILE=$tmpfile STRADDLE_TEST_SIGNAL_IN_WRITE=$n run "$STRADDLE" scan --dump-vdso "$W/keep.json"
		expect_eq "--dump-vdso over a file, $how: dies of it" "$RC" "$want"
		STRADDLE_TEST_NO_TMPFILE=$tmpfile STRADDLE_TEST_SIGNAL_IN_WRITE=$n run "$STRADDLE" \
			sweep --offsets 0 --time 0.05 --min-rounds 1 -o "$W/sweep.json" clear_movq_imm
		expect_eq "sweep -o, $how: dies of it" "$RC" "$want"
		STRADDLE_TEST_NO_TMPFILE=$tmpfile STRADDLE_TEST_SIGNAL_IN_WRITE=$n run "$STRADDLE" \
			bench fault-write --dir "$W/../" -o "$W/bench.json"
		expect_eq "bench -o, $how: dies of it" "$RC" "$want"
		expect_eq "$how: nothing new, no temporary name" "$(ls -A "$W" | tr '\n' ' ')" "keep.json v.so v0.so "
		expect_eq "$how: the replaced file untouched" "$(cat "$W/keep.json")" "old"
	done
done
# ---- memory bounded by what is there ----
# A 64 MiB function that is a hole in a sparse file (8 KiB on disk): it
# cost 858 MB of RSS (24 bytes reserved per claimed byte). Now the function
# past the bound is counted, not analysed, and the peak stays within twice
# the file's size. Measured on the plain build: the sanitizers' own memory
# is not the scan's.
"$TOOLS/filetool" sparse-elf "$F/sparse" 67108864
RSS_BIN=${PLAIN:-$STRADDLE}
for j in 1 2; do
	run "$TOOLS/filetool" peak-rss "$RSS_BIN" scan -j $j --uarch generic-x86 "$F/sparse"
	# the last line: "exit N maxrss_kib N"
	line=$(printf '%s\n' "$OUT" | tail -n 1)
	rss=${line##* }
	expect_eq "sparse 64 MiB, -j$j: exit 0" "${line%% maxrss_kib*}" "exit 0"
	if [ "$rss" -le $((2 * 65536)) ]; then ok "sparse 64 MiB, -j$j: peak RSS $rss KiB <= 2 x 64 MiB"
	else fail "sparse 64 MiB, -j$j: peak RSS $rss KiB > 2 x 64 MiB"; fi
done
run "$STRADDLE" scan --json --uarch generic-x86 "$F/sparse"
expect_eq "sparse: the function counted, not analysed" \
	"$(jq_of '.files[0]|"\(.functions_scanned) \(.functions_too_large) \(.instructions)"')" "1 1 0"
expect_eq "sparse: the line" "$ERR" \
	"straddle: $F/sparse: 1 function too large to analyse within the memory bound, not analysed"
expect_eq "sparse: exit 0" "$RC" 0
rm -rf "$F"
