/**
 * Custom page calls of the portal (SPEC §7 POST /custom, GET /node/customs; GET and DELETE /custom/{unique}).
 * Status and chart widgets come back as plant cards (SPEC §3) and are shaped here like the status screen's cards.
 */
import type {
  CustomListResponse,
  CustomPageInputData,
  CustomPageResponse,
  CustomSaveResponse,
  CustomWidgetView,
} from "../../domain/contract/custom";
import type { Locale } from "~/i18n";
import { api } from "./api.server";
import { cardView, type PlantCardView } from "./pvstatus.server";

export const customPages = (token: string, plant?: string) =>
  api<CustomListResponse>("/node/customs", { token, query: { plant } });

export const saveCustomPage = (token: string, body: CustomPageInputData) =>
  api<CustomSaveResponse>("/custom", { token, method: "POST", body });

export const deleteCustomPage = (token: string, unique: string) =>
  api<void>(`/custom/${encodeURIComponent(unique)}`, { token, method: "DELETE" });

export type WidgetView = Omit<CustomWidgetView, "card"> & { card?: PlantCardView };

/** The page with each widget ready to show: status cards as grid cards, charts drawn as SVG on the server. */
export async function customPage(
  token: string,
  unique: string,
  locale: Locale,
): Promise<Omit<CustomPageResponse, "widgets"> & { widgets: WidgetView[] }> {
  const res = await api<CustomPageResponse>(`/custom/${encodeURIComponent(unique)}`, { token });
  return {
    ...res,
    widgets: res.widgets.map(({ card, ...w }) => ({
      ...w,
      ...(card
        ? { card: cardView(card, w.kind === "chart" ? { view: "gh", size: "lg" } : { view: "gd", size: "md" }, locale) }
        : {}),
    })),
  };
}
