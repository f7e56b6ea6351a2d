import { DataTable } from "~/ui/signed-in/data-table";
import { chartDay } from "./admin-chart-data";

type Column<Point> = { header: string; value: (point: Point) => string };

/**
 * A chart's figures as a table in a disclosure, newest day first: what a screen reader or a
 * keyboard reads instead of the image, rendered by the server so it is there without JavaScript.
 */
export function DailyFiguresTable<Point extends { day: string }>({
  caption,
  daily,
  columns,
}: {
  caption: string;
  daily: readonly Point[];
  columns: Column<Point>[];
}) {
  return (
    <details className="mt-4">
      <summary className="cursor-pointer text-sm font-semibold text-brand-700">
        Ver los datos en una tabla
      </summary>
      <DataTable
        caption={caption}
        headers={["Día", ...columns.map((c) => c.header)]}
        className="mt-3"
      >
        {[...daily].reverse().map((point) => (
          <tr key={point.day}>
            <td className="px-4 py-2 whitespace-nowrap">
              <time dateTime={point.day}>{chartDay(point.day, "medium")}</time>
            </td>
            {columns.map((column) => (
              <td key={column.header} className="px-4 py-2 whitespace-nowrap tabular-nums">
                {column.value(point)}
              </td>
            ))}
          </tr>
        ))}
      </DataTable>
    </details>
  );
}
