/**
 * Calls and sequential round trips of one search. Calls in flight together cost one round trip of
 * latency; a call that can only start once another has answered adds one. The round trips on the
 * critical path are therefore the longest chain of calls in which each starts after the previous
 * one ended.
 */

export interface CallInterval {
  readonly startMs: number;
  readonly endMs: number;
}

export function criticalPathRoundTrips(calls: readonly CallInterval[]): number {
  // By start, ties by end: a zero-length call that ends at another's start comes before it.
  const sorted = [...calls].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const chain: number[] = [];
  let longest = 0;
  for (const [i, call] of sorted.entries()) {
    // Every call that ended by the time this one started precedes it in `sorted`. O(n²) is fine:
    // a search makes at most a few hundred calls.
    let before = 0;
    for (let j = 0; j < i; j++) {
      const earlier = sorted[j];
      const length = chain[j];
      if (earlier && length !== undefined && earlier.endMs <= call.startMs && length > before)
        before = length;
    }
    chain.push(before + 1);
    longest = Math.max(longest, before + 1);
  }
  return longest;
}
