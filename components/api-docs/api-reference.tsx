import type { OpenApiDocument, OpenApiOperation } from "@/lib/api-docs/document";
import { Panel } from "@/components/ui/panel";
import { operationAnchor, schemaAnchor, tagAnchor } from "./anchors";
import styles from "./api-docs.module.css";
import { FieldList } from "./field-list";
import { InlineText } from "./inline-text";
import { OperationView } from "./operation-view";

type Entry = { method: string; path: string; operation: OpenApiOperation };

/** The whole reference, from the OpenAPI document: contents, the operations by tag, and the named schemas. */
export function ApiReference({ document, jsonHref }: { document: OpenApiDocument; jsonHref: string }) {
  const entries: Entry[] = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );
  const byTag = document.tags.map((tag) => ({ tag, entries: entries.filter((e) => e.operation.tags[0] === tag.name) }));
  const schemas = document.components.schemas;
  return (
    <div className={styles.reference}>
      <p className="eyebrow">Cuescope API {document.info.version} · OpenAPI 3.1</p>
      <h1>API reference</h1>
      <p className="lead">
        <InlineText text={document.info.description} />
      </p>
      <p>
        Every path is relative to this server. The machine-readable document is{" "}
        <a href={jsonHref}>
          <code>{jsonHref}</code>
        </a>{" "}
        (OpenAPI 3.1, no key needed).
      </p>

      <nav aria-label="API contents" className={styles.contents}>
        <h2>Contents</h2>
        <ul>
          {byTag.map(({ tag, entries: ops }) => (
            <li key={tag.name}>
              <a href={`#${tagAnchor(tag.name)}`}>{tag.name}</a>
              <ul>
                {ops.map(({ method, path, operation }) => (
                  <li key={operation.operationId}>
                    <a href={`#${operationAnchor(operation.operationId)}`}>
                      <span className={`${styles.method} ${styles[method] ?? ""}`}>{method.toUpperCase()}</span> {path}
                    </a>{" "}
                    <span className={styles.muted}>{operation.summary}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </ul>
      </nav>

      {byTag.map(({ tag, entries: ops }) => (
        <Panel key={tag.name} id={tagAnchor(tag.name)} title={tag.name} meta={tag.description}>
          {ops.map((entry) => (
            <OperationView key={entry.operation.operationId} {...entry} schemas={schemas} />
          ))}
        </Panel>
      ))}

      <Panel id="schemas" title="Schemas" meta="the shapes the operations send and answer with">
        {Object.entries(schemas).map(([name, schema]) => (
          <section key={name} id={schemaAnchor(name)} className={styles.schema} aria-labelledby={`${schemaAnchor(name)}-title`}>
            <h3>
              <code id={`${schemaAnchor(name)}-title`}>{name}</code>
              <a className={styles.anchor} href={`#${schemaAnchor(name)}`} aria-label={`Link to schema ${name}`}>
                #
              </a>
            </h3>
            <FieldList schema={schema} caption={`Fields of ${name}`} />
          </section>
        ))}
      </Panel>
    </div>
  );
}
