/**
 * The demo's history replay as the API's health answer tells it (GET /api/health, `replay`): its percent while it
 * runs, null once it has ended. It runs only after the server starts, so once the API has said it is over this
 * process stops asking.
 */
import type { HealthAnswer } from "../../domain/contract/health";
import { api } from "./api.server";

let over = false;

export async function historyReplay(): Promise<HealthAnswer["replay"]> {
  if (over) return null;
  const health = await api<Partial<HealthAnswer>>("/health").catch(() => null);
  // An API without the field (another implementation of the contract) has no replay to show.
  if (!health || health.replay === undefined) return null;
  if (health.replay === null) over = true;
  return health.replay;
}
