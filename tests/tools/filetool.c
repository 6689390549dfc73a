/* Inputs the command tests cannot make with the shell (tests/cmd/t_files.sh):
 *   filetool sparse-elf PATH BYTES  an x86-64 ELF whose one function "big"
 *                                   claims BYTES of .text that the file has
 *                                   only as a hole (sparse: a few KiB on disk)
 *   filetool socket PATH            a Unix socket bound at PATH
 *   filetool peak-rss CMD...        runs CMD; prints "exit N maxrss_kib N"
 *                                   from getrusage(RUSAGE_CHILDREN) */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define TEXT_OFF 0x1000ull
#define TEXT_ADDR 0x401000ull

static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
static const char str[] = "\0big";

static int put(int fd, const void *p, size_t n, unsigned long long off)
{
	return pwrite(fd, p, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

static int sparse_elf(const char *path, unsigned long long bytes)
{
	unsigned long long sym_off = (TEXT_OFF + bytes + 7) & ~7ull;
	unsigned long long str_off = sym_off + 2 * sizeof(Elf64_Sym);
	unsigned long long shstr_off = str_off + sizeof str;
	unsigned long long sh_off = (shstr_off + sizeof shstr + 7) & ~7ull;
	Elf64_Ehdr h = { .e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
			 .e_entry = TEXT_ADDR, .e_shoff = sh_off, .e_ehsize = sizeof h,
			 .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 5, .e_shstrndx = 4 };
	Elf64_Sym sym[2] = { { 0 }, { .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				      .st_shndx = 1, .st_value = TEXT_ADDR, .st_size = bytes } };
	Elf64_Shdr sh[5] = {
		{ 0 },
		{ .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
		  .sh_addr = TEXT_ADDR, .sh_offset = TEXT_OFF, .sh_size = bytes, .sh_addralign = 16 },
		{ .sh_name = 7, .sh_type = SHT_SYMTAB, .sh_offset = sym_off, .sh_size = sizeof sym,
		  .sh_link = 3, .sh_info = 1, .sh_addralign = 8, .sh_entsize = sizeof(Elf64_Sym) },
		{ .sh_name = 15, .sh_type = SHT_STRTAB, .sh_offset = str_off, .sh_size = sizeof str,
		  .sh_addralign = 1 },
		{ .sh_name = 23, .sh_type = SHT_STRTAB, .sh_offset = shstr_off,
		  .sh_size = sizeof shstr, .sh_addralign = 1 },
	};
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS64;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_ident[EI_VERSION] = EV_CURRENT;
	if (fd < 0 || put(fd, &h, sizeof h, 0) || put(fd, sym, sizeof sym, sym_off) ||
	    put(fd, str, sizeof str, str_off) || put(fd, shstr, sizeof shstr, shstr_off) ||
	    put(fd, sh, sizeof sh, sh_off) || close(fd)) {
		perror(path);
		return 1;
	}
	return 0;
}

static int bind_socket(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

static int peak_rss(char **argv)
{
	struct rusage ru;
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || getrusage(RUSAGE_CHILDREN, &ru)) {
		perror("peak-rss");
		return 1;
	}
	printf("exit %d maxrss_kib %ld\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), ru.ru_maxrss);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "sparse-elf") == 0)
		return sparse_elf(argv[2], strtoull(argv[3], NULL, 0));
	if (argc == 3 && strcmp(argv[1], "socket") == 0)
		return bind_socket(argv[2]);
	if (argc >= 3 && strcmp(argv[1], "peak-rss") == 0)
		return peak_rss(argv + 2);
	fprintf(stderr, "usage: filetool sparse-elf PATH BYTES | socket PATH | peak-rss CMD...\n");
	return 2;
}
