/**
 * A name search field shared by the screens that pick a plant (or a group) among hundreds: a plain text input that
 * the screen's GET form sends (its loader resolves the name: one match is chosen, several are listed as links), with
 * a datalist of names. Without script the datalist holds the matches of the last search; with script it follows the
 * typing, fetched from /resources/names for the screen's section (a handful of names, never the whole fleet).
 *
 * The names are asked with a plain fetch, not a route fetcher: they are not route data, and a fetcher started while
 * the form's own navigation was under way (type, then press the button within the debounce) could not be matched to
 * its route yet (routes are discovered lazily) and put the screen on its "page not found" boundary.
 */
import { useEffect, useRef, useState } from "react";
import type { NameSection } from "~/routes/resources.names";

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
  const [found, setFound] = useState<string[] | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const asking = useRef<AbortController>();
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      asking.current?.abort();
    },
    [],
  );
  const ask = (text: string) => {
    asking.current?.abort();
    const controller = (asking.current = new AbortController());
    fetch(`/resources/names?${new URLSearchParams({ in: section, q: text })}`, {
      signal: controller.signal,
      headers: { accept: "application/json" },
    })
      .then((res) => (res.ok ? (res.json() as Promise<{ names?: string[] }>) : null))
      .then((answer) => {
        if (answer?.names) setFound(answer.names);
      })
      // Suggestions only: a failed or cut-off request leaves the list as it was.
      .catch(() => undefined);
  };
  const names = found ?? suggestions;
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
          timer.current = setTimeout(() => ask(text), 250);
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
