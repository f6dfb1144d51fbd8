/** The fields of the RTU form (create and edit), with the gateway config bits as checkboxes (SPEC §6). */
import { RTU_CONFIG_KEYS } from "../../domain/rtu-config";
import { Checkbox, SelectInput, TextInput, type Errors } from "~/components/AdminForm";
import { useFleetErrorText } from "~/components/FleetAdmin";
import { useAdminT } from "~/i18n/admin";

export interface RtuFieldValues {
  uid?: string;
  name?: string;
  alias?: string;
  mac?: string;
  kind?: string;
  packageSeq?: string;
  nodeSeq?: string;
  use?: string;
  lteRouter?: string;
  zigbee?: string;
  invDetail?: string;
  lora?: string;
}

export function RtuFields(props: {
  form: string;
  values: RtuFieldValues;
  errors: Errors;
  packages: Array<{ seq: number; name: string }>;
  nodes: Array<{ seq: number; name: string; depth: number }>;
  withUid?: boolean;
  nodeLocked?: boolean;
}) {
  const t = useAdminT();
  const f = t.rtus.fields;
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
        <TextInput form={form} name="mac" label={f.mac} defaultValue={v.mac} error={err(e.mac)} maxLength={17} />
        <TextInput form={form} name="kind" label={f.kind} defaultValue={v.kind ?? "1"} error={err(e.kind)} inputMode="numeric" />
        <SelectInput
          form={form}
          name="packageSeq"
          label={f.package}
          defaultValue={v.packageSeq ?? ""}
          error={err(e.packageSeq)}
          options={[{ value: "", label: t.fleet.none }, ...props.packages.map((p) => ({ value: String(p.seq), label: p.name }))]}
        />
        {props.nodeLocked ? (
          <p className="hint">{f.nodeAssigned}</p>
        ) : (
          <SelectInput
            form={form}
            name="nodeSeq"
            label={f.node}
            defaultValue={v.nodeSeq ?? ""}
            error={err(e.nodeSeq)}
            options={props.nodes.map((n) => ({ value: String(n.seq), label: `${"\u00a0\u00a0".repeat(n.depth)}${n.name}` }))}
          />
        )}
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
      <fieldset className="checks">
        <legend>{t.rtus.config.legend}</legend>
        {RTU_CONFIG_KEYS.map((key) => (
          <Checkbox
            key={key}
            form={form}
            name={key}
            label={t.rtus.config[key]}
            defaultChecked={v[key] === "1" || v[key] === "on"}
          />
        ))}
      </fieldset>
    </>
  );
}
