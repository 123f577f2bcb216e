/** The local server's settings, from the environment; a bad value stops start-up with its name. */
import { fileURLToPath } from "node:url";
import { isStage, type Stage } from "../stages.js";
import type { TableId } from "../store/tables.js";

export const DEMO_KEYS_FILE = fileURLToPath(new URL("./demo/keys.json", import.meta.url));
export const DEMO_DATA_FILE = fileURLToPath(new URL("./demo/data.json", import.meta.url));

/**
 * The local tables' physical names. Here, not in service.ts, so that the CLIs that default to them
 * do not load the whole local server (its routes, middleware and handlers) at every start.
 */
export const LOCAL_TABLE_NAMES: Readonly<Record<TableId, string>> = { directory: "directory", keys: "keys" };

type EngineChoice = "dynalite" | "ddblocal";

export interface LocalConfig {
  port: number;
  stage: Stage;
  /** The embedded DynamoDB engine: dynalite (in-process, default) or AWS's DynamoDB Local (Java). */
  engine: EngineChoice;
  keysFile: string;
  dataFile: string;
  usingDemoKeys: boolean;
}

export class ConfigError extends Error {}

export function localConfigFromEnv(env: NodeJS.ProcessEnv): LocalConfig {
  const portText = env.PORT ?? "3000";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535)
    throw new ConfigError(`PORT must be a port number (0-65535), got "${portText}"`);
  const stage = env.STAGE ?? "local";
  if (!isStage(stage))
    throw new ConfigError(`STAGE must be one of local, dev, sandbox, prod; got "${stage}"`);
  const engine = env.DYNAMODB_ENGINE || "dynalite";
  if (engine !== "dynalite" && engine !== "ddblocal") {
    throw new ConfigError(`DYNAMODB_ENGINE must be dynalite or ddblocal; got "${engine}"`);
  }
  return {
    port,
    stage,
    engine,
    keysFile: env.KEYS_FILE || DEMO_KEYS_FILE,
    dataFile: env.DATA_FILE || DEMO_DATA_FILE,
    usingDemoKeys: !env.KEYS_FILE,
  };
}
