// SPDX-License-Identifier: GPL-2.0-only
/*
 * platgen model FILE: the derived model of a valid description, for the
 * lab's scripts, so that none of them parses a platform file itself.  The
 * values are the ones the kernel derives, in its integer arithmetic, and
 * the file's own figures, named; nothing is estimated here.
 *
 * One record per line, in this order: the platform line, one cluster line
 * per cluster (cpu-map order), with NUMA nodes one node line per node
 * (numa-node order), one cpu line per CPU (0..N-1), then per domain (file
 * order) its domain line, its opp lines (lowest frequency first) and, with
 * a board model, its idle lines (state 0 first):
 *
 *   platform NAME nr_cpus N nr_clusters C nr_domains D em 0|1 asym 0|1 board 0|1
 *          [nr_nodes K]
 *   cluster K cpus LIST nr_cpus N
 *   node K cpus LIST nr_cpus N memory_mb M distance LIST
 *   cpu K domain NAME capacity C cluster K [node K]
 *   domain NAME index I cpus LIST nr_cpus N first_cpu F core CORE
 *          dmips_mhz M capacity C top_khz F nr_opps K latency_ns L em 0|1
 *          idle_power_uw P|-
 *          [board_wfi_cpu_uw P board_wfi_cluster_uw P nr_idle_states S]
 *   opp NAME index K khz F uv V capacity C power_uw P|-
 *          [board_cpu_uw P board_cluster_uw P]
 *   idle NAME index K state STATE scope cpu|cluster entry_us E exit_us X
 *          latency_us L residency_us R board_cpu_uw P board_cluster_uw P
 *
 * (a platform or domain line is one line; it is wrapped here only).  Every
 * line is "KIND ID" then "KEY VALUE" pairs, so awk finds a value by its
 * key:
 *
 *   { for (i = 3; i < NF; i += 2) v[$i] = $(i + 1) }
 *
 * and, as each kind has its keys in a fixed order in a given file, also by
 * position.  The keys in [ ] are there only when the platform has a board
 * model (then on every domain and OPP), but nr_nodes and node, like the
 * node lines, only when it has numa-node lines.  A value the file does not
 * give is "-": idle_power_uw without idle-power-uw, power_uw in a domain
 * without power.  LIST is CPU ids, ascending, comma separated.
 *
 * - platform: em 1 when every domain has power (the kernel then has an
 *   Energy Model for every CPU); asym 1 when the capacities differ; board 1
 *   with a board model.  EAS starts when em and asym are both 1.
 * - cpu and domain capacity: Linux 6.12 topology_normalize_cpu_scale(),
 *   as "platgen facts": raw = capacity-dmips-mhz x top OPP kHz, capacity =
 *   (raw << 10) / max(raw) in 64-bit integers, truncated.
 * - opp capacity: the Energy Model's performance of the OPP, Linux 6.12
 *   em_init_performance(): capacity x kHz / top kHz of the domain in
 *   64-bit integers, truncated (the top OPP's is the CPU's capacity).
 * - power_uw: the OPP's opp-microwatt, the Energy Model's power.
 *   board_cpu_uw, board_cluster_uw: its board-opp powers.
 * - cluster on a cpu line: the index of its cluster line (cpu-map
 *   clusterK), the scheduler's topology.  The board's cluster powers are
 *   per domain, as in the file.  node: the index of its numa-node line.
 * - node lines: memory_mb is the node's equal share of memory-mb, as
 *   lab/lib.sh gives it to QEMU; distance the node's numa-distance row
 *   (LIST, in node order; 10 to itself and 20 to the others by default).
 * - idle lines: cpuidle's states of the domain's CPUs.  Index 0 is WFI
 *   (state 0: exit 1 us, residency 1 us, the ARM convention; entry 0),
 *   with board-wfi's powers; indices 1.. are the board-idle lines in file
 *   order.  latency_us is entry + exit, cpuidle's latency without
 *   wakeup-latency-us.  nr_idle_states counts the idle lines, WFI
 *   included.
 */
#include "platgen.h"

/* cpuidle's state 0 on arm64 (ARM_CPUIDLE_WFI_STATE). */
#define PG_WFI_EXIT_US		1
#define PG_WFI_RESIDENCY_US	1

static void put_cpu_list(FILE *out, const struct pg_cpuset *mask)
{
	const char *sep = "";
	int cpu;

	for (cpu = 0; cpu <= PG_MAX_CPU_ID; cpu++) {
		if (pg_cpuset_has(mask, cpu)) {
			fprintf(out, "%s%d", sep, cpu);
			sep = ",";
		}
	}
}

static uint32_t top_khz(const struct pg_domain *d)
{
	return d->opp[d->nr_opps - 1].khz;
}

/* Every CPU of a domain has the same capacity: its first one's. */
static uint32_t domain_capacity(const struct pg_platform *p,
				const struct pg_domain *d)
{
	return p->capacity[pg_cpuset_first(&d->cpus)];
}

/* em_init_performance() in Linux 6.12: linear in frequency, truncated. */
static uint32_t opp_capacity(uint32_t cap, uint32_t khz, uint32_t top)
{
	return (uint32_t)((uint64_t)cap * khz / top);
}

static void put_value(FILE *out, const char *key, bool given, uint32_t v)
{
	if (given)
		fprintf(out, " %s %u", key, v);
	else
		fprintf(out, " %s -", key);
}

static void model_platform(const struct pg_platform *p, FILE *out)
{
	bool em = true, asym = false;
	int i;

	for (i = 0; i < p->nr_domains; i++)
		em = em && p->domain[i].has_power;
	for (i = 1; i < p->nr_cpus; i++)
		asym = asym || p->capacity[i] != p->capacity[0];
	fprintf(out, "platform %s nr_cpus %d nr_clusters %d nr_domains %d em %d asym %d board %d",
		p->name, p->nr_cpus, p->nr_clusters, p->nr_domains, em, asym,
		p->has_board);
	if (p->nr_nodes)
		fprintf(out, " nr_nodes %d", p->nr_nodes);
	fputc('\n', out);
}

static void model_cluster(const struct pg_cluster *c, int k, FILE *out)
{
	struct pg_cpuset mask = { { 0 } };
	int j;

	for (j = 0; j < c->nr_cpus; j++)
		pg_cpuset_add(&mask, c->cpu[j]);
	fprintf(out, "cluster %d cpus ", k);
	put_cpu_list(out, &mask);
	fprintf(out, " nr_cpus %d\n", c->nr_cpus);
}

static void model_node(const struct pg_platform *p, int k, FILE *out)
{
	const struct pg_node *n = &p->node[k];
	int j;

	fprintf(out, "node %d cpus ", k);
	put_cpu_list(out, &n->cpus);
	fprintf(out, " nr_cpus %d memory_mb %u distance ",
		pg_cpuset_count(&n->cpus),
		p->memory_mb / (uint32_t)p->nr_nodes);
	for (j = 0; j < p->nr_nodes; j++)
		fprintf(out, "%s%u", j ? "," : "", n->distance[j]);
	fputc('\n', out);
}

static void model_domain(const struct pg_platform *p, int i, FILE *out)
{
	const struct pg_domain *d = &p->domain[i];

	fprintf(out, "domain %s index %d cpus ", d->name, i);
	put_cpu_list(out, &d->cpus);
	fprintf(out, " nr_cpus %d first_cpu %d core %s dmips_mhz %u capacity %u top_khz %u nr_opps %d latency_ns %u em %d",
		pg_cpuset_count(&d->cpus), pg_cpuset_first(&d->cpus), d->core,
		d->dmips, domain_capacity(p, d), top_khz(d), d->nr_opps,
		d->latency_ns, d->has_power);
	put_value(out, "idle_power_uw", d->idle_line, d->idle_uw);
	if (p->has_board)
		fprintf(out, " board_wfi_cpu_uw %u board_wfi_cluster_uw %u nr_idle_states %d",
			d->wfi_cpu_uw, d->wfi_cluster_uw, d->nr_idle + 1);
	fputc('\n', out);
}

static void model_opps(const struct pg_platform *p, const struct pg_domain *d,
		       FILE *out)
{
	uint32_t cap = domain_capacity(p, d);
	int k;

	for (k = 0; k < d->nr_opps; k++) {
		const struct pg_opp *o = &d->opp[k];

		fprintf(out, "opp %s index %d khz %u uv %u capacity %u", d->name,
			k, o->khz, o->uv, opp_capacity(cap, o->khz, top_khz(d)));
		put_value(out, "power_uw", d->has_power, o->uw);
		if (p->has_board)
			fprintf(out, " board_cpu_uw %u board_cluster_uw %u",
				d->board_opp[k].cpu_uw,
				d->board_opp[k].cluster_uw);
		fputc('\n', out);
	}
}

static void model_idle(const struct pg_domain *d, FILE *out)
{
	int k;

	fprintf(out, "idle %s index 0 state WFI scope cpu entry_us 0 exit_us %d latency_us %d residency_us %d board_cpu_uw %u board_cluster_uw %u\n",
		d->name, PG_WFI_EXIT_US, PG_WFI_EXIT_US, PG_WFI_RESIDENCY_US,
		d->wfi_cpu_uw, d->wfi_cluster_uw);
	for (k = 0; k < d->nr_idle; k++) {
		const struct pg_idle_state *s = &d->idle[k];

		fprintf(out, "idle %s index %d state %s scope %s entry_us %u exit_us %u latency_us %u residency_us %u board_cpu_uw %u board_cluster_uw %u\n",
			d->name, k + 1, s->name,
			s->cluster_scope ? "cluster" : "cpu", s->entry_us,
			s->exit_us, s->entry_us + s->exit_us, s->residency_us,
			s->cpu_uw, s->cluster_uw);
	}
}

void pg_emit_model(const struct pg_platform *p, FILE *out)
{
	int i;

	model_platform(p, out);
	for (i = 0; i < p->nr_clusters; i++)
		model_cluster(&p->cluster[i], i, out);
	for (i = 0; i < p->nr_nodes; i++)
		model_node(p, i, out);
	for (i = 0; i < p->nr_cpus; i++) {
		fprintf(out, "cpu %d domain %s capacity %u cluster %d", i,
			p->domain[p->cpu_domain[i]].name, p->capacity[i],
			p->cpu_cluster[i]);
		if (p->nr_nodes)
			fprintf(out, " node %d", p->cpu_node[i]);
		fputc('\n', out);
	}
	for (i = 0; i < p->nr_domains; i++) {
		const struct pg_domain *d = &p->domain[i];

		model_domain(p, i, out);
		model_opps(p, d, out);
		if (p->has_board)
			model_idle(d, out);
	}
}
