/**
 * Which server the load test drives, and what it needs of it. By default the running `npm start`
 * (its record in the endpoints file, lib/local/endpoints-file.ts) when it answers; `--url` with
 * `--endpoint` (its DynamoDB) names another; `--own-server`, or a flag that describes one
 * (`--records`, `--companies`, `--engine`), starts one of its own.
 */
import { UsageError } from "../cli/args.js";
import type { LocalEndpoints } from "../local/endpoints-file.js";
import type { MemorySample } from "./verdict.js";
import type { LoadKeyId, RequestKind } from "./workload.js";

/** A server to drive, ready: its keys issued and its workload built. */
export interface LoadTarget {
  /** For the report: which server this is. */
  readonly server: string;
  readonly url: string;
  /** Its DynamoDB's endpoint. */
  readonly dynamodb: string;
  /** The companies of its keys' workload: the throttled key's first, the narrow key's second. */
  readonly companyIds: readonly string[];
  readonly keys: Readonly<Record<LoadKeyId | "unknown", string>>;
  readonly main: readonly RequestKind[];
  readonly throttled: readonly RequestKind[];
  readonly dataset: { readonly records: number; readonly persons: number; readonly companies: number };
  /** Reads the server's memory now; or why it cannot be read at all. */
  readonly memory: (() => Promise<Omit<MemorySample, "atSeconds">>) | { readonly skipped: string };
  /** Undoes what the run set up (keys, a child process). */
  close(): Promise<void>;
}

export interface RunningServer {
  readonly url: string;
  readonly dynamodb: string;
  /** Its process, when known: its memory is sampled. */
  readonly pid?: number;
}

export type TargetChoice =
  | { readonly kind: "own" }
  /** `recorded`: found in the endpoints file (not named by flags), so it is used only if it answers. */
  | { readonly kind: "running"; readonly server: RunningServer; readonly recorded: boolean };

export interface TargetFlags {
  readonly url?: string | undefined;
  readonly endpoint?: string | undefined;
  readonly ownServer?: boolean | undefined;
  /** The own-server flags given (`records`, `companies`, `engine`). */
  readonly ownServerFlags: readonly string[];
}

export function chooseTarget(flags: TargetFlags, running: LocalEndpoints | undefined): TargetChoice {
  const { url, endpoint } = flags;
  const own = flags.ownServer === true || flags.ownServerFlags.length > 0;
  if ((url === undefined) !== (endpoint === undefined))
    throw new UsageError("--url and --endpoint go together: the service's URL and its DynamoDB's");
  if (url !== undefined && endpoint !== undefined) {
    if (own) {
      const given = [...(flags.ownServer ? ["own-server"] : []), ...flags.ownServerFlags];
      throw new UsageError(
        `--url drives a running server; ${given.map((flag) => `--${flag}`).join(", ")} start one`,
      );
    }
    // The recorded npm start's pid only if it is that server.
    const pid = running?.url === url ? running.pid : undefined;
    return { kind: "running", server: { url, dynamodb: endpoint, ...(pid ? { pid } : {}) }, recorded: false };
  }
  if (own || running === undefined) return { kind: "own" };
  const { url: runningUrl, dynamodb, pid } = running;
  return { kind: "running", server: { url: runningUrl, dynamodb, pid }, recorded: true };
}

/**
 * Whether something answers HTTP at `url` (any status). A refused connection throws its cause,
 * `connect ECONNREFUSED …`, which the command's failure line turns into the hint.
 */
export async function answers(url: string): Promise<true> {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(30_000) })).arrayBuffer();
    return true;
  } catch (error) {
    throw (error as { cause?: unknown }).cause ?? error;
  }
}
