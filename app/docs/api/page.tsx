import type { Metadata } from "next";
import { ApiReference } from "@/components/api-docs/api-reference";
import { openApiDocument } from "@/lib/api-docs/document";

export const metadata: Metadata = { title: "API reference" };

/**
 * The API reference, rendered on the server from the OpenAPI document `GET /api/v1/openapi.json`
 * serves. Public like the home page: it documents the API and shows no data.
 */
export default function ApiReferencePage() {
  return <ApiReference document={openApiDocument()} jsonHref="/api/v1/openapi.json" />;
}
