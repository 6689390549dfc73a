# Test tools: small programs over libstraddle that the command tests run
# (tests/cmd/t_*.sh find them in $TOOLS). Built with the sanitizers, like
# everything `make test` runs.
#   insn_dump  instruction starts per function, and their comparison with
#              objdump's (tests/cmd/t_objdump.sh)
#   plt_dump   the PLT stubs straddle names, as objdump prints them
#              (tests/cmd/t_plt.sh)
#   jump_dump  every indirect jump and the dispatch-table targets straddle
#              reads for it (tests/cmd/t_switch.sh)
#   reloc_image the arena bytes of a plan, fix-ups applied at a given address
#              (tests/cmd/t_place.sh, against the assembler's build)
#   noperf     runs a command with perf_event_open refused by a seccomp
#              filter (tests/cmd/t_record.sh)
#   place_plan the plan of one arm of straddle place, written without
#              running (AArch64 under qemu-user: tests/cmd/t_place_arm64.sh)
#   kmodule_proof two routines of Debian's modules against their source's
#              contract (make kernel-proofs: scripts/kernel_proofs.sh)

TOOLS_SRC := $(wildcard tests/tools/*.c)
TOOLS_BIN := $(patsubst tests/tools/%.c,$(S)/tools/%,$(TOOLS_SRC))

$(S)/tools/%: tests/tools/%.c $(S)/libstraddle.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(SANFLAGS) -Isrc -o $@ $< $(S)/libstraddle.a $(LIBS)
