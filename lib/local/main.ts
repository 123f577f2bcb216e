/**
 * `npm start`: the service on this machine with an embedded DynamoDB engine. Settings come from
 * PORT, STAGE, KEYS_FILE and DATA_FILE (see README). Stops cleanly on SIGINT/SIGTERM.
 */
import { readFileSync } from "node:fs";
import { cli } from "../cli/args.js";
import { print, printLines } from "../cli/terminal-text.js";
import { type DataFile, DataFileError, parseDataFile } from "../directory/source.js";
import { logger } from "../observability/logger.js";
import { startupBanner } from "./banner.js";
import { ConfigError, localConfigFromEnv } from "./config.js";
import { endpointsFile, removeEndpoints, writeEndpoints } from "./endpoints-file.js";
import { startDynalite, startDynamoDbLocal } from "./engines.js";
import { parseKeysFile } from "./keys-file.js";
import { type LocalService, startLocalService } from "./service.js";

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

function parseDataFileAt(path: string): DataFile {
  try {
    return parseDataFile(readText(path, "data file"));
  } catch (error) {
    if (error instanceof DataFileError) throw new ConfigError(`data file ${path}: ${error.message}`);
    throw error;
  }
}

const USAGE = `usage: npm start   (settings come from the environment, e.g. PORT=3001 STAGE=prod npm start)

  PORT             port on 127.0.0.1 (default 3000; 0 picks a free one)
  STAGE            local (default), dev, sandbox or prod; sandbox and prod serve no draft routes
  DATA_FILE        directory data, JSON or NDJSON (default lib/local/demo/data.json)
  KEYS_FILE        partner keys (default lib/local/demo/keys.json, whose keys are printed)
  DYNAMODB_ENGINE  dynalite (default, in this process) or ddblocal (DynamoDB Local; needs java)
  ENDPOINTS_FILE   where its URLs are recorded for load, directory, keys, load-test (default .local/endpoints.json)`;

async function main(): Promise<void> {
  const config = localConfigFromEnv(process.env);
  const keys = parseKeysFile(readText(config.keysFile, "keys file"), config.keysFile);
  const data = parseDataFileAt(config.dataFile);
  // On a terminal, one short line per request; the handlers' own lines only from warnings up.
  const terminal = process.stdout.isTTY === true;
  if (terminal) logger.setLogLevel("WARN");
  const engine = config.engine === "ddblocal" ? await startDynamoDbLocal() : await startDynalite();
  let service: LocalService;
  try {
    service = await startLocalService({
      port: config.port,
      stage: config.stage,
      keys: keys.records,
      data,
      engine,
      requestLog: terminal ? "lines" : "json",
    });
  } catch (error) {
    await engine.stop();
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    throw new ConfigError(
      `port ${config.port} on 127.0.0.1 is already in use: stop what holds it, or set PORT to another port (PORT=0 picks a free one)`,
    );
  }

  printLines(
    startupBanner({
      url: service.url,
      stage: config.stage,
      engine: `${engine.name} at ${engine.endpoint}`,
      records: keys.records,
      directory: { persons: data.persons.length, employees: data.employees.length, file: config.dataFile },
      ...(config.usingDemoKeys ? { demoKeys: keys.plainKeys } : {}),
    }),
  );
  keys.plainKeys.clear();
  const endpoints = endpointsFile();
  writeEndpoints(endpoints, { url: service.url, dynamodb: engine.endpoint });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    print(`${signal} received, stopping`);
    removeEndpoints(endpoints);
    await service.stop();
    await engine.stop();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

cli({ name: "start", usage: USAGE, options: {} }, main);
