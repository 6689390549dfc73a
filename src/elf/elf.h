/* elf: an ELF64 little-endian image, from a file or from memory (the vDSO).
 * Sections, function ranges (symtab, else dynsym, plus .eh_frame FDEs so
 * stripped code is covered), build-id, source lines through libdw.
 *
 * Every offset and size read from the image is checked against the image
 * before use: the input is untrusted. */
#ifndef STRADDLE_ELF_H
#define STRADDLE_ELF_H

#include "../base/base.h"

#include <time.h>

struct elf_section {
	const char *name;
	uint32_t name_off;
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
	uint64_t addralign;
	uint32_t link;
	uint64_t entsize;
};

struct elf_image {
	char *path;             /* as given, or "[vdso]" */
	const uint8_t *data;
	size_t size;
	int mapped;             /* data is an mmap of the file */
	int owned;              /* data is a malloc'd copy */
	bool from_file;         /* then: */
	int fd;                 /* the file, kept open to see it change */
	int guard;              /* slot of the SIGBUS guard (guard.c), or -1 */
	struct timespec mtime;  /* of the file when opened */
	enum arch arch;
	uint16_t type;          /* ET_EXEC, ET_DYN, ET_REL */
	struct elf_section *sec;
	size_t nsec;
	uint8_t build_id[64];
	size_t build_id_len;
	void *dwarf;            /* libdw state, opened on first line lookup */
	/* a directory holding .build-id/xx/yyyy.debug, searched before
	 * /usr/lib/debug (scan --debug-dir); NULL: that one only. Borrowed. */
	const char *debug_dir;
};

/* Where a function's name came from. */
enum func_source { FROM_SYMTAB, FROM_DYNSYM, FROM_FDE };

struct elf_func {
	uint64_t addr;
	uint64_t size;
	const char *name;       /* into the image's string table or the list's pool */
	/* as people read it: a C++ symbol demangled ("hot_leaf(long)", as
	 * perf and objdump -C print it), else name itself */
	const char *shown;
	uint32_t sec;           /* section index holding the bytes */
	uint8_t source;         /* enum func_source */
	uint8_t local;          /* STB_LOCAL */
	uint32_t alias, nalias; /* its other symbols' names: elf_funcs.alias_name */
};

struct elf_funcs {
	struct elf_func *v;
	size_t n;
	size_t skipped;         /* symbols that pointed outside their section */
	char *pool;             /* storage for generated names ("fde@0x...") */
	struct elf_image *debug;        /* separate debug file lending its .symtab */
	struct elf_func *labels;        /* zero-size function symbols, for FDEs */
	size_t nlabels;
	/* the names of symbols folded into a function of the same start
	 * (libc's read into __read): --func matches them too */
	const char **alias_name;
	size_t nalias, alias_cap;
	char **demangled;               /* the shown names made here, to free */
	size_t ndemangled, demangled_cap;
};

/* Does GLOB match the function's name or one of its aliases? A C++
 * symbol matches as spelt (_Z8hot_leafl), demangled (hot_leaf(long)) or
 * demangled without its parameters (hot_leaf, ns::cls::method). */
bool elf_func_matches(const struct elf_funcs *fs, const struct elf_func *f, const char *glob);

int elf_open_file(struct elf_image *img, const char *path, struct err *e);
/* Is p[0..n) the header of an ELF file straddle reads (ELF64,
 * little-endian, x86-64 or AArch64, exec, dyn or rel)? n: at least 64. */
#define ELF_HEADER_BYTES 64
bool elf_header_ok(const void *p, size_t n);
/* The file was truncated or rewritten since it was opened: what was read from
 * it is not to be trusted; say "changed while reading". */
bool elf_changed(const struct elf_image *img);
int elf_open_memory(struct elf_image *img, const void *p, size_t n,
		    const char *label, struct err *e);
/* The same for bytes of malloc's memory the image takes (a member read out
 * of a package): freed by elf_close, on failure too. */
int elf_open_owned(struct elf_image *img, void *p, size_t n, const char *label, struct err *e);
void elf_close(struct elf_image *img);

const char *elf_type_name(uint16_t type);

/* Functions sorted by (section, address), aliases folded. A stripped image
 * borrows the .symtab of its separate debug file (by build-id) when one is
 * installed, so local functions keep their names. */
int elf_functions(const struct elf_image *img, struct elf_funcs *out, struct err *e);
void elf_funcs_free(struct elf_funcs *f);

/* A PLT stub and the name of the symbol it calls ("exit" for exit@plt;
 * "*ABS*+0x..." for an IRELATIVE slot, as objdump says). */
struct elf_plt_stub {
	uint64_t addr;
	const char *name;
};

struct elf_plt {
	struct elf_plt_stub *v;
	size_t n;
	char *pool;
};

/* The GOT slot that the stub code p[0..n) at `addr` jumps through, 0 when
 * it jumps through none: an instruction question the caller answers
 * (decode_stub_slot), elf knows no opcode. */
typedef uint64_t (*elf_stub_slot_fn)(void *ctx, const uint8_t *p, size_t n, uint64_t addr);

/* The named stubs of .plt, .plt.sec and .plt.got, in that order: each
 * stub's slot matched to the r_offset of a .rela.plt or .rela.dyn
 * relocation. Free with elf_plt_free. */
void elf_plt_stubs(const struct elf_image *img, elf_stub_slot_fn slot_of, void *ctx,
		   struct elf_plt *out);
void elf_plt_free(struct elf_plt *p);

/* The bytes of a function; NULL if they are not in the file (never for a
 * function returned by elf_functions). */
const uint8_t *elf_func_bytes(const struct elf_image *img, const struct elf_func *f);

/* The bytes at virtual address [addr, addr+len) of a loaded section
 * (SHF_ALLOC, with file contents), or NULL: for reading a jump table out
 * of .rodata. Always NULL in a relocatable object, whose addresses are
 * unrelocated. */
const uint8_t *elf_vaddr_bytes(const struct elf_image *img, uint64_t addr, uint64_t len);

/* Does virtual address `addr` lie in an executable section? */
bool elf_vaddr_is_code(const struct elf_image *img, uint64_t addr);

/* The ELF virtual address of the byte at file offset `off`, through the
 * PT_LOAD segment that maps it; -1 when no segment does. */
int elf_offset_vaddr(const struct elf_image *img, uint64_t off, uint64_t *vaddr);

/* The offset in the file of `addr` of section `sec` (a relocatable
 * object's addresses are offsets in their section); -1 when the section
 * holds no such byte in the file. */
int elf_file_offset(const struct elf_image *img, uint32_t sec, uint64_t addr, uint64_t *off);

/* The value of the .symtab symbol `name` (vmlinux's _text); -1 if none. */
int elf_symbol_value(const struct elf_image *img, const char *name, uint64_t *value);
/* The function symbol (FUNC or IFUNC, .symtab then .dynsym) named `name`,
 * alias or not; -1 when there is none. */
int elf_function_symbol(const struct elf_image *img, const char *name, uint64_t *addr,
			uint64_t *size);

/* The name of a .symtab symbol whose value is `addr` (a function, or a
 * label of untyped code: vmlinux's __x86_return_thunk), global ones first;
 * NULL when none is. Not for a relocatable object, whose values are
 * offsets in their sections. */
const char *elf_symbol_at(const struct elf_image *img, uint64_t addr);

/* ---- .eh_frame whole (ehframe.c): what a copy of code needs to be
 * unwound through (System V AMD64 ABI 6.2, LSB "Exception Frames") ---- */

/* A CIE as read; the personality it names made a virtual address. */
struct elf_cie {
	uint64_t offset;                /* in .eh_frame */
	uint8_t version;
	char aug[8];                    /* "zR", "zPLR", ... */
	uint64_t code_align, ra;
	int64_t data_align;
	uint8_t fde_enc, lsda_enc;      /* DW_EH_PE_*; lsda_enc 0xff: none */
	bool personality, personality_indirect, signal;
	uint64_t personality_addr;      /* of the routine, or of the word holding it */
	/* its augmentation and every encoding known: absolute or pc-relative
	 * pointers, which a copy's CIE can give as absolute ones */
	bool copyable;
	const uint8_t *insn;            /* initial instructions, in the image */
	size_t ninsn;
};

/* An FDE: the code it covers (as written: a signal frame's starts a byte
 * early), the LSDA it names and its instructions, which locate the code
 * by offsets from its start and so hold for a copy of it. */
struct elf_fde {
	uint64_t start, size;
	uint64_t lsda;                  /* virtual address, 0: none */
	uint32_t cie;                   /* index into elf_eh.cie */
	const uint8_t *insn;
	size_t ninsn;
};

struct elf_eh {
	struct elf_cie *cie;
	size_t ncie, cie_cap;
	struct elf_fde *fde;            /* sorted by start */
	size_t nfde, fde_cap;
};

/* Every CIE and FDE of .eh_frame, read up to where it stops making sense. */
void elf_eh_read(const struct elf_image *img, struct elf_eh *eh);
void elf_eh_free(struct elf_eh *eh);
/* Do call-frame instructions p[0..n) name no address (no DW_CFA_set_loc)
 * and only opcodes this reader knows? Then they hold wherever the code is. */
bool elf_cfa_position_free(const uint8_t *p, size_t n);

/* The build-id in lowercase hex ("" when the image has none). */
const char *elf_build_id_hex(const struct elf_image *img, char buf[static 129]);

/* Placement certainty. Loaded images keep address mod 4096, so 4096 is
 * returned; a relocatable object only knows its section's sh_addralign. */
uint64_t elf_placement_align(const struct elf_image *img, uint32_t sec);

/* Source "file:line" for an address of section `sec`, "" when there is
 * no DWARF. Looks in the image, then by build-id in img->debug_dir's and
 * /usr/lib/debug's .build-id/; a relocatable object's DWARF is relocated first (its addresses
 * are offsets in `sec`, which only there tells which code is meant). Not
 * thread safe: call from one thread. */
const char *elf_source_line(struct elf_image *img, uint32_t sec, uint64_t addr,
			    char *buf, size_t n);
/* The same as the file DWARF names (often absolute) in file[0..n) and its
 * line; false when there is none. */
bool elf_source_file(struct elf_image *img, uint32_t sec, uint64_t addr, char *file, size_t n,
		     int *lineno);
/* DW_AT_producer of the unit holding an address ("GNU C17 12.2.0 -mtune=generic
 * -O2 ...", "Debian clang version 14.0.6", "GNU AS 2.40"), "" when there is none. */
const char *elf_producer(struct elf_image *img, uint32_t sec, uint64_t addr, char *buf,
			 size_t n);

/* A C++ symbol demangled (malloc'd), or NULL when it is none. */
char *elf_demangle(const char *symbol);

/* "elfutils 0.188": the libelf/libdw straddle was built with. */
const char *elf_library_version(void);

/* The vDSO of this process: a private copy of its image. */
int elf_open_vdso(struct elf_image *img, struct err *e);
/* Path of the C library this process runs with, or NULL. */
const char *elf_libc_path(void);
/* Save the image bytes to a file (atomically: temporary name, rename). */
int elf_save(const struct elf_image *img, const char *path, struct err *e);

#endif
