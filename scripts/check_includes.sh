#!/bin/sh
# check_includes.sh SRCDIR LAYER...: the layers bottom-up (cmd last). Fails,
# naming each file and header, when a file of a layer includes a header of
# a higher layer, or another layer's internal.h. The compiler
# takes such an include without a word, and nm (check_layers.sh) sees
# only the calls that reach an object, not a macro, a struct or an inline
# function of the higher layer.
set -e
src=$(cd "$1" && pwd)
shift
rank_of() {
	r=0
	for l in $layers; do
		r=$((r + 1))
		[ "$l" = "$1" ] && { echo $r; return; }
	done
	echo 0
}
layers="$*"
bad=$(mktemp)
trap 'rm -f "$bad"' EXIT
for layer in "$@"; do
	own=$(rank_of "$layer")
	[ -d "$src/$layer" ] || continue
	find "$src/$layer" -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \) | sort |
	while read -r f; do
		dir=$(dirname "$f")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r inc; do
			target=$(realpath -m "$dir/$inc")
			case $target in "$src"/*) ;; *) continue ;; esac
			to=${target#"$src"/}
			to=${to%%/*}
			r=$(rank_of "$to")
			where="${f#"$src"/} ($layer) includes $inc"
			if [ "$r" = 0 ]; then
				echo "check-layers: $where, of $to, which is no layer"
			elif [ "$r" -gt "$own" ]; then
				echo "check-layers: $where, a header of $to, a higher layer"
			elif [ "$to" != "$layer" ] && [ "$(basename "$target")" = internal.h ]; then
				echo "check-layers: $where, the internal header of $to"
			fi
		done
	done
done >"$bad"
if [ -s "$bad" ]; then
	cat "$bad"
	exit 1
fi
echo "check-layers: $# layers, no file includes a header of a higher layer"
