/**
 * The alarm screen's scope field: a plain text input named `find` that the GET form sends (the loader resolves the
 * name), with a datalist of names. Without script the datalist holds the matches of the last search; with script
 * it follows the typing, fetched from /resources/alarm-scope (a handful of names, never the whole fleet).
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { loader as scopeLoader } from "~/routes/resources.alarm-scope";

export function ScopeFinder({
  defaultValue,
  placeholder,
  suggestions,
}: {
  defaultValue: string;
  placeholder: string;
  suggestions: string[];
}) {
  const fetcher = useFetcher<typeof scopeLoader>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const names = fetcher.data?.names ?? suggestions;
  return (
    <>
      <input
        id="af-find"
        type="search"
        name="find"
        list="af-find-options"
        maxLength={100}
        autoComplete="off"
        defaultValue={defaultValue}
        key={defaultValue}
        placeholder={placeholder}
        onChange={(e) => {
          const text = e.currentTarget.value.trim();
          clearTimeout(timer.current);
          if (!text) return;
          timer.current = setTimeout(() => fetcher.load(`/resources/alarm-scope?q=${encodeURIComponent(text)}`), 250);
        }}
      />
      <datalist id="af-find-options">
        {[...new Set(names)].map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}
