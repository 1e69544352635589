/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * emcost: the cost of task placements on a platform's Energy Model, and the
 * cheapest static placement, as LISA's EnergyModel scores EAS behaviour;
 * or (-B) on the platform's board power model, what the lab's energy meter
 * charges.  See docs/emcost.md.
 */
#ifndef EMCOST_H
#define EMCOST_H

#include <stdbool.h>

#include "../platgen/platgen.h"

/* The seed's 50 tasks, and 8 tasks per CPU on the largest platform. */
#define EM_MAX_TASKS		(8 * PG_MAX_CPUS)
/* Tasks of one util are interchangeable: the search works on classes. */
#define EM_MAX_CLASSES		16
/* Sub-multisets of the classes the search may enumerate (mixed radix). */
#define EM_MAX_STATES		65536
/*
 * The search's work: the pairs of a set of tasks S and a subset T of it
 * that it visits (docs/emcost.md, "The optimum").  Past this it gives up:
 * on the lab's 2-core host 6e9 steps took 15 to 50 s.
 */
#define EM_MAX_STEPS		6000000000LL
/* Board idle states: 0 is WFI, then the platform's board-idle lines. */
#define EM_MAX_IDLE		(1 + PG_MAX_IDLE_STATES)

struct em_opp {
	double cap;		/* capacity at this OPP, 1024 = biggest at top */
	double limit;		/* highest CPU util this OPP serves with margin */
	double uw;
	unsigned int khz;
	double cpu_uw;		/* board: one busy CPU */
	double cluster_uw;	/* board: the cluster while any CPU is busy */
};

/*
 * A board idle state: the power of one CPU in it, and of the cluster while
 * every CPU is idle and the shallowest of them is in it.
 */
struct em_idle {
	const char *name;
	bool cluster;		/* scope: only when every CPU is in one */
	double residency_us;
	double cpu_uw;
	double cluster_uw;
};

struct em_domain {
	const char *name;
	int cpu[PG_MAX_CPUS];
	int nr_cpus;
	struct em_opp opp[PG_MAX_OPPS];
	int nr_opps;
	double idle_uw;
	/* Board: states 0..deepest_cpu have cpu scope, the rest cluster. */
	struct em_idle idle[EM_MAX_IDLE];
	int nr_idle;
	int deepest_cpu;
	int deepest_cluster;	/* -1: no cluster-scope state */
};

/* About 0.8 MB at 256 CPUs: static storage, not the stack. */
struct em_model {
	struct em_domain domain[PG_MAX_DOMAINS];
	int nr_domains;
	int nr_cpus;
	int cpu_domain[PG_MAX_CPUS];
	bool board;		/* price on the board model, not the EM */
	double period_us;	/* board: idle states by gap; 0: the deepest */
};

struct em_options {
	double margin_pct;	/* LISA's capacity_margin_pct */
	bool no_idle;		/* idle power 0, as LISA's LinuxEnergyModel */
	bool board;
	double period_us;
};

/* The board model's account of one CPU and of one domain. */
struct em_board_cpu {
	double util;
	double busy;		/* a = min(util / cap(opp), 1) */
	int idle;		/* its state while idle with the cluster up */
	int down;		/* its state while the whole cluster is idle */
	double uw;
};

struct em_board_domain {
	double busy;		/* A = the busiest CPU's a */
	int cluster_idle;	/* whose cluster power the idle cluster costs */
	double cpu_uw;		/* the domain's CPUs */
	double cluster_uw;
	struct em_board_cpu cpu[PG_MAX_CPUS];	/* in em_domain.cpu[] order */
};

/*
 * A placement: the CPU of each task (-1: not placed) and the OPPs used.
 * About 2 MB at 256 CPUs (the board's accounts): static storage.
 */
struct em_placement {
	double power_uw;
	bool fits;		/* every domain has an OPP with the margin */
	int task_cpu[EM_MAX_TASKS];
	int domain_opp[PG_MAX_DOMAINS];
	struct em_board_domain board[PG_MAX_DOMAINS];	/* board model only */
};

int em_model_init(struct em_model *m, const struct pg_platform *p,
		  const struct em_options *o);

/*
 * Board model: power of domain D at OPP with UTIL[i] on its CPU i
 * (em_domain.cpu[] order); fills *BD if not NULL.
 */
double em_board_domain(const struct em_model *m, int d, int opp,
		       const double *util, struct em_board_domain *bd);

/* The board half of em_model_init() (board.c). */
int em_board_init(struct em_model *m, const struct pg_platform *p);

/*
 * Power of tasks of UTIL placed on CPUs TASK_CPU; fills pl->domain_opp
 * and, on the board model, pl->board.
 * A domain with no OPP that serves its busiest CPU runs at its top OPP
 * and pl->fits is false: LISA's search would not consider the placement.
 */
double em_estimate(const struct em_model *m, const double *util,
		   const int *task_cpu, int nr_tasks, struct em_placement *pl);

/* em_optimum()'s failures. */
#define EM_NO_FIT		(-1)	/* no placement fits the platform */
#define EM_TOO_VARIED		(-2)	/* > EM_MAX_CLASSES utils, > EM_MAX_TASKS */
#define EM_TOO_MANY_SETS	(-3)	/* > EM_MAX_STATES sets of tasks */
#define EM_TOO_LONG		(-4)	/* > EM_MAX_STEPS steps */
#define EM_NOMEM		(-5)

/*
 * Cheapest placement of the tasks: 0, or one of the failures above.  On
 * the board model with a period it is the best placement found, not
 * always the cheapest (docs/emcost.md).
 */
int em_optimum(const struct em_model *m, const double *util, int nr_tasks,
	       struct em_placement *pl);

#endif /* EMCOST_H */
