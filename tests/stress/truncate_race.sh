#!/bin/sh
# The real race: a large file truncated by another process while
# scan reads it. `make stress` (not in make test: it copies a 117 MB
# library and takes a minute).
#   tests/stress/truncate_race.sh STRADDLE [ROUNDS] [BIG]
# Each round: cp BIG big.so; (sleep D; truncate -s 1M big.so) &
# straddle scan -j1 big.so /bin/true. Pass: never a signal death (it was
# SIGBUS, exit 135, nothing printed), exit 0 or 2, and on 2 the one line
# "big.so: changed while reading" (or, truncated before its headers were
# read, what a 1 MiB cut file is); /bin/true scanned every time.
set -u
straddle=$1
rounds=${2:-6}
big=${3:-/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1}
[ -f "$big" ] || { echo "stress: no $big, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
changed=0
i=0
while [ $i -lt "$rounds" ]; do
	delay=$(awk -v i=$i 'BEGIN { printf "%.1f", 0.1 + 0.4 * i }')
	cp "$big" "$tmp/big.so"
	(sleep "$delay"; truncate -s 1M "$tmp/big.so") &
	"$straddle" scan -j1 --no-source --limit 1 "$tmp/big.so" /bin/true >"$tmp/out" 2>"$tmp/err"
	rc=$?
	wait
	true_scanned=$(grep -c '^/bin/true: ' "$tmp/out")
	case "$rc:$(cat "$tmp/err")" in
	"0:") what="finished before the cut" ;;
	"2:straddle: $tmp/big.so: changed while reading")
		what="changed while reading"
		changed=$((changed + 1)) ;;
	2:*) what="cut before open: $(cat "$tmp/err")" ;;
	*) what="BAD: exit $rc: $(cat "$tmp/err")"; bad=$((bad + 1)) ;;
	esac
	[ "$true_scanned" = 1 ] || { what="$what; BAD: /bin/true not scanned"; bad=$((bad + 1)); }
	echo "round $i (cut after ${delay}s): exit $rc, $what"
	i=$((i + 1))
done
echo "stress: $rounds rounds, $changed changed while reading, $bad bad"
[ "$bad" -eq 0 ]
