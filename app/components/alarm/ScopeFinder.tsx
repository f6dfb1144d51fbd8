/**
 * The alarm screen's scope field: the shared name search (components/NameFinder.tsx) over the member's plants and
 * groups, sent as `find` by the alarm screen's GET form.
 */
import { NameFinder } from "~/components/NameFinder";

export function ScopeFinder(props: { defaultValue: string; placeholder: string; suggestions: string[] }) {
  return <NameFinder id="af-find" section="alarm" {...props} />;
}
