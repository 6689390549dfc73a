# The house kept honest: check-layers fails on
# an object that uses a symbol of a higher layer, and passes the tree.

H="$TMP/house"
mkdir -p "$H/obj/low" "$H/obj/high"
printf 'int up(void);\nint down(void) { return up(); }\n' >"$H/low.c"
printf 'int up(void) { return 1; }\n' >"$H/high.c"
cc -c -o "$H/obj/low/low.o" "$H/low.c"
cc -c -o "$H/obj/high/high.o" "$H/high.c"
run sh scripts/check_layers.sh "$H/obj" low high
expect_eq "check-layers: a call upward fails" "$RC" 1
expect_eq "check-layers: the line" "$OUT" "check-layers: low/low.o (low) uses up, defined in high, a higher layer"
run sh scripts/check_layers.sh "$H/obj" high low
expect_eq "check-layers: the same call downward passes" "$RC:$OUT" "0:check-layers: 2 layers, no object uses a symbol of a higher layer"
rm -rf "$H"
