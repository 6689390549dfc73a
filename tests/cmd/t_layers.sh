# make check-layers: the two checks on this tree, and each seen
# to fail on a violation planted in a copy of it. check_includes.sh: a
# header of a higher layer, another layer's internal.h, a folder that is
# no layer; check_layers.sh: an object using a symbol a higher layer's
# object defines.
LAYERS="$(sed -n 's/^LAYERS *:= *//p' Makefile) cmd"
# shellcheck disable=SC2086 # the layers, one word each
run sh scripts/check_includes.sh src $LAYERS
expect_eq "includes: this tree passes" "$RC $OUT" \
	"0 check-layers: 17 layers, no file includes a header of a higher layer"

cp -r src "$TMP/src"
printf '#include "../report/report.h"\n' >>"$TMP/src/base/strbuf.c"
printf '#include "../cfg/internal.h"\n' >>"$TMP/src/model/rules.c"
printf '#include "../../results/kinds.h"\n' >>"$TMP/src/kernels/x86_64/$(ls src/kernels/x86_64 | sed -n 1p)"
printf '#include "../tools/x.h"\n' >>"$TMP/src/stats/stats.h"
# shellcheck disable=SC2086
run sh scripts/check_includes.sh "$TMP/src" $LAYERS
expect_eq "includes, planted: exit 1" "$RC" 1
expect_eq "includes, planted: each named" "$OUT" \
"check-layers: base/strbuf.c (base) includes ../report/report.h, a header of report, a higher layer
check-layers: model/rules.c (model) includes ../cfg/internal.h, the internal header of cfg
check-layers: kernels/x86_64/$(ls src/kernels/x86_64 | sed -n 1p) (kernels) includes ../../results/kinds.h, a header of results, a higher layer
check-layers: stats/stats.h (stats) includes ../tools/x.h, of tools, which is no layer"

# check_layers.sh on two objects: elf's calls a function base's does not
# define but report's does
mkdir -p "$TMP/obj/base" "$TMP/obj/elf" "$TMP/obj/report"
printf 'int base_fn(void) { return 1; }\n' >"$TMP/b.c"
printf 'int report_fn(void); int elf_fn(void) { return report_fn(); }\n' >"$TMP/e.c"
printf 'int base_fn(void); int report_fn(void) { return base_fn(); }\n' >"$TMP/r.c"
gcc -c -o "$TMP/obj/base/b.o" "$TMP/b.c"
gcc -c -o "$TMP/obj/elf/e.o" "$TMP/e.c"
gcc -c -o "$TMP/obj/report/r.o" "$TMP/r.c"
run sh scripts/check_layers.sh "$TMP/obj" base elf report
expect_eq "symbols, planted: exit 1, the call named" "$RC $OUT" \
	"1 check-layers: elf/e.o (elf) uses report_fn, defined in report, a higher layer"
rm "$TMP/obj/elf/e.o"
run sh scripts/check_layers.sh "$TMP/obj" base elf report
expect_eq "symbols, without it: exit 0" "$RC $OUT" "0 check-layers: 3 layers, no object uses a symbol of a higher layer"

# check_headers.sh: every header compiles on its own, a subject's header
# including what it needs; one that leans on its includer fails, named
run sh scripts/check_headers.sh src
expect_eq "headers: this tree's each compile on their own" "$RC" 0
cp -r src "$TMP/hsrc"
printf '#include "../base/base.h"\nstruct needs { struct hazard h; };\n' >"$TMP/hsrc/model/leans.h"
run sh scripts/check_headers.sh "$TMP/hsrc"
expect_eq "headers, planted: exit 1" "$RC" 1
expect_eq "headers, planted: the one named, once" "$(printf '%s\n' "$OUT" | sed 's/ own:.*/ own:/')" \
	"check-layers: model/leans.h does not compile on its own:"
expect_eq "headers, planted: the compiler's word on it" \
	"$(printf '%s\n' "$OUT" | grep -c "field 'h' has incomplete type")" 1
