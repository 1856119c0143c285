/* plugin_elf.c - which CUDA runtime a plugin file uses, read from its ELF
 * sections.  CUDA device code lives in .nv_fatbin; a library on the shared
 * runtime names libcudart.so in .dynstr (its DT_NEEDED entry and symbol
 * versions), while the static runtime, nvcc's default, leaves no trace
 * there: its symbols are internal to the plugin. */
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "registry.h"

/* The section called `want`, or NULL; every offset is bounds-checked. */
static const Elf64_Shdr *find_section(const unsigned char *img, size_t size,
                                      const char *want)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shstrndx >= eh->e_shnum ||
        eh->e_shoff > size || (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
        return NULL;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    const Elf64_Shdr *names = &sh[eh->e_shstrndx];
    if (names->sh_offset > size || size - names->sh_offset < names->sh_size)
        return NULL;
    const char *str = (const char *)img + names->sh_offset;
    size_t len = strlen(want);
    for (int i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_name < names->sh_size &&
            names->sh_size - sh[i].sh_name > len &&
            memcmp(str + sh[i].sh_name, want, len + 1) == 0)
            return &sh[i];
    return NULL;
}

static int classify(const unsigned char *img, size_t size)
{
    if (size < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) != 0 ||
        img[EI_CLASS] != ELFCLASS64)
        return -1;
    if (!find_section(img, size, ".nv_fatbin"))
        return GP_RT_NONE;
    const Elf64_Shdr *dyn = find_section(img, size, ".dynstr");
    if (dyn && dyn->sh_offset <= size && size - dyn->sh_offset >= dyn->sh_size &&
        memmem(img + dyn->sh_offset, dyn->sh_size, "libcudart.so", 12))
        return GP_RT_SHARED;
    return GP_RT_OWN;
}

int gp_plugin_cuda_runtime(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    void *img = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED)
        return -1;
    int kind = classify(img, size);
    munmap(img, size);
    return kind;
}
