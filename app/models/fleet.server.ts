/** Typed calls of the fleet admin screens to /api (plants, devices, RTUs, total, settings, import). */
import type {
  CrawlSource,
  DeviceRow,
  ImportReport,
  NodeOption,
  PackageOption,
  PlantRow,
  RtuRow,
} from "../../domain/contract/fleet";
import type { AssignableRtuQuery, DeviceBody, PlantBody, RtuBody } from "../../domain/fleet";
import type { AlarmSettings, FaultCode, PollingSettings } from "../../domain/settings";
import { api, call } from "./api.server";

type Query = Record<string, string | number | undefined | null>;

// Plants
export const managementPlants = (token: string, query: Query) =>
  api<{ packageList: PackageOption[]; plantList: PlantRow[]; nodeList: NodeOption[]; geocoding: boolean }>("/management/plant", {
    token,
    query,
  });
export const plantSetting = (token: string, plantUid: string) =>
  api<{
    plant: PlantRow;
    rtuList: Array<Omit<RtuRow, "comm" | "configFlags">>;
    deviceList: DeviceRow[];
    packageList: PackageOption[];
    nodeList: NodeOption[];
    geocoding: boolean;
  }>("/management/plant/setting", { token, query: { plantUid } });
/** A page of the RTUs that could be assigned to plant `exclude` (search, where they are now, group). */
export const assignableRtus = (token: string, exclude: string, query: Partial<AssignableRtuQuery> = {}) =>
  api<{
    rtuList: Array<{
      uid: string;
      alias: string | null;
      name: string;
      mac: string | null;
      plant_uid: string | null;
      plantName: string | null;
    }>;
    total: number;
    page: number;
    size: number;
  }>("/management/plant/rtu", { token, query: { ...query, exclude } });
export const plantList = (token: string) => call("get /plant", { token });
export const createPlant = (token: string, body: PlantBody) => call("post /plant", { token, body });
export const updatePlant = (token: string, uid: string, body: PlantBody) =>
  call("put /plant/{id}", { token, params: { id: uid }, body });
export const deletePlant = (token: string, uid: string, confirm: string) =>
  call("delete /plant/{id}", { token, params: { id: uid }, body: { confirm } });
export const copyPlant = (
  token: string,
  body: { url: string; plantUid?: string; id: string; password: string; nodeSeq?: number },
) => call("post /plant/copyplant", { token, body });

export const adminOptions = (token: string) => call("get /management/options", { token });

// RTUs
export const rtuList = (token: string, query: Query = {}) => call("get /rtu/user", { token, query });
export const rtuDetail = (token: string, uid: string) =>
  api<{ rtu: RtuRow; deviceList: DeviceRow[] }>(`/rtu/${encodeURIComponent(uid)}`, { token });
export const createRtu = (token: string, body: RtuBody) => call("post /rtu", { token, body });
export const updateRtu = (token: string, uid: string, body: RtuBody) => call("put /rtu/{uid}", { token, params: { uid }, body });
export const rotateRtuSecret = (token: string, uid: string) => call("post /rtu/{uid}/credential", { token, params: { uid } });
export const deleteRtu = (token: string, uid: string, confirm: string) =>
  call("delete /rtu/{uid}", { token, params: { uid }, body: { confirm } });
export const assignRtusToPlant = (token: string, plantUid: string, rtus: string[]) =>
  call("post /por", { token, body: { plantUid, rtus } });
export const unassignRtus = (token: string, exclude: string[]) => call("delete /por", { token, body: { exclude } });

// Devices
export const adminDevices = (token: string, query: Query) => call("get /device/list_user/admin", { token, query });
export const deviceDetail = (token: string, uid: string) => call("get /device/{uid}", { token, params: { uid } });
export const createDevice = (token: string, body: DeviceBody) => call("post /device", { token, body });
export const updateDevice = (token: string, uid: string, body: DeviceBody) =>
  call("put /device/{uid}", { token, params: { uid }, body });
export const deleteDevice = (token: string, uid: string, confirm: string) =>
  api<{ deleted: string }>(`/device/${encodeURIComponent(uid)}`, { token, method: "DELETE", body: { confirm } });

// Total
export const total = (token: string) => call("get /total", { token });
export const loadData = (token: string, body: { url: string; uid: string; id: string; password: string; days?: number }) =>
  api<{ days: number; inserted: Record<string, number>; skippedRows: number; unknownDevices: string[] }>("/total/loadData", {
    token,
    method: "POST",
    body,
  });

// Settings and fault codes
export const settings = (token: string) =>
  api<{ alarm: AlarmSettings; polling: PollingSettings; meta: Record<string, { updatedAt: number; updatedBy: string | null }> }>(
    "/settings",
    { token },
  );
export const putSettings = (token: string, type: string, body: Record<string, unknown>) =>
  api<Record<string, unknown>>(`/settings/${encodeURIComponent(type)}`, { token, method: "PUT", body });
export const faultCodes = (token: string) => api<{ codeList: FaultCode[] }>("/code", { token });
export const createFaultCode = (token: string, body: FaultCode) => api("/code", { token, method: "POST", body });
export const updateFaultCode = (token: string, code: number, body: Omit<FaultCode, "code">) =>
  api(`/code/${code}`, { token, method: "PUT", body });
export const deleteFaultCode = (token: string, code: number, confirm: string) =>
  api(`/code/${code}`, { token, method: "DELETE", body: { confirm } });

// Import
export const crawlSources = (token: string) => call("get /crawling/list", { token });
export const crawlOffer = (token: string, id: number) =>
  api<{
    crawler: CrawlSource;
    plantList: Array<{ uid: string; name: string; capa: number; locality: string | null; exists: boolean }>;
    rtuList: Array<{
      uid: string;
      name: string;
      alias: string | null;
      mac: string | null;
      plant_uid: string | null;
      exists: boolean;
    }>;
    deviceList: Array<{
      id: string;
      name: string;
      kind: number;
      model: string;
      stationId: string | null;
      rtuUid: string | null;
      exists: boolean;
    }>;
    rejected: number;
  }>(`/crawling/list/${id}`, { token });
export const registerSource = (token: string, body: Record<string, unknown>) => call("post /crawling/source", { token, body });
export const updateSource = (token: string, id: number, body: Record<string, unknown>) =>
  call("put /crawling/source/{id}", { token, params: { id }, body });
export const deleteSource = (token: string, id: number, confirm: string) =>
  api(`/crawling/source/${id}`, { token, method: "DELETE", body: { confirm } });
export const importFromSource = (token: string, what: "plant" | "rtu" | "device", body: Record<string, unknown>) =>
  api<ImportReport>(`/crawling/${what}`, { token, method: "PUT", body });
