/**
 * A name search field shared by the screens that pick a plant (or a group) among hundreds: a plain text input that
 * the screen's GET form sends (its loader resolves the name: one match is chosen, several are listed as links), with
 * a datalist of names. Without script the datalist holds the matches of the last search; with script it follows the
 * typing, fetched from /resources/names for the screen's section (a handful of names, never the whole fleet).
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { loader as namesLoader, NameSection } from "~/routes/resources.names";

export function NameFinder({
  id,
  section,
  name = "find",
  defaultValue,
  placeholder,
  suggestions,
}: {
  id: string;
  section: NameSection;
  name?: string;
  defaultValue: string;
  placeholder: string;
  suggestions: string[];
}) {
  const fetcher = useFetcher<typeof namesLoader>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const names = fetcher.data?.names ?? suggestions;
  return (
    <>
      <input
        id={id}
        type="search"
        name={name}
        list={`${id}-options`}
        maxLength={100}
        autoComplete="off"
        defaultValue={defaultValue}
        key={defaultValue}
        placeholder={placeholder}
        onChange={(e) => {
          const text = e.currentTarget.value.trim();
          clearTimeout(timer.current);
          if (!text) return;
          timer.current = setTimeout(
            () => fetcher.load(`/resources/names?${new URLSearchParams({ in: section, q: text })}`),
            250,
          );
        }}
      />
      <datalist id={`${id}-options`}>
        {[...new Set(names)].map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
    </>
  );
}
