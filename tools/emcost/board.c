// SPDX-License-Identifier: GPL-2.0-only
/*
 * The board power model: what the lab's energy meter charges
 * (docs/emcost.md, "The board model").  Per frequency domain, which is
 * also the cluster:
 *
 *   a(cpu)  = min(util(cpu) / cap(opp), 1)       busy fraction of a CPU
 *   A       = max over the domain's CPUs of a     the cluster is up
 *
 * Tasks of a periodic workload wake together, so busy periods overlap:
 * over a period a CPU is busy for a, idle with the cluster up for A - a
 * and idle with the whole cluster idle for 1 - A.
 *
 *   P(cpu)     = a x cpu_uw(opp) + (A - a) x cpu_uw(idle)
 *                + (1 - A) x cpu_uw(down)
 *   P(cluster) = A x cluster_uw(opp) + (1 - A) x cluster_uw(cluster_idle)
 *
 * idle: the CPU's cpu-scope state; down: the cluster-scope state if one is
 * reached, else idle again; cluster_idle: that cluster-scope state, else
 * the shallowest of the CPUs' states.  The states are the deepest ones,
 * or with a period the deepest whose min residency fits the idle gap:
 * period x (1 - a) for a CPU, period x (1 - A) for the cluster; a CPU
 * without work is idle all the time.
 */
#include "emcost.h"

/* Residencies and utils are sums of decimal inputs: absorb rounding. */
#define EM_EPS		1e-9

int em_board_init(struct em_model *m, const struct pg_platform *p)
{
	int d, i, k;

	if (!p->has_board) {
		fprintf(stderr,
			"emcost: %s has no board power model (board-opp, board-wfi lines) for -B\n",
			p->file);
		return -1;
	}
	for (d = 0; d < p->nr_domains; d++) {
		const struct pg_domain *pd = &p->domain[d];
		struct em_domain *ed = &m->domain[d];

		/* platgen's validation guarantees these: just in case. */
		if (pd->nr_board_opps != pd->nr_opps || !pd->wfi_line)
			return pg_error(p, pd->line, "domain",
					"%s: board-opp lines do not match the opp lines",
					pd->name);
		for (i = 0; i < pd->nr_opps; i++) {
			ed->opp[i].cpu_uw = pd->board_opp[i].cpu_uw;
			ed->opp[i].cluster_uw = pd->board_opp[i].cluster_uw;
		}
		ed->idle[0] = (struct em_idle){
			.name = "WFI",
			.residency_us = 1,	/* ARM cpuidle state 0 */
			.cpu_uw = pd->wfi_cpu_uw,
			.cluster_uw = pd->wfi_cluster_uw,
		};
		ed->deepest_cpu = 0;
		ed->deepest_cluster = -1;
		for (k = 0; k < pd->nr_idle; k++) {
			const struct pg_idle_state *st = &pd->idle[k];

			ed->idle[k + 1] = (struct em_idle){
				.name = st->name,
				.cluster = st->cluster_scope,
				.residency_us = st->residency_us,
				.cpu_uw = st->cpu_uw,
				.cluster_uw = st->cluster_uw,
			};
			if (st->cluster_scope)
				ed->deepest_cluster = k + 1;
			else if (ed->deepest_cluster < 0)
				ed->deepest_cpu = k + 1;
			else
				return pg_error(p, st->line, "board-idle",
						"cpu-scope state %s after a cluster-scope one",
						st->name);
		}
		ed->nr_idle = pd->nr_idle + 1;
	}
	return 0;
}

/* The deepest cpu-scope state for a CPU busy a of the time (WFI at least). */
static int cpu_state(const struct em_model *m, const struct em_domain *d,
		     double a)
{
	double gap = m->period_us * (1 - a);
	int k, best = 0;

	if (m->period_us <= 0 || a <= 0)
		return d->deepest_cpu;
	for (k = 1; k <= d->deepest_cpu; k++)
		if (d->idle[k].residency_us <= gap + EM_EPS)
			best = k;
	return best;
}

/* The deepest cluster-scope state the cluster reaches, or -1. */
static int cluster_state(const struct em_model *m, const struct em_domain *d,
			 double busy)
{
	double gap = m->period_us * (1 - busy);
	int k, best = -1;

	if (d->deepest_cluster < 0 || m->period_us <= 0 || busy <= 0)
		return d->deepest_cluster;
	for (k = d->deepest_cpu + 1; k <= d->deepest_cluster; k++)
		if (d->idle[k].residency_us <= gap + EM_EPS)
			best = k;
	return best;
}

double em_board_domain(const struct em_model *m, int d, int opp,
		       const double *util, struct em_board_domain *bd)
{
	const struct em_domain *ed = &m->domain[d];
	const struct em_opp *op = &ed->opp[opp];
	struct em_board_domain tmp;
	double busy = 0;
	int i, down, shallowest = ed->nr_idle;

	if (!bd)
		bd = &tmp;
	/* Not all of *bd: its cpu[] is sized for any domain, 8 kB. */
	bd->cpu_uw = 0;
	for (i = 0; i < ed->nr_cpus; i++) {
		struct em_board_cpu *c = &bd->cpu[i];

		c->util = util[i];
		c->busy = util[i] / op->cap;
		if (c->busy > 1)
			c->busy = 1;
		if (c->busy > busy)
			busy = c->busy;
	}
	down = cluster_state(m, ed, busy);
	for (i = 0; i < ed->nr_cpus; i++) {
		struct em_board_cpu *c = &bd->cpu[i];

		c->idle = cpu_state(m, ed, c->busy);
		c->down = down >= 0 ? down : c->idle;
		if (c->idle < shallowest)
			shallowest = c->idle;
		c->uw = c->busy * op->cpu_uw +
			(busy - c->busy) * ed->idle[c->idle].cpu_uw +
			(1 - busy) * ed->idle[c->down].cpu_uw;
		bd->cpu_uw += c->uw;
	}
	bd->busy = busy;
	bd->cluster_idle = down >= 0 ? down : shallowest;
	bd->cluster_uw = busy * op->cluster_uw +
			 (1 - busy) * ed->idle[bd->cluster_idle].cluster_uw;
	return bd->cpu_uw + bd->cluster_uw;
}
