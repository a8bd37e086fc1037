import type { OpenApiOperation, OpenApiResponse } from "@/lib/api-docs/document";
import { describeType, details, refName } from "@/lib/api-docs/field-rows";
import type { JsonSchema } from "@/lib/api-docs/schemas";
import { operationAnchor } from "./anchors";
import styles from "./api-docs.module.css";
import { FieldList } from "./field-list";
import { InlineText } from "./inline-text";
import { TypeText } from "./type-text";
import { ScrollRegion } from "@/components/ui/scroll-region";

type Schemas = Record<string, JsonSchema>;

/** One operation: method and path, what it does, who may call it, its parameters, body and answers. */
export function OperationView({
  method,
  path,
  operation,
  schemas,
}: {
  method: string;
  path: string;
  operation: OpenApiOperation;
  schemas: Schemas;
}) {
  const id = operationAnchor(operation.operationId);
  const statuses = Object.entries(operation.responses);
  const successes = statuses.filter(([status]) => Number(status) < 400);
  const errors = statuses.filter(([status]) => Number(status) >= 400);
  return (
    <article id={id} className={styles.operation} aria-labelledby={`${id}-title`}>
      <h3 className={styles.operationTitle}>
        <span id={`${id}-title`}>
          <span className={`${styles.method} ${styles[method] ?? ""}`}>{method.toUpperCase()}</span> <code>{path}</code>
        </span>
        <a className={styles.anchor} href={`#${id}`} aria-label={`Link to ${operation.summary}`}>
          #
        </a>
      </h3>
      <p className={styles.summary}>{operation.summary}</p>
      <p>
        <InlineText text={operation.description} />
      </p>
      <p className={styles.auth}>
        {operation.security.length === 0
          ? "No key needed."
          : operation.security.some((scheme) => "apiKeyHeader" in scheme)
            ? "Needs an API key: Authorization: Bearer …, x-api-key: …, or HTTP Basic with the key as the password."
            : "Needs an API key (Authorization: Bearer …) or the browser's session."}
      </p>

      {operation.parameters && (
        <>
          <h4>Parameters</h4>
          <ScrollRegion label={`Parameters of ${operation.operationId}`}>
            <table className={`data-table ${styles.fields}`}>
              <caption className="sr-only">Parameters of {operation.operationId}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">In</th>
                  <th scope="col">Type</th>
                  <th scope="col">Required</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {operation.parameters.map((p) => (
                  <tr key={`${p.in}:${p.name}`}>
                    <th scope="row">
                      <code>{p.name}</code>
                    </th>
                    <td>{p.in}</td>
                    <td>
                      <TypeText {...describeType(p.schema)} />
                    </td>
                    <td>{p.required ? "yes" : "no"}</td>
                    <td>
                      <InlineText text={[p.description ?? "", ...details(p.schema)].filter(Boolean).join(" — ")} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}

      {operation.requestBody && (
        <>
          <h4>Request body</h4>
          <p>
            <InlineText text={operation.requestBody.description} />
          </p>
          {Object.entries(operation.requestBody.content).map(([mediaType, { schema }]) => (
            <BodyView
              key={mediaType}
              mediaType={mediaType}
              schema={schema}
              schemas={schemas}
              what={`Request body of ${operation.operationId}`}
            />
          ))}
        </>
      )}

      <h4>Responses</h4>
      {successes.map(([status, response]) => (
        <ResponseView key={status} status={status} response={response} schemas={schemas} operationId={operation.operationId} />
      ))}
      {errors.length > 0 && (
        <ScrollRegion label={`Error answers of ${operation.operationId}`}>
          <table className={`data-table ${styles.fields}`}>
            <caption className="sr-only">Error answers of {operation.operationId}</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">When</th>
                <th scope="col">Body</th>
              </tr>
            </thead>
            <tbody>
              {errors.map(([status, response]) => (
                <tr key={status}>
                  <th scope="row">{status}</th>
                  <td>
                    <InlineText text={response.description} />
                  </td>
                  <td>
                    {Object.values(response.content ?? {}).map(({ schema }, i) => (
                      <TypeText key={i} {...describeType(schema)} />
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </article>
  );
}

function ResponseView({
  status,
  response,
  schemas,
  operationId,
}: {
  status: string;
  response: OpenApiResponse;
  schemas: Schemas;
  operationId: string;
}) {
  return (
    <section className={styles.response} aria-label={`${status} response`}>
      <p>
        <strong className={styles.status}>{status}</strong> <InlineText text={response.description} />
      </p>
      {Object.entries(response.headers ?? {}).map(([name, header]) => (
        <p key={name} className={styles.header}>
          Header <code>{name}</code>: {header.description}
        </p>
      ))}
      {Object.entries(response.content ?? {}).map(([mediaType, { schema }]) => (
        <BodyView key={mediaType} mediaType={mediaType} schema={schema} schemas={schemas} what={`${status} answer of ${operationId}`} />
      ))}
    </section>
  );
}

/** A body: its media type and type, and the fields of the named schema it is (or is an array of). */
function BodyView({ mediaType, schema, schemas, what }: { mediaType: string; schema: JsonSchema; schemas: Schemas; what: string }) {
  const ref = (schema.$ref ?? (schema.items as JsonSchema | undefined)?.$ref) as string | undefined;
  const named = ref ? schemas[refName(ref)] : undefined;
  return (
    <div className={styles.body}>
      <p>
        <code>{mediaType}</code>: <TypeText {...describeType(schema)} />
      </p>
      {named && <FieldList schema={named} caption={`Fields of ${what}`} />}
    </div>
  );
}
