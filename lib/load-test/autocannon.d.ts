/** autocannon ships no types; this declares only what lib/load-test uses. */
declare module "autocannon" {
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    onResponse?: (status: number, body: string, context: unknown, headers: Record<string, string>) => void;
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    title?: string;
  }

  export interface AutocannonResult {
    title?: string;
    duration: number;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
  }

  export interface Instance extends PromiseLike<AutocannonResult> {
    stop(): void;
  }

  export default function autocannon(options: AutocannonOptions): Instance & Promise<AutocannonResult>;
}
