import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { uniformBigInt } from 'pure-rand/distribution/uniformBigInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/**
 * The one random source of the simulator: seeded, so the same seed and the same sequence of
 * calls give the same values on every run. Nothing else calls Math.random().
 */
export class SeededRng {
  readonly seed: number;
  private generator: RandomGenerator;

  constructor(seed: number) {
    this.seed = seed;
    this.generator = xoroshiro128plus(seed);
  }

  /** Starts the sequence again from the seed. */
  reset(): void {
    this.generator = xoroshiro128plus(this.seed);
  }

  /** Where the sequence is now, to come back to with `restore` (a world snapshot). */
  capture(): RandomGenerator {
    return this.generator.clone();
  }

  /** Continues the sequence from a point `capture` returned (which stays usable again). */
  restore(state: RandomGenerator): void {
    this.generator = state.clone();
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return uniformInt(this.generator, min, max);
  }

  /** Uniform bigint in [min, max]. */
  bigint(min: bigint, max: bigint): bigint {
    return uniformBigInt(this.generator, min, max);
  }

  /** `byteLength` random bytes as 0x-prefixed hex. */
  hex(byteLength: number): `0x${string}` {
    let out = '0x';
    for (let i = 0; i < byteLength; i++) out += this.int(0, 255).toString(16).padStart(2, '0');
    return out as `0x${string}`;
  }

  /** True with the given probability (0..1), decided on a 1e6 grid so it stays integer-only. */
  chance(probability: number): boolean {
    return this.int(0, 999_999) < Math.round(probability * 1_000_000);
  }
}
