/**
 * The one definition of the DynamoDB tables: the local engine, the tests and the CDK stack all
 * create tables from it. Attribute names are one or two letters on purpose: a Query is billed on
 * the bytes it reads, and attribute names count. docs/data-model.md explains each key and index.
 */

export type TableId = "directory" | "keys";

export interface KeyAttribute {
  readonly name: string;
  /** String or Binary: binary ids and instants are less than half the bytes of their text. */
  readonly type: "S" | "B";
}

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Non-key attributes copied into the index; base-table keys are always projected. */
  readonly projection:
    | { readonly type: "KEYS_ONLY" }
    | { readonly type: "INCLUDE"; readonly attributes: readonly string[] };
}

export interface TableDefinition {
  readonly id: TableId;
  /** Environment variable through which a function learns the table's physical name. */
  readonly envVar: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly indexes: readonly IndexDefinition[];
}

const S = (name: string): KeyAttribute => ({ name, type: "S" });
const B = (name: string): KeyAttribute => ({ name, type: "B" });

/** Attribute names of the directory table (see docs/data-model.md and lib/store/dynamo/model/layout.ts). */
export const DIRECTORY_ATTR = {
  /** Partition key: a company id (UTF-8), or a prefix byte + a person or record id (16 bytes). */
  partition: "p",
  /** Sort key: family byte + instant (9 bytes) + uuid (16) + generation (4) in a company. */
  sort: "s",
  /** Format version byte, then the value: name pairs, a compressed record or bundle part, a location. */
  data: "d",
  /** The generation of the load that superseded this version (absent while it is current). */
  supersededAt: "x",
  /** NFKC lower-cased first and last name, on record items (byPhone projects them). */
  firstName: "f",
  lastName: "l",
  /** Normalized phone as 5 bytes, on record items whose phone normalizes (byPhone key). */
  phone: "t",
  /** The linked person's createdAt (9 bytes) and id (16), on record items. */
  person: "q",
  /** Number of parts of a value stored in parts (a bundle version, a census, an order index), on each. */
  parts: "n",
  /** On a bundle's parts: 1 when the version holds the person (0: only records linking to a missing one). */
  hasPerson: "k",
  /** On record items and bundle parts: the generation of the record's or the person's entries. */
  entriesGen: "e",
  /** On a location item: the generation its current value was written in; `pd`, `pg`: the value before. */
  gen: "g",
  previousData: "pd",
  previousGen: "pg",
} as const;

export const DIRECTORY_TABLE: TableDefinition = {
  id: "directory",
  envVar: "DIRECTORY_TABLE",
  partitionKey: B(DIRECTORY_ATTR.partition),
  sortKey: B(DIRECTORY_ATTR.sort),
  indexes: [
    {
      // Sparse: only record items whose phone normalizes. Sorted by company, so one company's
      // entries are one key condition; base keys (p, s) come with every entry.
      name: "byPhone",
      partitionKey: B(DIRECTORY_ATTR.phone),
      sortKey: B(DIRECTORY_ATTR.partition),
      projection: {
        type: "INCLUDE",
        attributes: [
          DIRECTORY_ATTR.person,
          DIRECTORY_ATTR.firstName,
          DIRECTORY_ATTR.lastName,
          DIRECTORY_ATTR.supersededAt,
        ],
      },
    },
  ],
};

/** Attribute names of the keys table. */
export const KEYS_ATTR = {
  /** Partition key: SHA-256 (hex) of the whole API key. The key itself is never stored. */
  hash: "h",
  /** Key id, safe to log (byKeyId partition key). */
  keyId: "id",
} as const;

export const KEYS_TABLE: TableDefinition = {
  id: "keys",
  envVar: "KEYS_TABLE",
  partitionKey: S(KEYS_ATTR.hash),
  indexes: [{ name: "byKeyId", partitionKey: S(KEYS_ATTR.keyId), projection: { type: "KEYS_ONLY" } }],
};

export const TABLES: Readonly<Record<TableId, TableDefinition>> = {
  directory: DIRECTORY_TABLE,
  keys: KEYS_TABLE,
};
