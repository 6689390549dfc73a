#!/bin/sh
# check_layers.sh OBJDIR LAYER...: the layers bottom-up. Fails, naming each
# object and symbol, when an object of a layer uses (nm: undefined) a
# symbol that an object of a higher layer defines.
set -e
objdir=$1
shift
rank=0
defs=$(mktemp)
trap 'rm -f "$defs"' EXIT
for layer in "$@"; do
	rank=$((rank + 1))
	for o in "$objdir/$layer"/*.o "$objdir/$layer"/*/*.o; do
		[ -f "$o" ] || continue
		nm --defined-only -g "$o" | awk -v r=$rank -v l="$layer" 'NF == 3 { print $3, r, l }'
	done
done | sort -k1,1 >"$defs"
rank=0
bad=0
for layer in "$@"; do
	rank=$((rank + 1))
	for o in "$objdir/$layer"/*.o "$objdir/$layer"/*/*.o; do
		[ -f "$o" ] || continue
		nm -u "$o" | awk '{ print $NF }' | sort -u | join - "$defs" |
		while read -r sym r l; do
			if [ "$r" -gt "$rank" ]; then
				echo "check-layers: ${o#"$objdir"/} ($layer) uses $sym, defined in $l, a higher layer"
			fi
		done
	done
done >"$defs.out"
if [ -s "$defs.out" ]; then
	cat "$defs.out"
	rm -f "$defs.out"
	exit 1
fi
rm -f "$defs.out"
echo "check-layers: $# layers, no object uses a symbol of a higher layer"
