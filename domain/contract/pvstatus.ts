/**
 * Payloads of the plant status calls (SPEC §3 "Plant card data", "Plant-status record", "Status counts",
 * "Pvstatus overview response"; SPEC §7 "Plant status"). Shared by api/routes/pvstatus.ts and the portal.
 * Units: see units.ts (capa raw ×0.01 kW, power W, energy Wh, per-step generation kW).
 */
import type { IrradianceMode } from "../irradiance";
import type { SortOrder, SortType, ViewMode } from "../ordering";
import type { PlantStatusCode, PlantStatusName, StatusCategory, StatusCounts } from "../status";
import type { Quantity } from "../units";

export type { StatusCounts };

/** Where a card's irradiance series came from (SPEC §4 irradiance mode). */
export interface EnvInfo {
  mode: IrradianceMode;
  /** 'iis' (plane of array) when it has data, else 'his' (horizontal); null without irradiance. */
  source: "his" | "iis" | null;
  unit: "W/m²";
}

/** SPEC §3 genData. Series are comma-separated strings, one value per label; "" when not requested. */
export interface GenData {
  /** Capacity in kW (raw × 0.01). */
  total_capa: number;
  capaUnit: "kW";
  /** 'HH:mm' (Asia/Seoul) per step. */
  labels: string;
  /** Generation per step, kW, sanitised to 0..capacity (SPEC §5). */
  invDatas: string;
  /** Irradiance per step, W/m², capped at 1300. */
  envDatas: string;
  /** Reference generation per step, kW (SPEC §9). Present, never shown by default. */
  stsDatas: string;
  envInfo: EnvInfo;
  /** Current output. */
  iw: Quantity;
  day_accrue: Quantity;
  month_accrue: Quantity;
  year_accrue: Quantity;
}

export interface StatusData {
  status: PlantStatusCode;
  statusName: PlantStatusName;
}

/** An open alarm of the plant, for the card's fault tooltip. */
export interface CardFault {
  code: number;
  message: string;
}

/** SPEC §3 Plant card data, plus what the map and the fault tooltip need. */
export interface PlantCardData {
  name: string;
  plant_uid: string;
  genData: GenData;
  statusData: StatusData;
  /** Today's generation hours (Wh / (10 × raw capa)). */
  totalGenTime: number;
  /** Today's generation, Wh, after the alarm rule of SPEC §5 (the status row's, as on every screen). */
  dailys: number;
  /** True when SPEC §5's alarm rule zeroed today's generation. */
  dailysZeroed: boolean;
  /** Raw capacity (×0.01 = kW). */
  capa: number;
  /** Current output, W (unformatted, for sorting and the map). */
  iwW: number;
  locality: string | null;
  lat: number | null;
  lng: number | null;
  /** Open alarms, newest first, at most 5. */
  faults: CardFault[];
  /**
   * Devices whose newest command no reading shows yet (domain/command-state.ts): the card's output and status are of
   * readings made before the command until one arrives.
   */
  awaitingDevices: number;
}

export type SeriesResolution = "tenMinute" | "hourly";
export const PVSTATUS_SEARCH_TYPES = ["name", "locality", "uid"] as const;
export type PvstatusSearchType = (typeof PVSTATUS_SEARCH_TYPES)[number];
export const PVSTATUS_GROUP_TYPES = ["node", "plant", "all"] as const;
export type PvstatusGroupType = (typeof PVSTATUS_GROUP_TYPES)[number];
/** 'all': counts over the whole selection; 'search': counts over what the search matched. */
export const PVSTATUS_COUNT_TYPES = ["all", "search"] as const;
export type PvstatusCountType = (typeof PVSTATUS_COUNT_TYPES)[number];

/** POST /api/pvstatus/group body (SPEC §7 fields plus filter, sort and search). */
export interface PvstatusGroupRequest {
  type?: PvstatusGroupType;
  selnode?: number | null;
  uid?: string | null;
  viewMode?: ViewMode;
  countType?: PvstatusCountType;
  /** Status categories switched on; omitted = all on. */
  st?: StatusCategory[];
  limit?: number;
  searchType?: PvstatusSearchType;
  searchText?: string;
  sortType?: SortType;
  order?: SortOrder;
  /** Include today's series; default: only for the graph view. */
  series?: boolean;
  resolution?: SeriesResolution;
}

export interface PvstatusGroupResponse {
  list: PlantCardData[];
  counts: StatusCounts;
  /** Plants passing filter and search (before the limit). */
  total: number;
  limit: number;
  hasMore: boolean;
  /** Server ("data-plane") time of the answer, epoch ms. */
  now: number;
}

/** SPEC §3 Plant-status record (GET /api/plant/pvstatus). */
export interface PlantStatusRecord {
  plant_uid: string;
  name: string;
  capa: number;
  /** Today's generation, Wh. */
  dailys: number;
  /** This month's generation, Wh. */
  month: number;
  /** Today's generation per hour (kWh), comma-separated, one per entry of `times`. "" without series. */
  days: string;
  /** Hour labels 'HH:mm' of `days`. */
  times: string;
  statusData: StatusData;
  iw: number;
  locality: string | null;
  lat: number | null;
  lng: number | null;
}

/** One inverter in the overview (SPEC §3 Pvstatus overview response, devices). */
export interface OverviewDevice {
  uid: string;
  plant_uid: string;
  /** Raw capacity (×0.01 = kW). */
  capa: number;
  /** Current AC output, W (0 when the newest reading is stale). */
  iw: number;
  /** Current DC (PV) input, W. */
  pw: number;
  /** Lifetime counter, Wh. */
  accrue: number;
  /** Counter at the start of today, Wh. */
  offset_day: number;
  /** Counter at the start of this month / year, kWh (× 1000 → Wh, SPEC §9). */
  offset_month: number;
  offset_year: number;
  /** Today's generation, Wh. */
  daily: number;
  /** Current fault code (0 = none). */
  fault: number;
}

export interface CalcValue {
  device: string;
  /** Period start, epoch ms (null for the lifetime total). */
  start: number | null;
  /** Counter at the end of the period (Wh). */
  accrue: number;
  /** Counter at the start of the period (Wh); accrue − offset is the period's generation. */
  offset: number;
}

export interface FleetTotals {
  /** kW */
  total_capa: number;
  /** W */
  total_iw: number;
  total_pw: number;
  /** Wh */
  yesterday_gen: number;
  today_gen: number;
  month_gen: number;
  year_gen: number;
  accrue_gen: number;
}

/**
 * GET /pvstatus?part=summary: the overview's figures without its lists (devices, calcValues, plants, reports), for a
 * screen that shows the fleet's totals and counts only (the main dashboard) — a few hundred bytes instead of a row per
 * plant and per inverter.
 */
export interface PvstatusSummaryResponse extends FleetTotals {
  install: { plants: number; inverters: number; total_capa: number };
  counts: StatusCounts;
  now: number;
}

export interface PvstatusOverviewResponse extends FleetTotals {
  pvstatus: {
    devices: OverviewDevice[];
    /** Fleet generation of the last 7 days, oldest first. */
    reports: Array<{ day: string; gen: number }>;
    /** Market prices: no source in this product yet (always null). */
    market: null;
    rec: null;
    install: { plants: number; inverters: number; total_capa: number };
  };
  calcValues: Record<"yesterday" | "thisMonth" | "thisYear" | "today" | "total", CalcValue[]>;
  plants: PlantStatusRecord[];
  counts: StatusCounts;
  now: number;
}
