# SPDX-License-Identifier: GPL-2.0-only
# Energy Aware Scheduling on Debian's Linux 6.12, and the QEMU lab that
# emulates big.LITTLE platforms to measure it.  See README.md.
#
#   make run      build what is missing, boot PLATFORM, run EXPERIMENT
#   make check    every test; ends with "N passed, N failed"
#   make bench    the seed's energy and hackbench benchmarks, every policy, with
#                 their report (PLATFORMS, N, DURATION, REPS, HB_GROUPS, HB_LOOPS,
#                 HB_REPS, PARALLEL=1: see lab/bench --help)
#   make rfc      the 2018 RFC's energy table: its 4.16-like baseline, none, 6.12's
#                 EAS and the series under 4.16's and 6.12's schedutil, beside the
#                 RFC's Joules (PLATFORMS, N, DURATION, REPS: see lab/rfc)
#   make behaviour  LISA's EAS behaviour tests and over-utilization scenarios,
#                   3 platforms x 3 policies (PLATFORMS, REPS runs each,
#                   default 6: see lab/behaviour/run.sh --help)
#   make stress   the series on the debug kernel (lockdep, KASAN, UBSAN) under CPU
#                 hotplug, policy and governor storms, every platform (PLATFORMS,
#                 DURATION seconds each, default 120; make check runs 20, every
#                 platform at once, as PARALLEL=1 does: see
#                 lab/stress --help)
#   make scale    what one wake-up's CPU selection costs per policy, in guest
#                 instructions, on platforms of growing CPU count (PLATFORMS,
#                 KINDS, TASKS, HB_GROUPS, REPS: see lab/scale --help)
#   make search-bench  what the energy-aware searches (6.12's, the series')
#                 cost on synthetic landscapes of 8 to MAX_CPUS (default 1024)
#                 CPUs, a KUnit suite in one boot (see lab/search-bench --help)
#   make threshold  periodic tasks at each smaller CPU class's fit threshold,
#                 energy per policy, runs in two modes (PLATFORMS, PCTS, COUNTS,
#                 PERIODS, DURATION, REPS: see lab/threshold --help)
#   make debug-kernel  only build that kernel, in build/obj/debug

PLATFORM   ?= juno-r0
EXPERIMENT ?= seed-energy
TRACE      ?= 0

BUILD      := build
IMAGE      := $(BUILD)/obj/lab/arch/arm64/boot/Image
INITRAMFS  := $(BUILD)/guest/initramfs.cpio.gz
RTAPP      := $(BUILD)/guest/rt-app
PLATGEN    := $(BUILD)/tools/platgen
EMCOST     := $(BUILD)/tools/emcost
HOST_CC    := gcc
HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2

GUEST_INPUTS := lab/guest/build-initramfs.sh lab/guest/packages.list \
	lab/guest/init lab/guest/trace-events $(wildcard lab/guest/bin/*)

.PHONY: all run check bench rfc behaviour scale search-bench threshold stress deps kernel debug-kernel initramfs tools clean help

all: kernel initramfs tools

help:
	@sed -n 's/^#   //p' Makefile

deps:
	@lab/deps.sh all

tools: $(PLATGEN) $(EMCOST)

$(PLATGEN): $(wildcard tools/platgen/*.c tools/platgen/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^)

# emcost reads platform files with platgen's parser: one grammar, one place.
$(EMCOST): $(wildcard tools/emcost/*.c tools/emcost/*.h) tools/platgen/parse.c \
		tools/platgen/validate.c tools/platgen/platgen.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $(filter %.c,$^)

# Always handed to the script: it skips every step whose inputs are unchanged
# and kbuild does the rest.
kernel: deps
	@lab/kernel/build.sh >/dev/null

# The debug kernel: the same tree and series, lab.config + debug.config, in
# its own directory so the benchmark kernel's figures are not skewed.
debug-kernel: deps
	@lab/kernel/build.sh lab/kernel/lab.config:lab/kernel/debug.config $(BUILD)/obj/debug >/dev/null

initramfs: $(INITRAMFS)

$(RTAPP): lab/guest/build-rtapp.sh lab/versions.mk $(wildcard lab/guest/rt-app/*.patch) | deps
	@lab/guest/build-rtapp.sh $@ >/dev/null

$(INITRAMFS): $(GUEST_INPUTS) $(RTAPP) | deps
	@lab/guest/build-initramfs.sh $@ >/dev/null

run: kernel initramfs tools
	@lab/run -p $(PLATFORM) $(if $(filter 1,$(TRACE)),-t) -q $(EXPERIMENT) $(ARGS)

check: deps
	@tests/run.sh

# The knobs become lab/bench's options when set.
BENCH_OPTS = $(if $(PLATFORMS),-p "$(PLATFORMS)") $(if $(N),-N "$(N)") \
	$(if $(DURATION),-d "$(DURATION)") $(if $(REPS),-r "$(REPS)") \
	$(if $(HB_GROUPS),-g "$(HB_GROUPS)") $(if $(HB_LOOPS),-l "$(HB_LOOPS)") \
	$(if $(HB_REPS),-R "$(HB_REPS)") $(if $(filter 1,$(PARALLEL)),-j)
bench: kernel initramfs tools
	@lab/bench $(strip $(BENCH_OPTS))

# The knobs become lab/rfc's options when set.
rfc: kernel initramfs tools
	@lab/rfc $(if $(PLATFORMS),-p "$(PLATFORMS)") $(if $(N),-N "$(N)") $(if $(DURATION),-d "$(DURATION)") $(if $(REPS),-r "$(REPS)")

# The knobs become lab/scale's options when set.
scale: kernel initramfs tools
	@lab/scale $(if $(PLATFORMS),-p "$(PLATFORMS)") $(if $(KINDS),-w "$(KINDS)") $(if $(TASKS),-t "$(TASKS)") $(if $(HB_GROUPS),-g "$(HB_GROUPS)") $(if $(REPS),-r "$(REPS)")

search-bench: kernel initramfs tools
	@lab/search-bench $(if $(MAX_CPUS),-m "$(MAX_CPUS)")

# The knobs become lab/threshold's options when set.
threshold: kernel initramfs tools
	@lab/threshold $(if $(PLATFORMS),-p "$(PLATFORMS)") $(if $(PCTS),-u "$(PCTS)") $(if $(COUNTS),-c "$(COUNTS)") $(if $(PERIODS),-P "$(PERIODS)") $(if $(DURATION),-d "$(DURATION)") $(if $(REPS),-r "$(REPS)")

behaviour: kernel initramfs tools
	@lab/behaviour/run.sh $(if $(REPS),-r "$(REPS)") $(PLATFORMS)

# lab/stress builds the debug kernel itself (make check runs it too).
stress: initramfs tools
	@lab/stress $(if $(PLATFORMS),-p "$(PLATFORMS)") $(if $(DURATION),-d "$(DURATION)") $(if $(PARALLEL),-j)

clean:
	rm -rf $(BUILD)/obj $(BUILD)/guest $(BUILD)/tools $(BUILD)/dtb
