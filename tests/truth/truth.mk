# The differential check: tests/truth/cycles.py, a cycle finder
# that shares no code with straddle (objdump and readelf only), against
# `straddle scan --all --json`. tests/cmd/t_truth.sh runs it on every
# fixture (exact agreement); `make truth` on this machine's two C libraries,
# whose goal is 99.8% on each measure.

TRUTH_LIBS := /lib/x86_64-linux-gnu/libc.so.6 /usr/aarch64-linux-gnu/lib/libc.so.6

.PHONY: truth

truth: $(B)/straddle
	python3 tests/truth/cycles.py --straddle $(B)/straddle --min 99.8 --show 20 $(TRUTH_LIBS)
