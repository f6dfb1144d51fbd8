/** Measurement calls (SPEC §7 RTUs and measurements) and the device list the pickers are built from. */
import type { MeasurementResponse, WindowResponse } from "../../domain/contract/measurement";
import { api } from "./api.server";

export interface UserDevice {
  uid: string;
  kind: number;
  name: string;
  plant_uid: string | null;
  plantName: string | null;
  rtu_uid: string | null;
  capa: number | null;
}

export const userDevices = (token: string) =>
  api<{ deviceList: UserDevice[] }>("/device/list_user", { token }).then((r) => r.deviceList);

/** The measurement screen's picker: the chosen plant and its devices; with `q`, the member's plants named so. */
export const measurementDevices = (token: string, o: { plantUid?: string; q?: string; limit?: number }) =>
  api<{
    plant: { uid: string; name: string } | null;
    plantUid: string | null;
    devices: Array<Pick<UserDevice, "uid" | "kind" | "name" | "rtu_uid" | "capa">>;
    matches: { plants: Array<{ uid: string; name: string }>; more: boolean } | null;
  }>("/measurement/devices", { token, query: { plantUid: o.plantUid || undefined, q: o.q || undefined, limit: o.limit } });

export const measurement = (token: string, q: { deviceUid?: string; plantUid?: string; kind?: number }) =>
  api<MeasurementResponse>("/measurement", { token, query: { ...q, includeInverterDetails: 1 } });

export type WindowKind = "rpi" | "rpe" | "rpg";
const PATHS: Record<WindowKind, string> = { rpi: "/rpi/measurement", rpe: "/rpe/measurement", rpg: "/rpg" };

export const measurementWindow = (token: string, kind: WindowKind, rtuUid: string, start: string, end: string) =>
  api<WindowResponse>(PATHS[kind], { token, query: { rtuUid, start, end, unit: 10 } });

export const releaseGridAlarms = (token: string, body: { mac: string; address: number; kind: number }) =>
  api<{ deviceUid: string; released: number }>("/measurement/setGridAlarmRelease", { token, method: "POST", body });
