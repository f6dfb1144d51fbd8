/** Schema parts shared by the contract's query and form schemas. */
import { z } from "zod";

/**
 * A whole number in [min, max] from a query parameter or a form field ("12" becomes 12); the field errors are
 * `not_a_number`, `too_small` and `too_large`. Chain `.optional()` or `.default(n)` as the field needs.
 */
export const wholeNumber = (min: number, max: number) =>
  z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_a_number").min(min, "too_small").max(max, "too_large");
