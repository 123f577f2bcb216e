/**
 * The directory on DynamoDB: searches read the committed generation, loads write the next one. The
 * store's one entry for the rest of lib/ (docs/architecture.md, "The store's folders").
 */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DirectoryReader, DirectoryWriter } from "../port.js";
import { dynamoDirectoryReader, type ReaderOptions } from "./read/index.js";
import { dynamoDirectoryWriter, type WriterOptions } from "./write/index.js";

export { queryAll } from "./model/index.js";
export { directoryInspection, dynamoDirectoryReader } from "./read/index.js";
export { problemText, verifyDirectory } from "./verify/index.js";
export { dynamoDirectoryWriter, repairDerived } from "./write/index.js";

export type DynamoDirectory = DirectoryReader & DirectoryWriter;

export function dynamoDirectory(
  client: DynamoDBDocumentClient,
  table: string,
  options: { reader?: ReaderOptions; writer?: WriterOptions } = {},
): DynamoDirectory {
  return {
    ...dynamoDirectoryReader(client, table, options.reader),
    ...dynamoDirectoryWriter(client, table, options.writer),
  };
}
