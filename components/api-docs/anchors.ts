/** The page's anchors: one per tag, operation and named schema. */
export const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
export const operationAnchor = (operationId: string) => `op-${operationId}`;
export const schemaAnchor = (name: string) => `schema-${name}`;
