// SPDX-License-Identifier: GPL-2.0-only
/*
 * emcost COMMAND [-m MARGIN] [-I | -B [-p PERIOD]] PLATFILE ARGS: the
 * command line (the options may come first).  See docs/emcost.md for the
 * models and the output.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emcost.h"

/* Room for EM_MAX_TASKS tasks of up to 31 characters ("CPU:UTIL "). */
#define SEGMENT_LINE_MAX	(32 + 32 * EM_MAX_TASKS)
/* 11.6 days: far beyond any run, and the sums of durations stay finite. */
#define SEGMENT_US_MAX		1e12
#define PERIOD_US_MAX		1e9

struct task_set {
	double util[EM_MAX_TASKS];
	int cpu[EM_MAX_TASKS];
	int nr;
};

static void print_usage(FILE *out)
{
	fputs("usage: emcost optimum  [OPTIONS] PLATFILE UTIL[xCOUNT]...\n"
	      "       emcost estimate [OPTIONS] PLATFILE CPU:UTIL...\n"
	      "       emcost score    [OPTIONS] PLATFILE <SEGMENTS\n"
	      "       emcost {-h|--help}\n"
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
	      out);
}

/* A usage error: stdout stays clean for whoever reads the output. */
static int usage(void)
{
	print_usage(stderr);
	return 2;
}

/* Output asked for, so it goes to stdout and a write error is a failure. */
static int finish_output(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "emcost: writing output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* SEGMENT_NO 0: ARG came from the command line, else from that stdin line. */
static int bad(int segment_no, const char *what, const char *arg)
{
	if (segment_no)
		fprintf(stderr, "emcost: segment line %d: %s: '%s'\n",
			segment_no, what, arg);
	else
		fprintf(stderr, "emcost: %s: '%s'\n", what, arg);
	return -1;
}

/*
 * strtod() also reads "nan", "inf" and overflows to HUGE_VAL, and a nan
 * slips through every range comparison: each would only surface as a
 * "-nan" in the output.  So only finite numbers in MIN..MAX pass.
 * Returns the number of characters read, or -1.
 */
static int parse_number(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return (int)(end - s);
}

/* The whole of S is one number in MIN..MAX. */
static int parse_whole(const char *s, double min, double max, double *out)
{
	int n = parse_number(s, min, max, out);

	return (n < 0 || s[n]) ? -1 : 0;
}

static int too_many_tasks(int segment_no, const char *arg)
{
	char what[48];

	snprintf(what, sizeof(what), "too many tasks (at most %d)",
		 EM_MAX_TASKS);
	return bad(segment_no, what, arg);
}

static int parse_util(const char *s, double *util)
{
	return parse_number(s, 0, 1024, util);
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
		return bad(0, "not a util in 0..1024", arg);
	p += n;
	if (*p == 'x') {
		errno = 0;
		count = strtol(p + 1, &end, 10);
		if (errno || end == p + 1 || *end || count < 1)
			return bad(0, "not a task count", arg);
	} else if (*p) {
		return bad(0, "not UTIL or UTILxCOUNT", arg);
	}
	if (count > EM_MAX_TASKS - ts->nr)
		return too_many_tasks(0, arg);
	while (count--) {
		ts->util[ts->nr] = util;
		ts->cpu[ts->nr++] = -1;
	}
	return 0;
}

/* CPU:UTIL, appended to TS; SEGMENT_NO as for bad(). */
static int add_placed(struct task_set *ts, const char *arg, int nr_cpus,
		      int segment_no)
{
	char *end;
	long cpu;
	double util;
	int n;

	errno = 0;
	cpu = strtol(arg, &end, 10);
	if (errno || end == arg || *end != ':')
		return bad(segment_no, "not CPU:UTIL", arg);
	if (cpu < 0 || cpu >= nr_cpus)
		return bad(segment_no, "no such CPU on this platform", arg);
	n = parse_util(end + 1, &util);
	if (n < 0 || end[1 + n])
		return bad(segment_no, "not a util in 0..1024", arg);
	if (ts->nr == EM_MAX_TASKS)
		return too_many_tasks(segment_no, arg);
	ts->util[ts->nr] = util;
	ts->cpu[ts->nr++] = (int)cpu;
	return 0;
}

/* The number of different utils among the tasks. */
static int nr_utils(const struct task_set *ts)
{
	int i, j, n = 0;

	for (i = 0; i < ts->nr; i++) {
		for (j = 0; j < i && ts->util[j] != ts->util[i]; j++)
			;
		n += j == i;
	}
	return n;
}

static int optimum(const struct em_model *m, const struct task_set *ts,
		   struct em_placement *pl)
{
	switch (em_optimum(m, ts->util, ts->nr, pl)) {
	case 0:
		return 0;
	case EM_NO_FIT:
		fputs("emcost: no placement of these tasks fits the platform\n",
		      stderr);
		return -1;
	case EM_TOO_VARIED:
		fprintf(stderr, "emcost: too many distinct utils for the search: %d (at most %d)\n",
			nr_utils(ts), EM_MAX_CLASSES);
		return -1;
	case EM_TOO_MANY_SETS:
		fprintf(stderr, "emcost: too many sets of tasks for the search: %d tasks of %d utils give more than %d (the product of each util's count + 1)\n",
			ts->nr, nr_utils(ts), EM_MAX_STATES);
		return -1;
	case EM_TOO_LONG:
		fprintf(stderr, "emcost: the search for %d tasks of %d utils on %d CPUs in %d domains needs more than %.0e steps (about a minute): use fewer tasks or fewer distinct utils\n",
			ts->nr, nr_utils(ts), m->nr_cpus, m->nr_domains,
			(double)EM_MAX_STEPS);
		return -1;
	default:
		fputs("emcost: out of memory for the search\n", stderr);
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
		static struct em_model deepest;
		static struct em_placement lower;

		deepest = *m;
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
		if (add_placed(&ts, argv[i], m->nr_cpus, 0))
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
 * One interval of the timeline: 1 if LINE held one, 0 if it is blank, -1
 * on error.  Consecutive intervals usually hold the same tasks, so the
 * optimum of the previous one is reused.
 */
static int score_segment(const struct em_model *m, char *line, int no,
			 double *est_uj, double *opt_uj)
{
	static struct task_set ts, last;
	static struct em_placement pl;
	static double last_opt_uw = -1;
	char *tok, *save;
	double dur;

	ts.nr = 0;
	tok = strtok_r(line, " \t\n", &save);
	if (!tok)
		return 0;
	if (parse_whole(tok, 0, SEGMENT_US_MAX, &dur))
		return bad(no, "not a duration in microseconds (0..1e12)", tok);
	while ((tok = strtok_r(NULL, " \t\n", &save)))
		if (add_placed(&ts, tok, m->nr_cpus, no))
			return -1;
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
	return 1;
}

static int cmd_score(const struct em_model *m, char **argv, int argc)
{
	static char line[SEGMENT_LINE_MAX];
	double est = 0, opt = 0;
	int no = 0, nr_segments = 0, ret;

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
		ret = score_segment(m, line, no, &est, &opt);
		if (ret < 0)
			return 1;
		nr_segments += ret;
	}
	if (ferror(stdin)) {
		fprintf(stderr, "emcost: reading segments: %s\n",
			strerror(errno));
		return 1;
	}
	/* A missing or empty trace is not a perfect score of 1.0. */
	if (!nr_segments) {
		fputs("emcost: no segments on stdin\n", stderr);
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
	{ "help",	no_argument,		NULL, 'h' },
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
	int c, ret;

	/* Options may also come before the command: emcost -B optimum ... */
	while ((c = getopt_long(argc, argv, "hm:IBp:", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			print_usage(stdout);
			return finish_output();
		case 'm':
			/* 100% would leave no capacity to any OPP. */
			if (parse_whole(optarg, 0, 100, &opt.margin_pct) ||
			    opt.margin_pct >= 100) {
				bad(0, "not a margin in 0..99 percent", optarg);
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
			/* 0 means "no period" inside the model: not an input. */
			if (parse_whole(optarg, 0, PERIOD_US_MAX, &opt.period_us) ||
			    !opt.period_us) {
				bad(0, "not a period in microseconds (0 < US <= 1e9)",
				    optarg);
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
	if (pg_load(&plat, "emcost", argv[optind]) ||
	    em_model_init(&model, &plat, &opt))
		return 1;
	ret = cmd->run(&model, argv + optind + 1, argc - optind - 1);
	return finish_output() ? 1 : ret;
}
