/** English texts of the measurement and diagnosis screens; key-for-key twin of analysis-ko.ts. */
import type { analysisKo } from "./analysis-ko";
import type { Widen } from "./ko";

export const analysisEn: Widen<typeof analysisKo> = {
  measurement: {
    title: "Measurement",
    tabs: { label: "Device kind", k1: "Inverter", k2: "Connection board", k4: "Environment sensor" },
    all: "All (integrated)",
    plant: "Plant",
    choosePlant: "Choose a plant",
    show: "Show",
    noPlants: "No plant to show.",
    noDevices: "This plant has no device of this kind.",
    lastReading: "Last reading {time}",
    never: "No reading",
    chart24h: "Last 24 hours (10-minute steps)",
    inverter: {
      acPower: "AC power", acVoltage: "AC voltage", acCurrent: "AC current", frequency: "Frequency", powerFactor: "Power factor",
      dcPower: "DC power", dcVoltage: "DC voltage", dcCurrent: "DC current", efficiency: "Efficiency",
      today: "Today's energy", total: "Total energy", state: "State", running: "Running", stopped: "Stopped",
      fault: "Fault", noFault: "No fault", detailsHidden: "This RTU does not send inverter details (RTU setting invDetail).",
    },
    board: {
      voltage: "Bus voltage", total: "Total current", median: "String median", string: "String {n}", current: "Current",
      ratio: "Of median", low: "Low", ok: "OK", lowCount: "{n} low string(s)", allOk: "Every string is near the median.",
      caption: "{name}: current per string (low below 75 % of the median)",
    },
    env: { poa: "Plane-of-array irradiance", horizontal: "Horizontal irradiance", module: "Module temperature", ambient: "Ambient temperature" },
    grid: {
      title: "Switchgear · leakage current", state: "Breaker", closed: "Closed", open: "Open", leakage: "Leakage current", power: "Power",
      voltage: "Voltage", current: "Current", alarms: "{n} open alarm(s)", release: "Release alarms", released: "Released {n} alarm(s).",
    },
    series: { power: "Output", poa: "POA irradiance", horizontal: "Horizontal irradiance", module: "Module temperature", ambient: "Ambient temperature", current: "Current", reference: "Reference generation" },
    noIrradiance: "No irradiance data: the irradiance series is not drawn.",
  },
  diagnose: {
    title: "Diagnosis",
    tabs: { label: "Diagnosis", producer: "Producer", performance: "Generation performance", comparison: "Comparison", ranking: "Plant ranking" },
    noService: "Diagnosis is not enabled for this account.",
    period: { legend: "Period", start: "Start", end: "End", unit: "Unit", u10: "10 min", u60: "1 hour", u1440: "1 day", submit: "Diagnose" },
    periodTypes: { day: "Today", week: "Last 7 days", month: "This month", year: "This year" },
    plant: "Plant",
    failed: "The diagnosis could not be loaded. Check the period and devices and try again.",
    badInput: {
      start_after_end: "The start is after the end.", window_too_long: "The period is too long for this unit. Pick a larger unit.",
      bad_start: "The start time cannot be read.", bad_end: "The end time cannot be read.", bad_unit: "The unit is 10 minutes, 1 hour or 1 day.",
      no_selection: "Choose devices to compare first.", only_inverters: "Only inverters can be diagnosed.",
    },
    producer: {
      caption: "Energy per inverter (against the plant median, lowest first)", name: "Inverter", energy: "Energy", yield: "Specific yield (kWh/kWp)",
      median: "Median", deviation: "Against median", below: "{pct} below", above: "{pct} above", flag: "Check",
    },
    performance: {
      figures: "IEC 61724-1 performance figures", yr: "Reference yield Y_r", yf: "Final yield Y_f", pr: "Performance ratio PR", prStc: "Temperature-corrected PR_STC",
      epi: "Energy performance index EPI", availability: "Availability", energy: "Energy", expected: "Reference energy", hours: "{v} h",
      losses: "Where the energy went", downtime: "Downtime", clipping: "Clipping at the inverter limit", below: "Below reference", surplus: "Above reference",
      legend: { generation: "Generation (blue)", reference: "Reference (green, dashed)", irradiance: "Irradiance (red)" },
      coefficients: "Temperature coefficient γ {gamma} /°C, system factor η {eta}", dropped: "{n} step(s) with missing data left out of both sums.",
      chart: "{plant}: generation, reference generation and irradiance",
    },
    comparison: {
      kind: "Device kind", type: "Data type", devices: "Devices (two or more)", remembered: "Your first comparison selection was used again.",
      forget: "Forget the remembered selection", forgotten: "The remembered selection was forgotten.",
      types: { power: "Power (kW)", energy: "Energy (kWh)", dcVoltage: "DC voltage (V)", dcCurrent: "DC current (A)", current: "Current (A)", voltage: "Voltage (V)", poa: "POA irradiance (W/m²)", horizontal: "Horizontal irradiance (W/m²)", moduleTemp: "Module temperature (°C)", ambientTemp: "Ambient temperature (°C)" },
      chart: "Comparison: {type}",
      pick: "Choose two or more devices.",
    },
    ranking: { caption: "Plants by energy performance index (lowest first)", plant: "Plant", capacity: "Capacity", epi: "EPI", pr: "PR", availability: "Availability", energy: "Energy", none: "No data" },
  },
};
