/** What on-call's constructs are given (on-call.ts, dashboard.ts, data-alarms.ts), and how they add an alarm. */
import type { IMetric, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { ILogGroup } from "aws-cdk-lib/aws-logs";
import type { ITopic } from "aws-cdk-lib/aws-sns";
import type { Canary } from "aws-cdk-lib/aws-synthetics";
import type { ApiId, RouteDefinition } from "../../lib/routes.js";
import type { TableId } from "../../lib/store/tables.js";
import type { StageConfig } from "../config.js";
import type { Ingest } from "./ingest.js";
import type { PartnerApi } from "./partner-api.js";

export interface OnCallProps {
  readonly config: StageConfig;
  readonly apis: readonly {
    readonly id: ApiId;
    readonly api: PartnerApi;
    readonly routes: readonly RouteDefinition[];
  }[];
  /**
   * `alarmOnErrors: false` for the authorizer: it reports every refused key as a function error.
   * Its failures are counted from the access logs instead (`authorizer-errors`).
   */
  readonly functions: readonly {
    readonly id: string;
    readonly fn: IFunction;
    readonly alarmOnErrors: boolean;
  }[];
  readonly tables: readonly { readonly id: TableId; readonly table: ITable }[];
  /** The route functions' log groups: the dashboard ranks keys by read cost over their EMF records. */
  readonly routeLogGroups: readonly ILogGroup[];
  /** The ingest's state machine and dead-letter queue. */
  readonly ingest: Pick<Ingest, "stateMachine" | "deadLetters">;
  /** The stage's web ACL, by name (WAF's metrics use it). */
  readonly webAclName: string;
  /** The greeting canary (greeting-canary.ts). */
  readonly canary: Canary;
  readonly alarmTopic?: ITopic;
}

/** How many periods an alarm looks at; "any" alarms fire on the first breaching period. */
type Evaluation = "sustained" | "any";

export interface AlarmOptions {
  readonly evaluation?: Evaluation;
  /** Default NOT_BREACHING: no traffic is not an incident. */
  readonly missingData?: TreatMissingData;
  /** Default: at or above the threshold. */
  readonly below?: boolean;
}

/** Adds one alarm of the stage: its id (also its name's suffix), metric, threshold and what it means. */
export type AlarmMaker = (
  alarmId: string,
  metric: IMetric,
  threshold: number,
  what: string,
  options?: AlarmOptions,
) => void;
