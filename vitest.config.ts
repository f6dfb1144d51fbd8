import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["domain/**/*.test.ts", "api/**/*.test.ts", "app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.ts"],
          environment: "node",
          // A hang detector, not a speed check: the degradation bootstrap (10,000 resamples) took over the default
          // 5 s on a machine loaded 20-fold.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          // A hang detector, not a speed check: a test of many sign-ins (argon2) takes 30 s on a machine loaded 20-fold.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // Every /api answer is held to the OpenAPI description (issue 27): a mismatch fails the test that received it.
          setupFiles: ["tests/helpers/contract-setup.ts"],
        },
      },
    ],
  },
});
