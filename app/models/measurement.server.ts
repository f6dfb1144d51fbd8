/** Measurement calls (SPEC §7 RTUs and measurements) and the device list the pickers are built from. */
import type { WindowResponse } from "../../domain/contract/measurement";
import type { DeviceRow } from "../../domain/contract/fleet";
import { api, call } from "./api.server";

/** A device as the pickers read it (GET /device/list_user). */
export type UserDevice = DeviceRow;

export const userDevices = (token: string) => call("get /device/list_user", { token }).then((r) => r.deviceList);

/** The measurement screen's picker: the chosen plant and its devices; with `q`, the member's plants named so. */
export const measurementDevices = (token: string, o: { plantUid?: string; q?: string; limit?: number }) =>
  call("get /measurement/devices", { token, query: { plantUid: o.plantUid || undefined, q: o.q || undefined, limit: o.limit } });

export const measurement = (token: string, q: { deviceUid?: string; plantUid?: string; kind?: number }) =>
  call("get /measurement", { token, query: { ...q, includeInverterDetails: 1 } });

export type WindowKind = "rpi" | "rpe" | "rpg";
const PATHS: Record<WindowKind, string> = { rpi: "/rpi/measurement", rpe: "/rpe/measurement", rpg: "/rpg" };

export const measurementWindow = (token: string, kind: WindowKind, rtuUid: string, start: string, end: string) =>
  api<WindowResponse>(PATHS[kind], { token, query: { rtuUid, start, end, unit: 10 } });

export const releaseGridAlarms = (token: string, body: { mac: string; address: number; kind: number }) =>
  call("post /measurement/setGridAlarmRelease", { token, body });
