// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole-file checks, run after every line parsed cleanly, and the values
 * derived from a valid description.  The order of the checks decides which
 * single error a broken file gets, so it goes from "something is missing"
 * (required keys, then the board model's completeness) to "the CPU
 * numbering is inconsistent".
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

static int cluster_of(const struct pg_platform *p, int cpu)
{
	int i, j;

	for (i = 0; i < p->nr_clusters; i++)
		for (j = 0; j < p->cluster[i].nr_cpus; j++)
			if (p->cluster[i].cpu[j] == cpu)
				return i;
	return -1;
}

/*
 * cpufreq-dt needs every CPU in a policy, and arch_topology gives up on
 * the whole cpu-map (and so on capacity-dmips-mhz) if a CPU is missing.
 */
static int check_membership(struct pg_platform *p)
{
	int i;

	for (i = 0; i < p->nr_seen; i++) {
		const struct pg_mention *m = &p->seen[i];

		p->cpu_domain[m->cpu] = domain_of(p, m->cpu);
		p->cpu_cluster[m->cpu] = cluster_of(p, m->cpu);
		if (p->cpu_domain[m->cpu] < 0)
			return pg_error(p, m->line, m->key,
					"CPU %d is in no frequency domain", m->cpu);
		if (p->cpu_cluster[m->cpu] < 0)
			return pg_error(p, m->line, m->key,
					"CPU %d is in no cluster", m->cpu);
	}
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
	    check_membership(p))
		return -1;
	p->nr_cpus = p->nr_seen;
	return compute_capacity(p);
}
