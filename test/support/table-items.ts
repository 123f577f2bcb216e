/**
 * Every item of a table, raw, and single items put, removed or read back: how tests look at and
 * damage what the store wrote, beside the store's own reads.
 */
import { type DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { batchWrite, type Item, type ItemKey, keyOf } from "../../lib/store/dynamo/model/batch.js";
import { DIRECTORY_ATTR as A } from "../../lib/store/tables.js";

export function tableItems(documents: DynamoDBDocumentClient, table: string) {
  const all = async () => {
    const items: Item[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documents.send(
        new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };
  const get = async (key: ItemKey): Promise<Item> => {
    const { Item: item } = await documents.send(
      new GetCommand({
        TableName: table,
        Key: { [A.partition]: key.p, [A.sort]: key.s },
        ConsistentRead: true,
      }),
    );
    if (!item) throw new Error("no such item");
    return item;
  };
  const put = (item: Item) => documents.send(new PutCommand({ TableName: table, Item: item }));
  const remove = (key: ItemKey) => batchWrite(documents, table, [{ delete: key }]);
  const wipe = async () =>
    batchWrite(
      documents,
      table,
      (await all()).map((item) => ({ delete: keyOf(item) })),
    );
  return { all, get, put, remove, wipe };
}
