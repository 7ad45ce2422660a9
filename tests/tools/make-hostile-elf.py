#!/usr/bin/env python3
"""Write the hostile ELF of issue 13 item 19: an x86-64 ELF64 whose
section headers hold SYMTABS symbol tables (20,000 by default), all over
the same four function symbols, and one SYMTAB_SHNDX linked to the first
table. Symbol f3 has st_shndx = SHN_XINDEX: only the SHNDX entry says it
lies in .text (section 1), so a reader that finds the wrong or no SHNDX
section loses it.

With NOTES > 0, as many NOTE sections follow, each over the same 64 KiB
of notes that are not a build id (4,096 notes of 16 bytes): searching
each of them for a build id is 4,096 notes times NOTES.

usage: make-hostile-elf.py OUT [SYMTABS [NOTES]]
tests/data/hostile/elf-20000-symtab.gz is `make-hostile-elf.py x; gzip -n9 x`,
tests/data/hostile/elf-20000-notes.gz `make-hostile-elf.py x 1 20000`.
"""
import struct
import sys

out = sys.argv[1]
nsymtab = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
nnotes = int(sys.argv[3]) if len(sys.argv) > 3 else 0

TEXT_ADDR, TEXT_SIZE = 0x401000, 0x100
SHN_XINDEX = 0xffff

strtab = b'\0' + b''.join(b'f%d\0' % i for i in range(4))
syms = [b'\0' * 24]
for i in range(4):
    name = 1 + 3 * i
    shndx = SHN_XINDEX if i == 3 else 1
    # st_name, st_info (GLOBAL FUNC), st_other, st_shndx, st_value, st_size
    syms.append(struct.pack('<IBBHQQ', name, 0x12, 0, shndx,
                            TEXT_ADDR + 0x40 * i, 0x40))
symdata = b''.join(syms)
# SYMTAB_SHNDX: one u32 per symbol, the real section index of XINDEX ones
shndx = struct.pack('<5I', 0, 0, 0, 0, 1)
shstr = b'\0.text\0.strtab\0.symtab\0.symtab_shndx\0.shstrtab\0.note\0'
n_note = shstr.index(b'.note')
# namesz 4, descsz 0, type 1 (NT_GNU_ABI_TAG, not a build id), "GNU\0"
notes = struct.pack('<III', 4, 0, 1) + b'GNU\0'
notes *= 4096 if nnotes else 0
n_text, n_str = shstr.index(b'.text'), shstr.index(b'.strtab')
n_sym, n_x = shstr.index(b'.symtab\0'), shstr.index(b'.symtab_shndx')
n_shstr = shstr.index(b'.shstrtab')

body = bytearray(0x1000)              # ELF header, program header, padding
text_off = len(body)
body += b'\xc3' * TEXT_SIZE
str_off = len(body); body += strtab
body += b'\0' * (-len(body) % 8)
sym_off = len(body); body += symdata
x_off = len(body); body += shndx
shstr_off = len(body); body += shstr
body += b'\0' * (-len(body) % 8)
note_off = len(body); body += notes
body += b'\0' * (-len(body) % 8)
sh_off = len(body)


def shdr(name, typ, flags, addr, off, size, link, info, align, entsize):
    return struct.pack('<IIQQQQIIQQ', name, typ, flags, addr, off, size,
                       link, info, align, entsize)


sh = [b'\0' * 64,
      shdr(n_text, 1, 6, TEXT_ADDR, text_off, TEXT_SIZE, 0, 0, 16, 0),
      shdr(n_str, 3, 0, 0, str_off, len(strtab), 0, 0, 1, 0)]
first_symtab = len(sh)
for _ in range(nsymtab):
    sh.append(shdr(n_sym, 2, 0, 0, sym_off, len(symdata), 2, 1, 8, 24))
sh.append(shdr(n_x, 18, 0, 0, x_off, len(shndx), first_symtab, 0, 4, 4))
for _ in range(nnotes):
    sh.append(shdr(n_note, 7, 0, 0, note_off, len(notes), 0, 0, 4, 0))
sh.append(shdr(n_shstr, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0))
shnum = len(sh)
assert shnum < 0xff00, 'keep e_shnum in range'

ehdr = b'\x7fELF' + bytes([2, 1, 1]) + b'\0' * 9
ehdr += struct.pack('<HHIQQQIHHHHHH', 2, 62, 1, TEXT_ADDR, 64, sh_off, 0,
                    64, 56, 1, 64, shnum, shnum - 1)
phdr = struct.pack('<IIQQQQQQ', 1, 5, text_off, TEXT_ADDR, TEXT_ADDR,
                   TEXT_SIZE, TEXT_SIZE, 0x1000)
body[0:len(ehdr)] = ehdr
body[64:64 + len(phdr)] = phdr
with open(out, 'wb') as f:
    f.write(bytes(body) + b''.join(sh))
