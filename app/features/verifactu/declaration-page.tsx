import type { ReactNode } from "react";
import type { DeclarationGap } from "./declaration-gaps";
import { RecordPageHead } from "~/ui/signed-in/page-head";
import { cardClasses } from "~/ui/form";

const GAP_NAMES: Record<DeclarationGap, string> = {
  signedOn: "la fecha (VERIFACTU_DECLARATION_DATE, como 2026-12-15)",
  place: "el lugar (VERIFACTU_DECLARATION_PLACE, como «Madrid, España»)",
};

/**
 * The declaración responsable of the system, filled from the configuration, for staff and
 * inspectors; what it still lacks before it can be subscribed is said above it.
 */
export function VerifactuDeclarationPage({ text, gaps }: { text: string; gaps: DeclarationGap[] }) {
  return (
    <>
      <RecordPageHead
        back={{ to: "/admin/verifactu", label: "Volver a Verifactu" }}
        title="Declaración responsable del sistema"
      >
        <p className="mt-1 text-slate-600">
          La de esta versión del sitio, con los datos de la empresa configurados en esta
          instalación.
        </p>
      </RecordPageHead>
      {gaps.length > 0 ? (
        <div role="status" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4">
          <p className="font-semibold text-amber-900">Falta suscribir la declaración</p>
          <p className="mt-1 text-sm text-amber-900">
            Configura {gaps.map((gap) => GAP_NAMES[gap]).join(" y ")} en que la empresa la suscribe,
            antes de emitir la primera factura con este sistema.
          </p>
        </div>
      ) : null}
      <article className={`${cardClasses} mt-6 grid gap-3 text-sm leading-6 text-ink`}>
        {text.split(/\n{2,}/).map(block)}
      </article>
    </>
  );
}

/**
 * One paragraph of the declaración's Markdown: the few forms it uses (a title, section titles,
 * questions in bold, bullet lists, a rule), as text only: never HTML from the file.
 */
function block(paragraph: string, index: number) {
  const text = paragraph.trim();
  if (text === "---") return <hr key={index} className="border-slate-200" />;
  if (text.startsWith("# "))
    return (
      <h2 key={index} className="text-base font-semibold">
        {inline(text.slice(2))}
      </h2>
    );
  if (text.startsWith("## "))
    return (
      <h3 key={index} className="mt-2 font-semibold">
        {inline(text.slice(3))}
      </h3>
    );
  if (text.startsWith("- "))
    return (
      <ul key={index} className="grid list-disc gap-2 pl-5">
        {text.split(/\n- /).map((item, itemIndex) => (
          <li key={itemIndex}>{inline(item.replace(/^- /, ""))}</li>
        ))}
      </ul>
    );
  return <p key={index}>{inline(text)}</p>;
}

/** `**bold**` and `code` within a paragraph; line breaks inside it are spaces. */
function inline(text: string): ReactNode[] {
  return text
    .replace(/\s*\n\s*/g, " ")
    .split(/(\*\*(?:[^*]|\\\*)+\*\*|`[^`]+`)/)
    .map((part, index) => {
      const unescaped = part.replace(/\\\*/g, "*");
      if (part.startsWith("**") && part.endsWith("**"))
        return <strong key={index}>{unescaped.slice(2, -2)}</strong>;
      if (part.startsWith("`") && part.endsWith("`"))
        return (
          <code key={index} className="text-xs">
            {part.slice(1, -1)}
          </code>
        );
      return unescaped;
    });
}
