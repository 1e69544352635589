// SPDX-License-Identifier: GPL-2.0-only
/*
 * The three outputs of a valid description: shell variables for the QEMU
 * runner, the DT fragment appended to QEMU's own virt DTS, and the facts a
 * correctly booted Linux 6.12 guest must show.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "platgen.h"

/* Single quotes keep everything literal in sh; only ' itself needs care. */
static void put_sh_quoted(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	}
	fputc('\'', out);
}

/* A CPU set in Linux's and QEMU's list syntax: "0-1,4". */
static void put_cpu_ranges(FILE *out, const struct pg_cpuset *s)
{
	const char *sep = "";
	int cpu, last;

	for (cpu = 0; cpu <= PG_MAX_CPU_ID; cpu++) {
		if (!pg_cpuset_has(s, cpu))
			continue;
		for (last = cpu; last < PG_MAX_CPU_ID &&
				 pg_cpuset_has(s, last + 1); last++)
			;
		fprintf(out, "%s%d", sep, cpu);
		if (last > cpu)
			fprintf(out, "-%d", last);
		sep = ",";
		cpu = last;
	}
}

/*
 * What lab/lib.sh needs for QEMU's -numa options: one word per node, its
 * CPUs and its distances to every node.  Empty without numa-node lines.
 */
static void info_numa(const struct pg_platform *p, FILE *out)
{
	int i, j;

	fprintf(out, "NR_NUMA_NODES=%d\n", p->nr_nodes);
	fputs("NUMA_NODE_CPUS='", out);
	for (i = 0; i < p->nr_nodes; i++) {
		fputs(i ? " " : "", out);
		put_cpu_ranges(out, &p->node[i].cpus);
	}
	fputs("'\nNUMA_DISTANCES='", out);
	for (i = 0; i < p->nr_nodes; i++)
		for (j = 0; j < p->nr_nodes; j++)
			fprintf(out, "%s%u", j ? "," : i ? " " : "",
				p->node[i].distance[j]);
	fputs("'\n", out);
}

void pg_emit_info(const struct pg_platform *p, FILE *out)
{
	int i;

	fprintf(out, "PLATFORM=%s\n", p->name);
	fputs("PLATFORM_MODEL=", out);
	put_sh_quoted(out, p->model);
	fprintf(out, "\nNR_CPUS=%d\n", p->nr_cpus);
	fprintf(out, "QEMU_CPU=%s\n", p->qemu_cpu);
	fprintf(out, "MEMORY_MB=%u\n", p->memory_mb);
	/* Names are [a-z0-9-]+, so joining them cannot need more quoting. */
	fputs("FREQ_DOMAINS='", out);
	for (i = 0; i < p->nr_domains; i++)
		fprintf(out, "%s%s", i ? " " : "", p->domain[i].name);
	fputs("'\n", out);
	info_numa(p, out);
}

/* DT labels cannot contain '-'; names have no '_', so this is one-to-one. */
static const char *label(const char *name)
{
	static char buf[PG_NAME_MAX + 1];
	size_t i;

	for (i = 0; name[i]; i++)
		buf[i] = name[i] == '-' ? '_' : name[i];
	buf[i] = '\0';
	return buf;
}

static uint64_t top_hz(const struct pg_domain *d)
{
	return (uint64_t)d->opp[d->nr_opps - 1].khz * 1000;
}

/*
 * No "socket" level: parse_socket() then treats cpu-map as one package,
 * so MC spans all CPUs and the clusters become the CLS level.
 */
static void emit_cpu_map(const struct pg_platform *p, FILE *out)
{
	int i, j;

	fputs("\t\tcpu-map {\n", out);
	for (i = 0; i < p->nr_clusters; i++) {
		const struct pg_cluster *c = &p->cluster[i];

		fprintf(out, "%s\t\t\tcluster%d {\n", i ? "\n" : "", i);
		for (j = 0; j < c->nr_cpus; j++)
			fprintf(out,
				"\t\t\t\tcore%d {\n\t\t\t\t\tcpu = <&cpu%d>;\n\t\t\t\t};\n",
				j, c->cpu[j]);
		fputs("\t\t\t};\n", out);
	}
	fputs("\t\t};\n", out);
}

/* One "PROP = <v v ...>;" line of a CPU node. */
static void emit_cells(const char *prop, const uint32_t *v, int n, FILE *out)
{
	int i;

	fprintf(out, "\t\t\t%s = <", prop);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%u", i ? " " : "", v[i]);
	fputs(">;\n", out);
}

/* The board model of the CPU's domain: what the lab's meter charges. */
static void emit_cpu_board(const struct pg_platform *p,
			   const struct pg_domain *d, FILE *out)
{
	uint32_t khz[PG_MAX_OPPS], cpu_uw[PG_MAX_OPPS], cluster_uw[PG_MAX_OPPS];
	uint32_t wfi[2] = { d->wfi_cpu_uw, d->wfi_cluster_uw };
	int dom = (int)(d - p->domain);
	int i;

	if (d->nr_idle) {
		fputs("\t\t\tcpu-idle-states = <", out);
		for (i = 1; i <= d->nr_idle; i++)
			fprintf(out, "%s&lab_idle_%d_%d", i > 1 ? " " : "", dom, i);
		fputs(">;\n", out);
	}
	for (i = 0; i < d->nr_board_opps; i++) {
		khz[i] = d->board_opp[i].khz;
		cpu_uw[i] = d->board_opp[i].cpu_uw;
		cluster_uw[i] = d->board_opp[i].cluster_uw;
	}
	emit_cells("lab,board-opp-khz", khz, d->nr_board_opps, out);
	emit_cells("lab,board-cpu-microwatt", cpu_uw, d->nr_board_opps, out);
	emit_cells("lab,board-cluster-microwatt", cluster_uw, d->nr_board_opps,
		   out);
	emit_cells("lab,board-wfi-microwatt", wfi, 2, out);
}

/*
 * The board's idle states 1..N of every domain, one node per state under
 * a node per domain: the powers differ per core type, and cpuidle names a
 * state after its node.  entry-method "lab": the lab kernel's cpuidle
 * driver, not PSCI, enters them.  No local-timer-stop: QEMU's arch timer
 * never stops.
 */
static void emit_idle_states(const struct pg_platform *p, FILE *out)
{
	int i, k;

	fputs("\n\t\tidle-states {\n", out);
	fputs("\t\t\tentry-method = \"lab\";\n", out);
	for (i = 0; i < p->nr_domains; i++) {
		const struct pg_domain *d = &p->domain[i];

		if (!d->nr_idle)
			continue;
		fprintf(out, "\n\t\t\t%s {\n", d->name);
		for (k = 1; k <= d->nr_idle; k++) {
			const struct pg_idle_state *s = &d->idle[k - 1];

			fprintf(out, "%s\t\t\t\tlab_idle_%d_%d: %s {\n",
				k > 1 ? "\n" : "", i, k, s->name);
			fputs("\t\t\t\t\tcompatible = \"arm,idle-state\";\n", out);
			fprintf(out, "\t\t\t\t\tidle-state-name = \"%s\";\n", s->name);
			fprintf(out, "\t\t\t\t\tentry-latency-us = <%u>;\n", s->entry_us);
			fprintf(out, "\t\t\t\t\texit-latency-us = <%u>;\n", s->exit_us);
			fprintf(out, "\t\t\t\t\tmin-residency-us = <%u>;\n",
				s->residency_us);
			fprintf(out, "\t\t\t\t\tlab,cpu-microwatt = <%u>;\n", s->cpu_uw);
			fprintf(out, "\t\t\t\t\tlab,cluster-microwatt = <%u>;\n",
				s->cluster_uw);
			if (s->cluster_scope)
				fputs("\t\t\t\t\tlab,cluster-scope;\n", out);
			fputs("\t\t\t\t};\n", out);
		}
		fputs("\t\t\t};\n", out);
	}
	fputs("\t\t};\n", out);
}

/*
 * The MPIDR QEMU virt gives vCPU N (virt_cpu_mp_affinity()): Aff1 N / 16
 * and Aff0 N % 16 with GICv3, the lab's GIC past 8 CPUs; N / 8 and N % 8
 * with GICv2, which is N itself for the 8 CPUs GICv2 takes.  The node keeps
 * QEMU's own name, cpu@N.
 */
static void emit_reg(int cpu, FILE *out)
{
	if (cpu < 16)
		fprintf(out, "\t\t\treg = <%d>;\n", cpu);
	else
		fprintf(out, "\t\t\treg = <%#x>;\n", (cpu / 16) << 8 | cpu % 16);
}

static void emit_cpu(const struct pg_platform *p, int cpu, FILE *out)
{
	const struct pg_domain *d = &p->domain[p->cpu_domain[cpu]];

	fprintf(out, "\n\t\tcpu%d: cpu@%d {\n", cpu, cpu);
	fputs("\t\t\tdevice_type = \"cpu\";\n", out);
	fprintf(out, "\t\t\tcompatible = \"arm,%s\";\n", d->core);
	emit_reg(cpu, out);
	fputs("\t\t\tenable-method = \"psci\";\n", out);
	/*
	 * QEMU's own cpu nodes carry it, and arm64 takes a CPU's node from
	 * here (of_node_to_nid()); the memory nodes and the distance-map
	 * are QEMU's, made from the same -numa options (lab/lib.sh).
	 */
	if (p->nr_nodes)
		fprintf(out, "\t\t\tnuma-node-id = <%d>;\n", p->cpu_node[cpu]);
	fprintf(out, "\t\t\tcapacity-dmips-mhz = <%u>;\n", d->dmips);
	fprintf(out, "\t\t\tclocks = <&lab_clk_%s>;\n", label(d->name));
	fprintf(out, "\t\t\toperating-points-v2 = <&lab_opp_%s>;\n",
		label(d->name));
	if (d->idle_line)
		fprintf(out, "\t\t\tlab,idle-microwatt = <%u>;\n", d->idle_uw);
	if (p->has_board)
		emit_cpu_board(p, d, out);
	fputs("\t\t};\n", out);
}

/*
 * cpufreq-dt needs a CPU clock; a fixed one at the top OPP is also what
 * arch_topology reads as the reference frequency for capacity.
 */
static void emit_clock(const struct pg_domain *d, FILE *out)
{
	fprintf(out, "\n\tlab_clk_%s: lab-clock-%s {\n", label(d->name), d->name);
	fputs("\t\tcompatible = \"fixed-clock\";\n", out);
	fputs("\t\t#clock-cells = <0>;\n", out);
	fprintf(out, "\t\tclock-frequency = <%llu>;\n",
		(unsigned long long)top_hz(d));
	fprintf(out, "\t\tclock-output-names = \"%s\";\n", d->name);
	fputs("\t};\n", out);
}

/* opp-shared makes cpufreq-dt build one policy (and the EM one pd). */
static void emit_opp_table(const struct pg_domain *d, FILE *out)
{
	int i;

	fprintf(out, "\n\tlab_opp_%s: opp-table-%s {\n", label(d->name), d->name);
	fputs("\t\tcompatible = \"operating-points-v2\";\n", out);
	fputs("\t\topp-shared;\n", out);
	for (i = 0; i < d->nr_opps; i++) {
		const struct pg_opp *o = &d->opp[i];
		unsigned long long hz = (unsigned long long)o->khz * 1000;

		fprintf(out, "\n\t\topp-%llu {\n", hz);
		fprintf(out, "\t\t\topp-hz = /bits/ 64 <%llu>;\n", hz);
		fprintf(out, "\t\t\topp-microvolt = <%u>;\n", o->uv);
		if (d->has_power)
			fprintf(out, "\t\t\topp-microwatt = <%u>;\n", o->uw);
		fprintf(out, "\t\t\tclock-latency-ns = <%u>;\n", d->latency_ns);
		fputs("\t\t};\n", out);
	}
	fputs("\t};\n", out);
}

void pg_emit_dts(const struct pg_platform *p, FILE *out)
{
	int i;

	fprintf(out, "/* Generated by platgen for platform %s: do not edit. */\n\n",
		p->name);
	/* QEMU's cpus node has its own cpu-map; ours replaces it whole. */
	fputs("/ {\n\t/delete-node/ cpus;\n};\n\n", out);
	fputs("/ {\n\tcpus {\n", out);
	fputs("\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n\n", out);
	emit_cpu_map(p, out);
	if (p->has_board)
		emit_idle_states(p, out);
	for (i = 0; i < p->nr_cpus; i++)
		emit_cpu(p, i, out);
	fputs("\t};\n", out);
	for (i = 0; i < p->nr_domains; i++)
		emit_clock(&p->domain[i], out);
	for (i = 0; i < p->nr_domains; i++)
		emit_opp_table(&p->domain[i], out);
	fputs("};\n", out);
}

#define PG_FACT_MAX	(1 + 5 * PG_MAX_CPUS + 6 * PG_MAX_DOMAINS + 1 + \
			 1 + 2 * PG_MAX_NODES)
/*
 * The longest line: "policyN.cpus" (or "node0.cpus") with every CPU, up
 * to 3 digits and a blank each; "pdN.power" has PG_MAX_OPPS values of 8
 * digits.
 */
#define PG_FACT_LEN	(32 + 4 * PG_MAX_CPUS > 32 + 9 * PG_MAX_OPPS ? \
			 32 + 4 * PG_MAX_CPUS : 32 + 9 * PG_MAX_OPPS)

struct pg_facts {
	char line[PG_FACT_MAX][PG_FACT_LEN];
	int nr;
};

static char *fact(struct pg_facts *f, const char *fmt, ...) PG_PRINTF(2, 3);

static char *fact(struct pg_facts *f, const char *fmt, ...)
{
	char *s = f->line[f->nr++];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, PG_FACT_LEN, fmt, ap);
	va_end(ap);
	return s;
}

/* Appends " value" to a fact line; PG_FACT_LEN is sized for the worst case. */
static void fact_add(char *s, uint32_t v)
{
	size_t len = strlen(s);

	snprintf(s + len, PG_FACT_LEN - len, " %u", v);
}

static void fact_cpus(char *s, const struct pg_cpuset *set)
{
	int cpu;

	for (cpu = 0; cpu <= PG_MAX_CPU_ID; cpu++)
		if (pg_cpuset_has(set, cpu))
			fact_add(s, (uint32_t)cpu);
}

static void fact_freqs(char *s, const struct pg_domain *d)
{
	int i;

	for (i = 0; i < d->nr_opps; i++)
		fact_add(s, d->opp[i].khz);
}

static void domain_facts(struct pg_facts *f, const struct pg_domain *d,
			 bool energy)
{
	int c = pg_cpuset_first(&d->cpus);
	char *s;
	int i;

	fact_cpus(fact(f, "policy%d.cpus", c), &d->cpus);
	fact(f, "policy%d.governor schedutil", c);
	fact_freqs(fact(f, "policy%d.freqs", c), d);
	if (!energy)
		return;
	fact_cpus(fact(f, "pd%d.cpus", c), &d->cpus);
	fact_freqs(fact(f, "pd%d.freqs", c), d);
	s = fact(f, "pd%d.power", c);
	for (i = 0; i < d->nr_opps; i++)
		fact_add(s, d->opp[i].uw);
}

/*
 * cpuidle's view of the CPU: state 0 is the ARM convention's "WFI" (1 us
 * exit latency, 1 us residency), then the domain's board-idle states, each
 * named after its node, with the worst-case wake-up latency: entry plus
 * exit (drivers/cpuidle/dt_idle_states.c, without wakeup-latency-us).
 */
static void idle_facts(struct pg_facts *f, int cpu, const struct pg_domain *d)
{
	char *names = fact(f, "cpu%d.idle_states WFI", cpu);
	char *lat = fact(f, "cpu%d.idle_latency 1", cpu);
	char *res = fact(f, "cpu%d.idle_residency 1", cpu);
	size_t len;
	int k;

	for (k = 0; k < d->nr_idle; k++) {
		len = strlen(names);
		snprintf(names + len, PG_FACT_LEN - len, " %s", d->idle[k].name);
		fact_add(lat, d->idle[k].entry_us + d->idle[k].exit_us);
		fact_add(res, d->idle[k].residency_us);
	}
}

/*
 * The CPUs of the nodes within distance d of cpu's node: with d the local
 * distance its node, above it a NUMA level's span (sd_numa_mask()).  All
 * CPUs without numa-node lines: the kernel then has one node.
 */
static void numa_span(const struct pg_platform *p, int cpu, uint32_t d,
		      struct pg_cpuset *span)
{
	const struct pg_node *n = &p->node[p->cpu_node[cpu]];
	int c;

	memset(span, 0, sizeof(*span));
	for (c = 0; c < p->nr_cpus; c++)
		if (!p->nr_nodes || n->distance[p->cpu_node[c]] <= d)
			pg_cpuset_add(span, c);
}

static bool subset(const struct pg_cpuset *a, const struct pg_cpuset *b)
{
	int i;

	for (i = 0; i < PG_CPUSET_WORDS; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

/* The set holds CPUs of two capacities: SD_ASYM_CPUCAPACITY's test. */
static bool mixed(const struct pg_platform *p, const struct pg_cpuset *s)
{
	int cpu, first = pg_cpuset_first(s);

	for (cpu = first + 1; cpu < p->nr_cpus; cpu++)
		if (pg_cpuset_has(s, cpu) &&
		    p->capacity[cpu] != p->capacity[first])
			return true;
	return false;
}

/*
 * The lowest sched domain with SD_ASYM_CPUCAPACITY, the first level, from
 * the bottom, whose span holds two capacities.  With no socket level and
 * no DT cache nodes, MC (cpu_coregroup_mask()) is the CPU's node: all CPUs
 * without NUMA nodes; it becomes the cluster when the node lies within
 * it.  CLS is the cluster, unless it holds MC, when
 * cpu_clustergroup_mask() collapses it.  PKG and NODE are the node again,
 * so they are dropped as degenerate; then each NUMA level, by distance.
 */
static const char *asym_level(const struct pg_platform *p, int cpu)
{
	const struct pg_cluster *c = &p->cluster[p->cpu_cluster[cpu]];
	struct pg_cpuset cluster = { { 0 } }, mc, span;
	uint32_t d;
	int j;

	for (j = 0; j < c->nr_cpus; j++)
		pg_cpuset_add(&cluster, c->cpu[j]);
	numa_span(p, cpu, PG_LOCAL_DISTANCE, &mc);
	if (subset(&mc, &cluster))
		mc = cluster;
	if (!subset(&mc, &cluster) && mixed(p, &cluster))
		return "CLS";
	if (mixed(p, &mc))
		return "MC";
	/* Every NUMA level's distance is one of these, in ascending order. */
	for (d = PG_LOCAL_DISTANCE + 1; d <= PG_MAX_DISTANCE; d++) {
		numa_span(p, cpu, d, &span);
		if (mixed(p, &span))
			return "NUMA";
	}
	/* Not reached: the top level spans all CPUs, which are asymmetric. */
	return "MC";
}

static bool symmetric(const struct pg_platform *p)
{
	int cpu;

	for (cpu = 1; cpu < p->nr_cpus; cpu++)
		if (p->capacity[cpu] != p->capacity[0])
			return false;
	return true;
}

static int cmp_fact(const void *a, const void *b)
{
	return strcmp(a, b);	/* byte order, as LC_ALL=C sort */
}

/*
 * /sys/devices/system/node: the online nodes, each one's CPUs and its
 * distance to every node.  Without numa-node lines a CONFIG_NUMA kernel
 * finds no node in the DT and makes one, node 0, of everything.
 */
static void node_facts(struct pg_facts *f, const struct pg_platform *p)
{
	struct pg_cpuset all;
	char *s;
	int i, j;

	if (!p->nr_nodes) {
		numa_span(p, 0, PG_LOCAL_DISTANCE, &all);
		fact(f, "nodes 1");
		fact_cpus(fact(f, "node0.cpus"), &all);
		fact(f, "node0.distance %d", PG_LOCAL_DISTANCE);
		return;
	}
	fact(f, "nodes %d", p->nr_nodes);
	for (i = 0; i < p->nr_nodes; i++) {
		fact_cpus(fact(f, "node%d.cpus", i), &p->node[i].cpus);
		s = fact(f, "node%d.distance", i);
		for (j = 0; j < p->nr_nodes; j++)
			fact_add(s, p->node[i].distance[j]);
	}
}

void pg_emit_facts(const struct pg_platform *p, FILE *out)
{
	static struct pg_facts f;
	bool energy = true, asym = !symmetric(p);
	int i;

	f.nr = 0;
	for (i = 0; i < p->nr_domains; i++)
		energy = energy && p->domain[i].has_power;

	fact(&f, "cpus %d", p->nr_cpus);
	for (i = 0; i < p->nr_cpus; i++) {
		fact(&f, "cpu%d.capacity %u", i, p->capacity[i]);
		if (asym)
			fact(&f, "cpu%d.asym_level %s", i, asym_level(p, i));
		if (p->has_board)
			idle_facts(&f, i, &p->domain[p->cpu_domain[i]]);
	}
	for (i = 0; i < p->nr_domains; i++)
		domain_facts(&f, &p->domain[i], energy);
	node_facts(&f, p);
	/* EAS needs asymmetric capacities and an EM for every CPU. */
	if (asym && energy)
		fact(&f, "eas started");

	qsort(f.line, (size_t)f.nr, sizeof(f.line[0]), cmp_fact);
	for (i = 0; i < f.nr; i++)
		fprintf(out, "%s\n", f.line[i]);
}
