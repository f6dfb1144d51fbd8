/** The fields of the plant form (create and edit): capacity typed in kW, coordinates, package, group. */
import { SelectInput, TextInput, type Errors } from "~/components/AdminForm";
import { useFleetErrorText } from "~/components/FleetAdmin";
import { useAdminT } from "~/i18n/admin";

export interface PlantFieldValues {
  uid?: string;
  name?: string;
  alias?: string;
  capaKw?: string;
  locality?: string;
  address?: string;
  lat?: string;
  lng?: string;
  packageSeq?: string;
  nodeSeq?: string;
}

export function PlantFields(props: {
  form: string;
  values: PlantFieldValues;
  errors: Errors;
  packages: Array<{ seq: number; name: string }>;
  nodes: Array<{ seq: number; name: string; depth: number }>;
  geocoding: boolean;
  withUid?: boolean;
}) {
  const t = useAdminT();
  const f = t.plants.fields;
  const err = useFleetErrorText();
  const { form, values: v, errors: e } = props;
  return (
    <>
      {props.withUid ? (
        <TextInput form={form} name="uid" label={f.uid} hint={f.uidHint} defaultValue={v.uid} error={err(e.uid)} maxLength={64} />
      ) : null}
      <div className="form-grid">
        <TextInput form={form} name="name" label={f.name} required defaultValue={v.name} error={err(e.name)} maxLength={100} />
        <TextInput form={form} name="alias" label={f.alias} defaultValue={v.alias} error={err(e.alias)} maxLength={100} />
        <TextInput
          form={form}
          name="capaKw"
          label={f.capaKw}
          hint={f.capaHint}
          required
          inputMode="text"
          defaultValue={v.capaKw}
          error={err(e.capaKw)}
        />
        <TextInput
          form={form}
          name="locality"
          label={f.locality}
          hint={f.localityHint}
          defaultValue={v.locality}
          error={err(e.locality)}
          maxLength={50}
        />
      </div>
      <TextInput form={form} name="address" label={f.address} defaultValue={v.address} error={err(e.address)} maxLength={200} />
      <fieldset className="coords">
        <legend>{`${f.lat} / ${f.lng}`}</legend>
        <p className="hint" id={`${form}-coords-hint`}>
          {props.geocoding ? f.coordsGeocode : f.coordsManual}
        </p>
        <div className="form-grid">
          <TextInput form={form} name="lat" label={f.lat} defaultValue={v.lat} error={err(e.lat)} inputMode="text" />
          <TextInput form={form} name="lng" label={f.lng} defaultValue={v.lng} error={err(e.lng)} inputMode="text" />
        </div>
      </fieldset>
      <div className="form-grid">
        <SelectInput
          form={form}
          name="packageSeq"
          label={f.package}
          defaultValue={v.packageSeq ?? ""}
          error={err(e.packageSeq)}
          options={[{ value: "", label: f.noPackage }, ...props.packages.map((p) => ({ value: String(p.seq), label: p.name }))]}
        />
        <SelectInput
          form={form}
          name="nodeSeq"
          label={f.node}
          required
          defaultValue={v.nodeSeq ?? ""}
          error={err(e.nodeSeq)}
          options={props.nodes.map((n) => ({ value: String(n.seq), label: `${"\u00a0\u00a0".repeat(n.depth)}${n.name}` }))}
        />
      </div>
    </>
  );
}
