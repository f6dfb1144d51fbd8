// A plant's curtailment and output-limit orders on its settings screen (issue 28 §3): the list, a form to add one,
// the edit form of the order named in the URL (?order=<id>, a plain link: no script needed), delete buttons and a CSV
// import. Field errors come from the API's answer (end before start, limit ≤ 0, above capacity, % > 100).
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { AppLink } from "~/components/AppLink";
import { FormAlert, SelectInput, TextArea, TextInput, type Errors } from "~/components/AdminForm";
import type { FormAnswer } from "~/components/FleetAdmin";
import { fmt } from "~/i18n";
import { useAdminT } from "~/i18n/admin";
import {
  CURTAILMENT_NOTE_MAX,
  CURTAILMENT_SOURCES,
  LIMIT_UNITS,
  type CurtailmentOrder,
} from "../../../domain/contract/curtailment";
import { formatOrderLimit } from "../../../domain/curtailment";
import { formatNumber } from "../../../domain/units";

/** 'YYYY-MM-DD HH:mm' as a datetime-local value. */
const local = (wall: string) => wall.replace(" ", "T");

function OrderFields({
  form,
  values,
  errors,
  capacityKw,
}: {
  form: string;
  values: Record<string, string>;
  errors: Errors;
  capacityKw: number;
}) {
  const t = useAdminT().curtailment;
  const err = useOrderErrorText();
  return (
    <div className="form-grid">
      <TextInput
        form={form}
        name="start"
        type="datetime-local"
        label={t.fields.start}
        required
        defaultValue={values.start}
        error={err(errors.start)}
      />
      <TextInput
        form={form}
        name="end"
        type="datetime-local"
        label={t.fields.end}
        required
        defaultValue={values.end}
        error={err(errors.end)}
      />
      <TextInput
        form={form}
        name="limitValue"
        label={t.fields.limitValue}
        required
        inputMode="text"
        hint={`≤ ${formatNumber(capacityKw, 1)} kW · ≤ 100 %`}
        defaultValue={values.limitValue}
        error={err(errors.limitValue)}
      />
      <SelectInput
        form={form}
        name="limitUnit"
        label={t.fields.limitUnit}
        required
        defaultValue={values.limitUnit ?? "kw"}
        options={LIMIT_UNITS.map((u) => ({ value: u, label: t.units[u] }))}
        error={err(errors.limitUnit)}
      />
      <SelectInput
        form={form}
        name="source"
        label={t.fields.source}
        required
        defaultValue={values.source ?? "kpx"}
        options={CURTAILMENT_SOURCES.map((s) => ({ value: s, label: t.sources[s] }))}
        error={err(errors.source)}
      />
      <TextInput
        form={form}
        name="note"
        label={t.fields.note}
        maxLength={CURTAILMENT_NOTE_MAX}
        defaultValue={values.note}
        error={err(errors.note)}
      />
    </div>
  );
}

/** An API problem code in words ('missing_columns:a,b' names the columns). */
export function useOrderErrorText() {
  const t = useAdminT().curtailment;
  return (code: string | undefined): string | undefined => {
    if (!code) return undefined;
    const [key, arg] = code.split(":");
    const words = (t.errors as Record<string, string>)[key!];
    return words ? fmt(words, { names: arg ?? "" }) : code;
  };
}

export function CurtailmentOrders(props: {
  plantUid: string;
  capacityKw: number;
  orders: CurtailmentOrder[];
  editable: boolean;
  /** The order whose edit form is open (?order=<id>). */
  editing: number | null;
  answers: { add?: FormAnswer; edit?: FormAnswer; remove?: FormAnswer; import?: FormAnswer };
  busy: boolean;
}) {
  const t = useAdminT().curtailment;
  const err = useOrderErrorText();
  const here = `/setting/plant/${encodeURIComponent(props.plantUid)}`;
  const { add, edit, remove } = props.answers;
  const imported = props.answers.import;
  const open = props.orders.find((o) => o.id === props.editing) ?? null;
  const lineErrors = Object.entries(imported?.errors ?? {})
    .map(([k, v]) => {
      const m = /^line(\d+)\.(.+)$/.exec(k);
      return m ? { line: Number(m[1]), field: m[2]!, problem: v } : null;
    })
    .filter((x): x is { line: number; field: string; problem: string } => x !== null)
    .sort((a, b) => a.line - b.line);
  const fieldName = (f: string) => (t.fields as Record<string, string>)[f] ?? f;
  return (
    <section className="panel" aria-labelledby="curtailment-title" id="curtailment">
      <h2 id="curtailment-title">{t.title}</h2>
      <p className="hint">{t.intro}</p>
      <FormAlert message={err(remove?.errors._form)} />
      {props.orders.length === 0 ? (
        <p>{t.none}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table" data-section="curtailment-orders">
            <caption>{t.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.columns.start}</th>
                <th scope="col">{t.columns.end}</th>
                <th scope="col" className="num">
                  {t.columns.limit}
                </th>
                <th scope="col">{t.columns.source}</th>
                <th scope="col">{t.columns.note}</th>
                {props.editable ? <th scope="col">{t.columns.actions}</th> : null}
              </tr>
            </thead>
            <tbody>
              {props.orders.map((o) => (
                <tr key={o.id}>
                  <td>{o.start}</td>
                  <td>{o.end}</td>
                  <td className="num">{formatOrderLimit(o)}</td>
                  <td>{t.sources[o.source]}</td>
                  <td>{o.note}</td>
                  {props.editable ? (
                    <td>
                      <AppLink to={`${here}?order=${o.id}#curtailment-edit`} aria-label={`${t.edit}: ${o.start}`}>
                        {t.edit}
                      </AppLink>{" "}
                      <Form method="post" className="inline">
                        <AuthenticityTokenInput />
                        <input type="hidden" name="orderId" value={o.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="deleteOrder"
                          className="secondary small"
                          aria-label={`${t.remove}: ${o.start}`}
                          disabled={props.busy}
                        >
                          {t.remove}
                        </button>
                      </Form>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.editable && open ? (
        <Form method="post" noValidate id="curtailment-edit" aria-labelledby="curtailment-edit-title">
          <h3 id="curtailment-edit-title">
            {t.editTitle} · {open.start}
          </h3>
          <AuthenticityTokenInput />
          <input type="hidden" name="orderId" value={open.id} />
          <FormAlert message={err(edit?.errors._form)} />
          <OrderFields
            form="order-edit"
            capacityKw={props.capacityKw}
            errors={edit?.errors ?? {}}
            values={
              edit?.values ?? {
                start: local(open.start),
                end: local(open.end),
                limitValue: String(open.limitValue),
                limitUnit: open.limitUnit,
                source: open.source,
                note: open.note,
              }
            }
          />
          <button type="submit" name="intent" value="editOrder" disabled={props.busy}>
            {t.editSubmit}
          </button>{" "}
          <AppLink to={`${here}#curtailment`}>{t.cancel}</AppLink>
        </Form>
      ) : null}
      {props.editable ? (
        <>
          <Form method="post" noValidate aria-labelledby="curtailment-add-title">
            <h3 id="curtailment-add-title">{t.add}</h3>
            <AuthenticityTokenInput />
            <FormAlert message={err(add?.errors._form)} />
            <OrderFields form="order-add" capacityKw={props.capacityKw} errors={add?.errors ?? {}} values={add?.values ?? {}} />
            <button type="submit" name="intent" value="addOrder" disabled={props.busy}>
              {t.addSubmit}
            </button>
          </Form>
          <Form method="post" noValidate aria-labelledby="curtailment-import-title">
            <h3 id="curtailment-import-title">{t.importTitle}</h3>
            <AuthenticityTokenInput />
            {lineErrors.length ? (
              <div className="alert error" role="alert">
                <p>{t.rowErrors}</p>
                <ul>
                  {lineErrors.map((e) => (
                    <li key={`${e.line}-${e.field}`}>
                      {fmt(t.line, { line: e.line, field: fieldName(e.field), problem: err(e.problem) ?? e.problem })}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <TextArea
              form="order-import"
              name="csv"
              label={t.csv}
              hint={t.importHint}
              rows={5}
              required
              defaultValue={imported?.values.csv}
              error={err(imported?.errors.csv ?? imported?.errors._form)}
            />
            <button type="submit" name="intent" value="importOrders" disabled={props.busy}>
              {t.importSubmit}
            </button>
          </Form>
        </>
      ) : null}
    </section>
  );
}
