import { BookOpen } from "lucide-react";
import { Button } from "~/ui/button";
import { siteDay } from "~/platform/dates";
import { Field } from "~/ui/form";

/** Today and the first day of its quarter (the IVA return's period), as AAAA-MM-DD in Madrid. */
function currentQuarter(now = new Date()) {
  const today = siteDay(now);
  const month = Number(today.slice(5, 7));
  const firstMonth = String(month - ((month - 1) % 3)).padStart(2, "0");
  return { from: `${today.slice(0, 4)}-${firstMonth}-01`, to: today };
}

/**
 * The libro registro de facturas expedidas of a period, for the accountant: a plain GET form,
 * so the browser downloads the file itself (with or without JavaScript), as AEAT's workbook
 * (XLSX) or as a CSV for a spreadsheet.
 */
export function InvoiceBookForm() {
  const quarter = currentQuarter();
  return (
    <form
      method="get"
      action="/admin/libro-facturas"
      className="flex flex-wrap items-end gap-2"
      aria-label="Libro registro de facturas expedidas"
    >
      <Field label="Facturas desde" type="date" name="desde" defaultValue={quarter.from} required />
      <Field label="hasta" type="date" name="hasta" defaultValue={quarter.to} required />
      <Button type="submit" variant="secondary" name="formato" value="xlsx">
        <BookOpen className="size-4" aria-hidden />
        Libro de facturas (XLSX)
      </Button>
      <Button
        type="submit"
        variant="secondary"
        name="formato"
        value="csv"
        aria-label="Libro de facturas (CSV)"
      >
        CSV
      </Button>
    </form>
  );
}
