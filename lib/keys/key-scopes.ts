/** The scopes the directory keeps orders for are the company lists of the keys that may search. */
import type { ListedKey } from "./key-admin.js";

/** Company lists of the keys not revoked (a pending key is about to search). */
export const keyScopes = (keys: readonly Pick<ListedKey, "companies" | "status">[]): string[][] =>
  keys.filter((key) => key.status !== "revoked").map((key) => [...key.companies]);
