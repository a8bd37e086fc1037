import { describeType, details, fieldRows } from "@/lib/api-docs/field-rows";
import type { JsonSchema } from "@/lib/api-docs/schemas";
import styles from "./api-docs.module.css";
import { InlineText } from "./inline-text";
import { TypeText } from "./type-text";
import { ScrollRegion } from "@/components/ui/scroll-region";

/** A schema's fields as a table (name, type, required, details), nested fields indented; a scalar as its type. */
export function FieldList({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const rows = fieldRows(schema);
  const own = describeType(schema);
  if (rows.length === 0) {
    return (
      <p className={styles.scalar}>
        <TypeText {...own} />
        {details(schema).length > 0 && <> — {details(schema).join("; ")}</>}
      </p>
    );
  }
  return (
    <ScrollRegion label={caption}>
      <table className={`data-table ${styles.fields}`}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              <th scope="row" style={{ paddingLeft: `${10 + row.depth * 18}px` }}>
                <code>{row.name}</code>
              </th>
              <td>
                <TypeText type={row.type} refs={row.refs} />
              </td>
              <td>{row.required ? "yes" : "no"}</td>
              <td>
                <InlineText text={row.details.join("; ")} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
