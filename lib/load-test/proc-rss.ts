/** A process's resident set size as Linux reports it in /proc/<pid>/status: what `ps` shows. */
import { readFile } from "node:fs/promises";

/** The VmRSS line's value in bytes; undefined when the text has none (a zombie, another OS's file). */
export function rssOfStatus(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

/** The process's RSS now; throws when it cannot be read (no /proc, no such process). */
export async function readRss(pid: number): Promise<number> {
  const file = `/proc/${pid}/status`;
  const rss = rssOfStatus(await readFile(file, "utf8"));
  if (rss === undefined) throw new Error(`${file} has no VmRSS line`);
  return rss;
}
