// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Energy Model as LISA's EnergyModel scores placements
 * (lisa/energy_model.py, estimate_from_cpu_util() and
 * get_optimal_placements()):
 *
 *   cap(opp)   = capacity(cpu) x khz / max_khz
 *   a(cpu)     = min(util(cpu) / cap(opp), 1)
 *   P(cpu)     = P(opp) x a + P_idle x (1 - a)
 *
 * where util(cpu) is the sum of its tasks' utils and each frequency domain
 * runs at its lowest OPP whose cap(opp) x (100 - margin) / 100 covers its
 * busiest CPU.  With em_model.board the same placements and OPPs are
 * priced on the board model instead (board.c).
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "emcost.h"

/* Utils are sums of decimal inputs: absorb their rounding. */
#define EM_EPS		1e-9
/* polish(): a change must save this much (uW), and it stops after this. */
#define EM_GAIN		1e-6
#define EM_POLISH_PASSES	100

int em_model_init(struct em_model *m, const struct pg_platform *p,
		  const struct em_options *o)
{
	int d, i, cpu;

	memset(m, 0, sizeof(*m));
	m->nr_domains = p->nr_domains;
	m->nr_cpus = p->nr_cpus;
	for (d = 0; d < p->nr_domains; d++) {
		const struct pg_domain *pd = &p->domain[d];
		struct em_domain *ed = &m->domain[d];
		unsigned int max_khz = pd->opp[pd->nr_opps - 1].khz;

		if (!pd->has_power && !o->board)
			return pg_error(p, pd->line, "domain",
					"%s has no power data: no energy model",
					pd->name);
		ed->name = pd->name;
		ed->idle_uw = o->no_idle ? 0 : pd->idle_uw;
		for (cpu = 0; cpu < p->nr_cpus; cpu++) {
			if (!pg_cpuset_has(&pd->cpus, cpu))
				continue;
			ed->cpu[ed->nr_cpus++] = cpu;
			m->cpu_domain[cpu] = d;
		}
		ed->nr_opps = pd->nr_opps;
		for (i = 0; i < pd->nr_opps; i++) {
			struct em_opp *op = &ed->opp[i];

			op->khz = pd->opp[i].khz;
			op->uw = pd->opp[i].uw;
			op->cap = (double)p->capacity[ed->cpu[0]] * op->khz /
				  max_khz;
			op->limit = op->cap * (100.0 - o->margin_pct) / 100.0;
		}
	}
	m->board = o->board;
	m->period_us = o->period_us;
	return m->board ? em_board_init(m, p) : 0;
}

static double cpu_power(const struct em_domain *d, int opp, double util)
{
	double a = util / d->opp[opp].cap;

	if (a > 1)
		a = 1;
	return d->opp[opp].uw * a + d->idle_uw * (1 - a);
}

static int lowest_opp_for(const struct em_domain *d, double util)
{
	int i;

	for (i = 0; i < d->nr_opps; i++)
		if (util <= d->opp[i].limit + EM_EPS)
			return i;
	return -1;
}

double em_estimate(const struct em_model *m, const double *util,
		   const int *task_cpu, int nr_tasks, struct em_placement *pl)
{
	double cpu_util[PG_MAX_CPUS] = { 0 };
	double power = 0;
	int d, i, t;

	pl->fits = true;
	for (t = 0; t < nr_tasks; t++)
		cpu_util[task_cpu[t]] += util[t];
	for (d = 0; d < m->nr_domains; d++) {
		const struct em_domain *ed = &m->domain[d];
		double busiest = 0;
		int opp;

		for (i = 0; i < ed->nr_cpus; i++)
			if (cpu_util[ed->cpu[i]] > busiest)
				busiest = cpu_util[ed->cpu[i]];
		opp = lowest_opp_for(ed, busiest);
		if (opp < 0) {
			opp = ed->nr_opps - 1;
			pl->fits = false;
		}
		if (m->board) {
			double u[PG_MAX_CPUS];

			for (i = 0; i < ed->nr_cpus; i++)
				u[i] = cpu_util[ed->cpu[i]];
			power += em_board_domain(m, d, opp, u, &pl->board[d]);
		} else {
			for (i = 0; i < ed->nr_cpus; i++)
				power += cpu_power(ed, opp,
						   cpu_util[ed->cpu[i]]);
		}
		pl->domain_opp[d] = opp;
	}
	for (t = 0; t < nr_tasks; t++)
		pl->task_cpu[t] = task_cpu[t];
	pl->power_uw = power;
	return power;
}

/*
 * The search.  Tasks of equal util are one class; a multiset of tasks is
 * a vector of per-class counts, numbered in mixed radix (digit c ranges
 * over 0..count[c]).  The cheapest placement is a dynamic programme over
 * the domains: best(d, R) = min over S <= R of cost(d, S) + best(d+1, R-S),
 * where cost(d, S) is the power of domain d running the tasks S on its
 * CPUs at the lowest OPP at which they can be packed.  Within a domain,
 * at one OPP and with no CPU saturated, power is linear in the domain's
 * total util, so the packing only decides feasibility.
 */
/* A packing to price: its makespan and the first CPU's share. */
struct candidate {
	double u;
	long t;
};

struct em_search {
	const struct em_model *m;
	int nr_classes;
	double util[EM_MAX_CLASSES];	/* descending */
	int count[EM_MAX_CLASSES];
	long stride[EM_MAX_CLASSES];
	long nr_states;
	double *total;		/* [state]: the summed util of its tasks */
	double *cost;		/* [domain][state], DBL_MAX: cannot fit */
	signed char *opp;	/* [domain][state] */
	double *best;		/* [domain + 1][state] */
	long *choice;		/* [domain][state]: S taken by domain */
	double *span;		/* [k][state]: least makespan on k CPUs */
	int span_rows;		/* k = 0..span_rows-1 */
	int max_cpus;		/* of a domain */
	/* Board model (board_costs()). */
	int *span_first;	/* [k][state]: the first CPU's share in it */
	int *busiest;		/* [domain][state]: the busiest CPU's share */
	short *used;		/* [domain][state]: other CPUs with tasks */
	struct candidate *lo, *hi;	/* [opp][used]: board_costs()'s */
	long long steps;	/* pairs (S, T <= S) visited so far */
	bool over;		/* steps went past EM_MAX_STEPS: give up */
};

/* The sub-multisets T <= S in mixed radix, with digits kept: no division. */
struct subsets {
	const struct em_search *s;
	int top[EM_MAX_CLASSES];
	int dig[EM_MAX_CLASSES];
	long t;
	long n;			/* how many T there are */
};

static int digit(const struct em_search *s, long state, int c)
{
	return (int)(state / s->stride[c] % (s->count[c] + 1));
}

/* Each state's total util, once: the packing tables ask for it often. */
static void fill_totals(struct em_search *s)
{
	long state;
	int c;

	for (state = 0; state < s->nr_states; state++) {
		s->total[state] = 0;
		for (c = 0; c < s->nr_classes; c++)
			s->total[state] += digit(s, state, c) * s->util[c];
	}
}

/* Next S <= R in mixed radix; false after the last one. */
static bool next_subset(const struct em_search *s, long r, long *sub)
{
	int c;

	for (c = 0; c < s->nr_classes; c++) {
		if (digit(s, *sub, c) < digit(s, r, c)) {
			*sub += s->stride[c];
			return true;
		}
		*sub -= digit(s, *sub, c) * s->stride[c];
	}
	return false;
}

static void subsets_start(struct subsets *it, const struct em_search *s,
			  long state)
{
	int c;

	it->s = s;
	it->t = 0;
	it->n = 1;
	for (c = 0; c < s->nr_classes; c++) {
		it->top[c] = digit(s, state, c);
		it->dig[c] = 0;
		it->n *= it->top[c] + 1;
	}
}

/*
 * Counts N more steps of the search; true once they pass EM_MAX_STEPS,
 * and from then on every stage returns at once (docs/emcost.md).
 */
static bool spend(struct em_search *s, long long n)
{
	s->steps += n;
	if (s->steps > EM_MAX_STEPS)
		s->over = true;
	return s->over;
}

static bool subsets_next(struct subsets *it)
{
	const struct em_search *s = it->s;
	int c;

	for (c = 0; c < s->nr_classes; c++) {
		if (it->dig[c] < it->top[c]) {
			it->dig[c]++;
			it->t += s->stride[c];
			return true;
		}
		it->t -= it->dig[c] * s->stride[c];
		it->dig[c] = 0;
	}
	return false;
}

/*
 * Packing as a table: fits[k][S] says whether the tasks S run on k CPUs
 * of LIMIT util each.  fits[k][S] holds when some T <= S fits one CPU and
 * fits[k-1][S-T] holds; T = 0 is allowed, so fits[k] grows with k.  Only
 * the S <= TOP are filled in, which is all unpack(TOP) reads.
 */
static unsigned char *fit_table(struct em_search *s, int nr_bins,
				double limit, long top)
{
	unsigned char *fits = calloc((size_t)(nr_bins + 1) * s->nr_states, 1);
	struct subsets below;
	long state, t, n;
	int k, c;

	if (!fits)
		return NULL;
	fits[0] = 1;
	for (k = 1; k <= nr_bins; k++) {
		unsigned char *row = &fits[k * s->nr_states];
		const unsigned char *prev = row - s->nr_states;

		subsets_start(&below, s, top);
		do {
			state = below.t;
			for (n = 1, c = 0; c < s->nr_classes; c++)
				n *= below.dig[c] + 1;
			if (spend(s, n)) {
				free(fits);
				return NULL;
			}
			t = 0;
			do {
				if (prev[state - t] &&
				    s->total[t] <= limit + EM_EPS) {
					row[state] = 1;
					break;
				}
			} while (next_subset(s, state, &t));
		} while (subsets_next(&below));
	}
	return fits;
}

/* The tasks each of NR_BINS CPUs gets: CPU_SHARE[k] is a state. */
static void unpack(const struct em_search *s, const unsigned char *fits,
		   int nr_bins, double limit, long state, long *cpu_share)
{
	long t;
	int k;

	for (k = nr_bins; k > 0; k--) {
		const unsigned char *prev = &fits[(k - 1) * s->nr_states];

		t = 0;
		do {
			if (prev[state - t] &&
			    s->total[t] <= limit + EM_EPS)
				break;
		} while (next_subset(s, state, &t));
		cpu_share[k - 1] = t;
		state -= t;
	}
}

/*
 * The lowest OPP at which the tasks fit sets the domain's cost.  They fit
 * an OPP exactly when their least makespan on the domain's CPUs does
 * (the packings' largest shares are the same sums of utils).
 */
static void domain_costs(struct em_search *s, int d)
{
	const struct em_domain *ed = &s->m->domain[d];
	const double *span = &s->span[ed->nr_cpus * s->nr_states];
	double *cost = &s->cost[d * s->nr_states];
	long state;
	int opp;

	for (state = 0; state < s->nr_states; state++) {
		cost[state] = DBL_MAX;
		if (span[state] == DBL_MAX)
			continue;
		opp = lowest_opp_for(ed, span[state]);
		if (opp < 0)
			continue;
		cost[state] = ed->nr_cpus * ed->idle_uw +
			      (ed->opp[opp].uw - ed->idle_uw) *
			      s->total[state] / ed->opp[opp].cap;
		s->opp[d * s->nr_states + state] = (signed char)opp;
	}
}

/*
 * The board model's search: the DP over domains is the same, cost(d, S)
 * is not.  At a given OPP, with the deepest idle states, a domain's power
 * depends on its tasks S only through their total util (the CPUs' busy
 * time) and its busiest CPU's util U (the cluster's busy time A = U / cap),
 * and linearly in U:
 *
 *   P = (cpu_uw(opp) - P_idle) x total / cap + n x P_down + Q_down
 *       + A x (n x (P_idle - P_down) + cluster_uw(opp) - Q_down)
 *
 * (P_idle, P_down: one CPU's power idle with the cluster up and with it
 * down; Q_down the idle cluster's; board.c).  Every packing of S on the
 * n CPUs has a busiest CPU; say it takes T, so U = total(T).  The rest,
 * S - T, fits the other n - 1 CPUs with none above U exactly when its
 * least makespan span[n-1][S-T] is at most U.  Enumerating T therefore
 * gives every U a packing can have, hence its OPP (the lowest serving U),
 * and at each OPP the least and the greatest U are the only ones worth
 * pricing: the cheaper of all those is cost(d, S), exactly.  Balancing
 * the domain's CPUs (the least U) is the usual winner.  With a period the
 * CPUs' idle states depend on each CPU's util, not just on U, so there
 * is no such shortcut: every T is priced with S - T spread at its least
 * makespan over 0..n-1 of the other CPUs, which can miss a cheaper
 * uneven spread of S - T (polish() then looks for it).
 *
 * The least makespans, span[k][S] for k = 0..span_rows-1 CPUs, serve the
 * Energy Model's search too: S fits a domain of n CPUs at an OPP exactly
 * when span[n][S] does.  They depend on the number of CPUs only, not on
 * the domain, so one table serves every domain.
 */
static void fill_spans(struct em_search *s)
{
	struct subsets it;
	long state, n = s->nr_states;
	int k;

	for (state = 0; state < n; state++)
		s->span[state] = state ? DBL_MAX : 0;
	for (k = 1; k < s->span_rows; k++) {
		const double *prev = &s->span[(k - 1) * n];
		double *row = &s->span[k * n];
		int *first = s->span_first ? &s->span_first[k * n] : NULL;

		for (state = 0; state < n; state++) {
			row[state] = DBL_MAX;
			subsets_start(&it, s, state);
			if (spend(s, it.n))
				return;
			do {
				double u = prev[state - it.t];

				if (u == DBL_MAX)
					continue;
				if (s->total[it.t] > u)
					u = s->total[it.t];
				if (u < row[state]) {
					row[state] = u;
					if (first)
						first[state] = (int)it.t;
				}
			} while (subsets_next(&it));
		}
	}
}

/*
 * The shares of the domain's CPUs when the first takes T of STATE and the
 * rest goes to the next USED CPUs at their least makespan.
 */
static void board_shares(const struct em_search *s, int nr_cpus, long state,
			 long t, int used, long *share)
{
	int k;

	share[0] = t;
	state -= t;
	for (k = 1; k < nr_cpus; k++) {
		int left = used - k + 1;	/* CPUs for what is left */

		share[k] = left > 0 ?
			   s->span_first[left * s->nr_states + state] : 0;
		state -= share[k];
	}
}

/* Prices STATE on domain D at OPP, packed as board_shares() says. */
static void board_try(struct em_search *s, int d, long state, int opp,
		      long t, int used)
{
	const struct em_domain *ed = &s->m->domain[d];
	long cell = d * s->nr_states + state, share[PG_MAX_CPUS];
	double util[PG_MAX_CPUS], p;
	int i;

	if (spend(s, ed->nr_cpus))
		return;
	board_shares(s, ed->nr_cpus, state, t, used, share);
	for (i = 0; i < ed->nr_cpus; i++)
		util[i] = s->total[share[i]];
	p = em_board_domain(s->m, d, opp, util, NULL);
	if (p < s->cost[cell]) {
		s->cost[cell] = p;
		s->opp[cell] = (signed char)opp;
		s->busiest[cell] = (int)t;
		s->used[cell] = (short)used;
	}
}

/* The candidates of one OPP and count of other CPUs used. */
#define LO(opp, used)	s->lo[(opp) * s->max_cpus + (used)]
#define HI(opp, used)	s->hi[(opp) * s->max_cpus + (used)]

/*
 * cost(d, S) for every S.  With the deepest states only the extreme
 * makespans at each OPP need pricing and the other CPUs always all take
 * part; with a period every candidate is priced, with the rest spread
 * over 0..n-1 other CPUs.
 */
static void board_costs(struct em_search *s, int d)
{
	const struct em_domain *ed = &s->m->domain[d];
	bool period = s->m->period_us > 0;
	int n = ed->nr_cpus, first_used = period ? 0 : n - 1;
	struct candidate *lo_c, *hi_c;
	struct subsets it;
	long state;
	int opp, used;

	for (state = 0; state < s->nr_states; state++) {
		s->cost[d * s->nr_states + state] = DBL_MAX;
		for (opp = 0; opp < ed->nr_opps; opp++)
			for (used = first_used; used < n; used++)
				LO(opp, used).t = HI(opp, used).t = -1;
		subsets_start(&it, s, state);
		if (spend(s, it.n * (n - first_used)))
			return;
		do {
			for (used = first_used; used < n; used++) {
				double u = s->span[used * s->nr_states +
						   state - it.t];

				/* T is the busiest CPU's share. */
				if (u == DBL_MAX || s->total[it.t] + EM_EPS < u)
					continue;
				u = s->total[it.t];
				opp = lowest_opp_for(ed, u);
				if (opp < 0)
					continue;
				if (period) {
					board_try(s, d, state, opp, it.t, used);
					continue;
				}
				lo_c = &LO(opp, used);
				hi_c = &HI(opp, used);
				if (lo_c->t < 0 || u < lo_c->u)
					*lo_c = (struct candidate){ u, it.t };
				if (hi_c->t < 0 || u > hi_c->u)
					*hi_c = (struct candidate){ u, it.t };
			}
		} while (subsets_next(&it));
		for (opp = 0; opp < ed->nr_opps && !period; opp++) {
			for (used = first_used; used < n; used++) {
				if (LO(opp, used).t < 0)
					continue;
				board_try(s, d, state, opp, LO(opp, used).t,
					  used);
				board_try(s, d, state, opp, HI(opp, used).t,
					  used);
			}
		}
	}
}

#undef LO
#undef HI

static bool same_opp(const struct em_opp *a, const struct em_opp *b)
{
	return a->cap == b->cap && a->limit == b->limit && a->uw == b->uw &&
	       a->khz == b->khz && a->cpu_uw == b->cpu_uw &&
	       a->cluster_uw == b->cluster_uw;
}

static bool same_idle(const struct em_idle *a, const struct em_idle *b)
{
	return a->cluster == b->cluster && a->residency_us == b->residency_us &&
	       a->cpu_uw == b->cpu_uw && a->cluster_uw == b->cluster_uw;
}

/*
 * An earlier domain that prices every set of tasks as domain D does, or
 * -1: the same number of CPUs, the same OPPs, powers and idle states;
 * only its name and its CPUs' ids differ.  The platforms past 8 CPUs
 * repeat a few kinds of domain (dynamiq256: 32 domains of 3 kinds), so
 * each kind's costs are computed once.
 */
static int same_domain(const struct em_model *m, int d)
{
	const struct em_domain *a = &m->domain[d];
	int e, k;

	for (e = 0; e < d; e++) {
		const struct em_domain *b = &m->domain[e];

		if (a->nr_cpus != b->nr_cpus || a->nr_opps != b->nr_opps ||
		    a->idle_uw != b->idle_uw || a->nr_idle != b->nr_idle ||
		    a->deepest_cpu != b->deepest_cpu ||
		    a->deepest_cluster != b->deepest_cluster)
			continue;
		for (k = 0; k < a->nr_opps; k++)
			if (!same_opp(&a->opp[k], &b->opp[k]))
				break;
		if (k < a->nr_opps)
			continue;
		for (k = 0; k < a->nr_idle; k++)
			if (!same_idle(&a->idle[k], &b->idle[k]))
				break;
		if (k == a->nr_idle)
			return e;
	}
	return -1;
}

/* cost(d, S) for every S: a copy of an identical domain's, or computed. */
static void costs(struct em_search *s, int d)
{
	long n = s->nr_states;
	int e = same_domain(s->m, d);

	if (s->over)
		return;
	if (e < 0 && s->m->board) {
		board_costs(s, d);
		return;
	}
	if (e < 0) {
		domain_costs(s, d);
		return;
	}
	memcpy(&s->cost[d * n], &s->cost[e * n], n * sizeof(*s->cost));
	memcpy(&s->opp[d * n], &s->opp[e * n], n * sizeof(*s->opp));
	if (s->m->board) {
		memcpy(&s->busiest[d * n], &s->busiest[e * n],
		       n * sizeof(*s->busiest));
		memcpy(&s->used[d * n], &s->used[e * n], n * sizeof(*s->used));
	}
}

static void solve(struct em_search *s)
{
	int nr_domains = s->m->nr_domains, d;
	struct subsets it;
	long r;

	for (r = 0; r < s->nr_states; r++)
		s->best[nr_domains * s->nr_states + r] = r ? DBL_MAX : 0;
	for (d = nr_domains - 1; d >= 0; d--) {
		const double *cost = &s->cost[d * s->nr_states];
		const double *next = &s->best[(d + 1) * s->nr_states];

		for (r = 0; r < s->nr_states; r++) {
			double *best = &s->best[d * s->nr_states + r];

			*best = DBL_MAX;
			subsets_start(&it, s, r);
			if (spend(s, it.n))
				return;
			do {
				double c = cost[it.t], rest = next[r - it.t];

				if (c == DBL_MAX || rest == DBL_MAX ||
				    c + rest >= *best)
					continue;
				*best = c + rest;
				s->choice[d * s->nr_states + r] = it.t;
			} while (subsets_next(&it));
		}
	}
}

/*
 * The steps the search will take at least, known before it starts: every
 * (S, T <= S) once per row of the span table, once per domain in
 * solve(), and on the board model once per kind of domain (times the
 * CPUs' shares priced with a period) in board_costs().  Then placing the
 * tasks, and on the board model pricing packings, add their own.
 */
static double planned_steps(const struct em_search *s)
{
	const struct em_model *m = s->m;
	bool period = m->period_us > 0;
	double pairs = 1, steps;
	int c, d;

	for (c = 0; c < s->nr_classes; c++)
		pairs *= (s->count[c] + 1.0) * (s->count[c] + 2.0) / 2;
	steps = pairs * (s->span_rows - 1 + m->nr_domains);
	for (d = 0; m->board && d < m->nr_domains; d++)
		if (same_domain(m, d) < 0)
			steps += pairs * (period ? m->domain[d].nr_cpus : 1);
	return steps;
}

/* EM_TOO_VARIED or EM_TOO_MANY_SETS when the tasks are too many for it. */
static int make_classes(struct em_search *s, const double *util, int nr_tasks,
			int *class_of)
{
	int t, c, j;

	s->nr_classes = 0;
	for (t = 0; t < nr_tasks; t++) {
		for (c = 0; c < s->nr_classes; c++)
			if (s->util[c] == util[t])
				break;
		if (c == s->nr_classes) {
			if (c == EM_MAX_CLASSES)
				return EM_TOO_VARIED;
			/* Classes in descending util: the output reads better. */
			for (c = 0; c < s->nr_classes && s->util[c] > util[t];
			     c++)
				;
			for (j = s->nr_classes; j > c; j--) {
				s->util[j] = s->util[j - 1];
				s->count[j] = s->count[j - 1];
			}
			s->util[c] = util[t];
			s->count[c] = 0;
			s->nr_classes++;
		}
		s->count[c]++;
	}
	s->nr_states = 1;
	for (c = 0; c < s->nr_classes; c++) {
		s->stride[c] = s->nr_states;
		s->nr_states *= s->count[c] + 1;
		if (s->nr_states > EM_MAX_STATES)
			return EM_TOO_MANY_SETS;
	}
	for (t = 0; t < nr_tasks; t++)
		for (c = 0; c < s->nr_classes; c++)
			if (s->util[c] == util[t])
				class_of[t] = c;
	return 0;
}

/* Hands the tasks of CPU_SHARE[i] to CPU i of domain ED, in task order. */
static void assign(const struct em_search *s, const int *class_of,
		   int nr_tasks, const struct em_domain *ed,
		   const long *cpu_share, struct em_placement *pl)
{
	int i, c, k, t;

	for (i = 0; i < ed->nr_cpus; i++) {
		for (c = 0; c < s->nr_classes; c++) {
			k = digit(s, cpu_share[i], c);
			for (t = 0; t < nr_tasks && k > 0; t++) {
				if (class_of[t] != c || pl->task_cpu[t] >= 0)
					continue;
				pl->task_cpu[t] = ed->cpu[i];
				k--;
			}
		}
	}
}

/* Hands the tasks of each domain's share to its CPUs, in task order. */
static int place(struct em_search *s, const int *class_of,
		 int nr_tasks, struct em_placement *pl)
{
	long r = s->nr_states - 1, cpu_share[PG_MAX_CPUS];
	int d, t;

	for (t = 0; t < nr_tasks; t++)
		pl->task_cpu[t] = -1;
	for (d = 0; d < s->m->nr_domains; d++) {
		const struct em_domain *ed = &s->m->domain[d];
		long sub = s->choice[d * s->nr_states + r];
		int opp = s->opp[d * s->nr_states + sub];
		unsigned char *fits = fit_table(s, ed->nr_cpus,
						ed->opp[opp].limit, sub);

		if (!fits)
			return -1;
		unpack(s, fits, ed->nr_cpus, ed->opp[opp].limit, sub,
		       cpu_share);
		free(fits);
		pl->domain_opp[d] = opp;
		assign(s, class_of, nr_tasks, ed, cpu_share, pl);
		r -= sub;
	}
	return 0;
}

static void place_board(const struct em_search *s, const int *class_of,
			int nr_tasks, struct em_placement *pl)
{
	long r = s->nr_states - 1, cpu_share[PG_MAX_CPUS];
	int d, t;

	for (t = 0; t < nr_tasks; t++)
		pl->task_cpu[t] = -1;
	for (d = 0; d < s->m->nr_domains; d++) {
		const struct em_domain *ed = &s->m->domain[d];
		long sub = s->choice[d * s->nr_states + r];
		long cell = d * s->nr_states + sub;

		board_shares(s, ed->nr_cpus, sub, s->busiest[cell],
			     s->used[cell], cpu_share);
		pl->domain_opp[d] = s->opp[cell];
		assign(s, class_of, nr_tasks, ed, cpu_share, pl);
		r -= sub;
	}
}

/*
 * With a period the search prices some packings of a domain, not all:
 * move one task or swap two while that lowers the power, so that the
 * placement is at least a local optimum.  pl->power_uw is its estimate.
 */
static void polish(const struct em_model *m, const double *util,
		   int nr_tasks, struct em_placement *pl)
{
	static struct em_placement try;
	int cpu[EM_MAX_TASKS], t, u, c, pass;
	double best = em_estimate(m, util, pl->task_cpu, nr_tasks, pl);
	bool better = true;

	memcpy(cpu, pl->task_cpu, nr_tasks * sizeof(cpu[0]));
	for (pass = 0; better && pass < EM_POLISH_PASSES; pass++) {
		better = false;
		for (t = 0; t < nr_tasks; t++) {
			for (c = 0; c < m->nr_cpus; c++) {
				int was = cpu[t];

				if (c == was)
					continue;
				cpu[t] = c;
				em_estimate(m, util, cpu, nr_tasks, &try);
				if (try.fits && try.power_uw < best - EM_GAIN) {
					best = try.power_uw;
					better = true;
				} else {
					cpu[t] = was;
				}
			}
			for (u = t + 1; u < nr_tasks; u++) {
				int was = cpu[t];

				if (cpu[u] == was || util[u] == util[t])
					continue;
				cpu[t] = cpu[u];
				cpu[u] = was;
				em_estimate(m, util, cpu, nr_tasks, &try);
				if (try.fits && try.power_uw < best - EM_GAIN) {
					best = try.power_uw;
					better = true;
				} else {
					cpu[u] = cpu[t];
					cpu[t] = was;
				}
			}
		}
	}
	em_estimate(m, util, cpu, nr_tasks, pl);
}

int em_optimum(const struct em_model *m, const double *util, int nr_tasks,
	       struct em_placement *pl)
{
	struct em_search s = { .m = m };
	int class_of[EM_MAX_TASKS];
	long cells;
	int d, ret;

	if (nr_tasks > EM_MAX_TASKS)
		return EM_TOO_VARIED;
	ret = make_classes(&s, util, nr_tasks, class_of);
	if (ret)
		return ret;
	for (d = 0; d < m->nr_domains; d++)
		if (m->domain[d].nr_cpus > s.max_cpus)
			s.max_cpus = m->domain[d].nr_cpus;
	/* The EM prices S on all n CPUs of a domain, the board on n - 1. */
	s.span_rows = m->board ? s.max_cpus : s.max_cpus + 1;
	if (planned_steps(&s) > EM_MAX_STEPS)
		return EM_TOO_LONG;
	ret = EM_NOMEM;
	cells = (long)m->nr_domains * s.nr_states;
	s.cost = malloc(cells * sizeof(*s.cost));
	s.opp = malloc(cells * sizeof(*s.opp));
	s.best = malloc((cells + s.nr_states) * sizeof(*s.best));
	s.choice = calloc(cells, sizeof(*s.choice));
	s.total = malloc(s.nr_states * sizeof(*s.total));
	if (!s.cost || !s.opp || !s.best || !s.choice || !s.total)
		goto out;
	fill_totals(&s);
	s.span = malloc(s.span_rows * s.nr_states * sizeof(*s.span));
	if (!s.span)
		goto out;
	if (m->board) {
		s.span_first = malloc(s.span_rows * s.nr_states *
				      sizeof(*s.span_first));
		s.busiest = malloc(cells * sizeof(*s.busiest));
		s.used = malloc(cells * sizeof(*s.used));
		s.lo = malloc(PG_MAX_OPPS * s.max_cpus * sizeof(*s.lo));
		s.hi = malloc(PG_MAX_OPPS * s.max_cpus * sizeof(*s.hi));
		if (!s.span_first || !s.busiest || !s.used || !s.lo || !s.hi)
			goto out;
	}
	fill_spans(&s);
	for (d = 0; d < m->nr_domains; d++)
		costs(&s, d);
	solve(&s);
	ret = EM_TOO_LONG;
	if (s.over)
		goto out;
	ret = EM_NO_FIT;
	if (s.best[s.nr_states - 1] == DBL_MAX)
		goto out;
	ret = 0;
	if (!m->board) {
		pl->power_uw = s.best[s.nr_states - 1];
		pl->fits = true;
		if (place(&s, class_of, nr_tasks, pl))
			ret = s.over ? EM_TOO_LONG : EM_NOMEM;
	} else if (m->period_us > 0) {
		place_board(&s, class_of, nr_tasks, pl);
		polish(m, util, nr_tasks, pl);
	} else {
		place_board(&s, class_of, nr_tasks, pl);
		/* The per-CPU account; the power is the search's own. */
		em_estimate(m, util, pl->task_cpu, nr_tasks, pl);
		pl->power_uw = s.best[s.nr_states - 1];
	}
out:
	free(s.cost);
	free(s.opp);
	free(s.best);
	free(s.choice);
	free(s.total);
	free(s.span);
	free(s.span_first);
	free(s.busiest);
	free(s.used);
	free(s.lo);
	free(s.hi);
	return ret;
}
