/*
 * emcost: the cost of task placements on a platform's Energy Model, and the
 * cheapest static placement, as LISA's EnergyModel scores EAS behaviour.
 * See docs/emcost.md.
 */
#ifndef EMCOST_H
#define EMCOST_H

#include <stdbool.h>

#include "../platgen/platgen.h"

/* Enough for LISA's workloads and the seed's 50 identical tasks. */
#define EM_MAX_TASKS		256
/* Tasks of one util are interchangeable: the search works on classes. */
#define EM_MAX_CLASSES		16
/* Sub-multisets of the classes the search may enumerate (mixed radix). */
#define EM_MAX_STATES		65536

struct em_opp {
	double cap;		/* capacity at this OPP, 1024 = biggest at top */
	double limit;		/* highest CPU util this OPP serves with margin */
	double uw;
	unsigned int khz;
};

struct em_domain {
	const char *name;
	int cpu[PG_MAX_CPUS];
	int nr_cpus;
	struct em_opp opp[PG_MAX_OPPS];
	int nr_opps;
	double idle_uw;
};

struct em_model {
	struct em_domain domain[PG_MAX_DOMAINS];
	int nr_domains;
	int nr_cpus;
	int cpu_domain[PG_MAX_CPUS];
};

struct em_options {
	double margin_pct;	/* LISA's capacity_margin_pct */
	bool no_idle;		/* idle power 0, as LISA's LinuxEnergyModel */
};

/* A placement: the CPU of each task (-1: not placed) and the OPPs used. */
struct em_placement {
	double power_uw;
	bool fits;		/* every domain has an OPP with the margin */
	int task_cpu[EM_MAX_TASKS];
	int domain_opp[PG_MAX_DOMAINS];
};

int em_model_init(struct em_model *m, const struct pg_platform *p,
		  const struct em_options *o);

/*
 * Power of tasks of UTIL placed on CPUs TASK_CPU; fills pl->domain_opp.
 * A domain with no OPP that serves its busiest CPU runs at its top OPP
 * and pl->fits is false: LISA's search would not consider the placement.
 */
double em_estimate(const struct em_model *m, const double *util,
		   const int *task_cpu, int nr_tasks, struct em_placement *pl);

/*
 * Cheapest placement of the tasks: 0, or -1 if no placement fits the
 * platform, -2 if the tasks are too many or too varied for the search.
 */
int em_optimum(const struct em_model *m, const double *util, int nr_tasks,
	       struct em_placement *pl);

#endif /* EMCOST_H */
