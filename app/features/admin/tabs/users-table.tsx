import { LogOut, ShieldOff, UserCog, type LucideIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import {
  accountRoleLabel,
  isStaffRole,
  staffRoleLabels,
  staffRoles,
} from "~/features/identity/staff-roles";
import { buttonClasses } from "~/ui/button";
import { Checkbox, Select } from "~/ui/form";
import { Badge } from "~/ui/signed-in/badge";
import { EmailText } from "~/ui/signed-in/email-text";
import { dateColumn, fit, ListTable, PersonCell } from "./list-table";
import type { Column } from "./list-table";
import type { UserRow } from "./users-tab.server";
import { requestedRole, roleChangePath, roleChangeQuestion } from "../role-change";
import { RoleChangeDialog, type RoleChangeRequest } from "../role-change-dialog";

const roleTones: Record<string, string> = {
  admin: "bg-brand-50 text-brand-800 ring-1 ring-brand-200",
  finance: "bg-emerald-50 text-emerald-900 ring-1 ring-emerald-200",
  support: "bg-amber-50 text-amber-900 ring-1 ring-amber-200",
};
const customerTone = "bg-slate-100 text-slate-700 ring-1 ring-slate-200";

/** Asks for a role change: the dialog's request, and the element to give the focus back to. */
type AskRoleChange = (request: RoleChangeRequest, trigger: HTMLElement) => void;

/**
 * 'Cambiar rol': the role to give (or 'Cliente': none), then a confirmation naming the person
 * and the role (decision 054). The form is a GET to the confirmation page, which is where it
 * goes without JavaScript; with it, the same submit opens the dialog instead. Opened from its
 * summary, so a row stays one line until someone means to change it.
 */
function RoleChange({ user, busy, ask }: { user: UserRow; busy: boolean; ask: AskRoleChange }) {
  const location = useLocation();
  const current = isStaffRole(user.role) ? user.role : null;
  return (
    // Keyed by the role: once changed, the form closes again.
    <details key={user.role ?? "customer"} className="text-sm" data-role-change={user.id}>
      <summary className="cursor-pointer font-semibold whitespace-nowrap text-brand-700">
        Cambiar rol<span className="sr-only"> de {user.email}</span>
      </summary>
      <form
        method="get"
        action={roleChangePath(user.id)}
        className="mt-2 w-64 space-y-2"
        onSubmit={(event) => {
          const role = requestedRole(new FormData(event.currentTarget).get("rol")?.toString());
          if (role === undefined) return;
          event.preventDefault();
          const trigger = (event.nativeEvent as SubmitEvent).submitter ?? event.currentTarget;
          ask(
            { userId: user.id, role, question: roleChangeQuestion(user, current, role) },
            trigger,
          );
        }}
      >
        <input type="hidden" name="volver" value={location.search} />
        <Select label="Nuevo rol" name="rol" defaultValue={current ?? "cliente"}>
          <option value="cliente">Cliente (sin rol del equipo)</option>
          {staffRoles.map((role) => (
            <option key={role} value={role}>
              {staffRoleLabels[role]}
            </option>
          ))}
        </Select>
        <button
          type="submit"
          disabled={busy}
          className={buttonClasses({ variant: "secondary", size: "sm" })}
        >
          <UserCog className="size-4" aria-hidden />
          Cambiar rol
        </button>
      </form>
    </details>
  );
}

/**
 * An account's change that only needs a confirmation, folded under its name: a plain form (no
 * JavaScript needed) posting `intent` for `user` to the panel, with its consequences said and a
 * box to tick first.
 */
function ConfirmedAccountAction({
  user,
  busy,
  intent,
  summary,
  consequences,
  confirmLabel,
  button,
  icon: Icon,
}: {
  user: UserRow;
  busy: boolean;
  intent: string;
  summary: string;
  consequences: string;
  confirmLabel: string;
  button: string;
  icon: LucideIcon;
}) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-semibold whitespace-nowrap text-brand-700">
        {summary}
        <span className="sr-only"> de {user.email}</span>
      </summary>
      <Form method="post" className="mt-2 w-64 space-y-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="userId" value={user.id} />
        <p className="text-slate-600">{consequences}</p>
        <Checkbox name="confirm" value="yes" required label={confirmLabel} />
        <button
          type="submit"
          disabled={busy}
          className={buttonClasses({ variant: "secondary", size: "sm" })}
        >
          <Icon className="size-4" aria-hidden />
          {button}
        </button>
      </Form>
    </details>
  );
}

/**
 * 'Restablecer verificación': for an account whose owner lost their second factor (decision
 * 044). Its factor and sessions go; the owner enrols a new one at their next sign-in. Never
 * one's own (the server refuses it too): that takes a recovery code or another administrator.
 */
function SecondFactorReset({ user, busy }: { user: UserRow; busy: boolean }) {
  return (
    <ConfirmedAccountAction
      user={user}
      busy={busy}
      intent="reset-second-factor"
      summary="Restablecer verificación"
      consequences="Se cerrarán sus sesiones y tendrá que configurar de nuevo la verificación en dos pasos. Comprueba antes su identidad por otro medio que no sea el email."
      confirmLabel={`Confirmo el restablecimiento de ${user.email}.`}
      button="Restablecer"
      icon={ShieldOff}
    />
  );
}

/**
 * 'Cerrar sesiones': every session of the account ends at once (a lost laptop, someone who left
 * the company). Its password, factors and role stay; it signs in again as usual.
 */
function EndSessions({ user, busy }: { user: UserRow; busy: boolean }) {
  return (
    <ConfirmedAccountAction
      user={user}
      busy={busy}
      intent="end-sessions"
      summary="Cerrar sesiones"
      consequences="Se cerrarán todas sus sesiones abiertas. Su contraseña, su verificación y su rol no cambian."
      confirmLabel={`Confirmo el cierre de las sesiones de ${user.email}.`}
      button="Cerrar sesiones"
      icon={LogOut}
    />
  );
}

function userColumns(
  selfId: string,
  changing: FormDataEntryValue | null | undefined,
  ask: AskRoleChange,
): Column<UserRow>[] {
  return [
    dateColumn("Alta", fit, (user) => user.createdAt),
    {
      header: "Usuario",
      cell: (user) => (
        <PersonCell
          main={
            <Link to={`/admin/clientes/${user.id}`} className="text-brand-700 underline">
              <EmailText email={user.email} />
            </Link>
          }
          under={user.fullName}
        />
      ),
    },
    { header: "Verificado", className: fit, cell: (user) => (user.emailVerified ? "Sí" : "No") },
    { header: "2 pasos", className: fit, cell: (user) => (user.twoFactorEnabled ? "Sí" : "No") },
    {
      header: "Rol",
      className: fit,
      cell: (user) => (
        <Badge tone={(user.role && roleTones[user.role]) || customerTone}>
          {accountRoleLabel(user.role)}
        </Badge>
      ),
    },
    {
      header: "Acciones",
      className: `${fit} py-2`,
      cell: (user) =>
        user.id === selfId ? (
          // The server never lets staff change their own role.
          <span className="text-slate-600">Tu cuenta</span>
        ) : (
          <div className="space-y-1">
            <RoleChange user={user} busy={changing === user.id} ask={ask} />
            {user.twoFactorEnabled ? (
              <SecondFactorReset user={user} busy={changing === user.id} />
            ) : null}
            <EndSessions user={user} busy={changing === user.id} />
          </div>
        ),
    },
  ];
}

/**
 * Users with their role, and the form that changes it (administrators only: Usuarios is theirs).
 * The change, once confirmed in its dialog, posts to the page's own address, so the list stays
 * as it was.
 */
export function UsersTable({ rows, selfId }: { rows: UserRow[]; selfId: string }) {
  const navigation = useNavigation();
  const changing =
    navigation.state === "submitting" ? navigation.formData?.get("userId") : undefined;
  const [asking, setAsking] = useState<(RoleChangeRequest & { trigger: HTMLElement }) | null>(null);
  /** The account whose role was just changed: its row's summary gets the focus once it is. */
  const changed = useRef<{ userId: string; trigger: HTMLElement } | null>(null);

  const ask: AskRoleChange = (request, trigger) => setAsking({ ...request, trigger });

  useEffect(() => {
    const done = changed.current;
    if (navigation.state !== "idle" || !done) return;
    changed.current = null;
    // The change re-keys the row's form, so what opened the dialog is gone: its summary instead.
    if (done.trigger.isConnected) return;
    document
      .querySelector<HTMLElement>(`[data-role-change="${CSS.escape(done.userId)}"] summary`)
      ?.focus();
  }, [navigation.state]);

  return (
    <>
      <ListTable
        caption="Usuarios"
        columns={userColumns(selfId, changing, ask)}
        rows={rows}
        rowData={(user) => ({ "data-role": user.role ?? "customer" })}
      />
      {asking ? (
        <RoleChangeDialog
          key={`${asking.userId}:${asking.role}`}
          request={asking}
          onConfirm={() => {
            changed.current = { userId: asking.userId, trigger: asking.trigger };
          }}
          onClose={() => {
            setAsking(null);
            // Back to what opened it (after a change, the effect above moves it on).
            asking.trigger.focus();
          }}
        />
      ) : null}
    </>
  );
}
