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

  class S3rver extends EventEmitter {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
  export = S3rver;
}
