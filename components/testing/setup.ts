// Setup for the component tests (vitest project "components", happy-dom): Testing Library's DOM
// matchers, and unmounting what a test rendered (automatic only with vitest globals, which are off).
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());
