/**
 * Which process holds a load's lease, so that the next load can tell a dead holder from a slow one
 * without waiting for the lease to expire. Only a holder on this very host (same machine, same boot,
 * same pid namespace) whose pid no longer exists is known to be dead; anything else (a live pid,
 * another host, a holder recorded by an older loader) is treated as alive until its lease expires.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

export interface LeaseHolder {
  /** hostname, boot id and pid namespace, where readable: pids are only comparable within one. */
  readonly host: string;
  readonly pid: number;
}

const readable = (read: () => string): string | undefined => {
  try {
    return read().trim();
  } catch {
    return undefined;
  }
};

/**
 * This host's identity. The boot id changes on reboot (pids start over); the pid namespace tells
 * containers sharing a kernel and a hostname apart.
 */
export function thisHost(): string {
  const parts = [
    hostname(),
    readable(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8")),
    readable(() => readlinkSync("/proc/self/ns/pid")),
  ];
  return parts.filter((part) => part !== undefined && part !== "").join(" ");
}

export const thisProcess = (): LeaseHolder => ({ host: thisHost(), pid: process.pid });

/** The process's state letter from /proc (`Z`: exited, not yet collected), if readable. */
export function processState(pid: number): string | undefined {
  const stat = readable(() => readFileSync(`/proc/${pid}/stat`, "utf8"));
  // The command name in parentheses may hold spaces: the state follows the last ")".
  return stat?.charAt(stat.lastIndexOf(")") + 2) || undefined;
}

/**
 * Whether a process with this pid is running here. EPERM: it exists, owned by another user. A
 * zombie has exited: a killed loader whose parent died with it waits as one until init collects
 * it, which can take seconds.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
  const state = processState(pid);
  return state !== "Z" && state !== "X";
}

export const isHolder = (value: unknown): value is LeaseHolder => {
  if (typeof value !== "object" || value === null) return false;
  const { host, pid } = value as Record<string, unknown>;
  return (
    typeof host === "string" && host !== "" && typeof pid === "number" && Number.isSafeInteger(pid) && pid > 0
  );
};

/**
 * Whether the lease's holder is known to be dead: recorded on this host, and its pid gone. A
 * missing or malformed holder, another host, or a pid that exists (even reused by another program)
 * all say no: the lease is then honoured until it expires.
 */
export function holderIsDead(
  holder: unknown,
  here: { readonly host: string; readonly alive: (pid: number) => boolean } = {
    host: thisHost(),
    alive: pidAlive,
  },
): boolean {
  return isHolder(holder) && holder.host === here.host && !here.alive(holder.pid);
}
