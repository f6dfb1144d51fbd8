/**
 * Building blocks of the admin forms (members, notices, groups): labelled controls with their error
 * next to them, the typed delete confirmation, a pager, and client-side validation that runs the
 * same zod schema as the API before the round trip. Several forms may share a page, so every
 * control id carries the form's prefix.
 */
import { AppLink } from "~/components/AppLink";
import { useState, type ReactNode } from "react";
import type { ZodType } from "zod";
import { ADMIN_DELETE_KEY } from "../../domain/admin-delete";
import { fieldErrorsOf } from "../../domain/field-errors";
import { formatNumber } from "../../domain/units";
import { fmt } from "~/i18n";
import { useAdminT } from "~/i18n/admin";

export type Errors = Record<string, string>;
export type Values = Record<string, string>;

/** Zod issues as field errors: the one loop of domain/field-errors.ts, also used by the actions. */
export { fieldErrorsOf };

/** Turns an error code (field code or API message) into text of the current language. */
export function useErrorText() {
  const t = useAdminT();
  return (code: string | undefined | null): string | undefined => {
    if (!code) return undefined;
    const errors = t.adminForms.errors as Record<string, string>;
    const messages = t.adminForms.messages as Record<string, string>;
    const password = t.password.errors as Record<string, string>;
    return errors[code] ?? messages[code] ?? password[code] ?? fmt(t.adminForms.messages.unknown, { code });
  };
}

/**
 * Client errors shown before the round trip. `validate` returns the errors of the form about to be
 * sent; when there are any the submit is cancelled, otherwise the server's answer decides.
 */
export function useClientValidation(
  serverErrors: Errors | undefined,
  validate: (form: HTMLFormElement) => Record<string, string | undefined>,
) {
  const [client, setClient] = useState<Errors | null>(null);
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const [seen, setSeen] = useState(serverErrors);
  if (seen !== serverErrors) {
    // A new server answer replaces whatever the client showed.
    setSeen(serverErrors);
    setClient(null);
    setEdited(new Set());
  }
  const shown = client ?? serverErrors ?? {};
  // A field's error goes away as soon as that field is changed; the next submit checks again.
  const errors: Errors = {};
  for (const [k, v] of Object.entries(shown)) if (!edited.has(k)) errors[k] = v;
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const next: Errors = {};
    for (const [k, v] of Object.entries(validate(event.currentTarget))) if (v) next[k] = v;
    setEdited(new Set());
    if (Object.keys(next).length) {
      event.preventDefault();
      setClient(next);
      const first = event.currentTarget.querySelector<HTMLElement>(`[name="${Object.keys(next)[0]}"]`);
      first?.focus();
    } else {
      setClient(null);
    }
  }
  /** Put on the <Form> (onInput bubbles from every control). */
  function onInput(event: React.FormEvent<HTMLFormElement>) {
    const name = (event.target as HTMLInputElement).name;
    if (name && shown[name] && !edited.has(name)) setEdited(new Set([...edited, name]));
  }
  return { errors, onSubmit, onInput };
}

/** Validates FormData-derived input with a schema; the errors keyed by field. */
export function schemaErrors<T>(schema: ZodType<T, any, any>, input: unknown): Errors {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrorsOf(result.error);
}

function describedBy(id: string, hint?: ReactNode, error?: string) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function Hint({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </>
  );
}

interface BaseProps {
  form: string;
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
}

export function TextInput(
  props: BaseProps & {
    defaultValue?: string;
    type?: string;
    autoComplete?: string;
    inputMode?: "text" | "numeric" | "tel" | "email";
    maxLength?: number;
    accept?: string;
    onInput?: (value: string) => void;
    after?: ReactNode;
  },
) {
  const id = `${props.form}-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        defaultValue={props.defaultValue}
        required={props.required}
        autoComplete={props.autoComplete ?? "off"}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        accept={props.accept}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.hint, props.error)}
        onInput={props.onInput ? (e) => props.onInput!(e.currentTarget.value) : undefined}
      />
      {props.after}
      <Hint id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function TextArea(props: BaseProps & { defaultValue?: string; rows?: number; maxLength?: number }) {
  const id = `${props.form}-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 5}
        defaultValue={props.defaultValue}
        required={props.required}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.hint, props.error)}
      />
      <Hint id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function SelectInput(
  props: BaseProps & { defaultValue?: string; options: Array<{ value: string; label: string; disabled?: boolean }> },
) {
  const id = `${props.form}-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <select
        id={id}
        name={props.name}
        defaultValue={props.defaultValue}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props.hint, props.error)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
      <Hint id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function Checkbox(props: {
  form: string;
  name: string;
  label: string;
  value?: string;
  defaultChecked?: boolean;
  error?: string;
}) {
  const id = `${props.form}-${props.name}-${props.value ?? "1"}`;
  return (
    <div className="check">
      <input
        id={id}
        type="checkbox"
        name={props.name}
        value={props.value ?? "1"}
        defaultChecked={props.defaultChecked}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.error ? (
        <span className="error" id={`${id}-error`}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

/** The typed confirmation every admin delete asks for (SPEC §5 admin delete key). */
export function ConfirmDelete({ form, error }: { form: string; error?: string }) {
  const t = useAdminT();
  return (
    <TextInput
      form={form}
      name="confirm"
      label={t.adminForms.confirmLabel}
      hint={fmt(t.adminForms.confirmHint, { key: ADMIN_DELETE_KEY })}
      error={error}
      required
    />
  );
}

export function FormAlert({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="alert error" role="alert">
      {message}
    </p>
  );
}

/** Previous / next links that keep every other search parameter (works without JS). */
export function Pager({ page, size, total, search }: { page: number; size: number; total: number; search: URLSearchParams }) {
  const t = useAdminT();
  const pages = Math.max(1, Math.ceil(total / size));
  const href = (p: number) => {
    const next = new URLSearchParams(search);
    if (p <= 1) next.delete("page");
    else next.set("page", String(p));
    const q = next.toString();
    return q ? `?${q}` : "?";
  };
  return (
    <nav className="pager" aria-label={t.adminForms.pager.label}>
      {page > 1 ? (
        <AppLink to={href(page - 1)} rel="prev">
          ← {t.adminForms.pager.prev}
        </AppLink>
      ) : (
        <span aria-hidden="true" className="pager-off">
          ← {t.adminForms.pager.prev}
        </span>
      )}
      <span>
        {fmt(t.adminForms.pager.status, {
          page: formatNumber(page, 0),
          pages: formatNumber(pages, 0),
          total: formatNumber(total, 0),
        })}
      </span>
      {page < pages ? (
        <AppLink to={href(page + 1)} rel="next">
          {t.adminForms.pager.next} →
        </AppLink>
      ) : (
        <span aria-hidden="true" className="pager-off">
          {t.adminForms.pager.next} →
        </span>
      )}
    </nav>
  );
}
