/** Shared pieces of the fleet admin routes (plants, devices, RTUs, total, import). */
import type { Request } from "express";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import type { Geocoder } from "../geo/geocoder";
import { badRequest } from "../http";

export interface FleetOptions {
  geocoder: Geocoder | null;
  /** 32-byte key for encrypting source passwords (derived from the server secret). */
  sourceKey: Buffer;
}

/** The typed delete confirmation (SPEC §5): body `confirm` or query `confirm`. */
export function requireDeleteConfirmation(req: Request): void {
  const typed =
    (req.body && typeof req.body === "object" ? (req.body as Record<string, unknown>).confirm : undefined) ?? req.query.confirm;
  if (!isDeleteConfirmed(typed)) throw badRequest("confirmation_required", { confirm: "confirmation_required" });
}

export function queryString(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (Array.isArray(v)) return typeof v[0] === "string" ? v[0] : undefined;
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

export function queryList(req: Request, name: string): string[] {
  const v = req.query[name];
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list
    .flatMap((x) => (typeof x === "string" ? x.split(",") : []))
    .map((s) => s.trim())
    .filter(Boolean);
}
