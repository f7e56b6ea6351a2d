/** The options of a `Select`, each a value with its label in words. */
export function SelectOptions({
  options,
}: {
  options: readonly { readonly value: string; readonly label: string }[];
}) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));
}
