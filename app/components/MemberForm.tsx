/**
 * The member fields of the create and edit forms (SPEC §3 Member; issue 5 /setting/id): name,
 * auth level, group, service bits as checkboxes, use flag, phone, e-mail, diagram/cctv/page flags.
 * With JS the id is checked as it is typed (debounced, through a resource route); without JS the
 * action checks it on submit.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { AUTH_LEVELS } from "../../domain/admin-levels";
import { MEMBER_ID_PATTERN } from "../../domain/password-policy";
import { SERVICE_CHOICES, SERVICE_KNOWN_MASK } from "../../domain/member-form";
import { HIDE_SERVICE_KEYS } from "../../domain/service-bits";
import { Checkbox, SelectInput, TextInput, type Errors, type Values } from "~/components/AdminForm";
import { fmt } from "~/i18n";
import { useAdminT } from "~/i18n/admin";

export interface NodeChoice {
  seq: number;
  name: string;
  depth: number;
}

const isHideKey = (key: string) => (HIDE_SERVICE_KEYS as readonly string[]).includes(key);

export function MemberFields(props: {
  form: string;
  create: boolean;
  values: Values;
  errors: Errors;
  text: (code?: string) => string | undefined;
  nodes: NodeChoice[];
  maxLevel: number;
  idStatus?: "checking" | "available" | "taken" | null;
  onIdInput?: (id: string) => void;
}) {
  const t = useAdminT();
  const m = t.members;
  const { values: v, errors: e, text, form } = props;
  const service = Number(v.service ?? 0) || 0;
  // A checkbox of one service bit; the hide bits (co2Hide, recSmpHide) sit in their own group: checked, the member sees less.
  const serviceBox = (c: (typeof SERVICE_CHOICES)[number]) => (
    <Checkbox
      key={c.key}
      form={form}
      name="service"
      value={String(c.bit)}
      label={m.services[c.key as keyof typeof m.services]}
      defaultChecked={((service >> c.bit) & 1) === 1}
    />
  );
  const flagOn = (name: string, fallback: boolean) => (v[name] === undefined ? fallback : v[name] === "1");
  return (
    <>
      {props.create ? (
        <>
          <TextInput
            form={form}
            name="id"
            label={m.fields.id}
            required
            defaultValue={v.id}
            maxLength={30}
            autoComplete="off"
            hint={m.fields.idHint}
            error={text(e.id)}
            onInput={props.onIdInput}
            after={
              <span className="id-check" aria-live="polite" id={`${form}-id-status`}>
                {!e.id && props.idStatus === "checking" ? m.idCheck.checking : null}
                {!e.id && props.idStatus === "available" ? <span className="ok-text">✓ {m.idCheck.available}</span> : null}
                {!e.id && props.idStatus === "taken" ? <span className="error">{m.idCheck.taken}</span> : null}
              </span>
            }
          />
          <TextInput
            form={form}
            name="password"
            type="password"
            label={m.fields.password}
            required
            autoComplete="new-password"
            hint={m.fields.passwordHint}
            error={text(e.password)}
          />
        </>
      ) : null}
      <TextInput
        form={form}
        name="name"
        label={m.fields.name}
        required
        defaultValue={v.name}
        maxLength={50}
        error={text(e.name)}
      />
      <div className="field-row">
        <SelectInput
          form={form}
          name="auth"
          label={m.fields.auth}
          required
          defaultValue={v.auth ?? "1"}
          error={text(e.auth)}
          options={AUTH_LEVELS.map((l) => ({
            value: String(l),
            label: fmt(m.fields.authOption, { level: l }),
            disabled: l > props.maxLevel && String(l) !== v.auth,
          }))}
        />
        <SelectInput
          form={form}
          name="node_seq"
          label={m.fields.node}
          required
          defaultValue={v.node_seq ?? String(props.nodes[0]?.seq ?? "")}
          error={text(e.node_seq)}
          options={props.nodes.map((n) => ({ value: String(n.seq), label: `${"\u00a0\u00a0".repeat(n.depth)}${n.name}` }))}
        />
      </div>
      <div className="field-row">
        <TextInput
          form={form}
          name="phone"
          type="tel"
          inputMode="tel"
          label={m.fields.phone}
          defaultValue={v.phone}
          maxLength={24}
          autoComplete="off"
          error={text(e.phone)}
        />
        <TextInput
          form={form}
          name="email"
          type="email"
          inputMode="email"
          label={m.fields.email}
          defaultValue={v.email}
          maxLength={120}
          autoComplete="off"
          error={text(e.email)}
        />
      </div>
      <fieldset className="checks">
        <legend>{m.fields.services}</legend>
        <input type="hidden" name="serviceKeep" value={String(service & ~SERVICE_KNOWN_MASK)} />
        {SERVICE_CHOICES.filter((c) => !isHideKey(c.key)).map((c) => serviceBox(c))}
        {e.service ? <span className="error">{text(e.service)}</span> : null}
      </fieldset>
      <fieldset className="checks">
        <legend>{m.fields.hides}</legend>
        {SERVICE_CHOICES.filter((c) => isHideKey(c.key)).map((c) => serviceBox(c))}
      </fieldset>
      <fieldset className="checks">
        <legend>{m.fields.screens}</legend>
        <Checkbox
          form={form}
          name="diagram"
          label={m.fields.diagram}
          defaultChecked={flagOn("diagram", false)}
          error={text(e.diagram)}
        />
        <Checkbox form={form} name="cctv" label={m.fields.cctv} defaultChecked={flagOn("cctv", false)} error={text(e.cctv)} />
        <Checkbox form={form} name="page" label={m.fields.page} defaultChecked={flagOn("page", false)} error={text(e.page)} />
      </fieldset>
      <div className="checks-inline">
        <Checkbox form={form} name="use_yn" label={m.fields.use} defaultChecked={flagOn("use_yn", true)} error={text(e.use_yn)} />
        {props.create ? (
          <Checkbox form={form} name="pwd_yn" label={m.fields.pwdChange} defaultChecked={flagOn("pwd_yn", true)} />
        ) : null}
      </div>
    </>
  );
}

/**
 * Checks an id against the server as it is typed (400 ms after the last key), through the
 * /resources/member-id-check route. Answers for an older value are ignored.
 */
export function useIdCheck() {
  const fetcher = useFetcher<{ id: string; valid: boolean; exists: boolean }>();
  const [typed, setTyped] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const { load } = fetcher;
  useEffect(() => () => clearTimeout(timer.current), []);
  function onIdInput(value: string) {
    const id = value.trim();
    setTyped(id);
    clearTimeout(timer.current);
    if (!MEMBER_ID_PATTERN.test(id)) return;
    timer.current = setTimeout(() => load(`/resources/member-id-check?id=${encodeURIComponent(id)}`), 400);
  }
  let status: "checking" | "available" | "taken" | null = null;
  if (MEMBER_ID_PATTERN.test(typed)) {
    if (fetcher.data && fetcher.data.id === typed && fetcher.state === "idle")
      status = fetcher.data.exists ? "taken" : "available";
    else status = "checking";
  }
  return { status, onIdInput };
}
