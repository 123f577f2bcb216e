/**
 * Starts DynamoDB Local once per jest run and hands it to the test workers through environment
 * variables: workers are processes forked after globalSetup, so they inherit its process.env.
 * dynalite needs none of this: each test file starts its own (see engines.ts).
 */
import { type DynamoDbLocalEngine, javaAvailable, startDynamoDbLocal } from "../../lib/local/engines.js";

export const DDB_LOCAL_ENV = {
  /** Endpoint of the DynamoDB Local that globalSetup started. */
  endpoint: "TEST_DDB_LOCAL_ENDPOINT",
  /** Set (to the reason) when DynamoDB Local is skipped because java is absent. */
  skipped: "TEST_DDB_LOCAL_SKIPPED",
  /** Set (to the error) when java is present but DynamoDB Local could not be fetched or started. */
  error: "TEST_DDB_LOCAL_ERROR",
} as const;

/** Where setup leaves the engine for teardown: same process, but separate module instances. */
const ENGINE_KEY = Symbol.for("partner-directory-search.test.ddblocal");

function store(engine: DynamoDbLocalEngine | undefined): void {
  Object.defineProperty(globalThis, ENGINE_KEY, { value: engine, configurable: true, writable: true });
}

function stored(): DynamoDbLocalEngine | undefined {
  const value: unknown = Object.getOwnPropertyDescriptor(globalThis, ENGINE_KEY)?.value;
  return value && typeof value === "object" && "stop" in value ? (value as DynamoDbLocalEngine) : undefined;
}

/**
 * A test run's JVM collects in one thread (two busy test workers beside it leave no core for
 * parallel GC) but keeps its JIT's second tier: a whole run's DynamoDB Local spends minutes of CPU,
 * long past the point where C2's compilations pay back. Measured on repeated loads of one scenario:
 * C1 alone costs 8.5 s of java CPU a round from the first; with C2 the first rounds cost more, the
 * total breaks even at about 80 s, and later rounds cost 6 s.
 */
const TEST_RUN_JVM = ["-XX:+UseSerialGC"];

export async function setUpDynamoDbLocal(): Promise<void> {
  for (const name of Object.values(DDB_LOCAL_ENV)) delete process.env[name];
  if (!javaAvailable()) {
    const reason = "java not found on PATH";
    process.env[DDB_LOCAL_ENV.skipped] = reason;
    console.log(`DynamoDB Local skipped: ${reason}`);
    return;
  }
  try {
    // A JVM starting beside a busy test run can take minutes; a dead one is still reported.
    const engine = await startDynamoDbLocal({ startTimeoutMs: 300_000, jvmOptions: TEST_RUN_JVM });
    store(engine);
    process.env[DDB_LOCAL_ENV.endpoint] = engine.endpoint;
    if (engine.fetched) console.log(`DynamoDB Local fetched in ${engine.fetchMs} ms (cached from now on)`);
  } catch (error) {
    // Not thrown here, so unit tests still run; every suite that needs DynamoDB Local fails with this
    // message instead. Java being present makes this a failure, never a skip.
    const message = error instanceof Error ? error.message : String(error);
    process.env[DDB_LOCAL_ENV.error] = message;
    console.error(`DynamoDB Local failed to start: ${message}`);
  }
}

export async function tearDownDynamoDbLocal(): Promise<void> {
  const engine = stored();
  store(undefined);
  await engine?.stop();
}
