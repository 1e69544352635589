// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a platform description: lexing, one handler per key, and the
 * per-line checks that can be made as soon as a line is seen.  Checks that
 * need the whole file live in validate.c.
 *
 * Everything is stored in fixed arrays inside struct pg_platform, so an
 * error can return from anywhere without anything to free.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "platgen.h"

#define PG_LINE_MAX	1024
#define PG_MAX_VALUES	(PG_MAX_CPU_ID + 2)

#define PG_MEMORY_MIN	64
#define PG_MEMORY_MAX	16384
#define PG_DMIPS_MAX	1024		/* SCHED_CAPACITY_SCALE */
#define PG_LATENCY_MAX	10000000	/* 10 ms: slower is not a CPU clock */
/* fixed-clock's clock-frequency is one cell, so the top OPP must fit it. */
#define PG_KHZ_MAX	4000000
#define PG_UV_MAX	5000000
#define PG_UW_MAX	64000000	/* EM_MAX_POWER in Linux 6.12 */
#define PG_IDLE_US_MAX	10000000	/* idle-state latencies, 10 s */
/* cpuidle's state 0 on arm64 (ARM_CPUIDLE_WFI_STATE): 1 us exit, 1 us residency. */
#define PG_WFI_EXIT_US		1
#define PG_WFI_RESIDENCY_US	1
/* Why CPU ids stop where they do, said with the range (PG_MAX_CPUS is a literal). */
#define PG_STR(n)		#n
#define PG_XSTR(n)		PG_STR(n)
#define PG_CPU_ID_WHY		" (at most " PG_XSTR(PG_MAX_CPUS) \
				" CPUs, the lab kernel's NR_CPUS)"

struct pg_line {
	int no;
	char *key;
	char *val[PG_MAX_VALUES];
	char sep[PG_MAX_VALUES];	/* the blank each value's NUL replaced */
	int nr_vals;
	char *rest;		/* text after the key, without comment or edge blanks */
};

int pg_error(const struct pg_platform *p, int line, const char *field,
	     const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: %s: ", p->file, line, field);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/*
 * getc()-based so that a NUL byte cannot silently cut a line short the way
 * it would with fgets().  Returns 1 for a line, 0 at end of file, -1 on error.
 */
static int read_line(const struct pg_platform *p, FILE *f, int no,
		     char buf[PG_LINE_MAX + 1])
{
	size_t len = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return pg_error(p, no, "syntax",
					"invalid control character 0x%02x", c);
		if (len == PG_LINE_MAX)
			return pg_error(p, no, "syntax",
					"line longer than %d characters", PG_LINE_MAX);
		buf[len++] = (char)c;
	}
	if (ferror(f))
		return pg_error(p, no, "file", "read error: %s", strerror(errno));
	buf[len] = '\0';
	return (c == EOF && len == 0) ? 0 : 1;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Splits buf in place; l->key is NULL for blank and comment-only lines. */
static int split_line(const struct pg_platform *p, char *buf, struct pg_line *l)
{
	char *s, *end;

	s = strchr(buf, '#');
	if (s)
		*s = '\0';
	end = buf + strlen(buf);
	while (end > buf && is_blank(end[-1]))
		*--end = '\0';

	l->key = NULL;
	l->rest = NULL;
	l->nr_vals = 0;
	s = buf;
	for (;;) {
		while (is_blank(*s))
			s++;
		if (!*s)
			break;
		if (!l->key) {
			l->key = s;
		} else {
			if (l->nr_vals == PG_MAX_VALUES)
				return pg_error(p, l->no, l->key, "too many values");
			if (!l->rest)
				l->rest = s;
			l->val[l->nr_vals++] = s;
		}
		while (*s && !is_blank(*s))
			s++;
		if (!*s)
			break;
		if (l->nr_vals)
			l->sep[l->nr_vals - 1] = *s;
		*s++ = '\0';
	}
	return 0;
}

/* Undoes split_line()'s cuts so that the model text stays as written. */
static void join_rest(struct pg_line *l)
{
	int i;

	for (i = 0; i + 1 < l->nr_vals; i++)
		l->val[i][strlen(l->val[i])] = l->sep[i];
	l->nr_vals = l->rest ? 1 : 0;
	if (l->rest)
		l->val[0] = l->rest;
}

static int want_values(const struct pg_platform *p, const struct pg_line *l,
		       int min, int max)
{
	if (l->nr_vals < min)
		return pg_error(p, l->no, l->key, "missing value");
	if (l->nr_vals > max)
		return pg_error(p, l->no, l->key, "unexpected extra value '%s'",
				l->val[max]);
	return 0;
}

static int once(const struct pg_platform *p, const struct pg_line *l, int *line)
{
	if (*line)
		return pg_error(p, l->no, l->key, "duplicate key (first at line %d)",
				*line);
	*line = l->no;
	return 0;
}

/*
 * Decimal only: a leading zero or sign is refused so that nobody can
 * believe "010" is octal or that negative values are meaningful.
 */
static int parse_u32_why(const struct pg_platform *p, const struct pg_line *l,
			 const char *what, const char *s, uint32_t min,
			 uint32_t max, const char *why, uint32_t *out)
{
	uint64_t v = 0;
	const char *c;

	for (c = s; *c; c++)
		if (!isdigit((unsigned char)*c) || (c == s && *c == '0' && c[1]))
			return pg_error(p, l->no, l->key,
					"bad number '%s' for %s (expected decimal digits)",
					s, what);
	/* Saturate: anything past UINT32_MAX is out of range anyway. */
	for (c = s; *c && v <= UINT32_MAX; c++)
		v = v * 10 + (uint64_t)(*c - '0');
	if (v < min || v > max)
		return pg_error(p, l->no, l->key,
				"%s %s out of range %u..%u%s", what, s, min, max,
				why);
	*out = (uint32_t)v;
	return 0;
}

static int parse_u32(const struct pg_platform *p, const struct pg_line *l,
		     const char *what, const char *s, uint32_t min, uint32_t max,
		     uint32_t *out)
{
	return parse_u32_why(p, l, what, s, min, max, "", out);
}

/* Names end up in DT node names, labels and shell words: keep them tame. */
static int parse_name(const struct pg_platform *p, const struct pg_line *l,
		      const char *s, char *out)
{
	const char *c;

	for (c = s; *c; c++)
		if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) &&
		    *c != '-')
			return pg_error(p, l->no, l->key,
					"bad name '%s' (allowed: [a-z0-9-]+)", s);
	if (c - s > PG_NAME_MAX)
		return pg_error(p, l->no, l->key,
				"name '%s' longer than %d characters", s,
				PG_NAME_MAX);
	strcpy(out, s);
	return 0;
}

static struct pg_domain *cur_domain(struct pg_platform *p)
{
	return &p->domain[p->nr_domains - 1];
}

/* key must be a literal: the line buffer is reused for the next line. */
static void note_cpu(struct pg_platform *p, const struct pg_line *l, int cpu,
		     const char *key)
{
	if (pg_cpuset_has(&p->seen_mask, cpu))
		return;
	pg_cpuset_add(&p->seen_mask, cpu);
	p->seen[p->nr_seen].cpu = cpu;
	p->seen[p->nr_seen].line = l->no;
	p->seen[p->nr_seen].key = key;
	p->nr_seen++;
}

/* Parses a CPU id list, refusing repeats within the line. */
static int parse_cpu_list(struct pg_platform *p, const struct pg_line *l,
			  int *cpu)
{
	struct pg_cpuset mask = { { 0 } };
	uint32_t v;
	int i;

	if (!l->nr_vals)
		return pg_error(p, l->no, l->key, "missing value");
	for (i = 0; i < l->nr_vals; i++) {
		if (parse_u32_why(p, l, "CPU id", l->val[i], 0, PG_MAX_CPU_ID,
				  PG_CPU_ID_WHY, &v))
			return -1;
		if (pg_cpuset_has(&mask, (int)v))
			return pg_error(p, l->no, l->key, "CPU %u listed twice", v);
		pg_cpuset_add(&mask, (int)v);
		cpu[i] = (int)v;
	}
	return 0;
}

static int key_platform(struct pg_platform *p, struct pg_line *l)
{
	if (once(p, l, &p->name_line) || want_values(p, l, 1, 1))
		return -1;
	return parse_name(p, l, l->val[0], p->name);
}

static int key_model(struct pg_platform *p, struct pg_line *l)
{
	if (once(p, l, &p->model_line))
		return -1;
	join_rest(l);
	if (want_values(p, l, 1, 1))
		return -1;
	if (strlen(l->rest) > PG_MODEL_MAX)
		return pg_error(p, l->no, l->key, "longer than %d characters",
				PG_MODEL_MAX);
	strcpy(p->model, l->rest);
	return 0;
}

static int key_qemu_cpu(struct pg_platform *p, struct pg_line *l)
{
	if (once(p, l, &p->qemu_cpu_line) || want_values(p, l, 1, 1))
		return -1;
	return parse_name(p, l, l->val[0], p->qemu_cpu);
}

static int key_memory(struct pg_platform *p, struct pg_line *l)
{
	if (once(p, l, &p->memory_line) || want_values(p, l, 1, 1))
		return -1;
	return parse_u32(p, l, "memory size (MiB)", l->val[0], PG_MEMORY_MIN,
			 PG_MEMORY_MAX, &p->memory_mb);
}

/*
 * A line of a key that splits the CPUs into groups (cluster, numa-node):
 * its CPUs, refusing one that an earlier line of the key has.  what names
 * the group in the message, key (a literal) the key for later errors.
 */
static int claim_cpus(struct pg_platform *p, const struct pg_line *l,
		      int *cpu, struct pg_owner *owner, int group,
		      const char *what, const char *key)
{
	int i;

	if (parse_cpu_list(p, l, cpu))
		return -1;
	for (i = 0; i < l->nr_vals; i++) {
		struct pg_owner *o = &owner[cpu[i]];

		if (o->line)
			return pg_error(p, l->no, l->key,
					"CPU %d is already in %s %d (line %d)",
					cpu[i], what, o->group, o->line);
		o->group = group;
		o->line = l->no;
		note_cpu(p, l, cpu[i], key);
	}
	return 0;
}

static int key_cluster(struct pg_platform *p, struct pg_line *l)
{
	struct pg_cluster *c;

	if (p->nr_clusters == PG_MAX_CLUSTERS)
		return pg_error(p, l->no, l->key, "more than %d clusters",
				PG_MAX_CLUSTERS);
	c = &p->cluster[p->nr_clusters];
	if (claim_cpus(p, l, c->cpu, p->cluster_owner, p->nr_clusters,
		       "cluster", "cluster"))
		return -1;
	c->nr_cpus = l->nr_vals;
	c->line = l->no;
	p->nr_clusters++;
	return 0;
}

/* numa-node CPU...: node K is the K-th line. */
static int key_numa_node(struct pg_platform *p, struct pg_line *l)
{
	struct pg_node *n;
	int cpu[PG_MAX_VALUES];
	int i;

	if (p->nr_nodes == PG_MAX_NODES)
		return pg_error(p, l->no, l->key,
				"more than %d NUMA nodes (the lab kernel's MAX_NUMNODES)",
				PG_MAX_NODES);
	n = &p->node[p->nr_nodes];
	if (claim_cpus(p, l, cpu, p->node_owner, p->nr_nodes, "node",
		       "numa-node"))
		return -1;
	for (i = 0; i < l->nr_vals; i++)
		pg_cpuset_add(&n->cpus, cpu[i]);
	n->line = l->no;
	p->nr_nodes++;
	return 0;
}

/*
 * numa-distance D...: the next node's row.  How many rows and values there
 * must be, and the matrix's shape, need every numa-node line: validate.c.
 */
static int key_numa_distance(struct pg_platform *p, struct pg_line *l)
{
	struct pg_node *n;
	int i;

	if (p->nr_distance_rows == PG_MAX_NODES)
		return pg_error(p, l->no, l->key,
				"more than %d numa-distance lines (one per NUMA node)",
				PG_MAX_NODES);
	if (want_values(p, l, 1, PG_MAX_NODES))
		return -1;
	n = &p->node[p->nr_distance_rows];
	for (i = 0; i < l->nr_vals; i++)
		if (parse_u32(p, l, "distance", l->val[i], PG_LOCAL_DISTANCE,
			      PG_MAX_DISTANCE, &n->distance[i]))
			return -1;
	n->nr_distances = l->nr_vals;
	n->distance_line = l->no;
	p->nr_distance_rows++;
	return 0;
}

static int key_domain(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d;
	int i;

	if (want_values(p, l, 1, 1))
		return -1;
	if (p->nr_domains == PG_MAX_DOMAINS)
		return pg_error(p, l->no, l->key, "more than %d domains",
				PG_MAX_DOMAINS);
	d = &p->domain[p->nr_domains];
	if (parse_name(p, l, l->val[0], d->name))
		return -1;
	for (i = 0; i < p->nr_domains; i++)
		if (!strcmp(p->domain[i].name, d->name))
			return pg_error(p, l->no, l->key,
					"duplicate domain name '%s' (first at line %d)",
					d->name, p->domain[i].line);
	d->line = l->no;
	d->latency_ns = PG_DEFAULT_LATENCY_NS;
	p->nr_domains++;
	return 0;
}

/* The earlier domain that already has cpu, if any. */
static const struct pg_domain *owner(const struct pg_platform *p, int cpu)
{
	int k;

	for (k = 0; k < p->nr_domains - 1; k++)
		if (pg_cpuset_has(&p->domain[k].cpus, cpu))
			return &p->domain[k];
	return NULL;
}

static int key_cpus(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);
	const struct pg_domain *o;
	int cpu[PG_MAX_VALUES];
	int i;

	if (once(p, l, &d->cpus_line) || parse_cpu_list(p, l, cpu))
		return -1;
	for (i = 0; i < l->nr_vals; i++) {
		o = owner(p, cpu[i]);
		if (o)
			return pg_error(p, l->no, l->key,
					"CPU %d is in two frequency domains: '%s' (line %d) and '%s'",
					cpu[i], o->name, o->cpus_line, d->name);
		pg_cpuset_add(&d->cpus, cpu[i]);
		note_cpu(p, l, cpu[i], "cpus");
	}
	return 0;
}

static int key_core(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);

	if (once(p, l, &d->core_line) || want_values(p, l, 1, 1))
		return -1;
	return parse_name(p, l, l->val[0], d->core);
}

static int key_dmips(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);

	if (once(p, l, &d->dmips_line) || want_values(p, l, 1, 1))
		return -1;
	return parse_u32(p, l, "capacity", l->val[0], 1, PG_DMIPS_MAX,
			 &d->dmips);
}

static int key_latency(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);

	if (once(p, l, &d->latency_line) || want_values(p, l, 1, 1))
		return -1;
	return parse_u32(p, l, "latency (ns)", l->val[0], 1, PG_LATENCY_MAX,
			 &d->latency_ns);
}

static int key_idle(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);

	if (once(p, l, &d->idle_line) || want_values(p, l, 1, 1))
		return -1;
	return parse_u32(p, l, "idle power (uW)", l->val[0], 0, PG_UW_MAX,
			 &d->idle_uw);
}

/* Checks an OPP against the previous one of its domain, as the EM would. */
static int check_opp_order(const struct pg_platform *p, const struct pg_line *l,
			   const struct pg_domain *d, const struct pg_opp *o)
{
	const struct pg_opp *prev = &d->opp[d->nr_opps - 1];

	if (o->khz <= prev->khz)
		return pg_error(p, l->no, l->key,
				"non-increasing frequency %u kHz after %u kHz (line %d)",
				o->khz, prev->khz, prev->line);
	if (o->uv < prev->uv)
		return pg_error(p, l->no, l->key,
				"decreasing voltage %u uV after %u uV (line %d)",
				o->uv, prev->uv, prev->line);
	if (d->has_power && o->uw <= prev->uw)
		return pg_error(p, l->no, l->key,
				"non-increasing power %u uW after %u uW (line %d)",
				o->uw, prev->uw, prev->line);
	return 0;
}

static int key_opp(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);
	struct pg_opp o = { .line = l->no };
	bool has_power = l->nr_vals == 3;

	if (want_values(p, l, 2, 3))
		return -1;
	if (d->nr_opps == PG_MAX_OPPS)
		return pg_error(p, l->no, l->key, "more than %d OPPs in domain '%s'",
				PG_MAX_OPPS, d->name);
	if (parse_u32(p, l, "frequency (kHz)", l->val[0], 1, PG_KHZ_MAX, &o.khz) ||
	    parse_u32(p, l, "voltage (uV)", l->val[1], 1, PG_UV_MAX, &o.uv) ||
	    (has_power &&
	     parse_u32(p, l, "power (uW)", l->val[2], 0, PG_UW_MAX, &o.uw)))
		return -1;
	/* _get_dt_power() treats 0 uW as "no data" and fails the EM. */
	if (has_power && !o.uw)
		return pg_error(p, l->no, l->key,
				"zero power (the Energy Model needs a power > 0 uW)");
	if (!d->nr_opps)
		d->has_power = has_power;
	else if (has_power != d->has_power)
		return pg_error(p, l->no, l->key,
				"power %s here but %s at line %d: give it on every OPP or none",
				has_power ? "given" : "missing",
				has_power ? "missing" : "given", d->opp[0].line);
	else if (check_opp_order(p, l, d, &o))
		return -1;
	d->opp[d->nr_opps++] = o;
	return 0;
}

/* The first board-* line of the file, for "all domains or none" errors. */
static void note_board(struct pg_platform *p, const struct pg_line *l)
{
	if (!p->board_line)
		p->board_line = l->no;
}

/*
 * board-opp KHZ CPU_UW CLUSTER_UW.  Matching the domain's opp lines (count
 * and frequencies) needs the whole domain: validate.c does it.
 */
static int key_board_opp(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);
	struct pg_board_opp o = { .line = l->no };
	const struct pg_board_opp *prev;

	if (want_values(p, l, 3, 3))
		return -1;
	if (d->nr_board_opps == PG_MAX_OPPS)
		return pg_error(p, l->no, l->key,
				"more than %d board-opp lines in domain '%s'",
				PG_MAX_OPPS, d->name);
	if (parse_u32(p, l, "frequency (kHz)", l->val[0], 1, PG_KHZ_MAX, &o.khz) ||
	    parse_u32(p, l, "CPU power (uW)", l->val[1], 0, PG_UW_MAX, &o.cpu_uw) ||
	    parse_u32(p, l, "cluster power (uW)", l->val[2], 0, PG_UW_MAX,
		      &o.cluster_uw))
		return -1;
	if (d->nr_board_opps) {
		prev = &d->board_opp[d->nr_board_opps - 1];
		if (o.cpu_uw < prev->cpu_uw)
			return pg_error(p, l->no, l->key,
					"decreasing CPU power %u uW after %u uW (line %d)",
					o.cpu_uw, prev->cpu_uw, prev->line);
		if (o.cluster_uw < prev->cluster_uw)
			return pg_error(p, l->no, l->key,
					"decreasing cluster power %u uW after %u uW (line %d)",
					o.cluster_uw, prev->cluster_uw, prev->line);
	}
	note_board(p, l);
	d->board_opp[d->nr_board_opps++] = o;
	return 0;
}

/* board-wfi CPU_UW CLUSTER_UW: idle state 0. */
static int key_board_wfi(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);

	if (once(p, l, &d->wfi_line) || want_values(p, l, 2, 2))
		return -1;
	if (parse_u32(p, l, "CPU power (uW)", l->val[0], 0, PG_UW_MAX,
		      &d->wfi_cpu_uw) ||
	    parse_u32(p, l, "cluster power (uW)", l->val[1], 0, PG_UW_MAX,
		      &d->wfi_cluster_uw))
		return -1;
	note_board(p, l);
	return 0;
}

/*
 * Checks a state against the one before it (board-wfi for the first), the
 * order cpuidle's governors assume: deeper is slower to leave, needs a
 * longer stay, and does not cost more.
 */
static int check_idle_order(const struct pg_platform *p, const struct pg_line *l,
			    const struct pg_domain *d, const struct pg_idle_state *s)
{
	const struct pg_idle_state *prev = d->nr_idle ? &d->idle[d->nr_idle - 1] : NULL;
	const char *pname = prev ? prev->name : "WFI";
	uint32_t pexit = prev ? prev->exit_us : PG_WFI_EXIT_US;
	uint32_t pres = prev ? prev->residency_us : PG_WFI_RESIDENCY_US;
	uint32_t pcpu = prev ? prev->cpu_uw : d->wfi_cpu_uw;
	uint32_t pclu = prev ? prev->cluster_uw : d->wfi_cluster_uw;
	int pline = prev ? prev->line : d->wfi_line;

	if (prev && prev->cluster_scope && !s->cluster_scope)
		return pg_error(p, l->no, l->key,
				"cpu-scope state '%s' after cluster-scope state '%s' (line %d): cpu-scope states come first",
				s->name, prev->name, prev->line);
	if (s->exit_us < pexit)
		return pg_error(p, l->no, l->key,
				"exit latency %u us of '%s' below %u us of '%s' (line %d)",
				s->exit_us, s->name, pexit, pname, pline);
	if (s->residency_us <= pres)
		return pg_error(p, l->no, l->key,
				"min residency %u us of '%s' not above %u us of '%s' (line %d)",
				s->residency_us, s->name, pres, pname, pline);
	if (s->cpu_uw > pcpu)
		return pg_error(p, l->no, l->key,
				"CPU power %u uW of '%s' above %u uW of '%s' (line %d)",
				s->cpu_uw, s->name, pcpu, pname, pline);
	if (s->cluster_uw > pclu)
		return pg_error(p, l->no, l->key,
				"cluster power %u uW of '%s' above %u uW of '%s' (line %d)",
				s->cluster_uw, s->name, pclu, pname, pline);
	return 0;
}

/* board-idle NAME SCOPE ENTRY_US EXIT_US RESIDENCY_US CPU_UW CLUSTER_UW */
static int key_board_idle(struct pg_platform *p, struct pg_line *l)
{
	struct pg_domain *d = cur_domain(p);
	struct pg_idle_state s = { .line = l->no };
	int i;

	if (want_values(p, l, 7, 7))
		return -1;
	if (d->nr_idle == PG_MAX_IDLE_STATES)
		return pg_error(p, l->no, l->key,
				"more than %d board-idle lines in domain '%s'",
				PG_MAX_IDLE_STATES, d->name);
	if (parse_name(p, l, l->val[0], s.name))
		return -1;
	/* cpuidle names the state after its DT node, in CPUIDLE_NAME_LEN. */
	if (strlen(s.name) > PG_IDLE_NAME_MAX)
		return pg_error(p, l->no, l->key,
				"state name '%s' longer than %d characters (cpuidle's limit)",
				s.name, PG_IDLE_NAME_MAX);
	if (!strcmp(l->val[1], "cluster"))
		s.cluster_scope = true;
	else if (strcmp(l->val[1], "cpu"))
		return pg_error(p, l->no, l->key,
				"bad scope '%s' (expected 'cpu' or 'cluster')",
				l->val[1]);
	if (parse_u32(p, l, "entry latency (us)", l->val[2], 0, PG_IDLE_US_MAX,
		      &s.entry_us) ||
	    parse_u32(p, l, "exit latency (us)", l->val[3], 0, PG_IDLE_US_MAX,
		      &s.exit_us) ||
	    parse_u32(p, l, "min residency (us)", l->val[4], 0, PG_IDLE_US_MAX,
		      &s.residency_us) ||
	    parse_u32(p, l, "CPU power (uW)", l->val[5], 0, PG_UW_MAX,
		      &s.cpu_uw) ||
	    parse_u32(p, l, "cluster power (uW)", l->val[6], 0, PG_UW_MAX,
		      &s.cluster_uw))
		return -1;
	for (i = 0; i < d->nr_idle; i++)
		if (!strcmp(d->idle[i].name, s.name))
			return pg_error(p, l->no, l->key,
					"duplicate state name '%s' in domain '%s' (first at line %d)",
					s.name, d->name, d->idle[i].line);
	/* State 0 first: the deeper states are checked against it. */
	if (!d->wfi_line)
		return pg_error(p, l->no, l->key,
				"board-idle before board-wfi in domain '%s' (idle state 0 comes first)",
				d->name);
	if (check_idle_order(p, l, d, &s))
		return -1;
	note_board(p, l);
	d->idle[d->nr_idle++] = s;
	return 0;
}

enum pg_scope { PG_TOP, PG_DOMAIN, PG_ANY };

static const struct pg_key {
	const char *name;
	enum pg_scope scope;
	int (*parse)(struct pg_platform *p, struct pg_line *l);
} pg_keys[] = {
	{ "platform",			PG_TOP,		key_platform },
	{ "model",			PG_TOP,		key_model },
	{ "qemu-cpu",			PG_TOP,		key_qemu_cpu },
	{ "memory-mb",			PG_TOP,		key_memory },
	{ "cluster",			PG_TOP,		key_cluster },
	{ "numa-node",			PG_TOP,		key_numa_node },
	{ "numa-distance",		PG_TOP,		key_numa_distance },
	{ "domain",			PG_ANY,		key_domain },
	{ "cpus",			PG_DOMAIN,	key_cpus },
	{ "core",			PG_DOMAIN,	key_core },
	{ "capacity-dmips-mhz",		PG_DOMAIN,	key_dmips },
	{ "transition-latency-ns",	PG_DOMAIN,	key_latency },
	{ "idle-power-uw",		PG_DOMAIN,	key_idle },
	{ "opp",			PG_DOMAIN,	key_opp },
	{ "board-opp",			PG_DOMAIN,	key_board_opp },
	{ "board-wfi",			PG_DOMAIN,	key_board_wfi },
	{ "board-idle",			PG_DOMAIN,	key_board_idle },
};

static int dispatch(struct pg_platform *p, struct pg_line *l)
{
	size_t i;

	for (i = 0; i < sizeof(pg_keys) / sizeof(pg_keys[0]); i++) {
		const struct pg_key *k = &pg_keys[i];

		if (strcmp(k->name, l->key))
			continue;
		/* The format is "top-level keys, then domains": no going back. */
		if (k->scope == PG_TOP && p->nr_domains)
			return pg_error(p, l->no, l->key,
					"top-level key inside domain '%s' (must precede all domains)",
					cur_domain(p)->name);
		if (k->scope == PG_DOMAIN && !p->nr_domains)
			return pg_error(p, l->no, l->key,
					"domain key before any 'domain NAME' line");
		return k->parse(p, l);
	}
	return pg_error(p, l->no, l->key, "unknown key");
}

/*
 * Editors on Windows may start a UTF-8 file with a byte-order mark, which
 * would otherwise end up glued to the first key as three invisible bytes.
 */
static int check_bom(const struct pg_platform *p, const char *buf)
{
	if (!strncmp(buf, "\xef\xbb\xbf", 3))
		return pg_error(p, 1, "syntax",
				"byte-order mark not allowed; save as plain UTF-8/ASCII");
	return 0;
}

static int parse_stream(struct pg_platform *p, FILE *f)
{
	char buf[PG_LINE_MAX + 1];
	struct pg_line l;
	int no, ret;

	for (no = 1; (ret = read_line(p, f, no, buf)) > 0; no++) {
		if (no == 1 && check_bom(p, buf))
			return -1;
		l.no = no;
		if (split_line(p, buf, &l))
			return -1;
		if (l.key && dispatch(p, &l))
			return -1;
	}
	return ret;
}

int pg_load(struct pg_platform *p, const char *prog, const char *file)
{
	FILE *f;
	int ret;

	memset(p, 0, sizeof(*p));
	p->file = file;
	strcpy(p->qemu_cpu, PG_DEFAULT_QEMU_CPU);
	p->memory_mb = PG_DEFAULT_MEMORY_MB;

	/* No line to point at: "FILE:0:" would read as a parse error. */
	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "%s: %s: cannot open: %s\n", prog, file,
			strerror(errno));
		return -1;
	}
	ret = parse_stream(p, f);
	fclose(f);
	if (ret)
		return ret;
	return pg_validate(p);
}
