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
	{ "model",	pg_emit_model },
};

static void print_usage(FILE *out)
{
	fputs("usage: platgen {check|info|dts|facts|model} FILE\n"
	      "       platgen {help|-h|--help}\n"
	      "  check  validate FILE, print nothing\n"
	      "  info   shell variables for the QEMU runner\n"
	      "  dts    DT fragment to append to QEMU's decompiled virt DTS\n"
	      "  facts  what a correctly booted guest must show (sorted)\n"
	      "  model  the derived model for scripts, one record per line:\n"
	      "    platform NAME nr_cpus N nr_clusters C nr_domains D em 0|1 asym 0|1 board 0|1\n"
	      "      [nr_nodes K]\n"
	      "    cluster K cpus LIST nr_cpus N\n"
	      "    node K cpus LIST nr_cpus N memory_mb M distance LIST\n"
	      "    cpu K domain NAME capacity C cluster K [node K]\n"
	      "    domain NAME index I cpus LIST nr_cpus N first_cpu F core CORE dmips_mhz M\n"
	      "      capacity C top_khz F nr_opps K latency_ns L em 0|1 idle_power_uw P|-\n"
	      "      [board_wfi_cpu_uw P board_wfi_cluster_uw P nr_idle_states S]\n"
	      "    opp NAME index K khz F uv V capacity C power_uw P|-\n"
	      "      [board_cpu_uw P board_cluster_uw P]\n"
	      "    idle NAME index K state STATE scope cpu|cluster entry_us E exit_us X\n"
	      "      latency_us L residency_us R board_cpu_uw P board_cluster_uw P\n"
	      "    each a single line: \"KIND ID\" then \"KEY VALUE\" pairs, in this order;\n"
	      "    [ ] and idle lines only with a board model, but nr_nodes, node\n"
	      "    and the node lines only with numa-node lines; \"-\": not in FILE;\n"
	      "    LIST: CPU ids, ascending, comma separated, and distance the\n"
	      "    node's to each node, in node order.  Capacities in the kernel's\n"
	      "    integers, truncated: cpu (and domain) as Linux 6.12's\n"
	      "    topology_normalize_cpu_scale(), (dmips x top_khz << 10) / max of\n"
	      "    that; opp as its Energy Model (em_init_performance()), capacity x\n"
	      "    khz / top_khz.  idle index 0 is WFI (board-wfi), then board-idle.\n",
	      out);
}

/* A usage error: stdout stays clean for whoever reads the output. */
static int usage(void)
{
	print_usage(stderr);
	return 2;
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "--help");
}

/* Output asked for, so it goes to stdout and a write error is a failure. */
static int finish_output(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "platgen: writing output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
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

	/* Help takes no FILE: "platgen help FILE" is a usage error. */
	if (argc == 2 && is_help(argv[1])) {
		print_usage(stdout);
		return finish_output();
	}
	if (argc != 3)
		return usage();
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage();
	/* Nothing reaches stdout unless the whole file is valid. */
	if (pg_load(&plat, "platgen", argv[2]))
		return 1;
	if (!cmd->emit)
		return 0;
	cmd->emit(&plat, stdout);
	return finish_output();
}
