import { UserCog } from "lucide-react";
import { Form, Link } from "react-router";
import { accountRoleLabel } from "~/features/identity/staff-roles";
import { buttonClasses } from "~/ui/button";
import { cardClasses, FormAlert } from "~/ui/form";
import { RecordPageHead } from "~/ui/signed-in/page-head";
import { RoleChangeFields } from "./role-change-dialog";
import type { RoleChangePageData } from "./role-change-page.server";

/**
 * The confirmation of a role change as a page (decision 054): what the dialog asks when the
 * browser runs no JavaScript. Confirming posts the change to the Usuarios list it came from;
 * 'Cancelar' goes back to it unchanged.
 */
export function RoleChangePage({ change }: { change: RoleChangePageData }) {
  const { question, refusal, back } = change;
  return (
    <>
      <RecordPageHead back={{ to: back, label: "Volver a Usuarios" }} title="Cambiar rol" />
      <section
        className={`${cardClasses} mt-6 max-w-2xl`}
        aria-labelledby="role-change-question"
        data-role-change-page={change.userId}
      >
        <h2 id="role-change-question" className="text-lg font-bold tracking-tight wrap-anywhere">
          {question.title}
        </h2>
        <p className="mt-2 text-slate-700">{question.description}</p>
        <p className="mt-2 text-sm text-slate-600">
          Rol actual: <strong className="text-ink">{accountRoleLabel(change.from)}</strong>
        </p>
        {refusal ? <FormAlert reply={{ tone: "error", text: refusal }} className="mt-4" /> : null}
        {/* The dialog's order and place: the safe choice first, both at the end. */}
        <div className="mt-6 flex flex-wrap items-center justify-end gap-2">
          {refusal || question.unchanged ? (
            <Link to={back} className={buttonClasses({ variant: "secondary", size: "sm" })}>
              Volver a Usuarios
            </Link>
          ) : (
            <>
              <Link to={back} className={buttonClasses({ variant: "secondary", size: "sm" })}>
                Cancelar
              </Link>
              <Form method="post" action={back}>
                <RoleChangeFields userId={change.userId} role={change.role} />
                <button type="submit" className={buttonClasses({ size: "sm" })}>
                  <UserCog className="size-4" aria-hidden />
                  {question.confirmLabel}
                </button>
              </Form>
            </>
          )}
        </div>
      </section>
    </>
  );
}
