/**
 * The local S3 behaves as S3 does where the ingest relies on it: a GET after a PUT's answer reads
 * the whole object, and a GET during an overwrite reads one whole version.
 */
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { type LocalS3, startLocalS3 } from "./s3rver.js";

let s3: LocalS3 | undefined;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.stop();
});

const local = () => {
  if (!s3) throw new Error("no s3rver: setup failed");
  return s3;
};
/** A version's body: large enough that writing it takes more than one turn of the event loop. */
const body = (version: number) => JSON.stringify({ version, padding: "x".repeat(256 * 1024 + version) });

const put = (key: string, text: string) =>
  local()
    .client()
    .send(new PutObjectCommand({ Bucket: local().bucket, Key: key, Body: text }));
const get = async (key: string) => {
  const output = await local()
    .client()
    .send(new GetObjectCommand({ Bucket: local().bucket, Key: key }));
  return output.Body?.transformToString() ?? "";
};

it("reads the whole object right after each overwrite's answer", async () => {
  for (let version = 0; version < 20; version += 1) {
    await put("work/one/progress.json", body(version));
    expect(await get("work/one/progress.json")).toBe(body(version));
  }
});

it("reads one whole version while the object is overwritten", async () => {
  const versions = new Set(Array.from({ length: 10 }, (_, version) => body(version)));
  await put("work/two/progress.json", body(0));
  const writes = (async () => {
    for (let version = 1; version < 10; version += 1) await put("work/two/progress.json", body(version));
  })();
  const reads = Promise.all(Array.from({ length: 10 }, () => get("work/two/progress.json")));
  const [, read] = await Promise.all([writes, reads]);
  for (const text of read) expect(versions.has(text)).toBe(true);
});
