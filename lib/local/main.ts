/**
 * `npm start`: the service on this machine with an embedded DynamoDB engine. Settings come from
 * PORT, STAGE, KEYS_FILE and DATA_FILE (see README). Stops cleanly on SIGINT/SIGTERM.
 */
import { readFileSync } from "node:fs";
import { type DataFile, DataFileError, parseDataFile } from "../directory/source.js";
import { startupBanner } from "./banner.js";
import { ConfigError, localConfigFromEnv } from "./config.js";
import { startDynalite, startDynamoDbLocal } from "./engines.js";
import { KeysFileError, parseKeysFile } from "./keys-file.js";
import { startLocalService } from "./service.js";

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

async function main(): Promise<void> {
  const config = localConfigFromEnv(process.env);
  const keys = parseKeysFile(readText(config.keysFile, "keys file"), config.keysFile);
  const data = parseDataFileAt(config.dataFile);
  const engine = config.engine === "ddblocal" ? await startDynamoDbLocal() : await startDynalite();
  const service = await startLocalService({
    port: config.port,
    stage: config.stage,
    keys: keys.records,
    data,
    engine,
  });

  console.log(
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

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, stopping`);
    await service.stop();
    await engine.stop();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof KeysFileError;
  console.error(known ? `start-up failed: ${error.message}` : error);
  process.exit(1);
});
