/**
 * The directory a Lambda reads: shared client, table name from the environment, and the reader's
 * defaults: the manifest cached 1 s and the answer cache on (32 MB of the route function's
 * 1,024 MB), so a warm function asked the same search again reads only the manifest, once a second.
 */

import { dynamoDirectoryReader } from "./dynamo/reader.js";
import { sharedDocumentClient, tableNameFromEnv } from "./dynamo-client.js";
import { DIRECTORY_TABLE } from "./tables.js";

export const directoryFromEnv = () =>
  dynamoDirectoryReader(sharedDocumentClient(), tableNameFromEnv(DIRECTORY_TABLE));
