// SPDX-License-Identifier: GPL-2.0-only
/*
 * emcost COMMAND [-m MARGIN] [-I | -B [-p PERIOD]] PLATFILE ARGS: the
 * command line (the options may come first).  See docs/emcost.md for the
 * models and the output.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emcost.h"

#define SEGMENT_LINE_MAX	8192

struct task_set {
	double util[EM_MAX_TASKS];
	int cpu[EM_MAX_TASKS];
	int nr;
};

static int usage(void)
{
	fputs("usage: emcost optimum  [OPTIONS] PLATFILE UTIL[xCOUNT]...\n"
	      "       emcost estimate [OPTIONS] PLATFILE CPU:UTIL...\n"
	      "       emcost score    [OPTIONS] PLATFILE <SEGMENTS\n"
	      "  optimum   cheapest static placement of tasks of these utils\n"
	      "  estimate  power of tasks placed on the given CPUs\n"
	      "  score     observed vs optimal energy over time; SEGMENTS has\n"
	      "            one line per interval: DURATION_US CPU:UTIL...\n"
	      "  -m, --margin PCT  capacity margin in percent (default 20, as LISA)\n"
	      "  -I, --no-idle     idle power 0 (LISA's model of a mainline EM)\n"
	      "  -B, --board       the board power model, as the lab's meter\n"
	      "                    (CPU, cluster, idle states), not the EM\n"
	      "  -p, --period US   with -B: tasks wake every US microseconds:\n"
	      "                    idle states fit the gap (else the deepest)\n"
	      "utils are on the 0..1024 scale of the biggest CPU at its top OPP\n",
	      stderr);
	return 2;
}

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "emcost: %s: '%s'\n", what, arg);
	return -1;
}

static int parse_util(const char *s, double *util)
{
	char *end;

	errno = 0;
	*util = strtod(s, &end);
	if (errno || end == s || *util < 0 || *util > 1024)
		return -1;
	return (int)(end - s);
}

/* UTIL or UTILxCOUNT, appended to TS. */
static int add_tasks(struct task_set *ts, const char *arg)
{
	const char *p = arg;
	long count = 1;
	double util;
	int n;
	char *end;

	n = parse_util(p, &util);
	if (n < 0)
		return bad("not a util in 0..1024", arg);
	p += n;
	if (*p == 'x') {
		errno = 0;
		count = strtol(p + 1, &end, 10);
		if (errno || end == p + 1 || *end || count < 1)
			return bad("not a task count", arg);
	} else if (*p) {
		return bad("not UTIL or UTILxCOUNT", arg);
	}
	if (count > EM_MAX_TASKS - ts->nr)
		return bad("too many tasks (at most 256)", arg);
	while (count--) {
		ts->util[ts->nr] = util;
		ts->cpu[ts->nr++] = -1;
	}
	return 0;
}

/* CPU:UTIL, appended to TS. */
static int add_placed(struct task_set *ts, const char *arg, int nr_cpus)
{
	char *end;
	long cpu;
	double util;
	int n;

	errno = 0;
	cpu = strtol(arg, &end, 10);
	if (errno || end == arg || *end != ':')
		return bad("not CPU:UTIL", arg);
	if (cpu < 0 || cpu >= nr_cpus)
		return bad("no such CPU on this platform", arg);
	n = parse_util(end + 1, &util);
	if (n < 0 || end[1 + n])
		return bad("not a util in 0..1024", arg);
	if (ts->nr == EM_MAX_TASKS)
		return bad("too many tasks (at most 256)", arg);
	ts->util[ts->nr] = util;
	ts->cpu[ts->nr++] = (int)cpu;
	return 0;
}

static int optimum(const struct em_model *m, const struct task_set *ts,
		   struct em_placement *pl)
{
	switch (em_optimum(m, ts->util, ts->nr, pl)) {
	case 0:
		return 0;
	case -1:
		fputs("emcost: no placement of these tasks fits the platform\n",
		      stderr);
		return -1;
	default:
		fputs("emcost: too many distinct utils for the search\n",
		      stderr);
		return -1;
	}
}

/*
 * cpu N util U tasks I,J,...: the tasks of PL on each CPU; with the board
 * model each line goes on with the CPU's account.
 */
static void print_cpus(const struct em_model *m, const struct task_set *ts,
		       const struct em_placement *pl)
{
	int cpu, t, i;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct em_domain *ed = &m->domain[m->cpu_domain[cpu]];
		double util = 0;
		const char *sep = "";

		for (t = 0; t < ts->nr; t++)
			if (pl->task_cpu[t] == cpu)
				util += ts->util[t];
		printf("cpu %d util %.1f tasks ", cpu, util);
		for (t = 0; t < ts->nr; t++) {
			if (pl->task_cpu[t] != cpu)
				continue;
			printf("%s%d", sep, t);
			sep = ",";
		}
		fputs(*sep ? "" : "-", stdout);
		for (i = 0; m->board && i < ed->nr_cpus; i++) {
			const struct em_board_cpu *c =
				&pl->board[m->cpu_domain[cpu]].cpu[i];

			if (ed->cpu[i] != cpu)
				continue;
			printf(" busy %.4f idle %s down %s uw %.1f", c->busy,
			       ed->idle[c->idle].name, ed->idle[c->down].name,
			       c->uw);
		}
		putchar('\n');
	}
}

/* domain NAME khz F, and with the board model the domain's account. */
static void print_domains(const struct em_model *m,
			  const struct em_placement *pl)
{
	int d;

	for (d = 0; d < m->nr_domains; d++) {
		const struct em_domain *ed = &m->domain[d];
		const struct em_board_domain *bd = &pl->board[d];

		printf("domain %s khz %u", ed->name,
		       ed->opp[pl->domain_opp[d]].khz);
		if (m->board) {
			printf(" busy %.4f cpu_uw %.1f cluster_uw %.1f",
			       bd->busy, bd->cpu_uw, bd->cluster_uw);
			printf(" cluster_idle %s",
			       ed->idle[bd->cluster_idle].name);
		}
		putchar('\n');
	}
}

static int cmd_optimum(const struct em_model *m, char **argv, int argc)
{
	static struct task_set ts;
	static struct em_placement pl;
	int i;

	if (!argc)
		return usage();
	for (i = 0; i < argc; i++)
		if (add_tasks(&ts, argv[i]))
			return 1;
	if (optimum(m, &ts, &pl))
		return 1;
	printf("power_uw %.1f\n", pl.power_uw);
	if (m->board && m->period_us > 0) {
		/* The deepest states are as cheap as any: a lower bound. */
		struct em_model deepest = *m;
		static struct em_placement lower;

		deepest.period_us = 0;
		if (optimum(&deepest, &ts, &lower))
			return 1;
		printf("lower_bound_uw %.1f\n", lower.power_uw);
	}
	print_cpus(m, &ts, &pl);
	print_domains(m, &pl);
	return 0;
}

static int cmd_estimate(const struct em_model *m, char **argv, int argc)
{
	static struct task_set ts;
	static struct em_placement pl;
	int i;

	if (!argc)
		return usage();
	for (i = 0; i < argc; i++)
		if (add_placed(&ts, argv[i], m->nr_cpus))
			return 1;
	printf("power_uw %.1f\n", em_estimate(m, ts.util, ts.cpu, ts.nr, &pl));
	printf("fits %s\n", pl.fits ? "yes" : "no");
	if (m->board) {
		print_cpus(m, &ts, &pl);
		print_domains(m, &pl);
	}
	return 0;
}

static int same_utils(const struct task_set *a, const struct task_set *b)
{
	return a->nr == b->nr &&
	       !memcmp(a->util, b->util, a->nr * sizeof(a->util[0]));
}

/*
 * One interval of the timeline.  Consecutive intervals usually hold the
 * same tasks, so the optimum of the previous one is reused.
 */
static int score_segment(const struct em_model *m, char *line, int no,
			 double *est_uj, double *opt_uj)
{
	static struct task_set ts, last;
	static struct em_placement pl;
	static double last_opt_uw = -1;
	char *tok, *save, *end;
	double dur;

	ts.nr = 0;
	tok = strtok_r(line, " \t\n", &save);
	if (!tok)
		return 0;
	errno = 0;
	dur = strtod(tok, &end);
	if (errno || end == tok || *end || dur < 0) {
		fprintf(stderr, "emcost: segment line %d: not a duration: '%s'\n",
			no, tok);
		return -1;
	}
	while ((tok = strtok_r(NULL, " \t\n", &save)))
		if (add_placed(&ts, tok, m->nr_cpus)) {
			fprintf(stderr, "emcost: in segment line %d\n", no);
			return -1;
		}
	*est_uj += em_estimate(m, ts.util, ts.cpu, ts.nr, &pl) * dur / 1e6;
	if (last_opt_uw < 0 || !same_utils(&ts, &last)) {
		if (optimum(m, &ts, &pl)) {
			fprintf(stderr, "emcost: in segment line %d\n", no);
			return -1;
		}
		last_opt_uw = pl.power_uw;
		last = ts;
	}
	*opt_uj += last_opt_uw * dur / 1e6;
	return 0;
}

static int cmd_score(const struct em_model *m, char **argv, int argc)
{
	char line[SEGMENT_LINE_MAX];
	double est = 0, opt = 0;
	int no = 0;

	(void)argv;
	if (argc)
		return usage();
	while (fgets(line, sizeof(line), stdin)) {
		no++;
		if (!strchr(line, '\n') && !feof(stdin)) {
			fprintf(stderr, "emcost: segment line %d: longer than %d characters\n",
				no, SEGMENT_LINE_MAX - 2);
			return 1;
		}
		if (score_segment(m, line, no, &est, &opt))
			return 1;
	}
	if (ferror(stdin)) {
		fprintf(stderr, "emcost: reading segments: %s\n",
			strerror(errno));
		return 1;
	}
	printf("estimated_uj %.3f\noptimal_uj %.3f\n", est, opt);
	if (opt > 0)
		printf("ratio %.4f\n", est / opt);
	else
		printf("ratio %s\n", est > 0 ? "inf" : "1.0000");
	return 0;
}

static const struct em_command {
	const char *name;
	int (*run)(const struct em_model *m, char **argv, int argc);
} em_commands[] = {
	{ "optimum",	cmd_optimum },
	{ "estimate",	cmd_estimate },
	{ "score",	cmd_score },
};

static const struct em_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(em_commands) / sizeof(em_commands[0]); i++)
		if (!strcmp(em_commands[i].name, name))
			return &em_commands[i];
	return NULL;
}

static const struct option long_options[] = {
	{ "margin",	required_argument,	NULL, 'm' },
	{ "no-idle",	no_argument,		NULL, 'I' },
	{ "board",	no_argument,		NULL, 'B' },
	{ "period",	required_argument,	NULL, 'p' },
	{ NULL,		0,			NULL, 0 },
};

int main(int argc, char **argv)
{
	static struct pg_platform plat;
	static struct em_model model;
	struct em_options opt = { .margin_pct = 20 };
	const struct em_command *cmd;
	char *end;
	int c, ret;

	/* Options may also come before the command: emcost -B optimum ... */
	while ((c = getopt_long(argc, argv, "m:IBp:", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'm':
			errno = 0;
			opt.margin_pct = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    opt.margin_pct < 0 || opt.margin_pct >= 100) {
				bad("not a margin in 0..99 percent", optarg);
				return 2;
			}
			break;
		case 'I':
			opt.no_idle = true;
			break;
		case 'B':
			opt.board = true;
			break;
		case 'p':
			errno = 0;
			opt.period_us = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(opt.period_us > 0 && opt.period_us <= 1e9)) {
				bad("not a period in microseconds", optarg);
				return 2;
			}
			break;
		default:
			return usage();
		}
	}
	if (opt.board && opt.no_idle) {
		fputs("emcost: -I is for the Energy Model; the board model has its own idle states\n",
		      stderr);
		return 2;
	}
	if (opt.period_us > 0 && !opt.board) {
		fputs("emcost: --period needs -B: the Energy Model has no idle states to choose\n",
		      stderr);
		return 2;
	}
	if (optind + 1 >= argc)
		return usage();
	cmd = find_command(argv[optind++]);
	if (!cmd)
		return usage();
	if (pg_load(&plat, argv[optind]) || em_model_init(&model, &plat, &opt))
		return 1;
	ret = cmd->run(&model, argv + optind + 1, argc - optind - 1);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "emcost: writing output: %s\n", strerror(errno));
		return 1;
	}
	return ret;
}
