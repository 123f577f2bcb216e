/**
 * The directory a Lambda reads: shared client, table name from the environment, and the reader's
 * defaults: the manifest cached 1 s and the answer cache on (32 MB of the route function's
 * 1,024 MB), so a warm function asked the same search again reads only the manifest, once a second.
 */

import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { dynamoDirectoryReader } from "./dynamo/index.js";
import { sharedDocumentClient, tableNameFromEnv } from "./dynamo-client.js";
import type { DirectoryReader } from "./port.js";
import { DIRECTORY_TABLE } from "./tables.js";

/**
 * The reader a route function builds at cold start and keeps while warm, with the service's
 * options. The benchmark's hot company and limited process build theirs here too, so whatever a
 * warm function keeps between requests is what they measure.
 */
export const serviceDirectoryReader = (client: DynamoDBDocumentClient, table: string): DirectoryReader =>
  dynamoDirectoryReader(client, table);

export const directoryFromEnv = () =>
  serviceDirectoryReader(sharedDocumentClient(), tableNameFromEnv(DIRECTORY_TABLE));
