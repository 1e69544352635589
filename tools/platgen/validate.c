// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole-file checks, run after every line parsed cleanly, and the values
 * derived from a valid description.  The order of the checks decides which
 * single error a broken file gets, so it goes from "something is missing"
 * (required keys, then the board model's completeness) to "the CPU
 * numbering is inconsistent", then what needs every CPU placed: the NUMA
 * nodes' distances, clusters and memory.
 */
#include "platgen.h"

static int check_domain_fields(const struct pg_platform *p,
			       const struct pg_domain *d)
{
	if (!d->cpus_line)
		return pg_error(p, d->line, "cpus",
				"missing required key in domain '%s'", d->name);
	if (!d->core_line)
		return pg_error(p, d->line, "core",
				"missing required key in domain '%s'", d->name);
	if (!d->dmips_line)
		return pg_error(p, d->line, "capacity-dmips-mhz",
				"missing required key in domain '%s'", d->name);
	if (!d->nr_opps)
		return pg_error(p, d->line, "opp",
				"domain '%s' has no OPP (at least one 'opp' line)",
				d->name);
	return 0;
}

static int check_required(const struct pg_platform *p)
{
	int i;

	if (!p->name_line)
		return pg_error(p, 1, "platform", "missing required key");
	if (!p->model_line)
		return pg_error(p, 1, "model", "missing required key");
	if (!p->nr_clusters)
		return pg_error(p, 1, "cluster",
				"missing required key (one 'cluster' line per cluster)");
	if (!p->nr_domains)
		return pg_error(p, 1, "domain",
				"missing required key (at least one 'domain NAME' section)");
	for (i = 0; i < p->nr_domains; i++)
		if (check_domain_fields(p, &p->domain[i]))
			return -1;
	return 0;
}

/*
 * The board model is all or nothing: once any domain has a board-* line,
 * every domain needs board-wfi and one board-opp per opp, at the same
 * frequencies in the same order (the meter looks the OPP up by index).
 */
static int check_board_domain(const struct pg_platform *p,
			      const struct pg_domain *d)
{
	int i;

	if (!d->nr_board_opps)
		return pg_error(p, d->line, "board-opp",
				"missing in domain '%s' (the board model is in every domain or none: board data at line %d)",
				d->name, p->board_line);
	if (!d->wfi_line)
		return pg_error(p, d->line, "board-wfi",
				"missing in domain '%s' (the board model is in every domain or none: board data at line %d)",
				d->name, p->board_line);
	for (i = 0; i < d->nr_board_opps && i < d->nr_opps; i++)
		if (d->board_opp[i].khz != d->opp[i].khz)
			return pg_error(p, d->board_opp[i].line, "board-opp",
					"frequency %u kHz does not match opp %d of domain '%s' (%u kHz, line %d)",
					d->board_opp[i].khz, i + 1, d->name,
					d->opp[i].khz, d->opp[i].line);
	if (d->nr_board_opps > d->nr_opps)
		return pg_error(p, d->board_opp[d->nr_opps].line, "board-opp",
				"more board-opp lines than opp lines (%d) in domain '%s'",
				d->nr_opps, d->name);
	if (d->nr_board_opps < d->nr_opps)
		return pg_error(p, d->opp[d->nr_board_opps].line, "board-opp",
				"no board-opp line for the opp at %u kHz in domain '%s'",
				d->opp[d->nr_board_opps].khz, d->name);
	return 0;
}

static int check_board(struct pg_platform *p)
{
	int i;

	p->has_board = p->board_line != 0;
	if (!p->has_board)
		return 0;
	for (i = 0; i < p->nr_domains; i++)
		if (check_board_domain(p, &p->domain[i]))
			return -1;
	return 0;
}

/* Ids are refused past PG_MAX_CPU_ID, so there are never too many CPUs. */
_Static_assert(PG_MAX_CPU_ID < PG_MAX_CPUS, "CPU ids 0..N-1 bound the CPU count");

/*
 * Linux numbers CPUs in DT order with the boot CPU (MPIDR 0) first, and
 * cpu@N gets the MPIDR of QEMU virt's vCPU N (emit.c), so logical ids must
 * be exactly 0..N-1 for the file's ids to be the guest's ids.
 */
static int check_cpu_ids(const struct pg_platform *p)
{
	const struct pg_mention *m;
	int n = p->nr_seen;
	int i, missing;

	for (i = 0; i < n; i++) {
		m = &p->seen[i];
		if (m->cpu < n)
			continue;
		for (missing = 0; pg_cpuset_has(&p->seen_mask, missing); missing++)
			;
		return pg_error(p, m->line, m->key,
				"CPU ids must be 0..%d for %d CPUs: CPU %d given, CPU %d missing",
				n - 1, n, m->cpu, missing);
	}
	return 0;
}

static int domain_of(const struct pg_platform *p, int cpu)
{
	int i;

	for (i = 0; i < p->nr_domains; i++)
		if (pg_cpuset_has(&p->domain[i].cpus, cpu))
			return i;
	return -1;
}

/* The index of cpu's cluster or numa-node line, -1 if it is in none. */
static int group_of(const struct pg_owner *owner, int cpu)
{
	return owner[cpu].line ? owner[cpu].group : -1;
}

/*
 * cpufreq-dt needs every CPU in a policy, and arch_topology gives up on
 * the whole cpu-map (and so on capacity-dmips-mhz) if a CPU is missing.
 * A CPU outside every NUMA node would be put on node 0 by the kernel,
 * which is not what a file that declares nodes means.
 */
static int check_membership(struct pg_platform *p)
{
	int i;

	for (i = 0; i < p->nr_seen; i++) {
		const struct pg_mention *m = &p->seen[i];

		p->cpu_domain[m->cpu] = domain_of(p, m->cpu);
		p->cpu_cluster[m->cpu] = group_of(p->cluster_owner, m->cpu);
		p->cpu_node[m->cpu] = p->nr_nodes ?
				      group_of(p->node_owner, m->cpu) : 0;
		if (p->cpu_domain[m->cpu] < 0)
			return pg_error(p, m->line, m->key,
					"CPU %d is in no frequency domain", m->cpu);
		if (p->cpu_cluster[m->cpu] < 0)
			return pg_error(p, m->line, m->key,
					"CPU %d is in no cluster", m->cpu);
		if (p->cpu_node[m->cpu] < 0)
			return pg_error(p, m->line, m->key,
					"CPU %d is in no NUMA node (numa-node lines at line %d)",
					m->cpu, p->node[0].line);
	}
	return 0;
}

/*
 * The distance matrix, as Linux's of_numa_parse_distance_map_v1() wants
 * it (10 on the diagonal, above 10 elsewhere) and symmetric, which the
 * scheduler's NUMA levels assume.  Without numa-distance lines, Linux's
 * and QEMU's default: 10 local, 20 remote.
 */
static int check_distances(struct pg_platform *p)
{
	int i, j, line, rows = p->nr_distance_rows;

	if (!rows) {
		for (i = 0; i < p->nr_nodes; i++) {
			for (j = 0; j < p->nr_nodes; j++)
				p->node[i].distance[j] = i == j ?
					PG_LOCAL_DISTANCE : PG_REMOTE_DISTANCE;
			p->node[i].nr_distances = p->nr_nodes;
		}
		return 0;
	}
	if (rows != p->nr_nodes) {
		/* Fewer: at the last row; more: at the first extra one. */
		line = p->node[rows < p->nr_nodes ? rows - 1 :
			       p->nr_nodes].distance_line;
		return pg_error(p, line, "numa-distance",
				"%d numa-distance line%s for %d NUMA nodes (one per node, in node order)",
				rows, rows > 1 ? "s" : "", p->nr_nodes);
	}
	for (i = 0; i < p->nr_nodes; i++) {
		const struct pg_node *n = &p->node[i];

		line = n->distance_line;
		if (n->nr_distances != p->nr_nodes)
			return pg_error(p, line, "numa-distance",
					"%d distance%s for %d NUMA nodes (node %d's to each node, in node order)",
					n->nr_distances,
					n->nr_distances > 1 ? "s" : "",
					p->nr_nodes, i);
		for (j = 0; j < p->nr_nodes; j++) {
			uint32_t d = n->distance[j];
			uint32_t back = p->node[j].distance[i];

			if (i == j && d != PG_LOCAL_DISTANCE)
				return pg_error(p, line, "numa-distance",
						"distance %u from node %d to itself: it must be %d",
						d, i, PG_LOCAL_DISTANCE);
			if (i != j && d == PG_LOCAL_DISTANCE)
				return pg_error(p, line, "numa-distance",
						"distance %u from node %d to node %d: between two nodes it must be above %d",
						d, i, j, PG_LOCAL_DISTANCE);
			if (j < i && d != back)
				return pg_error(p, line, "numa-distance",
						"distance %u from node %d to node %d, but %u back (line %d): the matrix must be symmetric",
						d, i, j, back,
						p->node[j].distance_line);
		}
	}
	return 0;
}

/*
 * On NUMA the MC level is the CPU's node (cpu_coregroup_mask()), and a
 * cluster (CLS) must lie inside it: else the kernel reports "arch
 * topology borken" and widens MC.
 */
static int check_cluster_nodes(const struct pg_platform *p)
{
	int i, j;

	for (i = 0; i < p->nr_clusters; i++) {
		const struct pg_cluster *c = &p->cluster[i];
		int first = p->cpu_node[c->cpu[0]];

		for (j = 1; j < c->nr_cpus; j++) {
			int node = p->cpu_node[c->cpu[j]];

			if (node != first)
				return pg_error(p, c->line, "cluster",
						"CPU %d is in NUMA node %d (line %d) but CPU %d in node %d (line %d): a cluster lies within one node",
						c->cpu[0], first,
						p->node[first].line,
						c->cpu[j], node,
						p->node[node].line);
		}
	}
	return 0;
}

/*
 * lab/lib.sh gives each node an equal share of the RAM.  A share of whole
 * 128 MiB sections (arm64's sparsemem section with 4K pages) puts every
 * node boundary on a section boundary, as on real machines: the memmap of
 * a section that straddles two nodes would live on one of them.
 */
#define PG_NODE_MEMORY_ALIGN_MB	128

static int check_node_memory(const struct pg_platform *p)
{
	int line = p->memory_line ? p->memory_line : p->node[0].line;

	if (p->memory_mb % ((uint32_t)p->nr_nodes * PG_NODE_MEMORY_ALIGN_MB))
		return pg_error(p, line, "memory-mb",
				"%u MiB%s do not split into %d NUMA nodes of a multiple of %d MiB each",
				p->memory_mb,
				p->memory_line ? "" : " (the default)",
				p->nr_nodes, PG_NODE_MEMORY_ALIGN_MB);
	return 0;
}

static int check_numa(struct pg_platform *p)
{
	if (!p->nr_nodes) {
		if (p->nr_distance_rows)
			return pg_error(p, p->node[0].distance_line,
					"numa-distance",
					"no numa-node line: distances need NUMA nodes");
		return 0;
	}
	if (check_distances(p) || check_cluster_nodes(p) ||
	    check_node_memory(p))
		return -1;
	return 0;
}

static uint64_t raw_capacity(const struct pg_domain *d)
{
	return (uint64_t)d->dmips * d->opp[d->nr_opps - 1].khz;
}

/*
 * topology_normalize_cpu_scale() in Linux 6.12: the reference frequency is
 * the policy's cpuinfo.max_freq, i.e. the domain's top OPP in kHz.  It
 * does not round up, and a CPU of capacity 0 breaks the scheduler's
 * capacity arithmetic (and emcost's), so such a domain is refused.
 */
static int compute_capacity(struct pg_platform *p)
{
	const struct pg_domain *big = NULL, *d;
	int cpu;

	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		d = &p->domain[p->cpu_domain[cpu]];
		if (!big || raw_capacity(d) > raw_capacity(big))
			big = d;
	}
	for (cpu = 0; cpu < p->nr_cpus; cpu++) {
		d = &p->domain[p->cpu_domain[cpu]];
		p->capacity[cpu] = (uint32_t)((raw_capacity(d) << 10) /
					      raw_capacity(big));
		if (!p->capacity[cpu])
			return pg_error(p, d->dmips_line, "capacity-dmips-mhz",
					"capacity of domain '%s' rounds to 0: %u DMIPS/MHz x %u kHz is under 1/1024 of domain '%s' (%u x %u kHz)",
					d->name, d->dmips,
					d->opp[d->nr_opps - 1].khz, big->name,
					big->dmips, big->opp[big->nr_opps - 1].khz);
	}
	return 0;
}

int pg_validate(struct pg_platform *p)
{
	if (check_required(p) || check_board(p) || check_cpu_ids(p) ||
	    check_membership(p) || check_numa(p))
		return -1;
	p->nr_cpus = p->nr_seen;
	return compute_capacity(p);
}
