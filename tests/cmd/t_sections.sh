# Not code, not hot (tests/fixtures/x86/sections.S): padding symbols are no
# functions, every row and hazard names its section, --section filters,
# init/exit/unlikely/cold text ranks after hot text, and a --func or
# --section that matches nothing is an error.

SC="$FIXTURES/x86/sections"
run "$STRADDLE" scan --json --all --uarch generic-x86 "$SC"
expect_eq "sections: exit 0" "$RC" 0
# __pfx_hot (16 nops), pad_nops (16 nops), pad_int3 (16 int3): not scanned.
expect_eq "padding symbols: not functions" \
	"$(jq_of '"\(.files[0].functions_scanned)/\(.files[0].padding_symbols) " + ([.files[0].functions[].name] | join(","))')" \
	"3/3 hot,hot.cold,init_once"
expect_eq "functions: section and cold text" \
	"$(jq_of '[.files[0].functions[] | "\(.name):\(.section):\(.cold_text)"] | join(" ")')" \
	"hot:.text:false hot.cold:.text:true init_once:.init.text:true"
# Every hazard names its section: hot's 6 B loop [0x40103c, 0x401042) and
# init_once's 4 B loop [0x40113e, 0x401142) straddle 16 and the line 0x40..
expect_eq "hazards: section" \
	"$(jq_of '[.files[0].functions[] | .loops[] | "\(.start):" + ([.hazards[] | "\(.window)@\(.section)"] | join(","))] | join(" ")')" \
	"0x40103c:16@.text,64@.text 0x4010be:16@.text,64@.text 0x40113e:16@.init.text,64@.init.text"

# Ranking: by severity and size hot.cold's and init_once's 4 B loops would
# come before hot's 6 B one; cold text ranks after every hot row. The
# section is the third column.
run "$STRADDLE" scan --uarch generic-x86 --no-source "$SC"
expect_eq "ranking: hot first, then cold text" \
	"$(printf '%s\n' "$OUT" | awk 'NR > 2 && $1 ~ /^(high|medium|low)$/ { print $2 "/" $3 "/" $4 "/" $7 }' | paste -sd' ')" \
	"hot/.text/0x40103c/16,64 hot/.text/0x401010/64 hot.cold/.text/0x4010be/16,64 init_once/.init.text/0x40113e/16,64 hot.cold/.text/0x4010a0/64"

# --section GLOB
run "$STRADDLE" scan --json --all --uarch generic-x86 --section '.init*' "$SC"
expect_eq "--section .init*" "$(jq_of '[.files[0].functions[].name] | join(",")')" "init_once"
run "$STRADDLE" scan --json --all --uarch generic-x86 --section '.text' --func 'hot*' "$SC"
expect_eq "--section .text --func hot*" "$(jq_of '[.files[0].functions[].name] | join(",")')" "hot,hot.cold"

# Matching nothing: one line naming the option and the pattern, exit 2.
run "$STRADDLE" scan --uarch generic-x86 --section '.nope' "$SC"
expect_eq "--section matching nothing: exit 2" "$RC" 2
expect_eq "--section matching nothing: says so" "$ERR" "straddle: --section: '.nope' matches no section with functions"
run "$STRADDLE" scan --uarch generic-x86 --func 'hto' "$SC"
expect_eq "--func matching nothing: exit 2" "$RC" 2
expect_eq "--func matching nothing: says so" "$ERR" "straddle: --func: 'hto' matches no function"
# Matching in one file of several is a match.
run "$STRADDLE" scan --uarch generic-x86 --func 'init_once' "$SC" "$FIXTURES/x86/loops"
expect_eq "--func matching in one file: exit 0" "$RC" 0
