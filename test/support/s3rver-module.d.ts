/** s3rver ships no types; this declares only what test/support/s3rver.ts uses. */
declare module "s3rver" {
  import type { EventEmitter } from "node:events";

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    /** Where objects are kept. */
    directory: string;
    configureBuckets?: { name: string; configs: unknown[] }[];
  }

  /** An object as s3rver's store receives it from a PUT. */
  interface StoredObject {
    bucket: string;
    key: string;
    content: Buffer | NodeJS.ReadableStream;
    metadata: Record<string, string>;
  }

  /** s3rver's filesystem store: where a PUT lands. */
  interface FilesystemStore {
    getResourcePath(bucket: string, key: string, resource: string): string;
    putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  }

  class S3rver extends EventEmitter {
    constructor(options: S3rverOptions);
    readonly store: FilesystemStore;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
  export = S3rver;
}
