/**
 * One partner-facing REST API ({base_url} or {hello_base_url}): the routes of lib/routes.ts that
 * belong to it, all behind the TOKEN authorizer with API keys taken from the authorizer, the
 * contract's gateway responses, 405/404 for what it does not serve, and JSON access logs. With a
 * custom domain, partners call only that (TLS 1.3, strict); the execute-api address is switched off.
 */
import { Aws, Duration, Fn, Validations } from "aws-cdk-lib";
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  DomainName,
  EndpointAccessMode,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  RestApi,
  SecurityPolicy,
  TokenAuthorizer,
} from "aws-cdk-lib/aws-apigateway";
import type { ICertificate } from "aws-cdk-lib/aws-certificatemanager";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup } from "aws-cdk-lib/aws-logs";
import { Construct, type IDependable } from "constructs";
import { AUTHORIZATION_HEADER_PATTERN } from "../../lib/keys/api-key.js";
import type { ApiId, RouteDefinition } from "../../lib/routes.js";
import type { StageConfig } from "../config.js";
import { accessLogFormat } from "./access-log.js";
import { addFixedErrorMethod } from "./fixed-responses.js";
import { addGatewayResponses } from "./gateway-responses.js";

export interface PartnerApiProps {
  readonly api: ApiId;
  readonly config: StageConfig;
  /** The stage's routes of this API (may be none: the search API in sandbox and prod). */
  readonly routes: readonly RouteDefinition[];
  /** Each route's function, by route id. */
  readonly functions: ReadonlyMap<string, IFunction>;
  readonly authorizerFunction: IFunction;
  /** API Gateway's account-level CloudWatch role; stages cannot log before it is set. */
  readonly accountLogging: IDependable;
  /** The API's stable address; without one, partners use the execute-api URL. */
  readonly customDomain?: { readonly domainName: string; readonly certificate: ICertificate };
}

export class PartnerApi extends Construct {
  readonly restApi: RestApi;
  readonly accessLogs: LogGroup;
  /**
   * The contract's {base_url} / {hello_base_url}, without a trailing slash: `https://<custom domain>`,
   * or `https://<id>.execute-api.<region>.amazonaws.com/<stage>` without one.
   */
  readonly baseUrl: string;
  /** Set with a custom domain: DNS points the domain at its `domainNameAliasDomainName`. */
  readonly domain: DomainName | undefined;
  /** The methods that reach a Lambda (every one authorized and API-key protected). */
  readonly routeMethods: Method[] = [];

  constructor(scope: Construct, id: string, props: PartnerApiProps) {
    super(scope, id);
    const { config } = props;
    this.accessLogs = new LogGroup(this, "AccessLogs", {
      retention: config.logRetention,
      removalPolicy: config.logRemovalPolicy,
    });
    this.restApi = this.createRestApi(props);
    // RestApi's own "Endpoint" output ends in "/"; the stack outputs baseUrl instead.
    this.restApi.node.tryRemoveChild("Endpoint");
    this.prepareStageLogging(props);

    this.addRoutes(props);
    // Also keeps an API with no routes deployable (API Gateway refuses a deployment with no method).
    addFixedErrorMethod(this.restApi.root, 404, "not_found");
    addGatewayResponses(this.restApi, config);

    this.domain = props.customDomain && this.addDomain(props.customDomain);
    this.baseUrl = this.domain
      ? `https://${props.customDomain?.domainName}`
      : `https://${this.restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${config.stage}`;
    this.acknowledgeNagRules();
  }

  private createRestApi(props: PartnerApiProps): RestApi {
    const { config } = props;
    return new RestApi(this, "Api", {
      restApiName: `partner-directory-${config.stage}-${props.api}`,
      description: `Partner Directory ${props.api} API (${config.stage})`,
      // Partners call from their backends: a regional endpoint avoids the edge hop.
      endpointTypes: [EndpointType.REGIONAL],
      // The usage plan key comes from the authorizer's usageIdentifierKey, never from a header.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: false,
      // A custom domain is the only way in: partners never learn an address that changes on
      // replacement. Without one the property stays unset, so the template is as before.
      ...(props.customDomain ? { disableExecuteApiEndpoint: true } : {}),
      deployOptions: {
        stageName: config.stage,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: AccessLogFormat.custom(accessLogFormat(props.api)),
        // Errors only, and never request data: full traces would log the Authorization header.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        // Per-method metrics: the dashboard shows requests and errors by route.
        metricsEnabled: true,
        // No X-Ray segment from API Gateway: it records the URL as sent, and a key pasted as a
        // company id would be kept in a trace (the access log leaves `$context.path` out for the
        // same reason). The functions trace actively; their segments hold no request data.
        tracingEnabled: false,
        // Every method's default, all keys together; usage plans throttle each key below it.
        throttlingRateLimit: config.stageThrottle.rateLimit,
        throttlingBurstLimit: config.stageThrottle.burstLimit,
      },
    });
  }

  /** The stage logs only once the account's CloudWatch role is set and its execution log group exists. */
  private prepareStageLogging(props: PartnerApiProps): void {
    const { config } = props;
    const stage = this.restApi.deploymentStage;
    stage.node.addDependency(props.accountLogging);
    // API Gateway would create this group itself, with no retention; owning it sets one.
    const executionLogs = new LogGroup(this, "ExecutionLogs", {
      logGroupName: Fn.join("", ["API-Gateway-Execution-Logs_", this.restApi.restApiId, `/${config.stage}`]),
      retention: config.logRetention,
      removalPolicy: config.logRemovalPolicy,
    });
    stage.node.addDependency(executionLogs);
  }

  private acknowledgeNagRules(): void {
    Validations.of(this.restApi).acknowledge(
      {
        id: "AwsSolutions-APIG2",
        reason:
          "Requests are validated in the functions (zod), which answer 400 invalid_input naming the field; a gateway validator could not produce the contract's messages.",
      },
      {
        id: "AwsSolutions-COG4",
        reason:
          "Partners authenticate with API keys checked by the Lambda TOKEN authorizer (decisions.md); there are no Cognito users.",
      },
    );
  }

  /**
   * The domain's root maps to this API's stage: the URL carries no stage name. TLS 1.3 only, and
   * strict: API Gateway answers only requests whose Host (and SNI) is this domain, so the
   * domain's endpoint cannot be reached under another name.
   */
  private addDomain(customDomain: NonNullable<PartnerApiProps["customDomain"]>): DomainName {
    return new DomainName(this, "Domain", {
      domainName: customDomain.domainName,
      certificate: customDomain.certificate,
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS13_1_3_2025_09,
      endpointAccessMode: EndpointAccessMode.STRICT,
      mapping: this.restApi,
    });
  }

  private addRoutes(props: PartnerApiProps): void {
    if (props.routes.length === 0) return;
    const authorizer = new TokenAuthorizer(this, "Authorizer", {
      handler: props.authorizerFunction,
      identitySource: IdentitySource.header("Authorization"),
      // A header that cannot hold a key gets 401 from API Gateway, without invoking the authorizer.
      validationRegex: AUTHORIZATION_HEADER_PATTERN,
      resultsCacheTtl: Duration.seconds(props.config.authorizerCacheTtlSeconds),
    });
    const methodsByPath = new Map<string, string[]>();
    for (const route of props.routes) {
      const fn = props.functions.get(route.id);
      if (!fn) throw new Error(`no function for route ${route.id}`);
      const resource = this.restApi.root.resourceForPath(route.path);
      const method = resource.addMethod(route.method, new LambdaIntegration(fn, { allowTestInvoke: false }), {
        authorizer,
        authorizationType: AuthorizationType.CUSTOM,
        apiKeyRequired: true,
        // API Gateway's name for the method: the key's operation, or the route's id when it needs none.
        operationName: route.operation ?? route.id,
      });
      this.routeMethods.push(method);
      methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    }
    for (const [path, methods] of methodsByPath) {
      addFixedErrorMethod(this.restApi.root.resourceForPath(path), 405, "method_not_allowed", methods);
    }
  }
}
