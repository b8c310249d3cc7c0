/* SPDX-License-Identifier: Zlib */
/* gen_rng.h - internal: the one random stream of the workload generators.
 *
 * splitmix64 seeded by the user, the high 32 bits of each output. Integer
 * arithmetic only, so a seed gives the same sequence, and a generator the
 * same trace, on every host; a change here changes every generated trace
 * (traces/README.md lists the bundled ones). */
#ifndef VS_SIM_GEN_RNG_H
#define VS_SIM_GEN_RNG_H

#include <stdint.h>

typedef struct gen_rng { uint64_t s; } gen_rng;

static inline uint32_t gen_rng_next32(gen_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* Uniform in [0, n), 0 when n is 0: the high half of a 32x32-bit product
 * (no division; the bias is below 2^-32 * n). */
static inline uint32_t gen_rng_below(gen_rng *r, uint32_t n)
{
	return n ? (uint32_t)(((uint64_t)gen_rng_next32(r) * n) >> 32) : 0;
}

/* Uniform in [lo, hi]. */
static inline uint32_t gen_rng_between(gen_rng *r, uint32_t lo, uint32_t hi)
{
	return lo + gen_rng_below(r, hi - lo + 1u);
}

/* True with probability num / den. */
static inline int gen_rng_chance(gen_rng *r, uint32_t num, uint32_t den)
{
	return gen_rng_below(r, den) < num;
}

#endif
