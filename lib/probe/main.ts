/**
 * `npm run probe -- [--url URL --endpoint URL]`
 *
 * The black-box run of the bounded-work requirements: hostile requests by raw HTTP (requests.ts)
 * and hostile loads by the CLI (loads.ts) against a local server, each answer timed, a verdict per
 * case (verdict.ts); then every byte the server and the CLIs wrote is scanned for the keys' text.
 * By default the server is one of its own (lib/load-test/own-server.ts, on dynalite, with the load
 * test's keys), whose output it reads; `--url`/`--endpoint` name a running one, on which it issues
 * and then revokes keys of its own (lib/load-test/running-server.ts) and cannot read the output.
 * Exit 1 when any case fails. Not a jest test: it measures time.
 */
import { type CommandLine, cli, failureLine, type OptionValues, UsageError, urlOption } from "../cli/args.js";
import { refusedConnectionLine } from "../cli/directory-table.js";
import { print, printLines } from "../cli/terminal-text.js";
import { Cleanups } from "../load-test/cleanups.js";
import { ownServer } from "../load-test/own-server.js";
import { runningTarget } from "../load-test/running-server.js";
import type { LoadTarget } from "../load-test/target.js";
import { callerText } from "../observability/caller-text.js";
import { hostileLoads } from "./loads.js";
import {
  burst,
  expandingNames,
  keyAsCompanyId,
  longName,
  notUtf8,
  type ProbeContext,
  twoAuthorizations,
} from "./requests.js";
import { type CaseResult, casePassed, formatCase, keysFoundIn } from "./verdict.js";

const USAGE = `usage: npm run probe -- [--url URL --endpoint URL]

  (default)         a server of its own (dynalite, a generated directory), whose output it scans
  --url URL --endpoint URL
                    a running local service and its DynamoDB (the banner's \`DynamoDB:\` line);
                    its output cannot be read, so that check is skipped`;

const OPTIONS = {
  url: { type: "string" },
  endpoint: { type: "string" },
} as const;

/** The throttled key's limits: a burst of 500 must meet 429s. */
const THROTTLE = { rateLimit: 5, burstLimit: 10 };
const OWN_DATASET = { records: 2_000, companies: 4 };

type Values = OptionValues<typeof OPTIONS>;

/** Captured output, kept as bytes so a character split across writes is read whole. */
class Captured {
  readonly #received: Buffer[] = [];
  add = (data: Buffer | string): void => {
    this.#received.push(typeof data === "string" ? Buffer.from(data, "utf8") : data);
  };
  text = (): string => Buffer.concat(this.#received).toString("utf8");
}

async function openTarget(
  values: Values,
  serverOutput: Captured,
  onCleanup: (cleanup: () => Promise<void>) => void,
): Promise<{ target: LoadTarget; own: boolean }> {
  const url = urlOption("url", values.url);
  const endpoint = urlOption("endpoint", values.endpoint);
  if ((url === undefined) !== (endpoint === undefined))
    throw new UsageError("--url and --endpoint go together: the service's URL and its DynamoDB's");
  if (url !== undefined && endpoint !== undefined)
    return { target: await runningTarget({ url, dynamodb: endpoint }, THROTTLE, onCleanup), own: false };
  // The access log is what the key scan reads: the server logs at INFO whatever this shell says.
  process.env.POWERTOOLS_LOG_LEVEL = "INFO";
  const target = await ownServer({
    ...OWN_DATASET,
    engine: "dynalite",
    throttle: THROTTLE,
    output: serverOutput.add,
  }).catch((error: unknown) => {
    // Its stderr went to the capture: the last line it wrote says why it stopped.
    const last = serverOutput.text().trimEnd().split("\n").at(-1);
    throw new Error(`${failureLine(error)}${last ? `; its last line: ${callerText(last)}` : ""}`);
  });
  onCleanup(() => target.close());
  return { target, own: true };
}

/** The last check: no key's text in anything the server or the CLIs wrote. */
function keyScan(
  keys: Readonly<Record<string, string>>,
  server: string | undefined,
  cliOutput: string,
): CaseResult {
  const started = performance.now();
  const problems: string[] = [];
  const skipped: string[] = [];
  if (server === undefined) skipped.push("the server's output: a running server's output cannot be read");
  else {
    const found = keysFoundIn(server, keys);
    if (found.length > 0) problems.push(`the server's output holds text of the ${found.join(", ")} key`);
    if (!server.includes('"api access"'))
      problems.push("the server's output holds no access log line: the scan would prove nothing");
  }
  const found = keysFoundIn(cliOutput, keys);
  if (found.length > 0) problems.push(`the CLIs' output holds text of the ${found.join(", ")} key`);
  const accessLines = server?.split("\n").filter((line) => line.includes('"api access"')).length ?? 0;
  return {
    name: "no key text in any output",
    answers: [],
    problems,
    ms: performance.now() - started,
    detail: `${Object.keys(keys).length} keys; ${server === undefined ? "no server output" : `${server.length} characters of server output (${accessLines} access lines)`}, ${cliOutput.length} of CLI output`,
    ...(skipped.length > 0 ? { skipped } : {}),
  };
}

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<void> {
  const serverOutput = new Captured();
  const cliOutput = new Captured();
  const cleanups = new Cleanups();
  const results: CaseResult[] = [];
  const report = (result: CaseResult) => {
    results.push(result);
    printLines(formatCase(result).join("\n"));
  };
  try {
    const { target, own } = await openTarget(values, serverOutput, cleanups.add);
    const [first, second] = target.companyIds;
    if (first === undefined || second === undefined) throw new Error("the probe needs two companies");
    const context: ProbeContext = {
      url: target.url,
      keys: target.keys,
      companies: [first, second],
      serverOutput: own ? serverOutput.text : undefined,
    };
    const where = own ? `${target.server}, at ${target.url}` : target.server;
    print(`server: ${where}; DynamoDB at ${target.dynamodb}`);
    for (const run of [expandingNames, longName, twoAuthorizations, notUtf8, keyAsCompanyId, burst])
      report(await run(context));
    report(
      await hostileLoads({
        dynamodb: target.dynamodb,
        keyText: target.keys.generous,
        cliOutput: cliOutput.add,
      }),
    );
    // Its own server's output is read to the end once it has exited.
    await cleanups.run();
    report(keyScan(target.keys, own ? serverOutput.text() : undefined, cliOutput.text()));
  } finally {
    await cleanups.close();
  }
  const failures = results.filter((result) => !casePassed(result)).length;
  printLines(
    failures === 0
      ? `\nall ${results.length} cases passed`
      : `\n${failures} of ${results.length} cases failed`,
  );
  if (failures > 0) process.exitCode = 1;
}

cli({ name: "probe", usage: USAGE, options: OPTIONS }, main, { describeFailure: refusedConnectionLine });
