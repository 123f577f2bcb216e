/**
 * The data: the directory table and the keys table, built from lib/store/tables.ts, and the
 * inbox bucket that files to load arrive in. Kept apart from the functions and APIs so those can
 * be replaced freely without touching the data.
 */
import { RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  Table,
  TableEncryption,
} from "aws-cdk-lib/aws-dynamodb";
import type { Role } from "aws-cdk-lib/aws-iam";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { StringParameter } from "aws-cdk-lib/aws-ssm";
import type { Construct } from "constructs";
import { type KeyAttribute, TABLES, type TableDefinition, type TableId } from "../lib/store/tables.js";
import { type StageConfig, ssmParameterNames } from "./config.js";
import { addInboxBucket } from "./constructs/inbox-bucket.js";
import { addInboxWriters } from "./constructs/inbox-writers.js";

export interface StatefulStackProps extends StackProps {
  readonly config: StageConfig;
}

export class StatefulStack extends Stack {
  readonly tables: Readonly<Record<TableId, ITable>>;
  readonly inbox: IBucket;
  /** The only principal besides the ingest that may write the inbox (constructs/inbox-writers.ts). */
  readonly loaderRole: Role;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.tables = {
      directory: this.table("DirectoryTable", TABLES.directory, config),
      keys: this.table("KeysTable", TABLES.keys, config),
    };
    // Stable names the keys and load CLIs read; the physical table names are CloudFormation's.
    new StringParameter(this, "KeysTableName", {
      parameterName: ssmParameterNames.keysTableName(config.stage),
      stringValue: this.tables.keys.tableName,
      description: "Physical name of the API keys table (read by the keys CLI)",
    });
    new StringParameter(this, "DirectoryTableName", {
      parameterName: ssmParameterNames.directoryTableName(config.stage),
      stringValue: this.tables.directory.tableName,
      description: "Physical name of the directory table (read by the load CLI)",
    });
    const inbox = addInboxBucket(this, "InboxBucket", config.inbox);
    this.inbox = inbox;
    this.loaderRole = addInboxWriters(
      this,
      inbox,
      config,
      config.inbox.removalPolicy === RemovalPolicy.DESTROY,
    );
    new StringParameter(this, "InboxBucketName", {
      parameterName: ssmParameterNames.inboxBucketName(config.stage),
      stringValue: this.inbox.bucketName,
      description: "Name of the inbox bucket (the load CLI uploads there and waits for the report)",
    });
  }

  private table(id: string, definition: TableDefinition, config: StageConfig): Table {
    const key = (attribute: KeyAttribute) => ({
      name: attribute.name,
      type: attribute.type === "B" ? AttributeType.BINARY : AttributeType.STRING,
    });
    const table = new Table(this, id, {
      partitionKey: key(definition.partitionKey),
      sortKey: definition.sortKey && key(definition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // KMS key aws/dynamodb: encrypted at rest and every key use is in CloudTrail, no key to manage.
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: config.tables.deletionProtection,
      removalPolicy: config.tables.removalPolicy,
    });
    for (const index of definition.indexes) {
      const projection = index.projection;
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: index.sortKey && key(index.sortKey),
        ...(projection.type === "INCLUDE"
          ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...projection.attributes] }
          : { projectionType: ProjectionType.KEYS_ONLY }),
      });
    }
    return table;
  }
}
