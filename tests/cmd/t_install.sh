# Installable: --version names the libraries it
# was built with; the manual page straddle(1), made from the option tables,
# passes `mandoc -T lint` and has a section per command; `make install`
# puts the binary and the page under DESTDIR/PREFIX.

run "$STRADDLE" --version
expect_eq "--version: exit 0" "$RC" 0
expect_eq "--version: first line" "$(printf '%s\n' "$OUT" | head -n 1)" "straddle 0.1.0"
zydis=$(sed -n 's/^#define ZYDIS_VERSION (ZyanU64)0x\(....\)\(....\)\(....\).*/\1 \2 \3/p' /usr/include/Zydis/Zydis.h |
	{ read -r a b c; printf '%d.%d.%d' "0x$a" "0x$b" "0x$c"; })
cs=$(awk '/define CS_API_MAJOR/{a=$3} /define CS_API_MINOR/{b=$3} /define CS_VERSION_EXTRA/{c=$3} END{print a"."b"."c}' /usr/include/capstone/capstone.h)
eu=$(awk '/define _ELFUTILS_VERSION\t|define _ELFUTILS_VERSION /{printf "%d.%03d", $3/1000, $3%1000}' /usr/include/elfutils/version.h)
ja=$(sed -n 's/^#define JANSSON_VERSION "\(.*\)"/\1/p' /usr/include/jansson.h)
expect_eq "--version: the libraries" "$(printf '%s\n' "$OUT" | sed -n 2p)" \
	"built with Zydis $zydis, Capstone $cs, elfutils $eu, jansson $ja"

run "$STRADDLE" --man
expect_eq "--man: exit 0" "$RC" 0
printf '%s\n' "$OUT" >"$TMP/straddle.1"
if command -v mandoc >/dev/null; then
	run mandoc -T lint "$TMP/straddle.1"
	expect_eq "mandoc -T lint: clean" "$RC:$OUT$ERR" "0:"
else
	fail "mandoc is not installed (scripts/deps.sh installs it)"
fi
# the commands, as 'straddle --help' lists them
COMMANDS=$("$STRADDLE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
expect_eq "man: one section per command, in order" \
	"$(sed -n 's/^\.SH "STRADDLE \(.*\)"$/\1/p' "$TMP/straddle.1" | tr 'A-Z\n' 'a-z ')" \
	"$(printf '%s ' $COMMANDS)"
expect_eq "man: at least the seven first commands" "$(printf '%s\n' $COMMANDS | grep -cxE 'scan|diff|kernels|sweep|bench|compare|uarch')" 7
# every option of every --help is in the page (man writes - as \-)
missing=""
for c in $COMMANDS; do
	for o in $("$STRADDLE" $c --help | sed -n 's/^  \(-., \)\{0,1\}--\([a-z-]*\).*/\2/p'); do
		grep -qF "\\fB\\-\\-$(printf '%s' "$o" | sed 's/-/\\-/g')\\fR" "$TMP/straddle.1" || missing="$missing $c:--$o"
	done
done
expect_eq "man: every option of every --help" "$missing" ""

# make install into a scratch DESTDIR (only from the source tree, where
# make has built the binary this test runs)
if [ -f Makefile ] && [ -x build/straddle ]; then
	make -s install PREFIX=/usr/local DESTDIR="$TMP/inst" >"$TMP/inst.log" 2>&1
	expect_eq "make install: exit 0" "$?" 0
	# the AArch64 routines' runner, where the host emulates them
	inst_a64=""
	if [ "$(uname -m)" = x86_64 ] && command -v aarch64-linux-gnu-gcc >/dev/null; then
		inst_a64="./usr/local/libexec/straddle/straddle-kroutine-aarch64 "
	fi
	expect_eq "make install: what it installs" "$(cd "$TMP/inst" && find . -type f | sort | tr '\n' ' ')" \
		"./usr/local/bin/straddle ./usr/local/libexec/straddle/libstraddle-place.so ./usr/local/libexec/straddle/libstraddle-sched.so $inst_a64./usr/local/share/man/man1/straddle.1 "
	# the installed scan prices by LLVM's models, found in libexec, as the
	# built one does (not by the bound, with a line that they are missing)
	run env -u STRADDLE_LLVM_MCA "$TMP/inst/usr/local/bin/straddle" scan --uarch zen5 --json --no-source "$FIXTURES/x86/cost"
	expect_eq "installed scan: the back end in process, nothing on stderr" \
		"$RC:$(printf '%s' "$ERR" | wc -c):$(jq_of '.files[0].back_end.zen5 | sub("[0-9.]+ znver5"; "V znver5")')" \
		"0:0:LLVM V znver5, in process"
	if [ -n "$inst_a64" ] && command -v qemu-aarch64 >/dev/null; then
		run "$TMP/inst/usr/local/bin/straddle" kernels --check --file "$FIXTURES/kernel/kvmlinux-arm64" \
			--func __arch_clear_user
		expect_eq "installed kernels: the runner found in libexec" "$RC:$(printf '%s\n' "$OUT" | tail -1)" \
			"0:267031 passed, 0 failed"
	fi
	expect_eq "installed binary runs" "$("$TMP/inst/usr/local/bin/straddle" --version | head -n 1)" "straddle 0.1.0"
	expect_eq "installed page: the mode" "$(stat -c %a "$TMP/inst/usr/local/share/man/man1/straddle.1")" 644
	expect_eq "installed page: man reads it" \
		"$(MANWIDTH=80 man -l "$TMP/inst/usr/local/share/man/man1/straddle.1" 2>&1 | grep -c '^STRADDLE SCAN$')" 1
	# place finds its preload library relative to itself
	run "$TMP/inst/usr/local/bin/straddle" place --func work --offsets 0 --runs 2 -o "$TMP/inst.json" \
		-- "$FIXTURES/place/moved-pie" 10
	expect_eq "installed place: exit 0" "$RC" 0
	expect_eq "installed place: moved" "$(jq -r .moved.functions "$TMP/inst.json")" 1
	rm -rf "$TMP/inst"
fi
