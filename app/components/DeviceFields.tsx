/** The fields of the device form (create and edit). */
import { DEVICE_KINDS } from "../../domain/device";
import { SelectInput, TextInput, type Errors } from "~/components/AdminForm";
import { kindLabel, useFleetErrorText } from "~/components/FleetAdmin";
import { useAdminT } from "~/i18n/admin";

export interface DeviceFieldValues {
  uid?: string;
  name?: string;
  kind?: string;
  rtuUid?: string;
  plantUid?: string;
  address?: string;
  capaKw?: string;
  use?: string;
}

export function DeviceFields(props: {
  form: string;
  values: DeviceFieldValues;
  errors: Errors;
  rtus: Array<{ uid: string; alias: string | null; name: string; plantName: string | null; editable: boolean }>;
  plants: Array<{ uid: string; name: string; editable: boolean }>;
  withUid?: boolean;
}) {
  const t = useAdminT();
  const f = t.devices.fields;
  const err = useFleetErrorText();
  const { form, values: v, errors: e } = props;
  return (
    <>
      {props.withUid ? (
        <TextInput form={form} name="uid" label={f.uid} hint={f.uidHint} defaultValue={v.uid} error={err(e.uid)} maxLength={64} />
      ) : null}
      <div className="form-grid">
        <TextInput form={form} name="name" label={f.name} required defaultValue={v.name} error={err(e.name)} maxLength={100} />
        <SelectInput
          form={form}
          name="kind"
          label={f.kind}
          required
          defaultValue={v.kind ?? ""}
          error={err(e.kind)}
          options={[
            { value: "", label: f.chooseKind },
            ...DEVICE_KINDS.map((k) => ({ value: String(k), label: `${k} · ${kindLabel(t, k)}` })),
          ]}
        />
        <SelectInput
          form={form}
          name="rtuUid"
          label={f.rtu}
          defaultValue={v.rtuUid ?? ""}
          error={err(e.rtuUid)}
          options={[
            { value: "", label: t.fleet.none },
            ...props.rtus
              .filter((r) => r.editable || r.uid === v.rtuUid)
              .map((r) => ({
                value: r.uid,
                label: `${r.alias || r.name} (${r.uid})${r.plantName ? ` · ${r.plantName}` : ""}`,
              })),
          ]}
        />
        <SelectInput
          form={form}
          name="plantUid"
          label={f.plant}
          hint={f.plantHint}
          defaultValue={v.plantUid ?? ""}
          error={err(e.plantUid)}
          options={[
            { value: "", label: t.fleet.none },
            ...props.plants
              .filter((p) => p.editable || p.uid === v.plantUid)
              .map((p) => ({ value: p.uid, label: `${p.name} (${p.uid})` })),
          ]}
        />
        <TextInput
          form={form}
          name="address"
          label={f.address}
          hint={f.addressHint}
          defaultValue={v.address}
          error={err(e.address)}
          inputMode="numeric"
        />
        <TextInput form={form} name="capaKw" label={f.capaKw} hint={f.capaHint} defaultValue={v.capaKw} error={err(e.capaKw)} />
        <SelectInput
          form={form}
          name="use"
          label={f.use}
          defaultValue={v.use ?? "1"}
          error={err(e.use)}
          options={[
            { value: "1", label: t.fleet.inUse },
            { value: "0", label: t.fleet.unused },
          ]}
        />
      </div>
    </>
  );
}
