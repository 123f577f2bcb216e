/**
 * A local S3 (the npm package s3rver) for the ingest's tests: one bucket, in a temporary folder,
 * on a free port; and the events it emits when an object is put, as S3 would send them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

export async function startLocalS3(bucket = "inbox"): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
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
