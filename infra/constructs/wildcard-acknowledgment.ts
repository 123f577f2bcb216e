/**
 * cdk-nag's AwsSolutions-IAM5 names each wildcard resource of a policy by its CloudFormation form
 * flattened (`<Logical.Arn>:*`, an import's export name followed by `/merge/*`), which is known
 * only once cross-stack references are resolved. These acknowledge exactly the wildcards a
 * construct means, then: any other wildcard still fails the synth.
 */
import { Stack, Validations } from "aws-cdk-lib";
import type { IConstruct } from "constructs";

/** cdk-nag's flattening of a resolved reference (cdk-nag/lib/utils/flatten-cfn-reference.js). */
function flatten(node: unknown): string {
  if (node === undefined) return "";
  if (typeof node === "string") return node.replace(/\$\{/g, "<").replace(/\}/g, ">");
  const value = node as Record<string, unknown>;
  if (value["Fn::Join"]) {
    const [delimiter, items] = value["Fn::Join"] as [string, unknown[]];
    return items.map(flatten).join(delimiter);
  }
  if (value["Fn::Sub"]) return flatten(value["Fn::Sub"]);
  if (value["Fn::GetAtt"]) {
    const [resource, attribute] = value["Fn::GetAtt"] as [unknown, unknown];
    return `<${flatten(resource)}.${flatten(attribute)}>`;
  }
  if (value["Fn::ImportValue"]) return flatten(value["Fn::ImportValue"]);
  if (value.Ref) return `<${flatten(value.Ref)}>`;
  return JSON.stringify(node);
}

/** Acknowledges AwsSolutions-IAM5 on `scope` (a role) for exactly these resources (tokens allowed). */
export function acknowledgeWildcardResources(
  scope: IConstruct,
  resources: readonly string[],
  reason: string,
): void {
  scope.node.addValidation({
    // Runs after the references are resolved and before the validation plugins.
    validate: () => {
      const stack = Stack.of(scope);
      Validations.of(scope).acknowledge(
        ...resources.map((resource) => ({
          id: `AwsSolutions-IAM5[Resource::${flatten(stack.resolve(resource))}]`,
          reason,
        })),
      );
      return [];
    },
  });
}
