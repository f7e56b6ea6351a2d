import { BadgeCheck, KeyRound, MailWarning } from "lucide-react";
import { Button } from "~/ui/button";
import { cardClasses, Field, FormAlert, ValidatedForm } from "~/ui/form";
import { useIntentAnswer } from "~/ui/signed-in/intent-answer";
import { accountMessages } from "./account-schemas";
import { ProfileForm, type ProfileAnswer } from "./profile-form";
import type { profilePage } from "./profile.server";

/** The page's three forms post to one action, each with its intent. */
const intents = ["save", "verify", "password"] as const;

/** /perfil: the address and its state, the editable profile, and the password change. */
export function ProfilePage({
  page: { viewer, profile },
  answer,
}: {
  page: Awaited<ReturnType<typeof profilePage>>;
  answer: ProfileAnswer;
}) {
  // The action's answer belongs to the form sent last; without JavaScript, the profile form.
  const { sending, answerFor } = useIntentAnswer(intents, "save", answer);
  const formState = (intent: (typeof intents)[number]) => ({
    busy: sending === intent,
    answer: answerFor(intent),
  });
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
          <MailRequest intent="verify" label="Reenviar Email" {...formState("verify")} />
        )}
      </div>

      {profile ? (
        <ProfileForm
          // Keyed by the saved values, so the form shows them again after each save.
          key={JSON.stringify(profile)}
          profile={profile}
          {...formState("save")}
        />
      ) : (
        // Saving an empty form would erase what could not be read: the form waits for a reload.
        <FormAlert reply={{ tone: "error", text: accountMessages.profileLoadFailed }} />
      )}

      <div className={cardClasses}>
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          <KeyRound className="size-5 text-brand-600" aria-hidden />
          Seguridad
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          Te enviaremos un enlace a {viewer.email} para elegir una nueva contraseña.
        </p>
        <MailRequest intent="password" label="Cambiar contraseña" {...formState("password")} />
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
  answer: ProfileAnswer;
}) {
  return (
    <ValidatedForm messages={accountMessages} answer={answer} className="mt-4">
      <Button type="submit" name="intent" value={intent} variant="secondary" disabled={busy}>
        {busy ? "Enviando..." : label}
      </Button>
    </ValidatedForm>
  );
}
