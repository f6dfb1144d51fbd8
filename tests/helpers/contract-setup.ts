/** Setup of the API test project (vitest.config.ts): every /api answer a test receives is checked (tests/helpers/contract.ts). */
import { checkingFetch } from "./contract";

globalThis.fetch = checkingFetch(globalThis.fetch);
