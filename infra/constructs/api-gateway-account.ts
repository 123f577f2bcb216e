/**
 * API Gateway writes access and execution logs only once the account (per region) names a
 * CloudWatch role. One such setting per stack, shared by both APIs; kept on stack deletion so
 * another stage in the same account keeps logging.
 */
import { RemovalPolicy, Validations } from "aws-cdk-lib";
import { CfnAccount } from "aws-cdk-lib/aws-apigateway";
import { ManagedPolicy, Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Construct } from "constructs";

export class ApiGatewayAccountLogging extends Construct {
  readonly account: CfnAccount;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const role = new Role(this, "CloudWatchRole", {
      assumedBy: new ServicePrincipal("apigateway.amazonaws.com"),
      managedPolicies: [
        ManagedPolicy.fromAwsManagedPolicyName("service-role/AmazonAPIGatewayPushToCloudWatchLogs"),
      ],
    });
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    this.account = new CfnAccount(this, "Account", { cloudWatchRoleArn: role.roleArn });
    this.account.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]",
      reason:
        "AmazonAPIGatewayPushToCloudWatchLogs is the AWS-documented policy for API Gateway's account-level logging role; it must create log groups whose names API Gateway chooses.",
    });
  }
}
