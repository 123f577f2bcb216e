/**
 * Fetches AWS's DynamoDB Local jar. It ships inside the npm package amplify-dynamodb-simulator, whose
 * own dependencies (Amplify CLI core) we do not want, so only its tarball is fetched with `npm pack`,
 * checked against the pinned registry integrity and its `emulator/` folder extracted into a cache.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { access, mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Pinned package; `npm view amplify-dynamodb-simulator version dist.integrity` gives a newer one. */
const DDB_LOCAL_PACKAGE = {
  name: "amplify-dynamodb-simulator",
  version: "2.9.30",
  /** The registry's `dist.integrity` of that version (SRI: sha512 of the tarball, base64). */
  integrity:
    "sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==",
  /** The tarball's size, to say what the first start fetches. */
  tarballBytes: 56_573_501,
} as const;

/** `$DDB_LOCAL_CACHE_DIR`, else `.cache/ddblocal/` at the repository root (git-ignored); CI can cache it. */
const DEFAULT_DDB_LOCAL_CACHE_DIR =
  process.env.DDB_LOCAL_CACHE_DIR || fileURLToPath(new URL("../../.cache/ddblocal/", import.meta.url));

export interface DdbLocalJar {
  /** The extracted `emulator/` folder: run java with this as cwd. */
  readonly dir: string;
  readonly jar: string;
  /** Native sqlite4java libraries, for `-Djava.library.path`. */
  readonly libDir: string;
  /** True when this call fetched and extracted the package, false when the cache already had it. */
  readonly fetched: boolean;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

function jarIn(versionDir: string, fetched: boolean): DdbLocalJar {
  const dir = join(versionDir, "emulator");
  return { dir, jar: join(dir, "DynamoDBLocal.jar"), libDir: join(dir, "DynamoDBLocal_lib"), fetched };
}

function message(error: unknown): string {
  if (error instanceof Error) {
    // execFile errors carry the child's stderr, which says why (offline, 404, …).
    const stderr = "stderr" in error && typeof error.stderr === "string" ? error.stderr.trim() : "";
    return stderr ? `${error.message.split("\n")[0]}\n${stderr}` : error.message;
  }
  return String(error);
}

async function sha512Integrity(file: string): Promise<string> {
  const hash = createHash("sha512");
  await pipeline(createReadStream(file), hash);
  return `sha512-${hash.digest("base64")}`;
}

/** How the one-time fetch shows its progress. */
export interface FetchReporter {
  /** A step of its own: what is fetched, from where, into where; done. */
  line(text: string): void;
  /** Shows `label` and the seconds so far until `work` settles; a TTY only, so logs get no ticker. */
  during<T>(label: string, work: Promise<T>): Promise<T>;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

export function streamFetchReporter(stream: NodeJS.WriteStream = process.stderr): FetchReporter {
  return {
    line: (text) => void stream.write(`${text}\n`),
    async during(label, work) {
      if (!stream.isTTY) return work;
      const started = performance.now();
      const show = () => stream.write(`\r${label} ${Math.floor((performance.now() - started) / 1000)} s`);
      show();
      const timer = setInterval(show, 1_000);
      try {
        return await work;
      } finally {
        clearInterval(timer);
        stream.write("\r\x1b[K");
      }
    },
  };
}

/**
 * `DDB_LOCAL_FETCH=never` (set by `npm run jest`): a missing jar is an error, not a download, so
 * tests never need the network; `npm install` fetches it (its `postinstall` script).
 */
const fetchAllowed = () => process.env.DDB_LOCAL_FETCH !== "never";

/**
 * Returns the cached DynamoDB Local jar, fetching it first if needed. Safe to call concurrently (two
 * jest workers): each fetches into its own temporary folder and renames it into place; the loser of
 * the rename discards its copy and uses the winner's.
 */
export async function ensureDynamoDbLocalJar(
  cacheDir = DEFAULT_DDB_LOCAL_CACHE_DIR,
  report: FetchReporter = streamFetchReporter(),
): Promise<DdbLocalJar> {
  const { name, version, integrity, tarballBytes } = DDB_LOCAL_PACKAGE;
  const versionDir = join(cacheDir, `${name}-${version}`);
  // The folder only ever appears through an atomic rename, so its existence means it is complete.
  if (await exists(versionDir)) return jarIn(versionDir, false);
  if (!fetchAllowed())
    throw new Error(`DynamoDB Local's jar is not in ${versionDir}: run npm install, which fetches it once`);

  const started = performance.now();
  report.line(
    `DynamoDB Local, once: fetching ${name}@${version} (${(tarballBytes / 1e6).toFixed(1)} MB) with npm pack from the npm registry into ${versionDir}`,
  );
  await mkdir(cacheDir, { recursive: true });
  // Same folder as the destination so rename() stays on one filesystem (atomic).
  const work = await mkdtemp(join(cacheDir, ".fetch-"));
  try {
    try {
      const pack = ["pack", `${name}@${version}`, "--pack-destination", work, "--loglevel=error"];
      await report.during("  downloading…", run("npm", pack, { maxBuffer: 16 * 1024 * 1024 }));
    } catch (error) {
      throw new Error(`could not fetch ${name}@${version} from the npm registry: ${message(error)}`);
    }
    const tarball = (await readdir(work)).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error(`could not fetch ${name}@${version}: npm pack produced no tarball`);
    report.line(`  downloaded in ${seconds(started)} s; checking its integrity and extracting its emulator/`);

    const actual = await sha512Integrity(join(work, tarball));
    if (actual !== integrity) {
      throw new Error(`${name}@${version} tarball integrity mismatch: expected ${integrity}, got ${actual}`);
    }

    try {
      await report.during(
        "  extracting…",
        run("tar", ["-xzf", join(work, tarball), "-C", work, "package/emulator"]),
      );
    } catch (error) {
      throw new Error(`could not extract ${name}@${version} (needs tar on PATH): ${message(error)}`);
    }
    const extracted = jarIn(join(work, "package"), true);
    if (!(await exists(extracted.jar)) || !(await exists(extracted.libDir))) {
      throw new Error(`${name}@${version} has no emulator/DynamoDBLocal.jar and DynamoDBLocal_lib/`);
    }

    try {
      await rename(join(work, "package"), versionDir);
    } catch (error) {
      // Another process renamed its copy first; theirs is complete, so use it.
      if (await exists(versionDir)) return jarIn(versionDir, false);
      throw error;
    }
    report.line(`  ready in ${seconds(started)} s; later starts use it`);
    return jarIn(versionDir, true);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
