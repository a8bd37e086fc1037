/**
 * dependency-cruiser's configuration for `npm run lint`: no import loop between folders
 * (docs/architecture.md, "no folder import loops"). A folder is every file directly in it; a
 * loop is folder A importing from folder B while B, directly or through other folders, imports
 * from A. Loops inside one folder (file to file) are not what this checks.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-loop",
      severity: "error",
      comment:
        "Folders import each other in a loop: move the shared code to a folder both may import (docs/architecture.md, habit on folder loops).",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["\\.test\\.tsx?$", "^node_modules", "^\\.next", "^lib/server/db/generated", "^packages/sdk/dist"] },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
  },
};
