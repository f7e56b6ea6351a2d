import { useState } from "react";
import { Button, ButtonLink } from "~/ui/button";
import { cardClasses, Field, TextArea, ValidatedForm } from "~/ui/form";
import type { profileAction } from "./account-actions.server";
import type { DataOf } from "./account-pages.server";
import { accountMessages, PROFILE_LIMITS, profileSchema } from "./account-schemas";
import type { EditableProfile } from "./profile.server";

export type ProfileAnswer = DataOf<typeof profileAction> | undefined;

type TextField = {
  name: Exclude<keyof EditableProfile, "bio">;
  label: string;
  autoComplete: string;
  type?: "tel";
};

const personalFields: TextField[] = [
  { name: "fullName", label: "Nombre completo", autoComplete: "name" },
  { name: "phone", label: "Teléfono", type: "tel", autoComplete: "tel" },
  { name: "company", label: "Empresa (opcional)", autoComplete: "organization" },
];

const billingFields: TextField[] = [
  { name: "taxId", label: "NIF, NIE o CIF", autoComplete: "off" },
  { name: "billingName", label: "Nombre o razón social para la factura", autoComplete: "name" },
  {
    name: "billingAddress",
    label: "Dirección de facturación (opcional)",
    autoComplete: "street-address",
  },
];

/** The profile's own fields, as saved, and the invoice details. */
export function ProfileForm({
  profile,
  busy,
  answer,
}: {
  profile: EditableProfile;
  busy: boolean;
  answer: ProfileAnswer;
}) {
  return (
    <ValidatedForm
      schema={profileSchema}
      messages={accountMessages}
      answer={answer}
      className={`${cardClasses} space-y-4`}
      aria-label="Datos del perfil"
    >
      <input type="hidden" name="intent" value="save" />
      <TextFields fields={personalFields} profile={profile} />
      <BioField bio={profile.bio ?? ""} />
      <fieldset className="space-y-4 border-t border-slate-200 pt-4">
        <legend className="pt-4 text-base font-semibold text-ink">Datos de facturación</legend>
        <p className="text-sm text-slate-600">
          Opcionales. Con tu NIF, NIE o CIF, el nombre y el domicilio de facturación, tus próximas
          compras tendrán factura completa; sin ellos, factura simplificada hasta 400 €. Por encima
          de 400 € te los pediremos al comprar.
        </p>
        <TextFields fields={billingFields} profile={profile} />
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy}>
          {busy ? "Guardando..." : "Guardar"}
        </Button>
        <ButtonLink to="/mi-cuenta" variant="ghost">
          Cancelar
        </ButtonLink>
      </div>
    </ValidatedForm>
  );
}

/** Each field as saved, within the length the server accepts. */
function TextFields({ fields, profile }: { fields: TextField[]; profile: EditableProfile }) {
  return fields.map(({ name, ...field }) => (
    <Field
      key={name}
      {...field}
      name={name}
      maxLength={PROFILE_LIMITS[name]}
      defaultValue={profile[name] ?? ""}
    />
  ));
}

/** The bio, with a counter of its length against the limit. */
function BioField({ bio }: { bio: string }) {
  const [length, setLength] = useState(bio.length);
  return (
    <TextArea
      label="Biografía"
      name="bio"
      rows={4}
      maxLength={PROFILE_LIMITS.bio}
      defaultValue={bio}
      onChange={(event) => setLength(event.currentTarget.value.length)}
      hint={
        <span className="block text-right" aria-live="polite">
          {length}/{PROFILE_LIMITS.bio}
        </span>
      }
    />
  );
}
