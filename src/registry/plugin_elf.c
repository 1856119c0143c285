/* plugin_elf.c - what a plugin file is, read from its ELF sections before
 * it is loaded: dlopen runs the file's constructors, so every check that
 * can refuse it (entry point, ABI version, CUDA runtime) is made here.
 *  - CUDA device code lives in .nv_fatbin.  A library on the shared runtime
 *    has a DT_NEEDED entry for libcudart.so; the static runtime, nvcc's
 *    default, leaves none: its symbols are internal to the plugin.
 *  - GEMMPROF_PLUGIN exports gemmprof_plugin and the constant
 *    gemmprof_abi_version, found in .dynsym and read from the file. */
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "registry.h"

typedef struct {
    const unsigned char *img;
    size_t size;
    const Elf64_Shdr *sh;       /* the section headers, bounds-checked */
    int nsh;
} elf_file;

/* [off, off+len) lies inside the file. */
static int inside(const elf_file *e, Elf64_Off off, Elf64_Xword len)
{
    return off <= e->size && e->size - off >= len;
}

static int open_elf(elf_file *e)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)e->img;
    if (e->size < sizeof *eh || memcmp(e->img, ELFMAG, SELFMAG) != 0 ||
        e->img[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shstrndx >= eh->e_shnum ||
        !inside(e, eh->e_shoff, (Elf64_Xword)eh->e_shnum * sizeof(Elf64_Shdr)))
        return -1;
    e->sh = (const Elf64_Shdr *)(e->img + eh->e_shoff);
    e->nsh = eh->e_shnum;
    return 0;
}

/* Section i's bytes, or NULL (out of the file, or NOBITS). */
static const unsigned char *section(const elf_file *e, int i)
{
    if (i <= 0 || i >= e->nsh || e->sh[i].sh_type == SHT_NOBITS ||
        !inside(e, e->sh[i].sh_offset, e->sh[i].sh_size))
        return NULL;
    return e->img + e->sh[i].sh_offset;
}

/* The string at `off` of string table section i, or "". */
static const char *string_at(const elf_file *e, int i, Elf64_Word off)
{
    const char *s = (const char *)section(e, i);
    if (!s || off >= e->sh[i].sh_size || !memchr(s + off, '\0', e->sh[i].sh_size - off))
        return "";
    return s + off;
}

/* The first section of type `type`, or the one called `name` if given. */
static int find_section(const elf_file *e, Elf64_Word type, const char *name)
{
    int names = ((const Elf64_Ehdr *)e->img)->e_shstrndx;
    for (int i = 1; i < e->nsh; i++)
        if (name ? strcmp(string_at(e, names, e->sh[i].sh_name), name) == 0
                 : e->sh[i].sh_type == type)
            return i;
    return 0;
}

/* 1 if a DT_NEEDED entry names libcudart.so. */
static int needs_cudart(const elf_file *e)
{
    int i = find_section(e, SHT_DYNAMIC, NULL);
    const Elf64_Dyn *d = (const Elf64_Dyn *)section(e, i);
    if (!d)
        return 0;
    for (size_t j = 0; j < e->sh[i].sh_size / sizeof *d && d[j].d_tag != DT_NULL; j++)
        if (d[j].d_tag == DT_NEEDED &&
            strncmp(string_at(e, (int)e->sh[i].sh_link, (Elf64_Word)d[j].d_un.d_val),
                    "libcudart.so", 12) == 0)
            return 1;
    return 0;
}

/* The value of the exported 4-byte constant `sym`, read from its section. */
static int read_int(const elf_file *e, const Elf64_Sym *sym, int *out)
{
    if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= e->nsh || sym->st_size != 4)
        return -1;
    const Elf64_Shdr *sh = &e->sh[sym->st_shndx];
    const unsigned char *bytes = section(e, sym->st_shndx);
    if (!bytes || sh->sh_size < 4 || sym->st_value < sh->sh_addr || sym->st_value - sh->sh_addr > sh->sh_size - 4)
        return -1;
    memcpy(out, bytes + (sym->st_value - sh->sh_addr), 4);
    return 0;
}

static void exported(const elf_file *e, gp_plugin_facts *f)
{
    int i = find_section(e, SHT_DYNSYM, NULL);
    const Elf64_Sym *s = (const Elf64_Sym *)section(e, i);
    for (size_t j = 1; s && j < e->sh[i].sh_size / sizeof *s; j++) {
        const char *name = string_at(e, (int)e->sh[i].sh_link, s[j].st_name);
        if (s[j].st_shndx == SHN_UNDEF)
            continue;
        if (strcmp(name, GEMMPROF_PLUGIN_SYMBOL) == 0)
            f->has_entry = 1;
        else if (strcmp(name, GEMMPROF_ABI_SYMBOL) == 0)
            f->has_abi = read_int(e, &s[j], &f->abi) == 0;
    }
}

static int inspect(elf_file *e, gp_plugin_facts *f)
{
    memset(f, 0, sizeof *f);
    if (open_elf(e) < 0 || ((const Elf64_Ehdr *)e->img)->e_type != ET_DYN)
        return -1;
    f->runtime = !find_section(e, 0, ".nv_fatbin") ? GP_RT_NONE
               : needs_cudart(e) ? GP_RT_SHARED : GP_RT_OWN;
    exported(e, f);
    return 0;
}

int gp_plugin_inspect(const char *path, gp_plugin_facts *f)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    memset(f, 0, sizeof *f);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
        close(fd);
        return -1;
    }
    elf_file e = { .size = (size_t)st.st_size };
    void *img = mmap(NULL, e.size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED)
        return -1;
    e.img = img;
    int rc = inspect(&e, f);
    munmap(img, e.size);
    return rc;
}

int gp_plugin_cuda_runtime(const char *path)
{
    gp_plugin_facts f;
    return gp_plugin_inspect(path, &f) < 0 ? -1 : f.runtime;
}
