/**
 * The peak RSS of this process's own memory: VmHWM of /proc/self/status on Linux. Not
 * resourceUsage().maxRSS: Linux carries ru_maxrss across exec, so a forked child reports its
 * parent's peak (the benchmark, with dynalite's whole table) when that is higher.
 */
import { readFileSync } from "node:fs";

export function peakRssKb(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match?.[1]) return Number(match[1]);
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS;
}
