/**
 * The mark of a today's-generation value that SPEC §5's alarm rule set to 0 (domain/sanitize.ts
 * todayGeneration, decided once in the store): a short visible note, its reason as the title and as
 * visually hidden text, so the owner sees why the meter's reading is not shown. Nothing when not zeroed.
 */
import { useT } from "~/i18n";

export function ZeroedNote({ zeroed }: { zeroed: boolean | undefined }) {
  const t = useT().zeroedToday;
  if (!zeroed) return null;
  return (
    <>
      {" "}
      <small className="zeroed-note" title={t.why} data-zeroed="">
        ({t.note})<span className="visually-hidden">: {t.why}</span>
      </small>
    </>
  );
}
