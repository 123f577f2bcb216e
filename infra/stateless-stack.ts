/**
 * Everything that can be redeployed freely: one function per route of this stage plus the
 * authorizer, the two REST APIs, the usage plans, the body-size guard, the ingest and on-call.
 * Driven by lib/routes.ts; nothing here names a route.
 */
import { ArnFormat, Aws, CfnOutput, Stack, type StackProps, Validations } from "aws-cdk-lib";
import { Certificate } from "aws-cdk-lib/aws-certificatemanager";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Effect, PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { type ITopic, Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { Construct } from "constructs";
import {
  type ApiId,
  AUTHORIZER,
  ROUTES,
  type RouteDefinition,
  type RouteTable,
  routesForStage,
} from "../lib/routes.js";
import { AUTHORIZER_RETRY_LIMITS } from "../lib/store/retry-limits.js";
import type { TableId } from "../lib/store/tables.js";
import type { StageConfig } from "./config.js";
import { ApiGatewayAccountLogging } from "./constructs/api-gateway-account.js";
import { addBudget } from "./constructs/budget.js";
import { DirectoryFunction } from "./constructs/directory-function.js";
import { GreetingCanary } from "./constructs/greeting-canary.js";
import { Ingest } from "./constructs/ingest.js";
import { alarmNamePrefix, OnCall } from "./constructs/on-call.js";
import { PartnerApi } from "./constructs/partner-api.js";
import { RequestFirewall } from "./constructs/request-firewall.js";
import { UsagePlans } from "./constructs/usage-plans.js";

export interface StatelessStackProps extends StackProps {
  readonly config: StageConfig;
  /** From the stateful stack. */
  readonly tables: Readonly<Record<TableId, ITable>>;
  /** From the stateful stack: files put there are loaded by the ingest. */
  readonly inbox: IBucket;
  /** An existing topic for the alarms; otherwise `config.createAlarmTopic` (or an email) decides. */
  readonly alarmTopicArn?: string;
  /** The route table to deploy (default ROUTES; tests add routes to a copy). */
  readonly routes?: RouteTable;
}

const API_IDS: readonly ApiId[] = ["search", "greeting"];

export class StatelessStack extends Stack {
  readonly apis: ReadonlyMap<ApiId, PartnerApi>;
  /** Each deployed route's function, by route id. */
  readonly routeFunctions: ReadonlyMap<string, DirectoryFunction>;
  readonly authorizerFunction: DirectoryFunction;
  readonly usagePlans: UsagePlans;
  readonly firewall: RequestFirewall;
  readonly ingest: Ingest;
  readonly canary: GreetingCanary;
  readonly onCall: OnCall;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { config, tables } = props;
    const routes = routesForStage(config.stage, props.routes ?? ROUTES);

    this.authorizerFunction = new DirectoryFunction(this, "AuthorizerFunction", {
      entry: AUTHORIZER.entry,
      description: "TOKEN authorizer: checks the partner API key, returns its usage key and scope",
      config,
      sizing: config.authorizerFunction,
      reads: AUTHORIZER.reads,
      // It reads one key record by its hash (keys-repository findByHash); nothing else.
      readActions: ["dynamodb:GetItem"],
      dynamoRetryLimits: AUTHORIZER_RETRY_LIMITS,
      tables,
    });
    this.routeFunctions = this.addRouteFunctions(routes, config, tables);
    this.apis = this.addApis(routes, config);
    const partnerApis = [...this.apis.values()];
    this.usagePlans = new UsagePlans(this, "UsagePlans", {
      config,
      apis: partnerApis.map((api) => api.restApi),
    });
    this.firewall = new RequestFirewall(this, "RequestFirewall", {
      config,
      apiStages: partnerApis.map((api) => api.restApi.deploymentStage),
    });
    this.ingest = new Ingest(this, "Ingest", { config, tables, inbox: props.inbox });
    this.canary = new GreetingCanary(this, "GreetingCanary", {
      config,
      helloBaseUrl: this.api("greeting").baseUrl,
    });
    this.onCall = this.addOnCall(routes, props);
    this.addOutputs();
  }

  /** One function per route, reading exactly the tables its route names. */
  private addRouteFunctions(
    routes: readonly RouteDefinition[],
    config: StageConfig,
    tables: Readonly<Record<TableId, ITable>>,
  ): Map<string, DirectoryFunction> {
    const functions = new Map<string, DirectoryFunction>();
    for (const route of routes) {
      functions.set(
        route.id,
        new DirectoryFunction(this, `${pascal(route.id)}Function`, {
          entry: route.entry,
          description: `${route.method} ${route.path} (${route.operation ?? "any valid key"})`,
          config,
          sizing: config.routeFunction,
          reads: route.reads,
          tables,
        }),
      );
    }
    return functions;
  }

  /** Both REST APIs, each with the routes that belong to it (maybe none). */
  private addApis(routes: readonly RouteDefinition[], config: StageConfig): Map<ApiId, PartnerApi> {
    const accountLogging = new ApiGatewayAccountLogging(this, "ApiGatewayAccount");
    const domains = config.customDomains;
    // One certificate covers both names (a SAN or wildcard certificate in the APIs' region).
    const certificate =
      domains && Certificate.fromCertificateArn(this, "DomainCertificate", domains.certificateArn);
    const apis = new Map<ApiId, PartnerApi>();
    for (const apiId of API_IDS) {
      apis.set(
        apiId,
        new PartnerApi(this, `${pascal(apiId)}Api`, {
          api: apiId,
          config,
          routes: routes.filter((route) => route.api === apiId),
          functions: this.routeFunctions,
          authorizerFunction: this.authorizerFunction,
          accountLogging: accountLogging.account,
          ...(domains && certificate
            ? {
                customDomain: {
                  domainName: apiId === "search" ? domains.searchDomain : domains.helloDomain,
                  certificate,
                },
              }
            : {}),
        }),
      );
    }
    return apis;
  }

  private addOnCall(routes: readonly RouteDefinition[], props: StatelessStackProps): OnCall {
    const { config, tables } = props;
    const alarmTopic = this.alarmTopic(config, props.alarmTopicArn);
    addBudget(this, config, alarmTopic);
    return new OnCall(this, "OnCall", {
      config,
      apis: API_IDS.map((apiId) => ({
        id: apiId,
        api: this.api(apiId),
        routes: routes.filter((route) => route.api === apiId),
      })),
      functions: [
        ...routes.map((route) => ({ id: route.id, fn: this.routeFunction(route.id), alarmOnErrors: true })),
        { id: AUTHORIZER.id, fn: this.authorizerFunction, alarmOnErrors: false },
      ],
      tables: (Object.keys(tables) as TableId[]).map((tableId) => ({ id: tableId, table: tables[tableId] })),
      routeLogGroups: routes.map((route) => this.routeFunction(route.id).logGroup),
      ingest: this.ingest,
      webAclName: this.firewall.webAclName,
      canary: this.canary.canary,
      alarmTopic,
    });
  }

  private addOutputs(): void {
    new CfnOutput(this, "SearchApiUrl", {
      description: "{base_url}: the search API",
      value: this.api("search").baseUrl,
    });
    new CfnOutput(this, "GreetingApiUrl", {
      description: "{hello_base_url}: the greeting API",
      value: this.api("greeting").baseUrl,
    });
    for (const [apiId, api] of this.apis) {
      if (!api.domain) continue;
      new CfnOutput(this, `${pascal(apiId)}ApiDomainTarget`, {
        description: `Point the ${apiId} API's custom domain here (CNAME, or a Route 53 alias)`,
        value: api.domain.domainNameAliasDomainName,
      });
    }
    new CfnOutput(this, "DashboardName", { value: this.onCall.dashboard.dashboardName });
    // Log group names for the runbook's Logs Insights queries.
    for (const [apiId, api] of this.apis) {
      new CfnOutput(this, `${pascal(apiId)}ApiAccessLogGroup`, { value: api.accessLogs.logGroupName });
    }
    for (const [routeId, fn] of this.routeFunctions) {
      new CfnOutput(this, `${pascal(routeId)}LogGroup`, { value: fn.logGroup.logGroupName });
    }
    new CfnOutput(this, "AuthorizerLogGroup", { value: this.authorizerFunction.logGroup.logGroupName });
  }

  api(apiId: ApiId): PartnerApi {
    const api = this.apis.get(apiId);
    if (!api) throw new Error(`no API ${apiId}`);
    return api;
  }

  routeFunction(routeId: string): DirectoryFunction {
    const fn = this.routeFunctions.get(routeId);
    if (!fn) throw new Error(`route ${routeId} is not deployed in this stage`);
    return fn;
  }

  private alarmTopic(config: StageConfig, alarmTopicArn: string | undefined): ITopic | undefined {
    const topic = alarmTopicArn
      ? Topic.fromTopicArn(this, "AlarmTopic", alarmTopicArn)
      : // An email address needs a topic to subscribe to, even in a stage that creates none by default.
        config.createAlarmTopic || config.alarmEmail !== undefined
        ? this.ownAlarmTopic(config)
        : undefined;
    if (topic && config.alarmEmail !== undefined) {
      // SNS mails a confirmation link first: nothing is delivered until it is followed.
      topic.addSubscription(new EmailSubscription(config.alarmEmail));
    }
    return topic;
  }

  private ownAlarmTopic(config: StageConfig): Topic {
    const topic = new Topic(this, "AlarmTopic", {
      displayName: `Partner Directory ${config.stage} alarms`,
      enforceSSL: true,
    });
    // A topic policy replaces SNS's default one, and enforceSSL's holds only the TLS Deny: without
    // this Allow, CloudWatch could not publish. Only this account's alarms of this stage may.
    topic.addToResourcePolicy(
      new PolicyStatement({
        sid: "AllowThisStagesAlarms",
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal("cloudwatch.amazonaws.com")],
        actions: ["sns:Publish"],
        resources: [topic.topicArn],
        conditions: {
          StringEquals: { "aws:SourceAccount": Aws.ACCOUNT_ID },
          ArnLike: { "aws:SourceArn": alarmArnPattern(this, config) },
        },
      }),
    );
    // AWS Budgets tells on-call of the stage's cost budget here, where it has one (constructs/budget.ts).
    if (config.monthlyBudgetUsd !== undefined) {
      topic.addToResourcePolicy(
        new PolicyStatement({
          sid: "AllowThisAccountsBudgets",
          effect: Effect.ALLOW,
          principals: [new ServicePrincipal("budgets.amazonaws.com")],
          actions: ["sns:Publish"],
          resources: [topic.topicArn],
          conditions: { StringEquals: { "aws:SourceAccount": Aws.ACCOUNT_ID } },
        }),
      );
    }
    Validations.of(topic).acknowledge({
      id: "AwsSolutions-SNS2",
      reason:
        "Alarm notifications carry alarm names and metric values only, and CloudWatch cannot publish to a topic encrypted with the aws/sns key.",
    });
    new CfnOutput(this, "AlarmTopicArn", {
      description: "Subscribe on-call here (email, chat, pager)",
      value: topic.topicArn,
    });
    return topic;
  }
}

/** Every alarm of this stage in this account and region: their names all start with ALARM_NAME_PREFIX. */
function alarmArnPattern(scope: Stack, config: StageConfig): string {
  return scope.formatArn({
    service: "cloudwatch",
    resource: "alarm",
    resourceName: `${alarmNamePrefix(config.stage)}*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

function pascal(id: string): string {
  return id
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}
