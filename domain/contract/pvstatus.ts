/**
 * Payloads of the plant status calls (SPEC §3 "Plant card data", "Plant-status record", "Status counts",
 * "Pvstatus overview response"; SPEC §7 "Plant status"). Shared by api/routes/pvstatus.ts and the portal.
 * Units: see units.ts (capa raw ×0.01 kW, power W, energy Wh, per-step generation kW).
 */
import { z } from "zod";
import {
  IrradianceMode,
  PlantStatusCode,
  PlantStatusName,
  Quantity,
  SortOrder,
  SortType,
  StatusCategory,
  StatusCounts,
  ViewMode,
} from "./shared";

export type { StatusCounts };

/** Where a card's irradiance series came from (SPEC §4 irradiance mode). */
export const EnvInfo = z.object({
  mode: IrradianceMode,
  /** 'iis' (plane of array) when it has data, else 'his' (horizontal); null without irradiance. */
  source: z.union([z.literal("his"), z.literal("iis")]).nullable(),
  unit: z.literal("W/m\u00B2"),
});
export type EnvInfo = z.infer<typeof EnvInfo>;

/** SPEC §3 genData. Series are comma-separated strings, one value per label; "" when not requested. */
export const GenData = z.object({
  /** Capacity in kW (raw × 0.01). */
  total_capa: z.number(),
  capaUnit: z.literal("kW"),
  /** 'HH:mm' (Asia/Seoul) per step. */
  labels: z.string(),
  /** Generation per step, kW, sanitised to 0..capacity (SPEC §5). */
  invDatas: z.string(),
  /** Irradiance per step, W/m², capped at 1300. */
  envDatas: z.string(),
  /** Reference generation per step, kW (SPEC §9). Present, never shown by default. */
  stsDatas: z.string(),
  envInfo: EnvInfo,
  /** Current output. */
  iw: Quantity,
  day_accrue: Quantity,
  month_accrue: Quantity,
  year_accrue: Quantity,
});
export type GenData = z.infer<typeof GenData>;

export const StatusData = z.object({
  status: PlantStatusCode,
  statusName: PlantStatusName,
});
export type StatusData = z.infer<typeof StatusData>;

/** An open alarm of the plant, for the card's fault tooltip. */
export const CardFault = z.object({
  code: z.number(),
  message: z.string(),
});
export type CardFault = z.infer<typeof CardFault>;

/** SPEC §3 Plant card data, plus what the map and the fault tooltip need. */
export const PlantCardData = z.object({
  name: z.string(),
  plant_uid: z.string(),
  genData: GenData,
  statusData: StatusData,
  /** Today's generation hours (Wh / (10 × raw capa)). */
  totalGenTime: z.number(),
  /** Today's generation, Wh, after the alarm rule of SPEC §5 (the status row's, as on every screen). */
  dailys: z.number(),
  /** True when SPEC §5's alarm rule zeroed today's generation. */
  dailysZeroed: z.boolean(),
  /** Raw capacity (×0.01 = kW). */
  capa: z.number(),
  /** Current output, W (unformatted, for sorting and the map). */
  iwW: z.number(),
  locality: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** Open alarms, newest first, at most 5. */
  faults: z.array(CardFault),
  /**
   * Devices whose newest command no reading shows yet (domain/command-state.ts): the card's output and status are of
   * readings made before the command until one arrives.
   */
  awaitingDevices: z.number(),
});
export type PlantCardData = z.infer<typeof PlantCardData>;

export const SeriesResolution = z.union([z.literal("tenMinute"), z.literal("hourly")]);
export type SeriesResolution = z.infer<typeof SeriesResolution>;
export const PVSTATUS_SEARCH_TYPES = ["name", "locality", "uid"] as const;
export type PvstatusSearchType = (typeof PVSTATUS_SEARCH_TYPES)[number];
export const PVSTATUS_GROUP_TYPES = ["node", "plant", "all"] as const;
export type PvstatusGroupType = (typeof PVSTATUS_GROUP_TYPES)[number];
/** 'all': counts over the whole selection; 'search': counts over what the search matched. */
export const PVSTATUS_COUNT_TYPES = ["all", "search"] as const;
export type PvstatusCountType = (typeof PVSTATUS_COUNT_TYPES)[number];

/** POST /api/pvstatus/group body (SPEC §7 fields plus filter, sort and search). */
export const PvstatusGroupRequest = z.object({
  type: z.enum(PVSTATUS_GROUP_TYPES).optional(),
  selnode: z.number().optional().nullable(),
  uid: z.string().optional().nullable(),
  viewMode: ViewMode.optional(),
  countType: z.enum(PVSTATUS_COUNT_TYPES).optional(),
  /** Status categories switched on; omitted = all on. */
  st: z.array(StatusCategory).optional(),
  limit: z.number().optional(),
  searchType: z.enum(PVSTATUS_SEARCH_TYPES).optional(),
  searchText: z.string().optional(),
  sortType: SortType.optional(),
  order: SortOrder.optional(),
  /** Include today's series; default: only for the graph view. */
  series: z.boolean().optional(),
  resolution: SeriesResolution.optional(),
});
export type PvstatusGroupRequest = z.infer<typeof PvstatusGroupRequest>;

export const PvstatusGroupResponse = z.object({
  list: z.array(PlantCardData),
  counts: StatusCounts,
  /** Plants passing filter and search (before the limit). */
  total: z.number(),
  limit: z.number(),
  hasMore: z.boolean(),
  /** Server ("data-plane") time of the answer, epoch ms. */
  now: z.number(),
});
export type PvstatusGroupResponse = z.infer<typeof PvstatusGroupResponse>;

/** SPEC §3 Plant-status record (GET /api/plant/pvstatus). */
export const PlantStatusRecord = z.object({
  plant_uid: z.string(),
  name: z.string(),
  capa: z.number(),
  /** Today's generation, Wh. */
  dailys: z.number(),
  /** This month's generation, Wh. */
  month: z.number(),
  /** Today's generation per hour (kWh), comma-separated, one per entry of `times`. "" without series. */
  days: z.string(),
  /** Hour labels 'HH:mm' of `days`. */
  times: z.string(),
  statusData: StatusData,
  iw: z.number(),
  locality: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
});
export type PlantStatusRecord = z.infer<typeof PlantStatusRecord>;

/** One inverter in the overview (SPEC §3 Pvstatus overview response, devices). */
export const OverviewDevice = z.object({
  uid: z.string(),
  plant_uid: z.string(),
  /** Raw capacity (×0.01 = kW). */
  capa: z.number(),
  /** Current AC output, W (0 when the newest reading is stale). */
  iw: z.number(),
  /** Current DC (PV) input, W. */
  pw: z.number(),
  /** Lifetime counter, Wh. */
  accrue: z.number(),
  /** Counter at the start of today, Wh. */
  offset_day: z.number(),
  /** Counter at the start of this month / year, kWh (× 1000 → Wh, SPEC §9). */
  offset_month: z.number(),
  offset_year: z.number(),
  /** Today's generation, Wh. */
  daily: z.number(),
  /** Current fault code (0 = none). */
  fault: z.number(),
});
export type OverviewDevice = z.infer<typeof OverviewDevice>;

export const CalcValue = z.object({
  device: z.string(),
  /** Period start, epoch ms (null for the lifetime total). */
  start: z.number().nullable(),
  /** Counter at the end of the period (Wh). */
  accrue: z.number(),
  /** Counter at the start of the period (Wh); accrue − offset is the period's generation. */
  offset: z.number(),
});
export type CalcValue = z.infer<typeof CalcValue>;

export const FleetTotals = z.object({
  /** kW */
  total_capa: z.number(),
  /** W */
  total_iw: z.number(),
  total_pw: z.number(),
  /** Wh */
  yesterday_gen: z.number(),
  today_gen: z.number(),
  month_gen: z.number(),
  year_gen: z.number(),
  accrue_gen: z.number(),
});
export type FleetTotals = z.infer<typeof FleetTotals>;

/**
 * GET /pvstatus?part=summary: the overview's figures without its lists (devices, calcValues, plants, reports), for a
 * screen that shows the fleet's totals and counts only (the main dashboard) — a few hundred bytes instead of a row per
 * plant and per inverter.
 */
export const PvstatusSummaryResponse = FleetTotals.extend({
  install: z.object({
    plants: z.number(),
    inverters: z.number(),
    total_capa: z.number(),
  }),
  counts: StatusCounts,
  now: z.number(),
});
export type PvstatusSummaryResponse = z.infer<typeof PvstatusSummaryResponse>;

export const PvstatusOverviewResponse = FleetTotals.extend({
  pvstatus: z.object({
    devices: z.array(OverviewDevice),
    /** Fleet generation of the last 7 days, oldest first. */
    reports: z.array(
      z.object({
        day: z.string(),
        gen: z.number(),
      }),
    ),
    /** Market prices: no source in this product yet (always null). */
    market: z.null(),
    rec: z.null(),
    install: z.object({
      plants: z.number(),
      inverters: z.number(),
      total_capa: z.number(),
    }),
  }),
  calcValues: z.object({
    yesterday: z.array(CalcValue),
    thisMonth: z.array(CalcValue),
    thisYear: z.array(CalcValue),
    today: z.array(CalcValue),
    total: z.array(CalcValue),
  }),
  plants: z.array(PlantStatusRecord),
  counts: StatusCounts,
  now: z.number(),
});
export type PvstatusOverviewResponse = z.infer<typeof PvstatusOverviewResponse>;

/** GET /pvstatus: the whole overview, or with `part=summary` its figures only. */
export const PvstatusAnswer = z.union([PvstatusOverviewResponse, PvstatusSummaryResponse]);
export type PvstatusAnswer = z.infer<typeof PvstatusAnswer>;
/** GET /plant/pvstatus: every visible plant's status record and the status counts. */
export const PlantStatusListResponse = z.object({
  plants: z.array(PlantStatusRecord),
  counts: StatusCounts,
  now: z.number(),
});
export type PlantStatusListResponse = z.infer<typeof PlantStatusListResponse>;
