#!/usr/bin/env python3
"""An independent cycle finder for straddle's differential check.

It shares no code with straddle: functions come from readelf (FUNC symbols,
then .eh_frame FDEs for code no symbol covers), instructions from
`objdump -d`, and the CFG, dominators, natural loops, irreducible cycles and
loop spans are computed here from that text alone. Then it reads
`straddle scan --all --json FILE` and prints three agreements:

  span       of the truth's natural loops, the share whose pieces (the
             run around the header, and the run around each block that
             dominates every latch, grown over the loop's blocks and the
             padding between them) each lie inside a piece of straddle's loop of the same
             header (the natural loop of fewest bytes with the header in a
             piece and lying within the loop's blocks); "equal" when the
             pieces are equal. The truth's run stops at the first code that
             is not the loop's or padding; straddle may also take in "code
             between" loop blocks, so it is also counted whether each of
             straddle's pieces begins and ends with blocks of the loop
  precision  of straddle's loops, the share that holds a real cycle
  recall     of the truth's cycles, the share inside a reported loop
  strict     of straddle's loops, the share whose pieces hold both ends of
             an edge of a cycle it holds (a loop reported as its
             header alone, the body beyond the exit, holds none)
  twice      pieces straddle reports more than once in one function (the
             same bytes, so the same hazards twice; --exact wants none)

A straddle loop L and a truth cycle C match when C's header (for an
irreducible cycle, which has no header: one of its blocks) lies in L's span
and L's span lies within C's extent (its lowest to its highest block), so an
enclosing loop does not stand in for a missing inner one.

Where it has to decide something straddle decides too, it decides it from
objdump alone, and says so:
  - noreturn calls: a list of names (objdump's names, `@plt` stripped), and
    inference over the file: a function returns when a `ret`, an indirect
    jump or a jump leaving it is reachable from its entry, calls to
    functions that do not return ending their block (least fixed point);
  - jump tables: x86-64 `lea T(%rip); movslq (T,i,4); add; jmp *` and
    `jmp *T(,i,8)`, AArch64 `adrp/add T; ldr[bh]|ldr; adr B; add ..., #s;
    br`, read from the file with the bound of the `cmp` before them. A
    function with an indirect jump that is not a tail call and whose table
    cannot be read is excluded from all three measures and counted;
  - PLT names are objdump's (`<name@plt>`).

Usage: cycles.py [--straddle BIN] [--show N] [--min PCT] [--exact] FILE...
Exit 1 when a measure of a file is below --min (default 0: report only);
--exact (the fixtures) also wants every straddle span to begin and end with
blocks of its loop, and as many straddle loops as truth cycles. Relocatable
objects (.o) are not read: objdump puts each section at 0.
"""
import argparse
import bisect
import collections
import json
import os
import re
import struct
import subprocess
import sys

# Functions that never return, by name, for calls the file cannot show the
# code of (PLT stubs) and for those whose own code is not conclusive.
NORETURN = set("""
abort exit _exit _Exit quick_exit __assert_fail __assert_perror_fail __assert
__stack_chk_fail __stack_chk_fail_local __fortify_fail __chk_fail __libc_fatal
__fatal_error longjmp siglongjmp _longjmp __longjmp __longjmp_chk ____longjmp_chk
__libc_longjmp __libc_siglongjmp __longjmp_cancel pthread_exit __pthread_exit err errx verr verrx
error_exit __cxa_throw __cxa_rethrow __cxa_bad_cast __cxa_bad_typeid
__cxa_throw_bad_array_new_length __cxa_pure_virtual __cxa_deleted_virtual
__cxa_call_unexpected __cxa_call_terminate _Unwind_Resume
_ZSt9terminatev _ZSt10unexpectedv __gnu_cxx::__verbose_terminate_handler
_dl_signal_error _dl_signal_exception _dl_fatal_printf _dl_reloc_bad_type
__libc_dynarray_at_failure __libc_message __malloc_assert malloc_printerr
__libc_start_main __libc_start_call_main panic do_exit do_group_exit BUG
__ubsan_handle_builtin_unreachable __builtin_unreachable
""".split())

X86_PREFIXES = {"bnd", "notrack", "rep", "repz", "repe", "repnz", "repne", "lock",
                "ds", "cs", "ss", "es", "fs", "gs", "data16", "addr32", "data32"}
HEX = re.compile(r"^([0-9a-f]+)(?:\s+<([^>]*)>)?")


class Insn:
    __slots__ = ("addr", "size", "mn", "ops", "kind", "target", "name", "nop")


def sh(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


# ---------------------------------------------------------------- ELF facts

def elf_facts(path):
    """Machine, sections, FUNC symbols and FDE ranges, all from readelf."""
    hdr = sh("readelf", "-hW", path)
    arch = "arm64" if "AArch64" in hdr else "x86"
    sections = []  # (name, addr, offset, size, executable)
    for m in re.finditer(r"\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)"
                         r"\s+[0-9a-f]+\s+([A-Z]*)", sh("readelf", "-SW", path)):
        name, typ, addr, off, size, flags = m.groups()
        if typ != "NOBITS":
            sections.append((name, int(addr, 16), int(off, 16), int(size, 16), "X" in flags))
    syms = sh("readelf", "-sW", path)
    if ".symtab" not in syms:               # stripped: its separate debug file
        m = re.search(r"Build ID: ([0-9a-f]{2})([0-9a-f]+)", sh("readelf", "-nW", path))
        debug = m and "/usr/lib/debug/.build-id/%s/%s.debug" % (m[1], m[2])
        if debug and os.path.exists(debug):
            syms = sh("readelf", "-sW", debug)
    # .symtab when there is one, else .dynsym
    tables = re.split(r"\nSymbol table '", syms)
    chosen = [t for t in tables if t.startswith(".symtab")] or \
             [t for t in tables if t.startswith(".dynsym")]
    funcs = {}
    for t in chosen:
        for m in re.finditer(r"^\s*\d+: ([0-9a-f]+)\s+(\d+) FUNC\s+\S+\s+\S+\s+(\S+)\s+(\S+)",
                             t, re.M):
            addr, size, ndx, name = int(m[1], 16), int(m[2]), m[3], m[4]
            if ndx == "UND" or addr == 0:
                continue
            if addr not in funcs or size > funcs[addr][0]:
                funcs[addr] = (size, name.split("@")[0])
    fdes = []
    out = subprocess.run(["readelf", "--debug-dump=frames", path],
                         capture_output=True, text=True).stdout
    for m in re.finditer(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", out):
        fdes.append((int(m[1], 16), int(m[2], 16)))
    return arch, sections, funcs, fdes


def read_bytes(path, sections, addr, n):
    for name, a, off, size, _ in sections:
        if a and a <= addr and addr + n <= a + size:
            with open(path, "rb") as f:
                f.seek(off + addr - a)
                return f.read(n)
    return None


# ------------------------------------------------------------ disassembly

def classify_x86(i):
    words = i.mn.split()
    while len(words) > 1 and words[0] in X86_PREFIXES:
        words.pop(0)
    mn = words[0]
    i.nop = mn.startswith("nop") or (mn == "xchg" and i.ops == "%ax,%ax")
    if mn in ("jmp", "jmpq"):
        i.kind = "ijmp" if i.ops.startswith("*") else "jmp"
    elif mn.startswith("j") or mn.startswith("loop") or mn == "xbegin":
        i.kind = "jcc"
    elif mn in ("call", "callq"):
        i.kind = "icall" if i.ops.startswith("*") else "call"
    elif mn in ("ret", "retq", "retw", "lret", "lretq", "iret", "iretq", "iretd",
                "sysret", "sysretq", "sysexit", "uretq"):
        i.kind = "ret"
    elif mn in ("ud2", "ud1", "ud0", "hlt", "int3"):
        i.kind = "stop"
    else:
        i.kind = "plain"
    i.mn = mn


def classify_arm64(i):
    mn = i.mn
    i.nop = mn == "nop"
    if mn == "b":
        i.kind = "jmp"
    elif mn.startswith("b.") or mn.startswith("bc.") or mn in ("cbz", "cbnz", "tbz", "tbnz"):
        i.kind = "jcc"
    elif mn in ("br", "braa", "brab", "braaz", "brabz"):
        i.kind = "ijmp"
    elif mn == "bl":
        i.kind = "call"
    elif mn in ("blr", "blraa", "blrab", "blraaz", "blrabz"):
        i.kind = "icall"
    elif mn in ("ret", "retaa", "retab", "eret", "eretaa", "eretab"):
        i.kind = "ret"
    elif mn in ("brk", "udf", "hlt"):
        i.kind = "stop"
    else:
        i.kind = "plain"


LINE = re.compile(r"^\s*([0-9a-f]+):\t(\S+)(?:\s+(.*))?$")


def disassemble(path, arch, sections):
    """Every instruction of every executable section, in address order."""
    tool = "aarch64-linux-gnu-objdump" if arch == "arm64" else "objdump"
    out = sh(tool, "-d", "--no-show-raw-insn", "-w", path)
    classify = classify_arm64 if arch == "arm64" else classify_x86
    insns = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        i = Insn()
        i.addr = int(m[1], 16)
        ops = (m[3] or "")
        ops = ops.split("//")[0] if arch == "arm64" else ops.split("#")[0]
        i.mn, i.ops = m[2], ops.strip()
        if arch == "x86" and i.mn in X86_PREFIXES and i.ops:
            # "notrack jmp *%rax": objdump prints prefixes as words
            parts = i.ops.split(None, 1)
            i.mn, i.ops = i.mn + " " + parts[0], (parts[1] if len(parts) > 1 else "")
        classify(i)
        i.target, i.name = None, None
        if i.kind in ("jmp", "jcc", "call"):
            last = i.ops.split(",")[-1].strip() if arch == "arm64" else i.ops
            t = HEX.match(last)
            if t:
                i.target, i.name = int(t[1], 16), t[2]
        insns.append(i)
    insns.sort(key=lambda i: i.addr)
    ends = {a + s for _, a, _, s, x in sections if x}
    for k, i in enumerate(insns):
        nxt = insns[k + 1].addr if k + 1 < len(insns) else None
        i.size = (nxt - i.addr) if nxt and nxt - i.addr <= 15 else \
            min((e - i.addr for e in ends if e > i.addr), default=4)
        if arch == "arm64":
            i.size = 4
    return insns


# --------------------------------------------------------------- functions

def functions(insns, arch, funcs, fdes, sections):
    """(start, end, name) of each function: FUNC symbols with their size,
    then the FDEs that no symbol starts at (local functions of a stripped
    library). A symbol without a size runs to the next start."""
    exe = [(a, a + s) for _, a, _, s, x in sections if x]
    starts = sorted(set(funcs) | {a for a, _ in fdes})
    out = {}
    for a, (size, name) in funcs.items():
        end = a + size
        if size == 0:
            k = bisect.bisect_right(starts, a)
            end = starts[k] if k < len(starts) else max((e for s, e in exe if s <= a < e), default=a)
        out[a] = (a, end, name)
    for a, e in fdes:
        if a not in out:
            out[a] = (a, e, "fde@%#x" % a)
    return sorted(f for f in out.values() if f[1] > f[0] and any(s <= f[0] < e for s, e in exe))


def name_noreturn(name):
    if not name or "+0x" in name:
        return False
    return name.split("@")[0] in NORETURN


# ------------------------------------------------------------- jump tables

def x86_table(fn_insns, k, path, sections):
    """Targets of the jump table dispatched by fn_insns[k] (jmp *), or None."""
    j = fn_insns[k]
    back = fn_insns[max(0, k - 12):k][::-1]
    bound = table_bound_x86(fn_insns, k)
    m = re.match(r"\*(0x[0-9a-f]+)\(,%(\w+),8\)", j.ops)
    if m:                                   # absolute 8-byte entries
        if bound is None:
            return None
        base = int(m[1], 16)
        data = read_bytes(path, sections, base, 8 * bound)
        return data and [struct.unpack_from("<Q", data, 8 * n)[0] for n in range(bound)]
    m = re.match(r"\*%(\w+)$", j.ops)
    if not m:
        return None
    reg = m[1]
    add = next((i for i in back if i.mn == "add" and i.ops.endswith(",%" + reg)), None)
    load = next((i for i in back if i.mn == "movslq" and i.ops.endswith(",4),%" + reg)), None)
    if add is None or load is None or bound is None:
        return None
    # entries are relative to the register added (usually the table itself)
    table, base = rip_lea(fn_insns, k, load.ops.split("(%")[1].split(",")[0]), \
        rip_lea(fn_insns, k, add.ops.split(",")[0].lstrip("%"))
    if table is None or base is None:
        return None
    data = read_bytes(path, sections, table, 4 * bound)
    return data and [base + struct.unpack_from("<i", data, 4 * n)[0] for n in range(bound)]


def rip_lea(fn_insns, k, reg):
    """The address the nearest `lea X(%rip), %reg` before fn_insns[k] loads:
    the table's address may be loaded once, before a loop around the dispatch."""
    lea = next((i for i in fn_insns[k - 1::-1] if i.mn == "lea" and i.ops.endswith("(%rip),%" + reg)),
               None)
    return lea and lea.addr + lea.size + int(lea.ops.split("(")[0], 16)


def table_bound_x86(fn_insns, k):
    """Entries of the table: from the nearest `cmp $N, r` with its ja/jbe/
    jae/jb before the dispatch (ja/jbe: N+1 entries; jae/jb: N)."""
    for n in range(k - 1, max(-1, k - 40), -1):
        i = fn_insns[n]
        m = re.match(r"\$(0x[0-9a-f]+),", i.ops) if i.mn.startswith("cmp") else None
        jmn = m and next_jcc(fn_insns, n)
        if jmn in ("ja", "jbe"):
            return int(m[1], 16) + 1
        if jmn in ("jae", "jb", "jnb", "jnae"):
            return int(m[1], 16)
    return None


# x86 instructions that set flags; AArch64 ones end in s, or compare
FLAGS = re.compile(r"(cmp|test|add|sub|and|or|xor|inc|dec|neg|sh|sa|ro|bt|adc|sbb|imul|mul|div"
                   r"|cmn|tst|ccm|\w+s$)")


def next_jcc(fn_insns, n):
    """The conditional jump that tests the flags fn_insns[n] sets: within
    the next four instructions, none of them setting flags in between."""
    for i in fn_insns[n + 1:n + 5]:
        if i.kind == "jcc":
            return i.mn
        if i.kind != "plain" or FLAGS.match(i.mn):
            return None
    return None


EXT = {"sxtb": (1, True), "uxtb": (1, False), "sxth": (2, True), "uxth": (2, False),
       "sxtw": (4, True), "uxtw": (4, False)}


def arm64_table(fn_insns, k, path, sections):
    j = fn_insns[k]
    back = fn_insns[max(0, k - 12):k][::-1]
    reg = j.ops.strip()
    add = next((i for i in back if i.mn == "add" and i.ops.startswith(reg + ",")), None)
    if add is None:
        return None
    m = re.match(r"(\w+), (\w+), (\w+), (\w+)(?: #(\d+))?$", add.ops)
    if not m or m[4] not in EXT:
        return None
    breg, ireg, shift = m[2], m[3], int(m[5] or 0)
    adr = next((i for i in back if i.mn == "adr" and i.ops.startswith(breg + ",")), None)
    ld = next((i for i in back if i.mn in ("ldrb", "ldrh", "ldr", "ldrsw")
               and i.ops.startswith(ireg + ",")), None)
    if adr is None or ld is None:
        return None
    base = int(adr.ops.split(",")[1].split()[0], 16)
    lm = re.match(r"\w+, \[(\w+), (\w+)", ld.ops)
    if not lm:
        return None
    treg, jreg = lm[1], lm[2]
    size = {"ldrb": 1, "ldrh": 2}.get(ld.mn, 4)
    # the table's address may be loaded once, before a loop around the dispatch
    before = fn_insns[k - 1::-1]
    page = next((i for i in before if i.mn == "adrp" and i.ops.startswith(treg + ",")), None)
    lo = next((i for i in before if i.mn == "add" and i.ops.startswith(treg + ", " + treg + ", #")), None)
    bound = table_bound_arm64(fn_insns, k, jreg)
    if page is None or lo is None or bound is None:
        return None
    table = int(page.ops.split(",")[1].split()[0], 16) + int(lo.ops.split("#")[1], 16)
    data = read_bytes(path, sections, table, size * bound)
    if not data:
        return None
    fmt = {1: "b", 2: "h", 4: "i"}[size]
    esize, signed = EXT[m[4]]
    out = []
    for n in range(bound):
        v = struct.unpack_from("<" + (fmt if signed else fmt.upper()), data, size * n)[0]
        out.append(base + (v << shift))
    return out


def table_bound_arm64(fn_insns, k, jreg):
    """As table_bound_x86: `cmp wI, #N` with b.hi/b.ls (N+1 entries) or
    b.hs/b.lo (N)."""
    for n in range(k - 1, max(-1, k - 40), -1):
        i = fn_insns[n]
        m = re.match(r"[wx]%s, #(0x[0-9a-f]+|\d+)$" % jreg[1:], i.ops) if i.mn == "cmp" else None
        jmn = m and next_jcc(fn_insns, n)
        if jmn:
            v = int(m[1], 0)
            if jmn in ("b.hi", "b.ls"):
                return v + 1
            if jmn in ("b.cs", "b.hs", "b.cc", "b.lo"):
                return v
    return None


# -------------------------------------------------------------------- CFG

class Func:
    pass


def successors(fn, k, returns):
    """Successor instruction indices of fn.insns[k] (intra-function)."""
    i = fn.insns[k]
    nxt = [k + 1] if k + 1 < len(fn.insns) else []
    if i.kind == "plain" or i.kind == "icall":
        return nxt
    if i.kind == "call":
        return [] if not returns(i) else nxt
    if i.kind in ("ret", "stop"):
        return []
    if i.kind == "ijmp":
        return [fn.index[t] for t in fn.tables.get(k, []) if t in fn.index]
    tgt = [fn.index[i.target]] if i.target in fn.index else []
    return tgt if i.kind == "jmp" else nxt + tgt


def make_func(start, end, name, all_insns, addrs, starts, arch, path, sections):
    fn = Func()
    fn.start, fn.end, fn.name = start, end, name
    lo, hi = bisect.bisect_left(addrs, start), bisect.bisect_left(addrs, end)
    fn.insns = all_insns[lo:hi]
    fn.index = {i.addr: k for k, i in enumerate(fn.insns)}
    fn.tables, fn.unresolved = {}, []
    for k, i in enumerate(fn.insns):
        if i.kind != "ijmp":
            continue
        t = (arm64_table if arch == "arm64" else x86_table)(fn.insns, k, path, sections)
        if t and all(x in fn.index or x in starts for x in t):   # or a .cold part
            fn.tables[k] = t
        elif is_dispatch(fn, k, arch):
            fn.unresolved.append(i.addr)
    return fn


def is_dispatch(fn, k, arch):
    """An indirect jump that looks like a table dispatch (not a tail call
    through a register or the GOT): the register was computed by an add in
    the instructions just before."""
    i = fn.insns[k]
    reg = i.ops.lstrip("*%").strip()
    if arch == "x86" and "(" in i.ops:
        return ",8)" in i.ops
    back = fn.insns[max(0, k - 6):k]
    if arch == "arm64":
        return any(b.mn == "add" and b.ops.startswith(reg + ",") and ("xtb" in b.ops or "xth" in b.ops
                   or "xtw" in b.ops) for b in back)
    return any(b.mn == "add" and b.ops.endswith(",%" + reg) for b in back)


def can_return(fn, returns, func_at):
    """Is a ret, an indirect jump or a jump out of fn reachable from its entry?"""
    seen, todo = {0}, [0]
    while todo:
        k = todo.pop()
        i = fn.insns[k]
        if i.kind == "ret" or (i.kind == "ijmp" and k not in fn.tables):
            return True
        if i.kind in ("jmp", "jcc") and i.target is not None and i.target not in fn.index:
            if tail_returns(i, returns, func_at):
                return True
        if k + 1 == len(fn.insns) and i.kind in ("plain", "icall", "jcc") or \
           (k + 1 == len(fn.insns) and i.kind == "call" and returns(i)):
            return True                     # falls off its end into the next
        for s in successors(fn, k, returns):
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return False


def tail_returns(i, returns, func_at):
    f = func_at.get(i.target)
    if name_noreturn(i.name):
        return False
    return f is None or f.returns


def infer_noreturn(funcs, func_at):
    """Least fixed point: a function returns once one of its exits is
    reachable given what is known to return so far."""
    def returns(i):                         # of a call instruction
        if i.target is None:
            return True                     # indirect: unknown, assume so
        if name_noreturn(i.name):
            return False
        f = func_at.get(i.target)
        return f is None or f.returns
    for f in funcs:
        f.returns = False
    changed = True
    while changed:
        changed = False
        for f in funcs:
            if not f.returns and not name_noreturn(f.name) and f.insns and can_return(f, returns, func_at):
                f.returns = changed = True
    return returns


# ---------------------------------------------------------- loops, cycles

def blocks_of(fn, returns):
    n = len(fn.insns)
    lead = [False] * n
    if n:
        lead[0] = True
    succ_i = [successors(fn, k, returns) for k in range(n)]
    for k, i in enumerate(fn.insns):
        ends = i.kind not in ("plain", "icall") and not (i.kind == "call" and returns(i))
        if ends and k + 1 < n:
            lead[k + 1] = True
        for s in succ_i[k]:
            if s != k + 1:
                lead[s] = True
    starts = [k for k in range(n) if lead[k]]
    bid = [0] * n
    for b, s in enumerate(starts):
        e = starts[b + 1] if b + 1 < len(starts) else n
        for k in range(s, e):
            bid[k] = b
    blocks = []
    for b, s in enumerate(starts):
        e = starts[b + 1] if b + 1 < len(starts) else n
        last = e - 1
        succ = sorted({bid[x] for x in succ_i[last]})
        blocks.append({"first": s, "last": last, "start": fn.insns[s].addr,
                       "end": fn.insns[last].addr + fn.insns[last].size, "succ": succ,
                       "pad": all(fn.insns[k].nop for k in range(s, e))})
    return blocks


def dfs_order(blocks):
    """Reverse postorder from the entry, then from each block nothing has
    reached yet (lowest address first, padding skipped): the roots."""
    n = len(blocks)
    post, seen, roots = [], [False] * n, []
    for r in range(n):
        if seen[r] or (r and blocks[r]["pad"]):
            continue
        roots.append(r)
        seen[r] = True
        stack = [(r, iter(blocks[r]["succ"]))]
        while stack:
            b, it = stack[-1]
            for s in it:
                if not seen[s]:
                    seen[s] = True
                    stack.append((s, iter(blocks[s]["succ"])))
                    break
            else:
                post.append(b)
                stack.pop()
    return post[::-1], roots


def dominators(blocks, rpo, roots):
    """Cooper, Harvey and Kennedy's iterative algorithm; a virtual root
    (index -1) above every root."""
    order = {b: k for k, b in enumerate(rpo)}
    preds = {b: [] for b in rpo}
    for b in rpo:
        for s in blocks[b]["succ"]:
            if s in preds:
                preds[s].append(b)
    idom = {r: -1 for r in roots}

    def intersect(a, b):
        while a != b:
            while a != -1 and (b == -1 or order[a] > order[b]):
                a = idom[a]
            while b != -1 and (a == -1 or order[b] > order[a]):
                b = idom[b]
        return a
    changed = True
    while changed:
        changed = False
        for b in rpo:
            if b in roots:
                continue
            new = None
            for p in preds[b]:
                if p in idom:
                    new = p if new is None else intersect(p, new)
            if new is not None and idom.get(b) != new:
                idom[b] = new
                changed = True
    return idom, preds


def dominates(idom, a, b):
    while b != -1:
        if b == a:
            return True
        b = idom.get(b, -1)
    return False


def sccs(nodes, succ):
    """Tarjan, iterative. succ: node -> iterable of nodes."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for v0 in nodes:
        if v0 in index:
            continue
        work = [(v0, iter(succ(v0)))]
        index[v0] = low[v0] = counter[0]
        counter[0] += 1
        stack.append(v0)
        on.add(v0)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(succ(w))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp)
    return out


def gap_is_padding(fn, lo, hi):
    """Are the bytes [lo, hi) of fn only nops (or nothing)?"""
    k = fn.index.get(lo)
    while lo < hi:
        if k is None or not fn.insns[k].nop:
            return False
        lo = fn.insns[k].addr + fn.insns[k].size
        k += 1
        if k >= len(fn.insns):
            break
    return lo >= hi


def loop_span(fn, blocks, header, body):
    """From the header's block (or any block of the loop),
    grow over every loop block that touches the run or is separated from it
    only by padding."""
    s, e = blocks[header]["start"], blocks[header]["end"]
    rest = sorted(body - {header}, key=lambda b: blocks[b]["start"])
    grown = True
    while grown:
        grown = False
        for b in rest:
            bs, be = blocks[b]["start"], blocks[b]["end"]
            if bs >= e and gap_is_padding(fn, e, bs):
                e, grown = be, True
            elif be <= s and gap_is_padding(fn, be, s):
                s, grown = bs, True
    return s, e


def loop_pieces(fn, blocks, idom, h, latches, body):
    """The runs every iteration fetches: the header's, and that
    of each block dominating every latch (the dominators of each latch,
    intersected, are the header and the blocks between), in address
    order."""
    doms = None
    for u in latches:
        chain, b = set(), u
        while b != -1:
            chain.add(b)
            if b == h:
                break
            b = idom.get(b, -1)
        doms = chain if doms is None else doms & chain
    pieces = [loop_span(fn, blocks, h, body)]
    for b in sorted(doms - {h}, key=lambda b: blocks[b]["start"]):
        if not any(s <= blocks[b]["start"] < e for s, e in pieces):
            pieces.append(loop_span(fn, blocks, b, body))
    return sorted(pieces)


def cycle_edges(fn, blocks, body):
    """The edges between two blocks of a cycle, as (where the source's last
    instruction is, where the target starts): the stricter check wants one
    of them inside the bytes a loop is judged by."""
    return [(fn.insns[blocks[u]["last"]].addr, blocks[v]["start"])
            for u in body for v in blocks[u]["succ"] if v in body]


def cycles_of(fn, returns):
    """Natural loops (header, body, span, extent) and irreducible cycles
    (the cycles left when every natural back edge is removed)."""
    blocks = blocks_of(fn, returns)
    rpo, roots = dfs_order(blocks)
    idom, preds = dominators(blocks, rpo, roots)
    back = [(u, v) for u in rpo for v in blocks[u]["succ"] if dominates(idom, v, u)]
    loops = {}
    for u, h in back:
        loops.setdefault(h, set()).add(u)
    out = []
    for h, latches in sorted(loops.items()):
        body, todo = {h} | latches, [u for u in latches if u != h]
        while todo:
            b = todo.pop()
            for p in preds.get(b, []):
                if p not in body:
                    body.add(p)
                    todo.append(p)
        span = loop_span(fn, blocks, h, body)
        out.append({"kind": "loop", "header": blocks[h]["start"], "span": span,
                    "pieces": loop_pieces(fn, blocks, idom, h, latches, body),
                    "edges": cycle_edges(fn, blocks, body),
                    "extent": extent(blocks, body), "entries": [blocks[h]["start"]],
                    "starts": {blocks[b]["start"] for b in body},
                    "ends": {blocks[b]["end"] for b in body}})
    # An irreducible cycle's extent is that of the whole strongly connected
    # component holding it: with the back edges it may run through blocks
    # of an enclosing natural loop too (its header, say).
    whole = {}
    for comp in sccs(rpo, lambda b: blocks[b]["succ"]):
        for b in comp:
            whole[b] = comp
    backset = set(back)
    for comp in sccs(rpo, lambda b: [s for s in blocks[b]["succ"] if (b, s) not in backset]):
        if len(comp) < 2:
            continue
        cs = set(comp)
        entries = sorted(blocks[b]["start"] for b in comp
                         if b in roots or any(p not in cs for p in preds.get(b, [])))
        out.append({"kind": "irreducible", "header": entries[0], "span": None,
                    "edges": cycle_edges(fn, blocks, cs),
                    "extent": extent(blocks, whole[comp[0]]), "entries": entries,
                    "blocks": sorted(blocks[b]["start"] for b in comp)})
    return out


def extent(blocks, bs):
    return min(blocks[b]["start"] for b in bs), max(blocks[b]["end"] for b in bs)


# ------------------------------------------------------------ comparison

def straddle_loops(binary, path):
    out = subprocess.run([binary, "scan", "--all", "--json", "--no-source", path],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("cycles.py: %s scan %s: exit %d: %s" % (binary, path, out.returncode,
                                                         out.stderr.strip()))
    doc = json.loads(out.stdout)
    loops = []
    for f in doc["files"]:
        for fn in f["functions"]:
            for lp in fn["loops"]:
                start, end = int(lp["start"], 16), int(lp["end"], 16)
                pieces = [(int(p["start"], 16), int(p["end"], 16))
                          for p in lp.get("pieces", [])] or [(start, end)]
                loops.append({"func": fn["name"], "start": start, "end": end, "pieces": pieces,
                              "irreducible": lp.get("irreducible", False),
                              "same_span": lp.get("same_span_loops", 0)})
    return loops


def truth(path):
    arch, sections, syms, fdes = elf_facts(path)
    insns = disassemble(path, arch, sections)
    addrs = [i.addr for i in insns]
    starts = set(addrs)
    funcs = [make_func(s, e, n, insns, addrs, starts, arch, path, sections)
             for s, e, n in functions(insns, arch, syms, fdes, sections)]
    func_at = {f.start: f for f in funcs}
    returns = infer_noreturn(funcs, func_at)
    cycles, excluded = [], []
    for f in funcs:
        if not any(i.kind in ("jmp", "jcc", "ijmp") for i in f.insns):
            continue
        if f.unresolved:
            excluded.append(f)
            continue
        for c in cycles_of(f, returns):
            c["func"] = f.name
            cycles.append(c)
    return arch, cycles, excluded


def matches(lp, c):
    """lp holds c: c's header (for an irreducible cycle, which has none: one
    of its blocks) in lp's span, and lp's span within c's extent."""
    heads = c.get("blocks", [c["header"]])
    return any(lp["start"] <= a < lp["end"] for a in heads) and \
        c["extent"][0] <= lp["start"] and lp["end"] <= c["extent"][1]


def compare(path, binary, show, minimum, exact):
    arch, cycles, excluded = truth(path)
    ex = [(f.start, f.end) for f in excluded]
    inside_ex = lambda a: any(s <= a < e for s, e in ex)
    loops = [lp for lp in straddle_loops(binary, path) if not inside_ex(lp["start"])]
    by_start = sorted(loops, key=lambda lp: lp["start"])
    starts = [lp["start"] for lp in by_start]
    maxlen = max((lp["end"] - lp["start"] for lp in loops), default=0)

    def near(lo, hi):           # straddle loops that may overlap [lo, hi)
        k = bisect.bisect_left(starts, lo - maxlen)
        while k < len(by_start) and by_start[k]["start"] < hi:
            yield by_start[k]
            k += 1

    natural = [c for c in cycles if c["kind"] == "loop"]
    span_in, span_eq, span_edges, bad_span, bad_edges = 0, 0, 0, [], []
    for c in natural:
        h, (s, e) = c["header"], c["span"]
        # straddle's loop of this header: holding it, and no larger than
        # the loop's blocks reach (an enclosing loop is not it)
        lo, hi = c["extent"]
        # (the smallest by its bytes: a loop in pieces reaches further
        # than a loop of more bytes laid out in one run around it)
        holding = [lp for lp in near(h, h + 1)
                   if any(ps <= h < pe for ps, pe in lp["pieces"]) and
                   lo <= lp["start"] and lp["end"] <= hi and not lp["irreducible"]]
        own = min(holding, key=lambda lp: sum(pe - ps for ps, pe in lp["pieces"]),
                  default=None)
        # every piece of the truth's inside one of straddle's
        if own and all(any(os <= ps and pe <= oe for os, oe in own["pieces"])
                       for ps, pe in c["pieces"]):
            span_in += 1
            span_eq += own["pieces"] == c["pieces"]
            # where the two readings of "code between" differ, straddle's
            # pieces may be larger, but each still begins and ends with
            # blocks of this loop
            if all(ps in c["starts"] and pe in c["ends"] for ps, pe in own["pieces"]):
                span_edges += 1
            else:
                bad_edges.append((c, own))
        else:
            bad_span.append((c, own))
    held, closed = set(), set()
    recalled, bad_recall = 0, []
    for c in cycles:
        lo, hi = c["extent"]
        m = [lp for lp in near(lo, hi) if matches(lp, c)]
        for lp in m:
            held.add(id(lp))
            # strict: the bytes judged hold both ends of an edge of the cycle
            inside = lambda a: any(ps <= a < pe for ps, pe in lp["pieces"])
            if any(inside(a) and inside(t) for a, t in c["edges"]):
                closed.add(id(lp))
        if m:
            recalled += 1
        else:
            bad_recall.append(c)
    bad_prec = [lp for lp in loops if id(lp) not in held]
    bad_strict = [lp for lp in loops if id(lp) not in closed]

    pct = lambda a, b: 100.0 * a / b if b else 100.0
    figures = [pct(span_in, len(natural)), pct(len(loops) - len(bad_prec), len(loops)),
               pct(recalled, len(cycles)), pct(len(loops) - len(bad_strict), len(loops))]
    print("%s: %s, truth %d natural loops + %d irreducible cycles, straddle %d loops; "
          "%d functions excluded (unreadable jump table)" % (
              path, arch, len(natural), len(cycles) - len(natural), len(loops), len(excluded)))
    print("  span       %6.2f%%  (%d/%d inside one straddle span; %d/%d equal: %.2f%%; "
          "%d/%d begin and end with loop blocks: %.2f%%)" % (
              figures[0], span_in, len(natural), span_eq, len(natural), pct(span_eq, len(natural)),
              span_edges, len(natural), pct(span_edges, len(natural))))
    print("  precision  %6.2f%%  (%d/%d straddle loops hold a real cycle)" % (
        figures[1], len(loops) - len(bad_prec), len(loops)))
    print("  recall     %6.2f%%  (%d/%d truth cycles inside a reported loop)" % (
        figures[2], recalled, len(cycles)))
    print("  strict     %6.2f%%  (%d/%d straddle loops whose pieces hold both ends of an "
          "edge of their cycle)" % (figures[3], len(loops) - len(bad_strict), len(loops)))
    # one row a span: the same bytes twice are the same hazards twice
    # (pieces: the same range in other pieces is other bytes)
    spans = collections.Counter((lp["func"], tuple(lp["pieces"])) for lp in loops)
    twice = [k for k, n in spans.items() if n > 1]
    print("  twice      %d spans reported more than once" % len(twice))
    pieces = lambda ps: "+".join("%#x..%#x" % p for p in ps)
    for c, own in bad_span[:show]:
        print("    span:      %-32s header %#x truth %s straddle %s" % (
            c["func"], c["header"], pieces(c["pieces"]), pieces(own["pieces"]) if own else "no loop"))
    for lp in bad_prec[:show]:
        print("    precision: %-32s straddle %#x..%#x%s: no cycle" % (
            lp["func"], lp["start"], lp["end"], " irreducible" if lp["irreducible"] else ""))
    for lp in bad_strict[:show]:
        print("    strict:    %-32s straddle %s: no edge of the cycle" % (lp["func"], pieces(lp["pieces"])))
    for c in bad_recall[:show]:
        print("    recall:    %-32s %s %#x extent %#x..%#x entries %s" % (
            c["func"], c["kind"], c["header"], c["extent"][0], c["extent"][1],
            ",".join("%#x" % a for a in c["entries"][:4])))
    for func, ps in twice[:show]:
        print("    twice:     %-32s straddle %s" % (func, pieces(ps)))
    for f in excluded[:show]:
        print("    excluded:  %-32s %#x: indirect jump at %s" % (
            f.name, f.start, ",".join("%#x" % a for a in f.unresolved[:4])))
    if exact:   # fixtures: every span bounded by loop blocks, one loop per cycle
        figures.append(pct(span_edges, len(natural)))
        for c, own in bad_edges[:show]:
            print("    edges:     %-32s header %#x truth %s straddle %s" % (
                c["func"], c["header"], pieces(c["pieces"]), pieces(own["pieces"])))
        if twice:
            print("  not exact: %d spans reported more than once" % len(twice))
            return False
        # a row stands for the loops of its span folded into it
        folded = sum(1 + lp["same_span"] for lp in loops)
        if folded != len(cycles):
            print("  not exact: %d straddle loops for %d truth cycles" % (folded, len(cycles)))
            return False
    below = [n for n, x in zip(("span", "precision", "recall", "strict", "edges"), figures)
             if x < minimum]
    if minimum:
        print("  goal %.1f%%: %s" % (minimum, "not met (%s)" % ", ".join(below) if below else "met"))
    return not below


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--straddle", default="build/straddle")
    ap.add_argument("--show", type=int, default=10, help="disagreements listed per measure")
    ap.add_argument("--min", type=float, default=0.0, help="exit 1 below this %% on any measure")
    ap.add_argument("--exact", action="store_true",
                    help="also require equal spans and one straddle loop per truth cycle")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    ok = True
    for p in a.files:
        ok &= compare(p, a.straddle, a.show, a.min, a.exact)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
