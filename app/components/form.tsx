/** Form building blocks: labelled fields with their error next to them, and a form-level error. */
import type { ReactNode } from "react";

export function Field(props: {
  name: string;
  label: string;
  error?: string;
  hint?: string;
  children?: ReactNode;
  defaultValue?: string;
  type?: string;
  required?: boolean;
  autoComplete?: string;
  inputMode?: "text" | "numeric" | "decimal" | "tel" | "email";
}) {
  const id = `f-${props.name}`;
  const described = [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {props.children ?? (
        <input
          id={id}
          name={props.name}
          type={props.type ?? "text"}
          defaultValue={props.defaultValue}
          required={props.required}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={described || undefined}
        />
      )}
      {props.hint ? (
        <span className="hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      {props.error ? (
        <span className="error" id={`${id}-error`}>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="alert error" role="alert">
      {message}
    </p>
  );
}

export function Flash({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="alert success" role="status">
      {message}
    </p>
  );
}
