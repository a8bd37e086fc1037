// `npm run sdk:python-schema`: writes the Python SDK's event schema from the API reference's Event
// schema (the contracts the server validates with), so the package ships what the server publishes.
// See scripts/lib/python-schema.ts.
import { writeFileSync } from "node:fs";
import { PYTHON_SCHEMA_PATH, pythonEventSchemaText } from "./lib/python-schema";

pythonEventSchemaText().then(
  (text) => {
    writeFileSync(PYTHON_SCHEMA_PATH, text);
    console.log(`wrote ${PYTHON_SCHEMA_PATH}`);
  },
  (error: unknown) => {
    console.error(`python-schema: ${(error as Error).message}`);
    process.exit(1);
  },
);
