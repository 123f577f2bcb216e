/**
 * The one definition of the DynamoDB tables: the local engine, the tests and the CDK stack all
 * create tables from it. Attribute names are one or two letters on purpose: a Query is billed on
 * the bytes it reads, and attribute names count. docs/data-model.md explains each key and index.
 */

export type TableId = "directory" | "keys";

export interface KeyAttribute {
  readonly name: string;
  readonly type: "S";
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

/** Attribute names of the directory table (see docs/data-model.md). */
export const DIRECTORY_ATTR = {
  /** Partition key: person id, or `~` + employee id for an employee record with no person. */
  partition: "p",
  /** Sort key: `#` for the person item; `companyId#createdAtKey#employeeId` for an employment. */
  sort: "s",
  /** Company id of an employment (byCompany partition key). */
  company: "c",
  /** Normalized 10-digit phone of an employment, when the stored phone normalizes (byPhone key). */
  phone: "ph",
  /** NFKC lower-cased first and last name, for partial name matching on the narrow indexes. */
  firstName: "f",
  lastName: "l",
  /** Sort key form of the linked person's createdAt, for ordering and filtering people. */
  personCreated: "pc",
  /** The whole source record (JSON), read only for the records of the page returned. */
  data: "d",
} as const;

const NARROW_ATTRIBUTES = [
  DIRECTORY_ATTR.firstName,
  DIRECTORY_ATTR.lastName,
  DIRECTORY_ATTR.phone,
  DIRECTORY_ATTR.personCreated,
] as const;

export const DIRECTORY_TABLE: TableDefinition = {
  id: "directory",
  envVar: "DIRECTORY_TABLE",
  partitionKey: S(DIRECTORY_ATTR.partition),
  sortKey: S(DIRECTORY_ATTR.sort),
  indexes: [
    {
      name: "byCompany",
      partitionKey: S(DIRECTORY_ATTR.company),
      sortKey: S(DIRECTORY_ATTR.sort),
      projection: { type: "INCLUDE", attributes: NARROW_ATTRIBUTES },
    },
    {
      name: "byPhone",
      partitionKey: S(DIRECTORY_ATTR.phone),
      sortKey: S(DIRECTORY_ATTR.sort),
      // The index's own key (`ph`) is projected anyway; DynamoDB refuses it among NonKeyAttributes.
      projection: {
        type: "INCLUDE",
        attributes: [
          DIRECTORY_ATTR.company,
          ...NARROW_ATTRIBUTES.filter((name) => name !== DIRECTORY_ATTR.phone),
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
