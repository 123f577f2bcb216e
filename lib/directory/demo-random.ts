/**
 * A small seeded PRNG for the demo data (mulberry32): the same seed gives the same sequence on
 * every machine and Node version, which `Math.random` cannot promise, so a demo file is
 * reproducible byte for byte.
 */

export class DemoRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError("pick from an empty list");
    return item;
  }

  /** Skewed towards the start of the list, so the first entries are common (shared surnames). */
  pickCommon<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() ** 2 * items.length)];
    if (item === undefined) throw new RangeError("pick from an empty list");
    return item;
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return this.pick(choices)[0];
  }

  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
    }
    return pool.slice(0, count);
  }

  digits(count: number): string {
    let text = "";
    for (let i = 0; i < count; i++) text += String(this.int(0, 9));
    return text;
  }

  /** A version-4-shaped uuid, lower case. */
  uuid(): string {
    let hex = "";
    for (let i = 0; i < 32; i++) hex += this.int(0, 15).toString(16);
    const variant = (8 + this.int(0, 3)).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
  }
}
