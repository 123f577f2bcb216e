/** Matches a request to the route table the way API Gateway resolves resources and methods. */
import type { RouteDefinition } from "../routes.js";

export type RouteMatch =
  | { kind: "route"; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: "not_found" }
  /** The path is a route's, the method is not: `resourcePath` is its template, `allowed` its methods. */
  | { kind: "method_not_allowed"; resourcePath: string; allowed: string[] };

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
}

function compile(route: RouteDefinition): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(param[1]);
      // An empty segment still matches, so the handler can refuse it as an invalid id.
      return "([^/]*)";
    })
    .join("/");
  return { route, pattern: new RegExp(`^${source}$`), names };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function routeMatcher(
  routes: readonly RouteDefinition[],
): (method: string, path: string) => RouteMatch {
  const compiled = routes.map(compile);
  return (method, path) => {
    const samePath: RouteDefinition[] = [];
    for (const { route, pattern, names } of compiled) {
      const match = pattern.exec(path);
      if (!match) continue;
      if (route.method !== method.toUpperCase()) {
        samePath.push(route);
        continue;
      }
      const pathParameters: Record<string, string> = {};
      names.forEach((name, index) => {
        pathParameters[name] = decode(match[index + 1] ?? "");
      });
      return { kind: "route", route, pathParameters };
    }
    const [first] = samePath;
    if (!first) return { kind: "not_found" };
    return { kind: "method_not_allowed", resourcePath: first.path, allowed: samePath.map((r) => r.method) };
  };
}
