/**
 * Free text typed into a search field and carried in a URL (a plant name, a locality, a fault): what every screen
 * searches with. Control characters are dropped (a browser never types them; the API refuses NUL with
 * invalid_input, so a hand-edited URL carrying one must not reach it), the rest is trimmed and cut to `max`
 * characters. Absent reads as "".
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

export function searchText(value: string | null | undefined, max: number): string {
  return (value ?? "").replace(CONTROL_CHARACTERS, "").trim().slice(0, max);
}
