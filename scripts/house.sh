#!/bin/sh
# house.sh [SRC]: the house as numbers, for doc/source-layout.md's before
# and after: the lines of each folder of SRC (default src) and of all, the
# ten largest headers, the ten longest functions (a definition at column
# 0 to its closing brace at column 0: the style every C file here keeps),
# and the files of cmd/.
set -eu
SRC=${1:-src}
cd "$SRC"
echo "lines per folder (.c .h .cpp .S)"
for d in */; do
	n=$(find "$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.S' \) \
		-exec cat {} + | wc -l)
	printf '  %-12s %6d\n' "${d%/}" "$n"
done
printf '  %-12s %6d\n' all "$(find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \
	-o -name '*.S' \) -exec cat {} + | wc -l)"
echo "largest headers"
find . -name '*.h' -exec wc -l {} + | grep -v ' total$' | sort -rn | head -10 |
	awk '{ printf "  %6d %s\n", $1, substr($2, 3) }'
echo "longest functions"
find . -name '*.c' | sort | xargs awk '
	FNR == 1 { name = "" }
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/^(typedef|struct|enum|union|static const|const)/ {
		name = $0; start = FNR }
	/^}/ && name != "" { printf "%d %s:%d\n", FNR - start + 1, substr(FILENAME, 3), start; name = "" }
' | sort -rn | head -10 | awk '{ printf "  %6d %s\n", $1, $2 }'
echo "cmd/"
wc -l cmd/*.c | sort -rn | awk '{ printf "  %6d %s\n", $1, $2 }'
