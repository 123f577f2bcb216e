/** The options a child Node needs to run this project's TypeScript (typescript-hooks.ts). */
export const TYPESCRIPT_NODE_OPTIONS: readonly string[] = [
  "--import",
  new URL("./typescript-hooks.ts", import.meta.url).pathname,
];
