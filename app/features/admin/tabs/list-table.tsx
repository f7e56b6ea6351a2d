import type { ReactNode } from "react";
import { DataTable } from "~/ui/signed-in/data-table";
import { formatDate } from "~/platform/dates";

/** One column of an admin list: its header, its cell's classes beside the padding, its cell. */
export type Column<Row> = {
  header: string;
  className?: string;
  cell: (row: Row) => ReactNode;
};

/** The data attributes of a row, by which the browser tests and styles find it. */
type RowData = Record<`data-${string}`, string | boolean | undefined>;

const cellClasses = "px-4 py-2.5 align-top";
/** A column as narrow as its content, so the others get the room. */
export const fit = "w-px whitespace-nowrap";

/** A staff list: the shared table, one row per item, its columns' cells, and its empty text. */
export function ListTable<Row extends { id: string }>({
  caption,
  columns,
  rows,
  rowData,
  emptyText = "No hay resultados.",
  className = "mt-4 bg-white",
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowData?: (row: Row) => RowData;
  /** What an empty list says (a search's lists: "No hay resultados."). */
  emptyText?: string;
  className?: string;
}) {
  return (
    <DataTable
      caption={caption}
      headers={columns.map((column) => column.header)}
      emptyText={rows.length === 0 ? emptyText : undefined}
      className={className}
    >
      {rows.map((row) => (
        <tr key={row.id} {...rowData?.(row)}>
          {columns.map((column) => (
            <td
              key={column.header}
              className={column.className ? `${cellClasses} ${column.className}` : cellClasses}
            >
              {column.cell(row)}
            </td>
          ))}
        </tr>
      ))}
    </DataTable>
  );
}

/** A moment of the row, as every admin list writes it. */
export function dateColumn<Row>(
  header: string,
  className: string,
  moment: (row: Row) => Date | string,
): Column<Row> {
  return { header, className, cell: (row) => formatDate(moment(row), "shortDateTime") };
}

/** Who a row is about: the main line, and under it a smaller one when there is one. */
export function PersonCell({ main, under }: { main: ReactNode; under: ReactNode }) {
  return (
    <>
      <span className="font-medium text-ink">{main}</span>
      {under ? <span className="mt-0.5 block text-xs text-slate-600">{under}</span> : null}
    </>
  );
}
