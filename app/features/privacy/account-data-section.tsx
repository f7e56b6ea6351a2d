import { ShieldCheck, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button, buttonClasses } from "~/ui/button";
import { DownloadLink } from "~/ui/signed-in/download-link";
import { Field } from "~/ui/form";
import { useHydrated } from "~/ui/use-hydrated";
import { accountDataMessages, dataRights, DELETE_CONFIRMATION } from "./account-data-messages";

const EXPORT_URL = "/mi-cuenta/exportar";
const DELETE_URL = "/mi-cuenta/eliminar";

/** Mi Cuenta's 'Configuración': the customer's data rights, the export and the deletion. */
export function AccountDataSection() {
  return (
    <section
      id="configuracion"
      aria-labelledby="configuracion-title"
      className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="configuracion-title" className="flex items-center gap-2 text-xl font-semibold">
        <ShieldCheck className="size-5 text-brand-600" aria-hidden />
        Configuración y privacidad
      </h2>
      <p className="mt-2 text-sm text-slate-600">Tus derechos sobre tus datos personales (RGPD):</p>
      <dl className="mt-4 space-y-3 text-sm">
        {dataRights.map((right) => (
          <div key={right.name}>
            <dt className="font-semibold text-ink">{right.name}</dt>
            <dd className="text-slate-600">{right.how}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 flex flex-wrap gap-3">
        <DownloadLink
          href={EXPORT_URL}
          label="Exportar mis datos"
          busyLabel="Exportando..."
          fallbackName="mis-datos.json"
          succeeded={accountDataMessages.exported}
          failed={accountDataMessages.exportFailed}
        />
      </div>
      <AccountDeletion />
    </section>
  );
}

/**
 * A disclosure that opens the confirmation (it works without JavaScript, with the server
 * checking the word and the password); with JavaScript, the final button waits until ELIMINAR
 * and a password are typed.
 */
function AccountDeletion() {
  const [typed, setTyped] = useState("");
  const [password, setPassword] = useState("");
  const interactive = useHydrated();
  const disclosure = useRef<HTMLDetailsElement>(null);
  const deleting = useNavigation().formAction === DELETE_URL;
  const cancel = () => {
    if (disclosure.current) disclosure.current.open = false;
    setTyped("");
    setPassword("");
  };
  return (
    <div className="mt-8 border-t border-slate-200 pt-6">
      <h3 className="font-semibold text-red-800">Eliminar cuenta</h3>
      <p className="mt-1 text-sm text-slate-600">
        Se borrarán tu cuenta, tu perfil, tus tickets de soporte y tus sesiones. Esta acción no se
        puede deshacer.
      </p>
      <details ref={disclosure} className="group mt-4">
        <summary
          className={`${buttonClasses({ variant: "secondary" })} cursor-pointer list-none text-red-700 group-open:hidden [&::-webkit-details-marker]:hidden`}
        >
          <Trash2 className="size-4" aria-hidden />
          Eliminar cuenta
        </summary>
        <Form
          method="post"
          action={DELETE_URL}
          className="rounded-xl bg-red-50 p-5 ring-1 ring-red-200"
          aria-label="Confirmar eliminación de la cuenta"
        >
          <p className="font-semibold text-red-900">¿Seguro que quieres eliminar tu cuenta?</p>
          <Field
            label={`Escribe ${DELETE_CONFIRMATION} para confirmar`}
            frameClassName="mt-3"
            name="confirmation"
            hint={`En mayúsculas, exactamente: ${DELETE_CONFIRMATION}.`}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
          />
          <Field
            label="Tu contraseña actual"
            frameClassName="mt-3"
            name="password"
            type="password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            autoComplete="current-password"
          />
          <div className="mt-4 flex flex-wrap gap-3">
            <Button type="button" variant="ghost" onClick={cancel}>
              Cancelar
            </Button>
            <Button
              type="submit"
              className="bg-red-700 hover:bg-red-800"
              disabled={
                (interactive && (typed !== DELETE_CONFIRMATION || password === "")) || deleting
              }
            >
              {deleting ? "Eliminando..." : "Eliminar definitivamente"}
            </Button>
          </div>
        </Form>
      </details>
    </div>
  );
}
