/**
 * How the demo generator spreads records over companies: evenly, or Zipf-like (the company of rank
 * r weighs 1/r^s), so a few companies are huge and most are small, as in a real directory. The
 * scale benchmark needs the skew: a cost that grows with a company's size shows there.
 */
import type { DemoRandom } from "./demo-random.js";

export type CompanySizes = "uniform" | { readonly zipf: number };

export interface CompanyPicker {
  /** One company, by weight. */
  pick(rng: DemoRandom): string;
  /** `count` distinct companies (at most all of them), by weight. */
  sample(rng: DemoRandom, count: number): string[];
}

/** Evenly: exactly the draws the generator always made, so existing seeds give the same files. */
const uniform = (companies: readonly string[]): CompanyPicker => ({
  pick: (rng) => rng.pick(companies),
  sample: (rng, count) => rng.sample(companies, count),
});

function zipf(companies: readonly string[], exponent: number): CompanyPicker {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= companies.length; rank += 1) {
    total += 1 / rank ** exponent;
    cumulative.push(total);
  }
  const pick = (rng: DemoRandom): string => {
    const roll = rng.next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] ?? total) > roll) high = mid;
      else low = mid + 1;
    }
    return companies[low] as string;
  };
  return {
    pick,
    sample(rng, count) {
      const wanted = Math.min(count, companies.length);
      const chosen = new Set<string>();
      // Draws again on a repeat: a person has at most 4 employers, and no company weighs near 1.
      while (chosen.size < wanted) chosen.add(pick(rng));
      return [...chosen];
    },
  };
}

export function companyPicker(companies: readonly string[], sizes: CompanySizes = "uniform"): CompanyPicker {
  if (companies.length === 0) throw new RangeError("no companies to pick from");
  if (sizes === "uniform") return uniform(companies);
  if (!(sizes.zipf > 0 && sizes.zipf <= 3))
    throw new RangeError(`a Zipf exponent is in (0, 3], not ${sizes.zipf}`);
  return zipf(companies, sizes.zipf);
}
