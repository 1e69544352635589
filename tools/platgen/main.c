// SPDX-License-Identifier: GPL-2.0-only
/*
 * platgen COMMAND FILE: the command line.  Every command validates FILE
 * the same way first, so "check" can never disagree with the others.
 */
#include <errno.h>
#include <string.h>

#include "platgen.h"

static const struct pg_command {
	const char *name;
	void (*emit)(const struct pg_platform *p, FILE *out);
} pg_commands[] = {
	{ "check",	NULL },
	{ "info",	pg_emit_info },
	{ "dts",	pg_emit_dts },
	{ "facts",	pg_emit_facts },
};

static int usage(void)
{
	fputs("usage: platgen {check|info|dts|facts} FILE\n"
	      "  check  validate FILE, print nothing\n"
	      "  info   shell variables for the QEMU runner\n"
	      "  dts    DT fragment to append to QEMU's decompiled virt DTS\n"
	      "  facts  what a correctly booted guest must show (sorted)\n",
	      stderr);
	return 2;
}

static const struct pg_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(pg_commands) / sizeof(pg_commands[0]); i++)
		if (!strcmp(pg_commands[i].name, name))
			return &pg_commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static struct pg_platform plat;
	const struct pg_command *cmd;

	if (argc != 3)
		return usage();
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage();
	/* Nothing reaches stdout unless the whole file is valid. */
	if (pg_load(&plat, argv[2]))
		return 1;
	if (!cmd->emit)
		return 0;
	cmd->emit(&plat, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "platgen: writing output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
