import { eq } from "drizzle-orm";
import { BadgeCheck, KeyRound, MailWarning } from "lucide-react";
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/perfil";
import { profileAction } from "~/features/accounts/account-actions.server";
import { PROFILE_LIMITS, profileSchema } from "~/features/accounts/account-schemas";
import { Field, FormMessage, ValidatedForm } from "~/features/accounts/account-ui";
import { requireCustomer } from "~/features/accounts/session.server";
import { pageMeta } from "~/features/seo/meta";
import { getDb } from "~/platform/db/database.server";
import { profiles } from "~/platform/db/schema";
import { Button, ButtonLink } from "~/ui/button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Mi perfil",
    description: "Tus datos de cliente.",
    path: "/perfil",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireCustomer(request);
  const [profile] = await getDb()
    .select({
      fullName: profiles.fullName,
      phone: profiles.phone,
      company: profiles.company,
      bio: profiles.bio,
    })
    .from(profiles)
    .where(eq(profiles.id, viewer.id));
  return { viewer, profile: profile ?? { fullName: null, phone: null, company: null, bio: null } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireCustomer(request);
  return profileAction({ request, clientAddress: context.clientAddress }, viewer);
}

const cardClasses = "rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200";

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, profile } = loaderData;
  const navigation = useNavigation();
  const busyWith = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  // The form is keyed by the saved values, so it shows them again after each save.
  const saved = JSON.stringify(profile);
  return (
    <section className="mx-auto max-w-2xl space-y-6 px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Mi perfil</h1>
      <FormMessage result={actionData} />

      <div className={cardClasses}>
        <label className="block text-sm font-medium text-ink">
          Email
          <input
            className="mt-1 block w-full rounded-lg border-0 bg-slate-50 px-3 py-2.5 text-slate-700 ring-1 ring-slate-200 ring-inset"
            value={viewer.email}
            readOnly
            aria-describedby="email-state"
          />
        </label>
        {viewer.emailVerified ? (
          <p
            id="email-state"
            className="mt-2 inline-flex items-center gap-1 text-sm font-medium text-emerald-700"
          >
            <BadgeCheck className="size-4" aria-hidden />
            Email verificado
          </p>
        ) : (
          <div
            id="email-state"
            className="mt-3 flex flex-col gap-3 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:justify-between"
          >
            <p className="flex items-center gap-2">
              <MailWarning className="size-5 shrink-0" aria-hidden />
              Tu email aún no está verificado.
            </p>
            <MailRequest intent="verify" label="Reenviar Email" busy={busyWith === "verify"} />
          </div>
        )}
      </div>

      <ProfileForm key={saved} profile={profile} saving={busyWith === "save"} />

      <div className={cardClasses}>
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          <KeyRound className="size-5 text-brand-600" aria-hidden />
          Seguridad
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          Te enviaremos un enlace a {viewer.email} para elegir una nueva contraseña.
        </p>
        <div className="mt-4">
          <MailRequest
            intent="password"
            label="Cambiar contraseña"
            busy={busyWith === "password"}
          />
        </div>
      </div>
    </section>
  );
}

/** A one-button form that asks the server to mail the customer a link. */
function MailRequest({
  intent,
  label,
  busy,
}: {
  intent: "verify" | "password";
  label: string;
  busy: boolean;
}) {
  return (
    <Form method="post">
      <Button type="submit" name="intent" value={intent} variant="secondary" disabled={busy}>
        {busy ? "Enviando..." : label}
      </Button>
    </Form>
  );
}

type EditableProfile = Route.ComponentProps["loaderData"]["profile"];

function ProfileForm({ profile, saving }: { profile: EditableProfile; saving: boolean }) {
  const [bioLength, setBioLength] = useState((profile.bio ?? "").length);
  return (
    <ValidatedForm
      schema={profileSchema}
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
      <label className="block text-sm font-medium text-ink">
        Biografía
        <textarea
          name="bio"
          rows={4}
          maxLength={PROFILE_LIMITS.bio}
          defaultValue={profile.bio ?? ""}
          onChange={(event) => setBioLength(event.currentTarget.value.length)}
          aria-describedby="bio-count"
          className="mt-1 block w-full rounded-lg border-0 px-3 py-2.5 text-ink shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:ring-inset"
        />
      </label>
      <p id="bio-count" className="-mt-2 text-right text-xs text-slate-500" aria-live="polite">
        {bioLength}/{PROFILE_LIMITS.bio}
      </p>
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
