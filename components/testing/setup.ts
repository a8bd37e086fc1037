// Setup for the component tests (vitest project "components", happy-dom): Testing Library's DOM
// matchers, and unmounting what a test rendered (automatic only with vitest globals, which are off),
// and an empty localStorage for each test.
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
  // The editors keep drafts in localStorage: no test sees another's.
  window.localStorage.clear();
});

// happy-dom has no layout, so every recharts ResponsiveContainer measures 0×0 and warns about it;
// the tests check what surrounds a chart, never its drawing. Other warnings pass through.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].startsWith("The width(0) and height(0) of chart should be greater than 0")) return;
  warn(...args);
};
