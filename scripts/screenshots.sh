#!/bin/sh
# doc/report.md's pictures of `straddle report` (`make screenshots`): the page
# the browser test loads (tests/browser/inputs.sh: one result file of every
# kind), shot by headless Chromium at 1280 px; the first section of each
# kind the page shows is kept as DIR/report-KIND.png, its top 1000 px at
# most (calibrate's section shows the plot of each claimed rule's experiment).
#   scripts/screenshots.sh STRADDLE FIXTURES DIR
set -eu
straddle=$(realpath "$1") fixtures=$2 dir=$3
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
STRADDLE=$straddle FIXTURES=$fixtures sh "$top/tests/browser/inputs.sh" "$tmp/in" >"$tmp/inputs"
# From the inputs' folder, so the page names them, not a temporary path.
# shellcheck disable=SC2046 # one file a line, no spaces in $tmp
(cd "$tmp/in" && "$straddle" report -o "$tmp/report.html" $(sed 's|.*/||' "$tmp/inputs"))
mkdir -p "$tmp/shots" "$dir"
timeout -k 5 120 python3 "$top/tests/browser/page.py" --shots "$tmp/shots" --max-height 1000 \
	"$tmp/report.html" >"$tmp/page.json"
for id in $(jq -r '.pages[0].sections[].id | select(endswith("-1"))' "$tmp/page.json"); do
	cp "$tmp/shots/$id.png" "$dir/report-${id%-1}.png"
	echo "$dir/report-${id%-1}.png: $(wc -c <"$dir/report-${id%-1}.png") bytes"
done
