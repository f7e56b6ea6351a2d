import { RefreshCw } from "lucide-react";
import { useRevalidator } from "react-router";
import { Button } from "~/ui/button";

/** Loads the page's data again without leaving it. */
export function RefreshButton({ label }: { label: string }) {
  const { revalidate, state } = useRevalidator();
  return (
    <Button variant="secondary" onClick={() => void revalidate()} disabled={state === "loading"}>
      <RefreshCw className="size-4" aria-hidden />
      {label}
    </Button>
  );
}
