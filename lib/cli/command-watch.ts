/**
 * Whether the command that started this process is still there. `npm run load` runs as
 * npm → sh → node, and a SIGKILL sent to "the command" (what a supervisor, a test harness or
 * `kill -9 <npm's pid>` does) reaches npm alone: the rest is re-parented and would go on, so a load
 * would finish after its command had been killed. A long-running CLI watches the chain of its
 * ancestors up to that npm and is told when any link is cut.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

/** How far up to look for the npm that ran us (npm → sh → node is 2 links). */
const MAX_LINKS = 6;

/** A process's parent id from /proc, or undefined when it is gone (or there is no /proc). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name in parentheses may hold spaces: fields start after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function isNpm(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return basename(argv[0]?.split(" ")[0] ?? "") === "npm" || argv.some((arg) => arg.endsWith("npm-cli.js"));
  } catch {
    return false;
  }
}

/** Each [child, parent] link from this process up to the npm that ran it, or to its parent alone. */
function commandLinks(): Array<readonly [number, number]> {
  const links: Array<readonly [number, number]> = [];
  let pid = process.pid;
  for (let i = 0; i < MAX_LINKS; i += 1) {
    const parent = parentOf(pid);
    if (parent === undefined || parent <= 1) break;
    links.push([pid, parent]);
    if (isNpm(parent)) return links;
    pid = parent;
  }
  // Not run through npm (or no /proc): the command is this process and its parent.
  return links.slice(0, 1);
}

/**
 * Calls `onGone` once when a process between this one and its command's npm exits (its child is
 * re-parented). Without /proc, it watches `process.ppid` alone. Returns the function that stops watching.
 */
export function watchCommand(onGone: () => void, everyMs = 250): () => void {
  const links = commandLinks();
  const firstParent = process.ppid;
  const cut = () =>
    links.length === 0
      ? process.ppid !== firstParent
      : links.some(([child, parent]) => parentOf(child) !== parent);
  const timer = setInterval(() => {
    if (!cut()) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
