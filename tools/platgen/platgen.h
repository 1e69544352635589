/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * platgen: platform description -> QEMU virt DT fragment, runner variables,
 * the facts a booted guest must show and the derived model the lab's
 * scripts read.  See docs/platform-format.md.
 */
#ifndef PLATGEN_H
#define PLATGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The lab kernel's NR_CPUS.  QEMU virt takes up to 8 vCPUs with GICv2 and
 * up to 512 with GICv3: the lab asks for GICv3 past 8 (lab/lib.sh).
 */
#define PG_MAX_CPUS		256
/* CPU ids are 0..N-1 (validate.c), so a larger id is never valid. */
#define PG_MAX_CPU_ID		(PG_MAX_CPUS - 1)
/* Every domain and cluster needs a CPU of its own. */
#define PG_MAX_DOMAINS		PG_MAX_CPUS
#define PG_MAX_CLUSTERS		PG_MAX_CPUS
#define PG_MAX_OPPS		32
/* Board idle states 1..7 (deeper than WFI); cpuidle's limit is 10 in all. */
#define PG_MAX_IDLE_STATES	7
/* cpuidle keeps 15 characters of a state's name (CPUIDLE_NAME_LEN). */
#define PG_IDLE_NAME_MAX	15
/* "opp-table-" + name must fit the 31 characters of a DT node name. */
#define PG_NAME_MAX		20
#define PG_MODEL_MAX		100
/*
 * NUMA nodes: MAX_NUMNODES of the lab kernel, arm64's default NODES_SHIFT
 * of 4 (lab.config leaves it alone).  Distances as ACPI's SLIT and the DT
 * distance-map: 10 within a node, 11..254 between two (255 is ACPI's
 * "unreachable", and QEMU's -numa dist stops at 254).
 */
#define PG_MAX_NODES		16
#define PG_LOCAL_DISTANCE	10
#define PG_REMOTE_DISTANCE	20	/* Linux's and QEMU's default */
#define PG_MAX_DISTANCE		254

#define PG_DEFAULT_QEMU_CPU	"cortex-a57"
#define PG_DEFAULT_MEMORY_MB	512
#define PG_DEFAULT_LATENCY_NS	100000

/* A set of logical CPU ids 0..PG_MAX_CPU_ID: a bitmap. */
#define PG_CPUSET_WORDS		((PG_MAX_CPU_ID + 64) / 64)

struct pg_cpuset {
	uint64_t w[PG_CPUSET_WORDS];
};

static inline void pg_cpuset_add(struct pg_cpuset *s, int cpu)
{
	s->w[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static inline bool pg_cpuset_has(const struct pg_cpuset *s, int cpu)
{
	return s->w[cpu / 64] & (UINT64_C(1) << (cpu % 64));
}

static inline int pg_cpuset_count(const struct pg_cpuset *s)
{
	int i, n = 0;

	for (i = 0; i < PG_CPUSET_WORDS; i++) {
		uint64_t w = s->w[i];

		for (; w; w &= w - 1)
			n++;
	}
	return n;
}

/* The lowest CPU of the set, -1 if it is empty. */
static inline int pg_cpuset_first(const struct pg_cpuset *s)
{
	int cpu;

	for (cpu = 0; cpu <= PG_MAX_CPU_ID; cpu++)
		if (pg_cpuset_has(s, cpu))
			return cpu;
	return -1;
}

struct pg_opp {
	uint32_t khz;
	uint32_t uv;
	uint32_t uw;		/* 0 when the domain has no power data */
	int line;
};

/*
 * The board power model: what the lab's energy meter charges, separate
 * from the EM (pg_opp.uw) that the kernel sees.  Power is per frequency
 * domain, which is also the CPU power domain ("cluster") on the real
 * platforms.  See docs/platform-format.md, "Board power model".
 */
struct pg_board_opp {
	uint32_t khz;		/* equal to opp[i].khz of the same index */
	uint32_t cpu_uw;	/* one busy CPU at this OPP */
	uint32_t cluster_uw;	/* the domain's cluster while any CPU is busy */
	int line;
};

struct pg_idle_state {
	char name[PG_NAME_MAX + 1];
	bool cluster_scope;	/* reached only when every CPU of the domain asks */
	uint32_t entry_us, exit_us, residency_us;
	uint32_t cpu_uw;	/* one CPU in this state */
	uint32_t cluster_uw;	/* the cluster while the shallowest CPU is here */
	int line;
};

struct pg_domain {
	char name[PG_NAME_MAX + 1];
	char core[PG_NAME_MAX + 1];
	int line;		/* of the "domain NAME" header */
	struct pg_cpuset cpus;
	uint32_t dmips;
	uint32_t latency_ns;
	uint32_t idle_uw;
	int cpus_line, core_line, dmips_line, latency_line, idle_line;
	struct pg_opp opp[PG_MAX_OPPS];
	int nr_opps;
	bool has_power;		/* decided by the first OPP of the domain */

	/* Board model (all zero when the platform has none). */
	struct pg_board_opp board_opp[PG_MAX_OPPS];	/* one per opp[], same order */
	int nr_board_opps;
	uint32_t wfi_cpu_uw, wfi_cluster_uw;	/* idle state 0 (WFI) */
	int wfi_line;				/* 0: no board-wfi line */
	struct pg_idle_state idle[PG_MAX_IDLE_STATES];	/* states 1..nr_idle */
	int nr_idle;
};

struct pg_cluster {
	int cpu[PG_MAX_CPU_ID + 1];	/* in file order: becomes coreJ */
	int nr_cpus;
	int line;
};

/* A numa-node line: node K is the file's K-th one. */
struct pg_node {
	struct pg_cpuset cpus;
	int line;
	/* Its numa-distance row: to every node, in node order. */
	uint32_t distance[PG_MAX_NODES];
	int nr_distances;
	int distance_line;	/* 0: no row for this node */
};

/*
 * Which line of a partitioning key (cluster, numa-node) has a CPU: group
 * is the index of that line among the key's lines, line 0 none yet.
 */
struct pg_owner {
	int group;
	int line;
};

/* First place a CPU id was named; global errors point there. */
struct pg_mention {
	int cpu;
	int line;
	const char *key;
};

/* About 0.7 MB at 256 CPUs: give it static storage, not the stack. */
struct pg_platform {
	const char *file;
	char name[PG_NAME_MAX + 1];
	char model[PG_MODEL_MAX + 1];
	char qemu_cpu[PG_NAME_MAX + 1];
	uint32_t memory_mb;
	int name_line, model_line, qemu_cpu_line, memory_line;

	struct pg_cluster cluster[PG_MAX_CLUSTERS];
	int nr_clusters;
	struct pg_owner cluster_owner[PG_MAX_CPUS];
	/* No numa-node line (nr_nodes 0): the guest is one node, node 0. */
	struct pg_node node[PG_MAX_NODES];
	int nr_nodes;
	struct pg_owner node_owner[PG_MAX_CPUS];
	int nr_distance_rows;	/* numa-distance lines, one per node */
	struct pg_domain domain[PG_MAX_DOMAINS];
	int nr_domains;

	struct pg_mention seen[PG_MAX_CPU_ID + 1];
	int nr_seen;
	struct pg_cpuset seen_mask;
	int board_line;		/* the file's first board-* line, 0 if none */

	/* Derived once the description is valid. */
	int nr_cpus;
	int cpu_domain[PG_MAX_CPUS];
	int cpu_cluster[PG_MAX_CPUS];
	int cpu_node[PG_MAX_CPUS];	/* 0 for every CPU without nodes */
	uint32_t capacity[PG_MAX_CPUS];
	bool has_board;		/* some domain has board data (then all do) */
};

#if defined(__GNUC__)
#define PG_PRINTF(f, a)	__attribute__((format(printf, f, a)))
#else
#define PG_PRINTF(f, a)
#endif

/* Prints the single "FILE:LINE: FIELD: message" line; always returns -1. */
int pg_error(const struct pg_platform *p, int line, const char *field,
	     const char *fmt, ...) PG_PRINTF(4, 5);

/*
 * Parses and validates FILE into *p; on failure one error line is printed,
 * "PROG: FILE: cannot open: ..." if FILE cannot be opened.
 */
int pg_load(struct pg_platform *p, const char *prog, const char *file);

/* Whole-file checks after parsing; fills in the derived fields. */
int pg_validate(struct pg_platform *p);

void pg_emit_info(const struct pg_platform *p, FILE *out);
void pg_emit_dts(const struct pg_platform *p, FILE *out);
void pg_emit_facts(const struct pg_platform *p, FILE *out);
/* The derived model for the lab's scripts; the format is in model.c. */
void pg_emit_model(const struct pg_platform *p, FILE *out);

#endif /* PLATGEN_H */
