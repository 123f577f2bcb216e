/**
 * A loader paused as SIGSTOP would pause it, at a chosen call: every call of its client from the
 * first one `starts` matches (once armed) is held until the test releases it, lease renewals
 * included. Nothing waits on time.
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

export type Input = Record<string, unknown>;
export type Starts = (command: string, input: Input) => boolean;

/** The first byte of a binary key value as the SDK holds it at this step: bytes, or `{ B: bytes }`. */
export const firstByte = (value: unknown): number | undefined => {
  if (value instanceof Uint8Array) return value[0];
  const b = (value as { B?: unknown } | undefined)?.B;
  return b instanceof Uint8Array ? b[0] : undefined;
};

/** Where a paused loader stops: before its chunk's batch, its first stamp, its first location. */
export const PAUSES: readonly (readonly [string, Starts])[] = [
  ["its chunk's writes", (command) => command === "BatchWriteItemCommand"],
  ["its stamps", (command) => command === "UpdateItemCommand"],
  [
    "its locations",
    (command, input) =>
      command === "PutItemCommand" && firstByte((input.Item as Input | undefined)?.p) === 0x01,
  ],
];

/**
 * Holds every call of `client` from the first one `starts` matches, once armed, until `release()`:
 * the process is as good as stopped (SIGSTOP) from there on, its lease renewals included. With
 * `only`, that one call is held and the others go on (a slow read rather than a stopped process).
 */
export function pauseOn(client: DynamoDBDocumentClient, starts: Starts, options: { only?: boolean } = {}) {
  let armed = false;
  let paused = false;
  let reached!: () => void;
  let release!: () => void;
  const gate = {
    reached: new Promise<void>((resolve) => {
      reached = resolve;
    }),
    released: new Promise<void>((resolve) => {
      release = resolve;
    }),
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const matched = armed && !paused && starts(String(context.commandName), args.input as Input);
      if (matched) {
        paused = true;
        reached();
      }
      if (matched || (paused && !options.only)) await gate.released;
      return next(args);
    },
    { step: "initialize", priority: "high", name: "pauseLoader" },
  );
  return {
    reached: gate.reached,
    release,
    arm: () => {
      armed = true;
    },
  };
}
