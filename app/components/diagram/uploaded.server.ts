/**
 * An administrator's uploaded drawing as the screen shows it: sanitised again (the API stored it sanitised;
 * the portal does not rely on that) and its bound elements marked with their device's condition. A bound
 * <g> becomes a link to the device's measurements (works without JS); another bound shape gets the link
 * through a click handler (with JS) and the table beside the drawing (without).
 */
import type { DiagramDevice, DiagramResponse } from "../../../domain/contract/diagram";
import { sanitizeSvg } from "../../../domain/svg-sanitize";
import type { WorkspaceCatalogue } from "~/i18n/workspace";
import { conditionText, deviceType, measurementHref, typeLabel, valuesText } from "./words";

export function deviceLabel(t: WorkspaceCatalogue, d: DiagramDevice): string {
  const type = deviceType(d.kind);
  return [`${typeLabel(t, { type })} ${d.name}`, valuesText(t, type, d.values), conditionText(t, d.condition, d.alarm)]
    .filter(Boolean)
    .join(", ");
}

export function renderUploaded(diagram: DiagramResponse, t: WorkspaceCatalogue): string {
  if (!diagram.svg) return "";
  const devices = new Map(diagram.devices.map((d) => [d.device_uid, d]));
  const bound = new Map(diagram.bindings.map((b) => [b.element, devices.get(b.device_uid)]));
  return sanitizeSvg(diagram.svg, (tagName, attribs) => {
    const device = attribs.id ? bound.get(attribs.id) : undefined;
    if (tagName === "svg")
      return { tagName, attribs: { ...attribs, class: "uploaded-svg", role: "group", "aria-label": diagram.plant.name } };
    if (!device) return { tagName, attribs };
    const marked = {
      ...attribs,
      class: `${attribs.class ? `${attribs.class} ` : ""}sl-bound sl-cond-${device.condition}`,
      "data-device": device.device_uid,
      "data-href": measurementHref(diagram.plant.plant_uid, device.device_uid),
      "aria-label": deviceLabel(t, device),
    };
    if (tagName === "g") return { tagName: "a", attribs: { ...marked, href: marked["data-href"] } };
    return { tagName, attribs: marked };
  }).svg;
}
