/** The fields of a work order, shared by the new and the edit form (labels, errors beside their field). */
import { Checkbox, SelectInput, TextArea, TextInput } from "~/components/AdminForm";
import { fmt } from "~/i18n";
import type { WorkorderCatalogue } from "~/i18n/workorder";
import { WORK_ORDER_PRIORITIES } from "../../../domain/work-order";
import { errorText } from "./labels";

export interface FieldValues {
  title: string;
  description: string;
  priority: string;
  assignee: string;
  dueDate: string;
  devices: string[];
  alarms: number[];
}

export function WorkOrderFields({
  t,
  form,
  values,
  errors,
  devices,
  alarms,
}: {
  t: WorkorderCatalogue;
  form: string;
  values: FieldValues;
  errors: Record<string, string>;
  devices: Array<{ uid: string; name: string }>;
  /** Alarms that may be tied to it (null: the field is not offered). */
  alarms: Array<{ seq: number; label: string }> | null;
}) {
  const f = t.workorder.form;
  const e = (k: string) => errorText(t, errors[k]);
  return (
    <>
      <TextInput
        form={form}
        name="title"
        label={f.title}
        required
        maxLength={200}
        defaultValue={values.title}
        error={e("title")}
      />
      <TextArea
        form={form}
        name="description"
        label={f.description}
        maxLength={4000}
        defaultValue={values.description}
        error={e("description")}
      />
      <SelectInput
        form={form}
        name="priority"
        label={f.priority}
        defaultValue={values.priority || "normal"}
        options={WORK_ORDER_PRIORITIES.map((p) => ({ value: p, label: t.workorder.priorities[p] }))}
        error={e("priority")}
      />
      <TextInput
        form={form}
        name="assignee"
        label={f.assignee}
        hint={f.assigneeHint}
        maxLength={64}
        defaultValue={values.assignee}
        error={e("assignee")}
      />
      <TextInput form={form} name="dueDate" type="date" label={f.dueDate} defaultValue={values.dueDate} error={e("dueDate")} />
      <fieldset className="wo-choices">
        <legend>{f.devices}</legend>
        {devices.length === 0 ? <p className="muted">{f.noDevices}</p> : null}
        {devices.map((d) => (
          <Checkbox
            key={d.uid}
            form={form}
            name="devices"
            value={d.uid}
            label={`${d.name} (${d.uid})`}
            defaultChecked={values.devices.includes(d.uid)}
          />
        ))}
        {errors.devices ? <p className="error">{e("devices")}</p> : null}
      </fieldset>
      {alarms ? (
        <fieldset className="wo-choices">
          <legend>{f.alarms}</legend>
          {alarms.map((a) => (
            <Checkbox
              key={a.seq}
              form={form}
              name="alarms"
              value={String(a.seq)}
              label={`${fmt(f.alarmItem, { seq: a.seq })} · ${a.label}`}
              defaultChecked={values.alarms.includes(a.seq)}
            />
          ))}
          {errors.alarms ? <p className="error">{e("alarms")}</p> : null}
        </fieldset>
      ) : null}
    </>
  );
}
