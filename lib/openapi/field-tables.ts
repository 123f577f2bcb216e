/**
 * The partner guide's field tables (docs/partners.md, between FIELD_TABLES_START and _END): one
 * Markdown table per object the routes answer with, read from the OpenAPI document, so from the
 * route table and the Zod schemas' descriptions. `npm run openapi` writes them with openapi.json;
 * a test fails when the guide holds other tables, and the tables cannot be made while a field has
 * no description.
 *
 * Each route's answer gets a table, then every component it refers to. A field that is an object
 * written in place (`contact`) gets its row, then its own fields' rows (`contact.email`).
 */
import { ROUTES, type RouteTable } from "../routes.js";
import { openApiDocument } from "./document.js";

export const FIELD_TABLES_START = "<!-- fields:start (npm run openapi) -->";
export const FIELD_TABLES_END = "<!-- fields:end -->";

/** The parts of a JSON Schema (OpenAPI 3.1) the tables read. */
interface JsonSchema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly description?: string;
}

interface Row {
  readonly field: string;
  readonly type: string;
  readonly meaning: string;
}

interface Table {
  readonly name: string;
  /** The routes answering with it, `POST /v1/persons/search`; empty for a component within. */
  readonly routes: string[];
  readonly rows: Row[];
}

export class FieldTablesError extends Error {}

const COMPONENT_REF = /^#\/components\/schemas\/([\w.-]+)$/;

function componentName(schema: JsonSchema): string | undefined {
  return schema.$ref === undefined ? undefined : COMPONENT_REF.exec(schema.$ref)?.[1];
}

/** GitHub's anchor of a heading that is a component name. */
const anchor = (name: string) => `#${name.toLowerCase()}`;

const isNull = (schema: JsonSchema) => schema.type === "null";

/** Bounds other than the widest integers zod writes for `z.int()`. */
function range({ minimum, maximum }: JsonSchema): string {
  const min = minimum !== undefined && Number.isSafeInteger(minimum) && minimum > Number.MIN_SAFE_INTEGER;
  const max = maximum !== undefined && Number.isSafeInteger(maximum) && maximum < Number.MAX_SAFE_INTEGER;
  if (min && max) return ` ${minimum}-${maximum}`;
  if (min) return ` ≥ ${minimum}`;
  if (max) return ` ≤ ${maximum}`;
  return "";
}

/** The Type column: a component links to its table; `seen` learns of it. */
function typeOf(schema: JsonSchema, seen: (component: string) => void): string {
  const component = componentName(schema);
  if (component !== undefined) {
    seen(component);
    return `[${component}](${anchor(component)})`;
  }
  if (schema.anyOf) {
    const types = schema.anyOf.filter((one) => !isNull(one)).map((one) => typeOf(one, seen));
    return [...types, ...(schema.anyOf.some(isNull) ? ["null"] : [])].join(" or ");
  }
  if (Array.isArray(schema.type))
    return schema.type.map((type) => typeOf({ ...schema, type }, seen)).join(" or ");
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(", ");
  if (schema.const !== undefined) return `\`${String(schema.const)}\``;
  if (schema.type === "array") return `${schema.items ? typeOf(schema.items, seen) : "any"}[]`;
  if (schema.type === "integer" || schema.type === "number") return `${schema.type}${range(schema)}`;
  return schema.format ?? (typeof schema.type === "string" ? schema.type : "any");
}

/** The object a field holds in place (itself or, when nullable, the non-null member). */
function inlineObject(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  return schema.anyOf?.find((one) => one.properties !== undefined);
}

/** A cell's text on one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

function rowsOf(
  object: JsonSchema,
  prefix: string,
  seen: (component: string) => void,
  undescribed: string[],
): Row[] {
  return Object.entries(object.properties ?? {}).flatMap(([name, field]) => {
    const path = `${prefix}${name}`;
    if (!field.description?.trim()) undescribed.push(path);
    const row = { field: path, type: typeOf(field, seen), meaning: field.description ?? "" };
    const inner = inlineObject(field);
    return [row, ...(inner ? rowsOf(inner, `${path}.`, seen, undescribed) : [])];
  });
}

/** The 200 answer's schema of one route in the document. */
function answerSchema(document: ReturnType<typeof openApiDocument>, method: string, path: string) {
  const operation = document.paths?.[path]?.[method.toLowerCase() as "get" | "post"];
  const response = operation?.responses?.["200"] as
    | { content?: Record<string, { schema?: JsonSchema }> }
    | undefined;
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema) throw new FieldTablesError(`${method} ${path}: no JSON answer in the OpenAPI document`);
  return schema;
}

/** The tables of every route of `table`: the answers in route order, then the components they use. */
export function fieldTables(table: RouteTable = ROUTES): Table[] {
  const document = openApiDocument(undefined, table);
  const components = (document.components?.schemas ?? {}) as Record<string, JsonSchema>;
  const tables = new Map<string, Table>();
  const within: string[] = [];
  const seen = (component: string) => {
    if (!within.includes(component)) within.push(component);
  };
  const undescribed: string[] = [];
  const add = (name: string, object: JsonSchema, route?: string) => {
    const known = tables.get(name);
    if (known) {
      if (route) known.routes.push(route);
      return;
    }
    const fieldsUndescribed: string[] = [];
    const rows = rowsOf(object, "", seen, fieldsUndescribed);
    undescribed.push(...fieldsUndescribed.map((field) => `${name}.${field}`));
    tables.set(name, { name, routes: route ? [route] : [], rows });
  };

  for (const route of table) {
    const label = `${route.method} ${route.path}`;
    const schema = answerSchema(document, route.method, route.path);
    const name = componentName(schema);
    add(name ?? label, name === undefined ? schema : (components[name] ?? {}), label);
  }
  for (let i = 0; i < within.length; i++) {
    const name = within[i] as string;
    const component = components[name];
    if (!component) throw new FieldTablesError(`no component ${name} in the OpenAPI document`);
    add(name, component);
  }
  if (undescribed.length > 0)
    throw new FieldTablesError(
      `fields without a description (add one in the schema): ${undescribed.join(", ")}`,
    );
  return [...tables.values()];
}

function tableMarkdown({ name, routes, rows }: Table): string {
  return [
    `### ${name}`,
    "",
    ...(routes.length > 0 ? [`Answer of ${routes.map((route) => `\`${route}\``).join(", ")}.`, ""] : []),
    "| Field | Type | Meaning |",
    "| - | - | - |",
    ...rows.map((row) => `| \`${row.field}\` | ${cell(row.type)} | ${cell(row.meaning)} |`),
  ].join("\n");
}

/** The Markdown of every table, as it stands between the markers. */
export function fieldTablesMarkdown(table: RouteTable = ROUTES): string {
  return fieldTables(table).map(tableMarkdown).join("\n\n");
}

/** `guide` with `tables` between its one pair of markers, the rest unchanged. */
export function withFieldTables(guide: string, tables: string): string {
  const start = guide.indexOf(FIELD_TABLES_START);
  const end = guide.indexOf(FIELD_TABLES_END);
  const once = (marker: string) => guide.indexOf(marker) === guide.lastIndexOf(marker);
  if (start < 0 || end < start || !once(FIELD_TABLES_START) || !once(FIELD_TABLES_END))
    throw new FieldTablesError(
      `the guide must hold ${FIELD_TABLES_START} once, then ${FIELD_TABLES_END} once`,
    );
  return `${guide.slice(0, start + FIELD_TABLES_START.length)}\n\n${tables}\n\n${guide.slice(end)}`;
}
