import { ShieldMinus, ShieldPlus } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { buttonClasses } from "~/ui/button";
import { Badge, dateColumn, EmailText, fit, ListTable, PersonCell } from "./list-table";
import type { Column } from "./list-table";
import type { UserRow } from "./users-tab.server";

/** The form that grants or revokes the admin role; the server keeps the last administrator. */
function RoleChange({ user, busy }: { user: UserRow; busy: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={user.isAdmin ? "revoke-admin" : "grant-admin"} />
      <input type="hidden" name="userId" value={user.id} />
      <button
        type="submit"
        disabled={busy}
        // relative: the hidden address stays inside the table's scrolling box.
        className={`${buttonClasses({ variant: "secondary", size: "sm" })} relative`}
      >
        {user.isAdmin ? (
          <ShieldMinus className="size-4" aria-hidden />
        ) : (
          <ShieldPlus className="size-4" aria-hidden />
        )}
        {user.isAdmin ? "Quitar administrador" : "Hacer administrador"}
        <span className="sr-only"> ({user.email})</span>
      </button>
    </Form>
  );
}

function userColumns(
  selfId: string,
  changing: FormDataEntryValue | null | undefined,
): Column<UserRow>[] {
  return [
    dateColumn("Alta", fit, (user) => user.createdAt),
    {
      header: "Usuario",
      cell: (user) => <PersonCell main={<EmailText email={user.email} />} under={user.fullName} />,
    },
    { header: "Verificado", className: fit, cell: (user) => (user.emailVerified ? "Sí" : "No") },
    {
      header: "Rol",
      className: fit,
      cell: (user) =>
        user.isAdmin ? (
          <Badge tone="bg-brand-50 text-brand-800 ring-1 ring-brand-200">Administrador</Badge>
        ) : (
          <Badge tone="bg-slate-100 text-slate-700 ring-1 ring-slate-200">Cliente</Badge>
        ),
    },
    {
      header: "Acciones",
      className: `${fit} py-2`,
      cell: (user) =>
        user.id === selfId ? (
          // The server never lets staff revoke their own role.
          <span className="text-slate-600">Tu cuenta</span>
        ) : (
          <RoleChange user={user} busy={changing === user.id} />
        ),
    },
  ];
}

/**
 * Users with their role, and the form that grants or revokes the admin role. The form posts to
 * the page's own address, so the list stays as it was.
 */
export function UsersTable({ rows, selfId }: { rows: UserRow[]; selfId: string }) {
  const navigation = useNavigation();
  const changing =
    navigation.state === "submitting" ? navigation.formData?.get("userId") : undefined;
  return (
    <ListTable
      caption="Usuarios"
      columns={userColumns(selfId, changing)}
      rows={rows}
      rowData={(user) => ({ "data-role": user.isAdmin ? "admin" : "customer" })}
    />
  );
}
