/**
 * `npm run load-test -- [--duration S] [--connections N] [--out FILE] [--url URL --endpoint URL | --own-server …]`
 *
 * Drives a server with autocannon for a fixed time: generous connections cycle through the mixed
 * workload, and connections of their own send a throttled key's requests at twice its rate. The
 * server is the running `npm start` when it answers, else one of its own (target.ts). It samples
 * the server's memory every two seconds (more often in short runs) and fails (exit 1) unless
 * every check of verdict.ts holds.
 */
import { writeFileSync } from "node:fs";
import {
  type CommandLine,
  choiceOption,
  cli,
  failureLine,
  type OptionValues,
  UsageError,
  urlOption,
  wholeNumberOption,
} from "../cli/args.js";
import { refusedConnectionLine } from "../cli/directory-table.js";
import { printLines, say } from "../cli/terminal-text.js";
import { DEMO_LIMITS } from "../directory/demo-data.js";
import { endpointsFile, readEndpoints } from "../local/endpoints-file.js";
import { javaAvailable } from "../local/engines.js";
import { Cleanups } from "./cleanups.js";
import { type LoadOptions, runLoad, THROTTLE } from "./drive.js";
import { ownServer } from "./own-server.js";
import { formatLoadReport } from "./report.js";
import { runningTarget } from "./running-server.js";
import { answers, chooseTarget, type LoadTarget, type TargetChoice } from "./target.js";
import { failed } from "./verdict.js";

const USAGE = `usage: npm run load-test -- [--duration S] [--connections N] [--out FILE] [SERVER]

  --duration S      seconds of load (default 30)
  --connections N   concurrent connections of the mixed workload (default 8)
  --out FILE        also write the report as JSON
SERVER (default: the running npm start, if it answers; else its own):
  --url URL --endpoint URL
                    a running local service and its DynamoDB (the banner's \`DynamoDB:\` line)
  --own-server      a server of its own, in a child process, on a generated dataset:
  --records N       employee records of the generated dataset (default 20000)
  --companies N     companies (default 10)
  --engine E        ddblocal (default: DynamoDB Local in its own process, needs java) or dynalite
                    (in the server's process, so its memory counts too)
  (--records, --companies and --engine imply --own-server)`;

const OPTIONS = {
  duration: { type: "string" },
  connections: { type: "string" },
  out: { type: "string" },
  url: { type: "string" },
  endpoint: { type: "string" },
  "own-server": { type: "boolean" },
  records: { type: "string" },
  companies: { type: "string" },
  engine: { type: "string" },
} as const;
type Values = OptionValues<typeof OPTIONS>;

/** Its own server's options, checked when it starts one. */
function ownServerOptions(values: Values) {
  const records =
    wholeNumberOption("records", values.records, { min: 100, max: DEMO_LIMITS.employees.max }) ?? 20_000;
  const companies =
    wholeNumberOption("companies", values.companies, { min: 2, max: DEMO_LIMITS.companies.max }) ?? 10;
  const engine = choiceOption("engine", values.engine, ["ddblocal", "dynalite"]) ?? "ddblocal";
  if (engine === "ddblocal" && !javaAvailable())
    throw new UsageError("--engine ddblocal needs java on PATH; install Java 17, or use --engine dynalite");
  return { records, companies, engine, throttle: THROTTLE };
}

/** The running server when it answers (one named by flags must); else a server of its own. */
async function openTarget(
  choice: TargetChoice,
  values: Values,
  onCleanup: (cleanup: () => Promise<void>) => void,
): Promise<LoadTarget> {
  if (choice.kind === "running") {
    const { server, recorded } = choice;
    const answered = await answers(server.url).catch((error: unknown) => {
      if (!recorded) throw error;
      say(
        `the npm start recorded in ${endpointsFile()} does not answer at ${server.url} (${failureLine(error)}); starting a server of its own`,
      );
      return false;
    });
    if (answered) {
      if (recorded) say(`driving the running npm start at ${server.url} (--own-server: a server of its own)`);
      return runningTarget(server, THROTTLE, onCleanup);
    }
  }
  const target = await ownServer(ownServerOptions(values));
  onCleanup(() => target.close());
  return target;
}

async function main({ values }: CommandLine<typeof OPTIONS>): Promise<void> {
  const options: LoadOptions = {
    duration: wholeNumberOption("duration", values.duration, { min: 8 }) ?? 30,
    connections: wholeNumberOption("connections", values.connections, { min: 1 }) ?? 8,
  };
  const ownServerFlags = (["records", "companies", "engine"] as const).filter(
    (name) => values[name] !== undefined,
  );
  const choice = chooseTarget(
    {
      url: urlOption("url", values.url),
      endpoint: urlOption("endpoint", values.endpoint),
      ownServer: values["own-server"],
      ownServerFlags,
    },
    readEndpoints(endpointsFile()),
  );
  const cleanups = new Cleanups();
  try {
    const target = await openTarget(choice, values, cleanups.add);
    const report = await runLoad(target, options);
    printLines(formatLoadReport(report));
    if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
    if (report.checks.some(failed)) process.exitCode = 1;
  } finally {
    await cleanups.close();
  }
}

cli({ name: "load-test", usage: USAGE, options: OPTIONS }, main, { describeFailure: refusedConnectionLine });
