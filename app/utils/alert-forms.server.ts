/**
 * Actions of the alert forms shared by several pages: the member's own alert preferences (/modify, intent
 * "alertPref": PUT /api/alarm/notify/pref) and a plant's owner and safety manager (/setting/plant/{uid}, intent
 * "contacts": PUT /api/alarm/contacts/{plant}). Both validate with the contract's schema before the round trip.
 */
import { ALERT_ROUTES_MAX, AlertPrefSchema, PlantContactsSchema } from "../../domain/contract/alarm";
import { alarmMessages } from "../i18n/alarm";
import { alarmScope, saveAlertRoutes, savePlantContacts, saveAlertPref } from "../models/alarm.server";
import { apiFailure, formFailure, formValues, parseForm } from "./form-action.server";
import { pickOf } from "./scope-search";
import { redirectWithFlash } from "./flash.server";
import { readPreferences } from "./preferences.server";

export async function alertPrefAction(request: Request, token: string, form: FormData, back: string) {
  const parsed = parseForm(AlertPrefSchema, "alertPref", form);
  if (!parsed.ok) return parsed.response;
  try {
    await saveAlertPref(token, parsed.data);
  } catch (error) {
    return apiFailure("alertPref", error, formValues(form));
  }
  return redirectWithFlash(back, alarmMessages(readPreferences(request).locale).alertPref.saved);
}

export async function plantContactsAction(request: Request, token: string, plantUid: string, form: FormData, back: string) {
  const parsed = parseForm(PlantContactsSchema, "contacts", form);
  if (!parsed.ok) return parsed.response;
  try {
    await savePlantContacts(token, plantUid, {
      owner: parsed.data.owner ?? null,
      safety: parsed.data.safety ?? null,
      operator: parsed.data.operator ?? null,
    });
  } catch (error) {
    return apiFailure("contacts", error, formValues(form));
  }
  return redirectWithFlash(back, alarmMessages(readPreferences(request).locale).contacts.saved);
}

/** Rows the /modify routes form shows: the saved routes and this many blank ones. */
export const ROUTE_FORM_BLANKS = 2;

/**
 * The member's alert routes (/modify, intent "alertRoutes": PUT /api/alarm/notify/routes). Each row names a plant or
 * group (found by name, as the alarm screen's scope) or "all my plants"; a row with neither is dropped.
 */
export async function alertRoutesAction(request: Request, token: string, form: FormData, back: string) {
  const values = formValues(form);
  const errors: Record<string, string> = {};
  const routes: Array<Record<string, unknown>> = [];
  const rows = Math.min(Number(form.get("rows") ?? 0) || 0, ALERT_ROUTES_MAX + ROUTE_FORM_BLANKS);
  const index: number[] = [];
  for (let i = 0; i < rows; i++) {
    const scope = String(form.get(`scope${i}`) ?? "")
      .trim()
      .slice(0, 100);
    const every = form.get(`every${i}`) !== null;
    if (!scope && !every) continue;
    let plant: string | null = null;
    let group: number | null = null;
    if (!every) {
      const found = await alarmScope(token, { q: scope });
      const pick = found.matches ? pickOf(scope, found.matches) : null;
      if (!pick) {
        errors[`scope${i}`] =
          found.matches && found.matches.plants.length + found.matches.groups.length > 1 ? "ambiguous_scope" : "unknown_scope";
        continue;
      }
      if ("plant" in pick) plant = pick.plant;
      else group = pick.group;
    }
    const codesText = String(form.get(`codes${i}`) ?? "").trim();
    const codes = codesText ? codesText.split(/[\s,]+/).filter(Boolean) : [];
    if (codes.some((c) => !/^\d{1,10}$/.test(c))) {
      errors[`codes${i}`] = "not_codes";
      continue;
    }
    index.push(i);
    routes.push({
      plant,
      group,
      minLevel: Number(form.get(`minLevel${i}`) ?? 1),
      codes: codes.length ? codes.map(Number) : null,
      mail: form.get(`mail${i}`) !== null,
      webhook: form.get(`webhook${i}`) !== null,
    });
  }
  if (Object.keys(errors).length) return formFailure("alertRoutes", errors, values);
  try {
    await saveAlertRoutes(token, routes);
  } catch (error) {
    // routes.<k>.<field> of the k-th route sent → that row's field (plant and group errors show at its name).
    return apiFailure("alertRoutes", error, values, (name) => {
      const m = /^routes\.(\d+)\.(\w+)$/.exec(name);
      if (!m) return name;
      const row = index[Number(m[1])] ?? 0;
      return `${m[2] === "plant" || m[2] === "group" ? "scope" : m[2]}${row}`;
    });
  }
  return redirectWithFlash(back, alarmMessages(readPreferences(request).locale).routes.saved);
}
