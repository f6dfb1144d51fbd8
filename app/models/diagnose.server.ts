/** Diagnosis calls (SPEC §7 Diagnosis): produce, generate, compare, the fleet ranking. */
import type {
  CompareResponse,
  DiagnoseRequest,
  GenerateResponse,
  ProduceResponse,
  RankingResponse,
} from "../../domain/contract/diagnose";
import { api } from "./api.server";

export const produce = (token: string, body: DiagnoseRequest) =>
  api<ProduceResponse>("/diagnose/produce", { token, method: "POST", body });
export const generate = (token: string, body: DiagnoseRequest) =>
  api<GenerateResponse>("/diagnose/generate", { token, method: "POST", body });
export const compare = (
  token: string,
  query: { start: string; end: string; unit: number; compareUid?: string[]; compareKind?: number; compareType?: string },
) => api<CompareResponse>("/diagnose/compare", { token, query });
export const forgetCompareSelection = (token: string) => api<void>("/diagnose/compare/selection", { token, method: "DELETE" });
export const ranking = (token: string, start: string, end: string) =>
  api<RankingResponse>("/diagnose/ranking", { token, query: { start, end } });
