import { RecordPageHead } from "~/ui/signed-in/page-head";
import { cardClasses } from "~/ui/form";

/** The declaración responsable of the system (docs/), as its text, for staff and inspectors. */
export function VerifactuDeclarationPage({ declaration }: { declaration: string }) {
  return (
    <>
      <RecordPageHead
        back={{ to: "/admin/verifactu", label: "Volver a Verifactu" }}
        title="Declaración responsable del sistema"
      >
        <p className="mt-1 text-slate-600">
          El texto de <code>docs/verifactu-declaracion-responsable.md</code> de esta versión del
          sitio.
        </p>
      </RecordPageHead>
      <pre
        className={`${cardClasses} mt-6 overflow-x-auto font-sans text-sm leading-6 whitespace-pre-wrap text-ink`}
      >
        {declaration}
      </pre>
    </>
  );
}
