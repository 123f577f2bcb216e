/** Small readers over synthesized templates, so the assertions read as what they check. */
import { CfnElement, Stack } from "aws-cdk-lib";
import type { Template } from "aws-cdk-lib/assertions";
import type { IConstruct } from "constructs";

export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly DependsOn?: string | string[];
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
}

export function resources(template: Template, type: string): [string, CfnResource][] {
  return Object.entries(template.findResources(type) as Record<string, CfnResource>);
}

export function props(resource: CfnResource): Record<string, unknown> {
  return resource.Properties ?? {};
}

/** The logical id of a construct's CloudFormation resource (its default child for L2s). */
export function logicalId(construct: IConstruct): string {
  const cfn = construct.node.defaultChild ?? construct;
  if (!CfnElement.isCfnElement(cfn)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return Stack.of(construct).getLogicalId(cfn);
}

export function dependsOn(resource: CfnResource): string[] {
  const value = resource.DependsOn;
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** A `{ Ref: id }` check that also accepts a bare id. */
export function refersTo(value: unknown, id: string): boolean {
  return JSON.stringify(value).includes(`"${id}"`);
}

/** Replaces every `$context.…` variable with a sample value, as API Gateway would. */
export function renderAccessLog(format: string): unknown {
  return JSON.parse(
    format.replace(/\$context\.[A-Za-z.]+/g, (variable) => (variable.endsWith("status") ? "200" : "1")),
  );
}
