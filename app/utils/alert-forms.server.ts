/**
 * Actions of the alert forms shared by several pages: the member's own alert preferences (/modify, intent
 * "alertPref": PUT /api/alarm/notify/pref) and a plant's owner and safety manager (/setting/plant/{uid}, intent
 * "contacts": PUT /api/alarm/contacts/{plant}). Both validate with the contract's schema before the round trip.
 */
import { AlertPrefSchema, PlantContactsSchema } from "../../domain/contract/alarm";
import { alarmMessages } from "../i18n/alarm";
import { savePlantContacts, saveAlertPref } from "../models/alarm.server";
import { apiFailure, formValues, parseForm } from "./form-action.server";
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
