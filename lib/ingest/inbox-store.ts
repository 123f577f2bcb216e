/**
 * The inbox as the ingest and the load CLI use it, on S3 (or s3rver in tests): the file's bytes
 * from any offset, the reports, and what a load carries between steps under `work/`.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { OpenBytes } from "../load/lines.js";
import type { LoadProgress } from "../load/load-steps.js";
import { type InboxObject, reportKey, WORK_PREFIX } from "./inbox.js";
import type { IngestReport } from "./ingest-state.js";

/** S3's version id of objects put while versioning was never on (s3rver has no versioning). */
const NO_VERSION = "null";

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

/** An S3 client; a custom endpoint (`AWS_ENDPOINT_URL_S3`: s3rver, MinIO) is addressed path-style. */
export const inboxClient = (): S3Client =>
  new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });

export class InboxStore {
  private readonly s3: S3Client;

  constructor(s3: S3Client) {
    this.s3 = s3;
  }

  private version(object: InboxObject) {
    return object.versionId === NO_VERSION ? {} : { VersionId: object.versionId };
  }

  /** This version of the object's size in bytes and metadata; undefined when it does not exist. */
  async head(object: InboxObject): Promise<{ size: number; metadata: Record<string, string> } | undefined> {
    try {
      const head = await this.s3.send(
        new HeadObjectCommand({ Bucket: object.bucket, Key: object.key, ...this.version(object) }),
      );
      return { size: head.ContentLength ?? 0, metadata: head.Metadata ?? {} };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** The object's bytes from an offset (ranged reads: a step goes on where the last one stopped). */
  bytes(object: InboxObject): OpenBytes {
    const s3 = this.s3;
    const version = this.version(object);
    return async function* (offset: number) {
      let output: GetObjectCommandOutput;
      try {
        output = await s3.send(
          new GetObjectCommand({
            Bucket: object.bucket,
            Key: object.key,
            ...version,
            ...(offset > 0 ? { Range: `bytes=${offset}-` } : {}),
          }),
        );
      } catch (error) {
        // From the very end of the object: nothing left to read.
        if (error instanceof S3ServiceException && error.name === "InvalidRange") return;
        throw error;
      }
      yield* output.Body as AsyncIterable<Uint8Array>;
    };
  }

  async report(object: InboxObject): Promise<IngestReport | undefined> {
    const text = await this.text(object.bucket, reportKey(object));
    return text === undefined ? undefined : (JSON.parse(text) as IngestReport);
  }

  async writeReport(report: IngestReport): Promise<string> {
    const key = reportKey(report.object);
    await this.put(report.object.bucket, key, JSON.stringify(report, null, 2), "application/json");
    return key;
  }

  async progress(bucket: string, execution: string): Promise<LoadProgress | undefined> {
    const text = await this.text(bucket, workKey(execution, "progress.json"));
    return text === undefined ? undefined : (JSON.parse(text) as LoadProgress);
  }

  saveProgress(bucket: string, execution: string, progress: LoadProgress): Promise<void> {
    return this.put(
      bucket,
      workKey(execution, "progress.json"),
      JSON.stringify(progress),
      "application/json",
    );
  }

  async ids(bucket: string, execution: string): Promise<Uint8Array | undefined> {
    const output = await this.get(bucket, workKey(execution, "ids"));
    return output && (output.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray();
  }

  saveIds(bucket: string, execution: string, ids: Uint8Array): Promise<void> {
    return this.put(bucket, workKey(execution, "ids"), ids, "application/octet-stream");
  }

  /** What an ingest carried between steps: gone once it ends (a lifecycle rule sweeps leftovers). */
  async dropWork(bucket: string, execution: string): Promise<void> {
    for (const name of ["progress.json", "ids"])
      await this.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: workKey(execution, name) }));
  }

  private async get(bucket: string, key: string): Promise<GetObjectCommandOutput | undefined> {
    try {
      return await this.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  private async text(bucket: string, key: string): Promise<string | undefined> {
    const output = await this.get(bucket, key);
    return output && (output.Body as { transformToString(): Promise<string> }).transformToString();
  }

  private async put(bucket: string, key: string, body: string | Uint8Array, contentType: string) {
    await this.s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }
}

/** `work/<execution>/<name>`: one folder per ingest. */
const workKey = (execution: string, name: string) => `${WORK_PREFIX}${execution}/${name}`;
