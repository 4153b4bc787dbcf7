// tui-test configuration for the todoapp specs (see docs/performance.md, "Against tui-test").
// TUI_TEST_WORKERS=N overrides tui-test's default of half the logical CPUs.
import process from "node:process";
import { defineConfig } from "@microsoft/tui-test";

export default defineConfig({
  testMatch: "specs/*.spec.ts",
  retries: 0,
  trace: false,
  ...(process.env.TUI_TEST_WORKERS ? { workers: Number(process.env.TUI_TEST_WORKERS) } : {}),
});
