/**
 * Where a running `npm start` is: its URLs in `.local/endpoints.json` (ignored by git; ENDPOINTS_FILE
 * overrides the path), written once it listens and removed when it stops, so that `load`,
 * `directory` and `keys` find its DynamoDB engine without `--endpoint`, and `load-test` the server.
 * A file left by a server that was killed names a process that no longer runs, and is ignored.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const DEFAULT_ENDPOINTS_FILE = fileURLToPath(new URL("../../.local/endpoints.json", import.meta.url));

const endpointsSchema = z.object({
  /** The service's URL (the banner's `listening on`). */
  url: z.string(),
  /** Its DynamoDB engine's URL (the banner's `DynamoDB:` line). */
  dynamodb: z.string(),
  pid: z.int().positive(),
});
export type LocalEndpoints = z.infer<typeof endpointsSchema>;

export function endpointsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.ENDPOINTS_FILE || DEFAULT_ENDPOINTS_FILE;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Records this process's endpoints (written whole, then renamed into place). */
export function writeEndpoints(file: string, endpoints: Omit<LocalEndpoints, "pid">): void {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify({ ...endpoints, pid: process.pid }, null, 2)}\n`);
  renameSync(partial, file);
}

/** The endpoints of the server that runs now, or undefined: no file, an unreadable one, or a stale one. */
export function readEndpoints(file: string): LocalEndpoints | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  let parsed: ReturnType<typeof endpointsSchema.safeParse>;
  try {
    parsed = endpointsSchema.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  return parsed.success && running(parsed.data.pid) ? parsed.data : undefined;
}

/** Removes the file if this process wrote it (another server may have started since). */
export function removeEndpoints(file: string): void {
  try {
    const recorded = endpointsSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (recorded.success && recorded.data.pid !== process.pid) return;
  } catch {
    return;
  }
  rmSync(file, { force: true });
}
