import { BadgeCheck, KeyRound, MailWarning } from "lucide-react";
import { useState } from "react";
import { useNavigation } from "react-router";
import type { Route } from "./+types/perfil";
import { profileAction } from "~/features/accounts/account-actions.server";
import {
  accountMessages,
  PROFILE_LIMITS,
  profileSchema,
} from "~/features/accounts/account-schemas";
import { accountLoadMessages } from "~/features/customer-area/account-tabs";
import { profilePage, type EditableProfile } from "~/features/accounts/profile.server";
import { requireCustomer } from "~/features/identity/session.server";
import { pageMeta } from "~/features/seo/meta";
import { Button, ButtonLink } from "~/ui/button";
import { cardClasses, Field, FormAlert, TextArea, ValidatedForm } from "~/ui/form";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Mi perfil",
    description: "Tus datos de cliente.",
    path: "/perfil",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  return profilePage(await requireCustomer(request));
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireCustomer(request);
  return profileAction({ request, clientAddress: context.clientAddress }, viewer);
}

type Intent = "save" | "verify" | "password";
type Answer = Route.ComponentProps["actionData"];

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, profile } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.formData?.get("intent") as Intent | undefined;
  const busyWith = navigation.state === "submitting" ? submitting : null;
  // Three forms share one action: its answer belongs to the form that was sent last (the
  // profile form when the page was posted without JavaScript).
  const [lastIntent, setLastIntent] = useState<Intent>("save");
  if (submitting && submitting !== lastIntent) setLastIntent(submitting);
  const answerFor = (intent: Intent) => (intent === lastIntent ? actionData : undefined);
  // The form is keyed by the saved values, so it shows them again after each save.
  const saved = JSON.stringify(profile);
  return (
    <section className="mx-auto max-w-2xl space-y-6 px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Mi perfil</h1>

      <div className={cardClasses}>
        <Field
          label="Email"
          value={viewer.email}
          readOnly
          hint={<EmailState verified={viewer.emailVerified} />}
        />
        {viewer.emailVerified ? null : (
          <MailRequest
            intent="verify"
            label="Reenviar Email"
            busy={busyWith === "verify"}
            answer={answerFor("verify")}
          />
        )}
      </div>

      {profile ? (
        <ProfileForm
          key={saved}
          profile={profile}
          saving={busyWith === "save"}
          answer={answerFor("save")}
        />
      ) : (
        // Saving an empty form would erase what could not be read: the form waits for a reload.
        <FormAlert reply={{ tone: "error", text: accountLoadMessages.profileFailed }} />
      )}

      <div className={cardClasses}>
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          <KeyRound className="size-5 text-brand-600" aria-hidden />
          Seguridad
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          Te enviaremos un enlace a {viewer.email} para elegir una nueva contraseña.
        </p>
        <MailRequest
          intent="password"
          label="Cambiar contraseña"
          busy={busyWith === "password"}
          answer={answerFor("password")}
        />
      </div>
    </section>
  );
}

function EmailState({ verified }: { verified: boolean }) {
  return verified ? (
    <span className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-emerald-700">
      <BadgeCheck className="size-4" aria-hidden />
      Email verificado
    </span>
  ) : (
    <span className="mt-2 flex items-center gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <MailWarning className="size-5 shrink-0" aria-hidden />
      Tu email aún no está verificado.
    </span>
  );
}

/** A one-button form that asks the server to mail the customer a link. */
function MailRequest({
  intent,
  label,
  busy,
  answer,
}: {
  intent: "verify" | "password";
  label: string;
  busy: boolean;
  answer: Answer;
}) {
  return (
    <ValidatedForm messages={accountMessages} answer={answer} className="mt-4">
      <Button type="submit" name="intent" value={intent} variant="secondary" disabled={busy}>
        {busy ? "Enviando..." : label}
      </Button>
    </ValidatedForm>
  );
}

function ProfileForm({
  profile,
  saving,
  answer,
}: {
  profile: EditableProfile;
  saving: boolean;
  answer: Answer;
}) {
  const [bioLength, setBioLength] = useState((profile.bio ?? "").length);
  return (
    <ValidatedForm
      schema={profileSchema}
      messages={accountMessages}
      answer={answer}
      className={`${cardClasses} space-y-4`}
      aria-label="Datos del perfil"
    >
      <input type="hidden" name="intent" value="save" />
      <Field
        label="Nombre completo"
        name="fullName"
        autoComplete="name"
        maxLength={PROFILE_LIMITS.fullName}
        defaultValue={profile.fullName ?? ""}
      />
      <Field
        label="Teléfono"
        name="phone"
        type="tel"
        autoComplete="tel"
        maxLength={PROFILE_LIMITS.phone}
        defaultValue={profile.phone ?? ""}
      />
      <Field
        label="Empresa (opcional)"
        name="company"
        autoComplete="organization"
        maxLength={PROFILE_LIMITS.company}
        defaultValue={profile.company ?? ""}
      />
      <TextArea
        label="Biografía"
        name="bio"
        rows={4}
        maxLength={PROFILE_LIMITS.bio}
        defaultValue={profile.bio ?? ""}
        onChange={(event) => setBioLength(event.currentTarget.value.length)}
        hint={
          <span className="block text-right" aria-live="polite">
            {bioLength}/{PROFILE_LIMITS.bio}
          </span>
        }
      />
      <fieldset className="space-y-4 border-t border-slate-200 pt-4">
        <legend className="pt-4 text-base font-semibold text-ink">Datos de facturación</legend>
        <p className="text-sm text-slate-600">
          Opcionales. Con tu NIF o NIE y el nombre de facturación, tus próximas compras tendrán
          factura completa; sin ellos, factura simplificada.
        </p>
        <Field
          label="NIF o NIE"
          name="taxId"
          autoComplete="off"
          maxLength={PROFILE_LIMITS.taxId}
          defaultValue={profile.taxId ?? ""}
        />
        <Field
          label="Nombre o razón social para la factura"
          name="billingName"
          autoComplete="name"
          maxLength={PROFILE_LIMITS.billingName}
          defaultValue={profile.billingName ?? ""}
        />
        <Field
          label="Dirección de facturación (opcional)"
          name="billingAddress"
          autoComplete="street-address"
          maxLength={PROFILE_LIMITS.billingAddress}
          defaultValue={profile.billingAddress ?? ""}
        />
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={saving}>
          {saving ? "Guardando..." : "Guardar"}
        </Button>
        <ButtonLink to="/mi-cuenta" variant="ghost">
          Cancelar
        </ButtonLink>
      </div>
    </ValidatedForm>
  );
}
