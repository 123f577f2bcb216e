/** The directory on DynamoDB: searches read the committed generation, loads write the next one. */
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DirectoryReader, DirectoryWriter } from "../port.js";
import { dynamoDirectoryReader, type ReaderOptions } from "./read/reader.js";
import { dynamoDirectoryWriter, type WriterOptions } from "./write/load-session.js";

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
