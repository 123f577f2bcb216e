/**
 * A local S3 (the npm package s3rver) for the ingest's tests: one bucket, in a temporary folder,
 * on a free port; and the events it emits when an object is put, as S3 would send them.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

/** s3rver's default credentials; it checks signatures made with them. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface LocalS3 {
  readonly endpoint: string;
  readonly bucket: string;
  client(): S3Client;
  /** Calls `listener` with the key of every object put from now on. */
  onPut(listener: (key: string) => void): void;
  stop(): Promise<void>;
}

interface S3Event {
  readonly Records: readonly { eventName: string; s3: { object: { key: string } } }[];
}

/**
 * s3rver 3.7 answers a PUT before the object's bytes are on disk (it resolves when the body has
 * been read, not when the file is written) and writes in place, so a GET right after a PUT can
 * read an empty file: seen as a step's progress that did not parse. S3 answers a PUT once the
 * object is whole, and a GET reads one whole version. So the store's writes are replaced by
 * ones that write a file aside and rename it into place, and answer only then.
 */
function putWholeObjects(server: S3rver, staging: string): void {
  const store = server.store;
  const writeWhole = async (path: string, data: Buffer | string) => {
    const aside = join(staging, randomUUID());
    await writeFile(aside, data);
    await mkdir(dirname(path), { recursive: true });
    await rename(aside, path);
  };
  store.putMetadata = async (bucket, key, metadata, md5) => {
    // The same fields s3rver keeps: its own allowed headers and the user's x-amz-meta-*.
    const kept = Object.fromEntries(
      Object.entries(metadata).filter(([name]) => KEPT_METADATA.has(name) || name.startsWith("x-amz-meta-")),
    );
    await writeWhole(store.getResourcePath(bucket, key, "object.md5"), md5);
    await writeWhole(store.getResourcePath(bucket, key, "metadata.json"), JSON.stringify(kept, null, 2));
  };
  store.putObject = async (object) => {
    const content = Buffer.isBuffer(object.content) ? object.content : await readAll(object.content);
    const md5 = createHash("md5").update(content).digest("hex");
    await writeWhole(store.getResourcePath(object.bucket, object.key, "object"), content);
    await store.putMetadata(object.bucket, object.key, object.metadata, md5);
    return { size: content.length, md5 };
  };
}

/** The headers s3rver stores with an object: its own list, so the two cannot drift apart. */
const KEPT_METADATA = new Set<string>(
  (createRequire(import.meta.url)("s3rver/lib/models/object") as { ALLOWED_METADATA: string[] })
    .ALLOWED_METADATA,
);

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const received: Buffer[] = [];
  for await (const data of stream) received.push(Buffer.isBuffer(data) ? data : Buffer.from(data));
  return Buffer.concat(received);
}

export async function startLocalS3(bucket = "inbox"): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: join(directory, "store"),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const staging = join(directory, "staging");
  await mkdir(staging);
  putWholeObjects(server, staging);
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  return {
    endpoint,
    bucket,
    client() {
      const client = new S3Client({
        endpoint,
        forcePathStyle: true,
        region: "us-east-1",
        credentials: S3RVER_CREDENTIALS,
      });
      clients.push(client);
      return client;
    },
    onPut(listener) {
      server.on("event", (event: S3Event) => {
        for (const record of event.Records)
          if (record.eventName.startsWith("ObjectCreated:")) listener(record.s3.object.key);
      });
    },
    async stop() {
      for (const client of clients) client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
