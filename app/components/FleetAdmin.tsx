/**
 * Pieces shared by the fleet admin screens (plants, devices, RTUs, total, configuration, import):
 * error texts from the fleet catalogue, the per-form view of an action answer, the delete section with
 * its typed confirmation, and small badges. Form controls come from AdminForm.tsx.
 */
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ADMIN_DELETE_KEY, isDeleteConfirmed } from "../../domain/admin-delete";
import { deviceKindName, isDeviceKind } from "../../domain/device";
import { formatSeoul } from "../../domain/seoul-clock";
import { FormAlert, TextInput, useClientValidation, type Errors } from "~/components/AdminForm";
import { fmt } from "~/i18n";
import { useAdminT, type AdminCatalogue } from "~/i18n/admin";

/** Error code → text: the fleet catalogue first, then the shared admin one. */
export function useFleetErrorText() {
  const t = useAdminT();
  return (code: string | undefined | null): string | undefined => {
    if (!code) return undefined;
    const mine = t.fleet.errors as Record<string, string>;
    const shared = t.adminForms.errors as Record<string, string>;
    const messages = t.adminForms.messages as Record<string, string>;
    return mine[code] ?? shared[code] ?? messages[code] ?? fmt(t.fleet.errors.unknown, { code });
  };
}

export interface FormAnswer {
  intent: string;
  errors: Errors;
  values: Record<string, string>;
}

/** The action answer of one form on a page with several. */
export function answerFor(data: unknown, intent: string): FormAnswer | undefined {
  const d = data as FormAnswer | undefined;
  return d && d.intent === intent ? d : undefined;
}

export function kindLabel(t: AdminCatalogue, kind: number): string {
  return isDeviceKind(kind) ? t.fleet.kind[deviceKindName(kind)] : String(kind);
}

export function CommBadge({ comm }: { comm: "online" | "offline" | "never" }) {
  const t = useAdminT();
  const cls = comm === "online" ? "tag ok" : comm === "offline" ? "tag warn" : "tag off";
  return <span className={cls}>{t.fleet.comm[comm]}</span>;
}

/** The delete section of an edit page: what goes with it, the typed key, and the button. */
export function DeleteSection(props: { id: string; intro: string; answer?: FormAnswer; action?: string }) {
  const t = useAdminT();
  const errorText = useFleetErrorText();
  const { errors, onSubmit } = useClientValidation(props.answer?.errors, (form): Errors => {
    const typed = new FormData(form).get("confirm");
    return isDeleteConfirmed(typed) ? {} : { confirm: "confirmation_required" };
  });
  return (
    <section className="panel danger-zone" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{t.fleet.deleteTitle}</h2>
      <p>{props.intro}</p>
      <Form method="post" action={props.action} noValidate onSubmit={onSubmit}>
        <AuthenticityTokenInput />
        <FormAlert message={errorText(errors._form)} />
        <TextInput
          form={props.id}
          name="confirm"
          label={t.fleet.confirmLabel}
          hint={fmt(t.fleet.confirmHint, { key: ADMIN_DELETE_KEY })}
          error={errorText(errors.confirm)}
          required
        />
        <button type="submit" name="intent" value="delete" className="danger">
          {t.fleet.delete}
        </button>
      </Form>
    </section>
  );
}

/**
 * Seoul time with the one fixed 24-hour pattern of domain/seoul-time.ts. (Intl with ko-KR rendered "PM" in Node
 * and "오후" in the browser, so React threw the server HTML of /setting/rtu/{uid} and /setting/device/{uid} away.)
 * The locale argument stays for the callers; the pattern is the same in both languages.
 */
export function formatTime(ms: number | null | undefined, _locale?: string): string {
  if (!ms) return "—";
  return formatSeoul(ms, "YYYY-MM-DD HH:mm");
}
