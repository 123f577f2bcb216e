/**
 * The two local DynamoDB engines the local server, the tests and the benchmark run against:
 * dynalite (pure JS, in-process, starts in milliseconds) and AWS's DynamoDB Local (Java, the closer
 * match to the real service: validation, limits, ConsumedCapacity).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createServer, Socket } from "node:net";
import { delimiter } from "node:path";
import { DynamoDBClient, type DynamoDBClientConfig, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { say } from "../cli/terminal-text.js";
import { base64Decoder } from "../store/dynamo-client.js";
import { type DdbLocalJar, ensureDynamoDbLocalJar } from "./ddblocal-jar.js";
import { LOOPBACK_MAIN_CLASS, type LoopbackLauncher, loopbackLauncher } from "./ddblocal-loopback.js";
import { rememberDynaliteParses } from "./dynalite-expressions.js";
import { type DynaliteListener, inProcessDynalite } from "./dynalite-in-process.js";
import { closeLevelIteratorsOnReturn } from "./dynalite-iterators.js";
import { loadDynalite } from "./dynalite-text-store.js";

export type EngineName = "dynalite" | "ddblocal";

export interface Engine {
  readonly name: EngineName;
  /** http://127.0.0.1:<port> */
  readonly endpoint: string;
  /** A new client for this engine; stop() destroys every client handed out. */
  client(): DynamoDBClient;
  /** Another handle on this engine, whose clients are alike and whose stop() destroys only them. */
  handle(): Engine;
  stop(): Promise<void>;
}

export interface DynamoDbLocalEngine extends Engine {
  readonly name: "ddblocal";
  /** Whether this start had to fetch the jar (first run on this machine) and how long that took. */
  readonly fetched: boolean;
  readonly fetchMs: number;
  /** From spawning java until the engine answered a request. */
  readonly startMs: number;
}

const LOCAL_TIMEOUT_MS = 120_000;

/**
 * Client settings for a local engine: fixed dummy credentials, few retries. `settings` replaces
 * any of them (a test's retry strategy, say).
 */
export function localClient(
  endpoint: string,
  maxAttempts = 2,
  settings: Partial<DynamoDBClientConfig> = {},
): DynamoDBClient {
  const client = new DynamoDBClient({
    endpoint,
    region: "local",
    // Letters only: DynamoDB Local rejects access key ids with other characters.
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
    // A local engine never throttles; one retry covers a dropped keep-alive socket, more would hide bugs.
    maxAttempts,
    // Generous: a local engine on a busy machine (DynamoDB Local's JVM warming up or starved of CPU,
    // dynalite sharing its event loop with the caller) can take many seconds to connect or answer,
    // and a closed port is refused at once anyway. A hung engine is still given up after 2 minutes.
    requestHandler: { connectionTimeout: LOCAL_TIMEOUT_MS, requestTimeout: LOCAL_TIMEOUT_MS },
    base64Decoder,
    ...settings,
  });
  authorizeWithoutSigning(client);
  return client;
}

/**
 * The local engines check an Authorization header's form, never its signature: a fixed one
 * replaces the SDK's SigV4 signing (credentials, signing key and hashes on every call), about 15%
 * of a loading test's CPU.
 */
const LOCAL_AUTHORIZATION = {
  authorization:
    "AWS4-HMAC-SHA256 Credential=local/20240101/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0",
  "x-amz-date": "20240101T000000Z",
};

function authorizeWithoutSigning(client: DynamoDBClient): void {
  client.middlewareStack.remove("httpSigningMiddleware");
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) Object.assign(request.headers, LOCAL_AUTHORIZATION);
      return next(args);
    },
    { step: "finalizeRequest", name: "localAuthorization" },
  );
}

/**
 * An Engine for an engine started elsewhere (e.g. by jest globalSetup); stop() only destroys clients.
 * `clientSettings` go to every client it hands out (tests: timeouts a busy machine cannot miss).
 */
export function attachEngine(
  name: EngineName,
  endpoint: string,
  shutdown?: () => Promise<void>,
  clientSettings: Partial<DynamoDBClientConfig> = {},
): Engine {
  const clients: DynamoDBClient[] = [];
  return {
    name,
    endpoint,
    client() {
      const client = localClient(endpoint, undefined, clientSettings);
      clients.push(client);
      return client;
    },
    handle: () => attachEngine(name, endpoint, undefined, clientSettings),
    async stop() {
      for (const client of clients.splice(0)) client.destroy();
      await shutdown?.();
    },
  };
}

/**
 * How long dynalite keeps an idle pooled socket open (Node's default is 5 s). With 5 s, a client
 * whose event loop is busy for seconds (a bench's scans, a test file on a loaded machine) sends a
 * request on a socket the server is closing, and meets ECONNRESET, on its retry too when several
 * pooled sockets were closed at once. Longer than any idle time of a run: the client closes first.
 */
const SERVER_KEEP_ALIVE_MS = 600_000;

export interface StartDynaliteOptions {
  /** A LevelDB folder on disk (the benchmark's million records); in memory when absent. */
  readonly path?: string;
}

/**
 * dynalite in this process on a free 127.0.0.1 port, tables ACTIVE as soon as they are created.
 * Its clients hand their requests to it without a socket (dynalite-in-process.ts); other processes
 * use the port.
 */
export async function startDynalite(options: StartDynaliteOptions = {}): Promise<Engine> {
  closeLevelIteratorsOnReturn();
  rememberDynaliteParses();
  const server = loadDynalite()({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const [listener] = server.listeners("request") as DynaliteListener[];
  if (!listener) throw new Error("dynalite's server has no request listener");
  return attachEngine(
    "dynalite",
    `http://127.0.0.1:${port}`,
    () =>
      new Promise<void>((resolve, reject) => {
        // Idle keep-alive sockets of other processes' clients would otherwise hold close() open.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    inProcessDynalite(listener),
  );
}

let javaFound: boolean | undefined;

/** Whether `java` runs from PATH (checked once per process). */
export function javaAvailable(): boolean {
  javaFound ??= spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
  return javaFound;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Runs java under sh with a lifeline: the script's stdin is a pipe from this process, and when it
 * closes (stop(), or this process dying in any way, even SIGKILL) the script kills java. Without it
 * an interrupted jest run would leave a JVM behind. Job-less sh gives background jobs /dev/null as
 * stdin, hence the copy of the pipe on fd 3.
 */
const LIFELINE = [
  "exec 3<&0",
  '"$@" 3<&- </dev/null &',
  "pid=$!",
  '(cat <&3 >/dev/null 2>&1; kill "$pid" 2>/dev/null) >/dev/null 2>&1 &',
  "exec 3<&-",
  'wait "$pid"',
].join("\n");

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Spawned {
  readonly process: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

function spawnJava(
  jar: DdbLocalJar,
  launcher: LoopbackLauncher,
  port: number,
  jvmOptions: readonly string[],
): Spawned {
  const main =
    "classDir" in launcher
      ? ["-cp", [jar.jar, launcher.classDir].join(delimiter), LOOPBACK_MAIN_CLASS]
      : ["-jar", jar.jar];
  const args = [
    ...jvmOptions,
    `-Djava.library.path=${jar.libDir}`,
    ...main,
    "-inMemory",
    // One database whatever the credentials/region, so any client (CLI, other SDK) sees the same tables.
    "-sharedDb",
    "-disableTelemetry",
    "-port",
    String(port),
  ];
  const child = spawn("sh", ["-c", LIFELINE, "sh", "java", ...args], {
    cwd: jar.dir,
    // Own process group, so stop() can kill sh, java and the lifeline together as a last resort.
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const collect = (data: Buffer) => {
    // Keep only the tail: enough to explain a failed start.
    output = (output + data.toString("utf8")).slice(-8_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      child.stdin?.destroy();
      resolve(code);
    });
    child.once("error", (error) => {
      collect(Buffer.from(String(error)));
      resolve(null);
    });
  });
  return { process: child, output: () => output, exited };
}

async function waitUntilAnswering(spawned: Spawned, endpoint: string, timeoutMs: number): Promise<boolean> {
  const probe = localClient(endpoint, 1);
  let exited = false;
  void spawned.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (!exited && Date.now() < deadline) {
      try {
        await probe.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      } catch {
        await sleep(50);
      }
    }
    return false;
  } finally {
    probe.destroy();
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The java that answered, as an engine: `stop()` ends it (and a forgotten one ends at exit). */
function answeringEngine(
  spawned: Spawned,
  endpoint: string,
  killOnExit: () => void,
  timings: Pick<DynamoDbLocalEngine, "fetched" | "fetchMs" | "startMs">,
): DynamoDbLocalEngine {
  const child = spawned.process;
  // A forgotten stop() must not keep this process alive; the lifeline still ends java at exit.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    if (stream instanceof Socket) stream.unref();
  }
  const shutdown = async () => {
    process.off("exit", killOnExit);
    child.stdin?.end();
    const timer = setTimeout(() => killGroup(child), 5_000);
    await spawned.exited;
    clearTimeout(timer);
  };
  return { ...attachEngine("ddblocal", endpoint, shutdown), name: "ddblocal", ...timings };
}

export interface StartDynamoDbLocalOptions {
  /** Where the jar is cached (default `.cache/ddblocal/` at the repository root). */
  readonly cacheDir?: string;
  /** How long java may take to answer its first request (default 60 s). */
  readonly startTimeoutMs?: number;
  /** Options for the JVM itself, before the jar's (none by default). */
  readonly jvmOptions?: readonly string[];
}

/**
 * DynamoDB Local (in memory) in a java child process on a free port, listening on 127.0.0.1 only
 * (ddblocal-loopback.ts), fetching the jar on first use. Throws when java is missing, the jar cannot be fetched or the engine does not start.
 */
export async function startDynamoDbLocal(
  options: StartDynamoDbLocalOptions = {},
): Promise<DynamoDbLocalEngine> {
  if (!javaAvailable()) throw new Error("DynamoDB Local needs java, and java was not found on PATH");
  const fetchStart = performance.now();
  const jar = await ensureDynamoDbLocalJar(options.cacheDir);
  const fetchMs = Math.round(performance.now() - fetchStart);
  const launcher = await loopbackLauncher(jar);
  if ("unavailable" in launcher) {
    say(
      `DynamoDB Local will listen on every interface, not only 127.0.0.1: this Java cannot compile its launcher (${launcher.unavailable}); a JDK 17 can`,
    );
  }

  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  let failure = "";
  // Another process can take the free port before java binds it; retry with a new one then.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const startedAt = performance.now();
    const spawned = spawnJava(jar, launcher, port, options.jvmOptions ?? []);
    const child = spawned.process;
    const killOnExit = () => killGroup(child);
    process.once("exit", killOnExit);

    if (await waitUntilAnswering(spawned, endpoint, startTimeoutMs)) {
      const startMs = Math.round(performance.now() - startedAt);
      return answeringEngine(spawned, endpoint, killOnExit, { fetched: jar.fetched, fetchMs, startMs });
    }

    killGroup(child);
    await spawned.exited;
    process.off("exit", killOnExit);
    failure = spawned.output().trim();
    if (!/BindException|Address already in use/.test(failure)) break;
  }
  throw new Error(
    `DynamoDB Local did not start (java in ${jar.dir}):\n${failure || `no answer within ${startTimeoutMs} ms`}`,
  );
}
